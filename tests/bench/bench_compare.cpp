// Two inspections of a large generated surface, aligned and compared in bounded memory:
//   bench_compare make DIR N [B] writes DIR/before.tif + before_map.tif (N x N, tiles of the
//                                procedural scene) and DIR/after.tif + after_map.tif (the same
//                                surface rotated 5 deg and scaled 1.04, through warpMapToBefore;
//                                B > 0: and bulged by a smooth displacement of B px, one period
//                                across the scan, as a correction field of that warp)
//   bench_compare run DIR [F]    alignScans (correction field F: auto or off) + warpMapToBefore
//                                + compareCrackMaps, with timings; DIR/change.json
// Run each under /usr/bin/time -v (separate processes: the peak RSS of `run` is the job's).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "fisura/change.h"
#include "fisura/synth.h"
#include "fisura/tiledwriter.h"

using namespace fisura;

namespace
{

int die(const Status& s)
{
    std::fprintf(stderr, "%s\n", s.toString().c_str());
    return 1;
}

/// The before scan and its map: tiles of 2048 px, each its own procedural scene.
int makeBefore(const std::string& dir, int n)
{
    const int t = 2048;
    TiledWriteOptions wo;
    wo.tileSize = t;
    auto scan = TiledTiffWriter::create(dir + "/before.tif", n, n, 3, wo);
    auto map = TiledTiffWriter::create(dir + "/before_map.tif", n, n, 1, wo);
    if (!scan || !map)
        return die(!scan ? scan.status() : map.status());
    const int across = (n + t - 1) / t;
    for (int ty = 0; ty < across; ++ty)
        for (int tx = 0; tx < across; ++tx) {
            synth::SceneOptions o;
            o.width = o.height = t;
            o.seed = uint64_t(ty * across + tx + 1);
            o.cracks = 3;
            auto s = synth::generateScene(o);
            if (!s)
                return die(s.status());
            if (auto st = (*scan)->appendTile(s->image); !st)
                return die(st);
            if (auto st = (*map)->appendTile(s->mask); !st)
                return die(st);
        }
    if (auto st = (*scan)->finish(); !st)
        return die(st);
    if (auto st = (*map)->finish(); !st)
        return die(st);
    return 0;
}

/// after(x) = before(T x) with T = rotation 5 deg, scale 1.04 about the centre: written by
/// warpMapToBefore with the model "before -> after" = T^-1 read the other way round.
/// A sinusoidal bulge of `amplitude` px as a correction field on a 17 x 17 grid.
CorrectionField bulge(int n, double amplitude)
{
    CorrectionField f;
    f.used = amplitude > 0;
    for (int k = 0; k <= 16; ++k)
        f.xs.push_back((n - 1) * k / 16.0);
    f.ys = f.xs;
    for (double y : f.ys)
        for (double x : f.xs) {
            f.dx.push_back(amplitude * std::sin(2 * M_PI * y / n));
            f.dy.push_back(0.8 * amplitude * std::sin(2 * M_PI * x / n + 0.5));
        }
    return f;
}

int makeAfter(const std::string& dir, int n, double bulgePx)
{
    const double a = 5 * M_PI / 180, s = 1.04, c = n / 2.0;
    // T^-1 maps before pixels to after pixels: p_a = c + R(-a) (p_b - c) / s.
    const double ca = std::cos(a) / s, sa = std::sin(a) / s;
    AlignResult inv;
    inv.matrix = {ca, sa, c - ca * c - sa * c, -sa, ca, c + sa * c - ca * c, 0, 0, 1};
    inv.afterWidth = inv.afterHeight = n;   // the source: the before files
    inv.beforeWidth = inv.beforeHeight = n; // the output grid: the after files
    inv.field = bulge(n, bulgePx);
    for (const char* f : {"", "_map"}) {
        const std::string in = dir + "/before" + f + ".tif", out = dir + "/after" + f + ".tif";
        if (auto st = warpMapToBefore(in, inv, out); !st)
            return die(st);
    }
    return 0;
}

double since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int run(const std::string& dir, const std::string& field)
{
    AlignOptions ao;
    if (auto f = alignFieldFromName(field); f)
        ao.field = *f;
    else
        return die(f.status());
    auto t0 = std::chrono::steady_clock::now();
    auto al = alignScans(dir + "/before.tif", dir + "/after.tif", ao);
    if (!al)
        return die(al.status());
    const double align = since(t0);
    t0 = std::chrono::steady_clock::now();
    if (auto st = warpMapToBefore(dir + "/after_map.tif", *al, dir + "/aligned.tif"); !st)
        return die(st);
    const double warp = since(t0);
    t0 = std::chrono::steady_clock::now();
    auto r = compareCrackMaps(dir + "/before_map.tif", dir + "/aligned.tif", *al, {});
    if (!r)
        return die(r.status());
    if (auto st = writeChangeJson(*r, dir + "/change.json"); !st)
        return die(st);
    std::printf("%d x %d: model %s, scale %.4f, rotation %.3f deg, %d/%d inliers, %d/%d windows, "
                "rms %.3f px, overlap %.3f\n",
                al->beforeWidth, al->beforeHeight, alignModelName(al->model), al->scale,
                al->rotationDeg, al->inliers, al->matches, al->refined, al->windows, al->rmsPx,
                al->overlap);
    const CorrectionField& f = al->field;
    std::printf("correction field: %s, %d nodes, %d rejected, largest %.2f px, window residual "
                "%.3f -> %.3f px\n",
                f.used ? "used" : "not used", f.nodes, f.rejected, f.maxPx, f.rmsBeforePx,
                f.rmsAfterPx);
    std::printf("align %.1f s (coarse %.1f, refine %.1f), warp %.1f s, compare %.1f s\n", align,
                al->coarseSeconds, al->refineSeconds, warp, since(t0));
    std::printf("cracks: %d new, %d grown, %d unchanged, %d gone, %d outside\n", r->totals[0].count,
                r->totals[1].count, r->totals[2].count, r->totals[3].count, r->totals[4].count);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 2 ? argv[1] : "";
    if (mode == "make" && argc > 3) {
        const int n = std::atoi(argv[3]);
        if (int rc = makeBefore(argv[2], n))
            return rc;
        return makeAfter(argv[2], n, argc > 4 ? std::atof(argv[4]) : 0.0);
    }
    if (mode == "run")
        return run(argv[2], argc > 3 ? argv[3] : "auto");
    std::fprintf(stderr, "usage: bench_compare make DIR N [BULGE_PX] | bench_compare run DIR "
                         "[auto|off]\n");
    return 2;
}

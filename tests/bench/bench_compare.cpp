// Two inspections of a large generated surface, aligned and compared in bounded memory:
//   bench_compare make DIR N     writes DIR/before.tif + before_map.tif (N x N, tiles of the
//                                procedural scene) and DIR/after.tif + after_map.tif (the same
//                                surface rotated 5 deg and scaled 1.04, through warpMapToBefore)
//   bench_compare run DIR        alignScans + warpMapToBefore + compareCrackMaps, with timings;
//                              DIR/change.json
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
int makeAfter(const std::string& dir, int n)
{
    const double a = 5 * M_PI / 180, s = 1.04, c = n / 2.0;
    // T^-1 maps before pixels to after pixels: p_a = c + R(-a) (p_b - c) / s.
    const double ca = std::cos(a) / s, sa = std::sin(a) / s;
    AlignResult inv;
    inv.matrix = {ca, sa, c - ca * c - sa * c, -sa, ca, c + sa * c - ca * c, 0, 0, 1};
    inv.afterWidth = inv.afterHeight = n;   // the source: the before files
    inv.beforeWidth = inv.beforeHeight = n; // the output grid: the after files
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

int run(const std::string& dir)
{
    auto t0 = std::chrono::steady_clock::now();
    auto al = alignScans(dir + "/before.tif", dir + "/after.tif");
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
        return makeAfter(argv[2], n);
    }
    if (mode == "run")
        return run(argv[2]);
    std::fprintf(stderr, "usage: bench_compare make DIR N | bench_compare run DIR\n");
    return 2;
}

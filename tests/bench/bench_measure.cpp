// Crack measurement on a large map: `bench_measure make MAP SIDE [CRACKS]` streams a synthetic
// SIDE x SIDE map with drawn cracks (random walks 1-12 px wide, some branching) through
// TiledTiffWriter; `bench_measure measure MAP` measures it and prints time and peak RSS.
// Run the two steps as separate processes so the peak RSS is the measurement's own.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "fisura/measure.h"
#include "fisura/tiledwriter.h"

namespace
{

struct Stroke {
    std::vector<cv::Point> points;
    int width;
    int minY, maxY;
};

std::vector<Stroke> makeStrokes(int side, int count)
{
    std::mt19937 rng(20261126);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<Stroke> strokes;
    for (int i = 0; i < count; ++i) {
        Stroke s;
        s.width = 1 + int(u(rng) * 12);
        double x = u(rng) * side, y = u(rng) * side, a = u(rng) * 2 * M_PI;
        const int steps = 50 + int(u(rng) * 250);
        for (int k = 0; k < steps; ++k) {
            s.points.emplace_back(int(x), int(y));
            a += (u(rng) - 0.5) * 0.6;
            x = std::clamp(x + 20 * std::cos(a), 0.0, side - 1.0);
            y = std::clamp(y + 20 * std::sin(a), 0.0, side - 1.0);
            if (k % 60 == 59 && u(rng) < 0.5) { // a branch
                Stroke b;
                b.width = std::max(1, s.width / 2);
                double bx = x, by = y, ba = a + (u(rng) < 0.5 ? 1.0 : -1.0);
                for (int j = 0; j < 40; ++j) {
                    b.points.emplace_back(int(bx), int(by));
                    bx = std::clamp(bx + 15 * std::cos(ba), 0.0, side - 1.0);
                    by = std::clamp(by + 15 * std::sin(ba), 0.0, side - 1.0);
                }
                strokes.push_back(b);
            }
        }
        strokes.push_back(s);
    }
    for (auto& s : strokes) {
        s.minY = s.maxY = s.points[0].y;
        for (const auto& p : s.points) {
            s.minY = std::min(s.minY, p.y);
            s.maxY = std::max(s.maxY, p.y);
        }
    }
    return strokes;
}

int make(const std::string& path, int side, int count)
{
    const auto strokes = makeStrokes(side, count);
    fisura::TiledWriteOptions o;
    o.pixelSizeXmm = o.pixelSizeYmm = 0.1;
    auto w = fisura::TiledTiffWriter::create(path, side, side, 1, o);
    if (!w) {
        std::fprintf(stderr, "create: %s\n", w.status().toString().c_str());
        return 1;
    }
    const int band = 256;
    for (int y0 = 0; y0 < side; y0 += band) {
        const int h = std::min(band, side - y0);
        fisura::Image im = fisura::Image::make(side, h, 1);
        cv::Mat m(h, side, CV_8U, im.pixels.data());
        for (const auto& s : strokes) {
            if (s.maxY + s.width < y0 || s.minY - s.width > y0 + h)
                continue;
            std::vector<cv::Point> pts;
            for (const auto& p : s.points)
                pts.emplace_back(p.x, p.y - y0);
            cv::polylines(m, pts, false, 230, s.width, cv::LINE_8);
        }
        if (auto st = (*w)->appendRows(im); !st) {
            std::fprintf(stderr, "append: %s\n", st.toString().c_str());
            return 1;
        }
    }
    if (auto st = (*w)->finish(); !st) {
        std::fprintf(stderr, "finish: %s\n", st.toString().c_str());
        return 1;
    }
    std::printf("wrote %s: %d x %d, %zu strokes\n", path.c_str(), side, side, strokes.size());
    return 0;
}

int measure(const std::string& path, int threads)
{
    fisura::MeasureOptions o;
    o.threads = threads;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = fisura::measureCracks(path, o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r) {
        std::fprintf(stderr, "measure: %s\n", r.status().toString().c_str());
        return 1;
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%s: %d x %d, %d cracks, %d branches, total length %.0f px (%.1f m), "
                "%.1f s wall, %.1f s user CPU, peak RSS %.0f MiB, thinning %s\n",
                path.c_str(), r->width, r->height, r->totals.cracks, r->totals.branches,
                r->totals.lengthPx, r->totals.lengthMm / 1000.0, s,
                double(ru.ru_utime.tv_sec) + ru.ru_utime.tv_usec / 1e6,
                double(ru.ru_maxrss) / 1024.0, r->thinning.c_str());
    return 0;
}

// Worst case for one tile: a map that is crack everywhere (a threshold far too low). Prints the
// time per tile and how long a cancel takes to be honoured.
int solid(int side)
{
    const fisura::Image im = fisura::Image::make(side, side, 1, 200);
    fisura::MeasureOptions o;
    o.threads = 1;
    const auto t0 = std::chrono::steady_clock::now();
    auto r = fisura::measureCracks(im, o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const int tiles =
        ((side + o.tileSize - 1) / o.tileSize) * ((side + o.tileSize - 1) / o.tileSize);
    std::printf("solid %d x %d: %.2f s, %.2f s per tile, %d cracks\n", side, side, s, s / tiles,
                r ? r->totals.cracks : -1);
    fisura::CancelToken cancel;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel.cancel();
    });
    const auto t1 = std::chrono::steady_clock::now();
    auto c = fisura::measureCracks(im, o, cancel);
    const double s2 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    stopper.join();
    std::printf("cancelled at 0.30 s: returned at %.2f s (%s)\n", s2,
                c.status().toString().c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "make" && argc >= 4)
        return make(argv[2], std::atoi(argv[3]), argc > 4 ? std::atoi(argv[4]) : 400);
    if (mode == "solid" && argc >= 3)
        return solid(std::atoi(argv[2]));
    if (mode == "measure" && argc >= 3)
        return measure(argv[2], argc > 3 ? std::atoi(argv[3]) : 0);
    std::fprintf(
        stderr,
        "usage: bench_measure make MAP SIDE [CRACKS] | measure MAP [THREADS] | solid SIDE\n");
    return 2;
}

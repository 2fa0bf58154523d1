// The map writer alone (what a tiled inference's writer thread does with the rows the device
// sends): rows of a real map, repeated side by side and downwards to WIDTH x HEIGHT, appended in
// chunks of CHUNK rows to a TiledTiffWriter, then finish(). Prints one JSON line.
//
//   bench_writer MAP OUT WIDTH HEIGHT [deflate|zstd[:LEVEL]] [THREADS] [CHUNK]
//
// MAP: any 8-bit single-channel TIFF Fisura reads (its top-left 8192 x 8192 are used) (a
// probability map of a trained model is the honest input: compression speed depends on the
// content). THREADS: the writer's compression threads (0 = one per core). LEVEL: the codec's level
// (default: the writer's). CHUNK: rows per append (448 = what a 512-px tile with 64 px of overlap
// emits).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fisura/image.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"

using namespace fisura;

int main(int argc, char** argv)
{
    if (argc < 5) {
        std::fprintf(stderr,
                     "usage: bench_writer MAP OUT WIDTH HEIGHT [deflate|zstd[:LEVEL]] [THREADS] "
                     "[CHUNK]\n");
        return 2;
    }
    const int width = std::atoi(argv[3]), height = std::atoi(argv[4]);
    const std::string codecArg = argc > 5 ? argv[5] : "zstd";
    const std::string codec = codecArg.substr(0, codecArg.find(':'));
    const int level = codecArg.find(':') == std::string::npos
                          ? 0
                          : std::atoi(codecArg.c_str() + codec.size() + 1);
    const int threads = argc > 6 ? std::atoi(argv[6]) : 0;
    const int chunk = argc > 7 ? std::atoi(argv[7]) : 448;
    auto src = TiledImage::open(argv[1]);
    if (!src) {
        std::fprintf(stderr, "bench_writer: %s\n", src.status().toString().c_str());
        return 1;
    }
    const auto& l0 = (*src)->info().levels[0]; // at most 8192 x 8192 of it
    auto map = (*src)->readRegion(0, 0, 0, std::min(l0.width, 8192), std::min(l0.height, 8192));
    if (!map || map->channels != 1) {
        std::fprintf(stderr, "bench_writer: %s: needs a single-channel map\n", argv[1]);
        return 1;
    }
    // The chunk's rows, cycled through the map's rows and columns.
    Image rows = Image::make(width, chunk, 1);
    const auto fill = [&](int y0, int n) {
        for (int y = 0; y < n; ++y) {
            const uint8_t* s = map->row((y0 + y) % map->height);
            uint8_t* d = rows.row(y);
            for (int x = 0; x < width; x += map->width)
                std::memcpy(d + x, s, size_t(std::min(map->width, width - x)));
        }
    };
    TiledWriteOptions o;
    o.compression = codec == "deflate" ? TileCompression::Deflate : TileCompression::Zstd;
    o.threads = threads;
    o.compressionLevel = level;
    auto w = TiledTiffWriter::create(argv[2], width, height, 1, o);
    if (!w) {
        std::fprintf(stderr, "bench_writer: %s\n", w.status().toString().c_str());
        return 1;
    }
    using Clock = std::chrono::steady_clock;
    double append = 0; // the appends only: filling the chunk is not the writer's work
    for (int y = 0; y < height; y += chunk) {
        const int n = std::min(chunk, height - y);
        if (n < chunk) {
            rows.height = n;
            rows.pixels.resize(rows.stride() * size_t(n));
        }
        fill(y, n);
        const auto a0 = Clock::now();
        if (Status s = (*w)->appendRows(rows); !s) {
            std::fprintf(stderr, "bench_writer: %s\n", s.toString().c_str());
            return 1;
        }
        append += std::chrono::duration<double>(Clock::now() - a0).count();
    }
    const auto t1 = Clock::now();
    if (Status s = (*w)->finish(); !s) {
        std::fprintf(stderr, "bench_writer: %s\n", s.toString().c_str());
        return 1;
    }
    const double finish = std::chrono::duration<double>(Clock::now() - t1).count();
    const TiledWriteStats st = (*w)->stats();
    std::printf(
        "{\"codec\": \"%s\", \"level\": %d, \"threads\": %d, \"width\": %d, \"height\": %d, "
        "\"append_seconds\": %.3f, \"finish_seconds\": %.3f, \"megapixels_per_second\": "
        "%.1f, \"copy_seconds\": %.3f, \"compress_wait_seconds\": %.3f, \"compress_seconds\": "
        "%.3f, \"compress_cpu_seconds\": %.3f, \"tile_wait_seconds\": %.3f, \"write_seconds\": "
        "%.3f, "
        "\"write_wait_seconds\": %.3f, "
        "\"halve_seconds\": %.3f, \"ratio\": %.1f}\n",
        codec.c_str(), level, threads, width, height, append, finish,
        double(width) * height / 1e6 / (append + finish), st.copySeconds, st.compressWaitSeconds,
        st.compressSeconds, st.compressCpuSeconds, st.tileWaitSeconds, st.writeSeconds,
        st.writeWaitSeconds, st.halveSeconds,
        double(st.bytesIn) / double(std::max<uint64_t>(st.bytesOut, 1)));
    return 0;
}

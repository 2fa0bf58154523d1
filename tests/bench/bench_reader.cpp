// The reader stage of a tiled inference alone (what its reader threads do for the device): every
// tile of the grid read from the scan through the shared block cache and placed into a tile
// buffer, by THREADS threads claiming tiles in raster order. Prints one JSON line: wall time,
// the threads' CPU time, MP/s of scan, and the block cache's misses against the scan's blocks
// (misses beyond one per block are blocks decoded more than once).
//
//   bench_reader SCAN [THREADS] [TILE] [OVERLAP] [ROUNDS]
//
// THREADS: 0 = one per core. TILE/OVERLAP: the grid (512 / 64: the benchmark U-Net's).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "fisura/infer.h"
#include "infer/blend.h"
#include "infer/scan_source.h"
#include "util/cpu_time.h"

using namespace fisura;

static double threadCpuSeconds()
{
    return double(util::threadCpuNanos()) * 1e-9;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_reader SCAN [THREADS] [TILE] [OVERLAP] [ROUNDS]\n");
        return 2;
    }
    int threads = argc > 2 ? std::atoi(argv[2]) : 0;
    if (threads <= 0)
        threads = int(std::max(1u, std::thread::hardware_concurrency()));
    const int tile = argc > 3 ? std::atoi(argv[3]) : 512;
    const int overlap = argc > 4 ? std::atoi(argv[4]) : 64;
    const int rounds = argc > 5 ? std::atoi(argv[5]) : 1;
    for (int round = 0; round < rounds; ++round) {
        InferOptions o;
        auto src = detail::ScanSource::open(argv[1], o);
        if (!src) {
            std::fprintf(stderr, "%s\n", src.status().detail().c_str());
            return 1;
        }
        src->cacheTileRow(tile, o.cacheBytes);
        const detail::TileGrid grid =
            detail::TileGrid::make(src->width, src->height, tile, overlap);
        std::atomic<size_t> next{0};
        std::atomic<int> failures{0};
        std::vector<double> cpu(size_t(threads), 0.0);
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i)
            pool.emplace_back([&, i] {
                std::vector<uint8_t> buf(size_t(tile) * tile * 3);
                const double c0 = threadCpuSeconds();
                for (size_t k; (k = next.fetch_add(1)) < grid.tiles.size();) {
                    const detail::TileRef& t = grid.tiles[k];
                    if (!src->readTile(t.x, t.y, t.w, t.h, tile, 3, buf.data()))
                        ++failures;
                }
                cpu[size_t(i)] = threadCpuSeconds() - c0;
            });
        for (auto& t : pool)
            t.join();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double cpuSum = 0;
        for (double c : cpu)
            cpuSum += c;
        const TiledLevel& l0 = src->tiled ? src->tiled->info().levels.at(0) : TiledLevel{};
        const auto cs = src->cache ? src->cache->stats() : TileCacheStats{};
        const double mp = double(src->width) * src->height / 1e6;
        std::printf("{\"threads\": %d, \"tiles\": %zu, \"seconds\": %.3f, \"cpu_seconds\": %.3f, "
                    "\"mp_per_s\": %.1f, \"cpu_ns_per_px\": %.2f, \"blocks\": %d, "
                    "\"cache_misses\": %llu, \"cache_hits\": %llu, \"failures\": %d}\n",
                    threads, grid.tiles.size(), wall, cpuSum, mp / wall, cpuSum / mp * 1e3,
                    l0.blocksAcross * l0.blocksDown, (unsigned long long)cs.misses,
                    (unsigned long long)cs.hits, failures.load());
    }
    return 0;
}

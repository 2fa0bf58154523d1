// Inputs for the tiled-inference benchmarks (gpu_infer.sh, cpu_infer.sh):
//   bench_infer scan OUT WIDTH HEIGHT [deflate|zstd] [PHOTO]
//                                                       synthetic RGB scan, tiled pyramidal
//                                                       BigTIFF; with PHOTO (an RGB image
//                                                       Fisura reads), that image repeated
//   bench_infer e2e MODEL IN OUT MODE [deflate|zstd[:LEVEL]]  end to end over IN (MODE as for
//                                                       net): the run's statistics (JSON) and
//                                                       the network-only time of its tiles
//   bench_infer model OUT [WIDTH DEPTH]                 a Fisura U-Net (random weights; the
//                                                       cost of a forward pass does not depend
//                                                       on what the weights learned)
//   bench_infer net MODEL IMAGE MAP MODE                network-only MP/s of the tiles (JSON)
//                                                       and IMAGE's map as raw bytes in MAP;
//                                                       MODE names what is on, comma-separated:
//                                                       fused (cuDNN conv + bias + ReLU),
//                                                       kernels (Fisura's pooling and
//                                                       concatenation kernels),
//                                                       graph (the batch as a CUDA graph),
//                                                       blend (the blending kernels), or
//                                                       separate (none of them);
//                                                       autotune: cuDNN autotuning on (off
//                                                       by default, deterministic algorithms)
//   bench_infer diff A B                                where two maps' level 0 differ (JSON)
// e2e runs over GPUS=N GPUs when that variable is set (the scan split into column bands), or,
// with LANE=k too, on the k-th of those GPUs alone (the model's replica there).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fstream>

#include "fisura/image.h"
#include "fisura/infer.h"
#include "fisura/model.h"
#include "fisura/testing.h"
#include "fisura/tiledimage.h"
#include "synthetic_scan.h"

using namespace fisura;

/// Turns the fused paths named in MODE ("fused,kernels,graph,blend", "separate", ...) on, the
/// others off.
static void applyMode(const std::string& mode)
{
    const auto has = [&](const char* f) { return mode.find(f) != std::string::npos; };
    testing::setFusedConvRelu(has("fused"));
    testing::setUNetInferenceKernels(has("kernels"));
    testing::setInferenceGraphs(has("graph"));
    testing::setBlendKernels(has("blend"));
    testing::setInferenceCudnnBenchmark(has("autotune") ? 1 : has("nobench") ? 0 : -1);
}

/// Where two maps' level 0 differ (JSON): how many pixels, by how much at most, and how the
/// differing pixels fall over x and y (1000-px bins) and over y % 64 (the device's row chunks).
static int diffMaps(const char* a, const char* b)
{
    auto ia = TiledImage::open(a), ib = TiledImage::open(b);
    if (!ia || !ib)
        return 1;
    const int w = (*ia)->info().levels[0].width, h = (*ia)->info().levels[0].height;
    std::vector<long long> byX((w + 999) / 1000), byY((h + 999) / 1000), byChunkRow(64);
    long long n = 0;
    int maxDiff = 0;
    std::string first;
    for (int y0 = 0; y0 < h; y0 += 512) {
        const int rows = std::min(512, h - y0);
        auto ra = (*ia)->readRegion(0, 0, y0, w, rows), rb = (*ib)->readRegion(0, 0, y0, w, rows);
        if (!ra || !rb)
            return 1;
        for (int y = 0; y < rows; ++y)
            for (int x = 0; x < w; ++x) {
                const int d = std::abs(int(ra->row(y)[x]) - int(rb->row(y)[x]));
                if (!d)
                    continue;
                ++n;
                maxDiff = std::max(maxDiff, d);
                ++byX[size_t(x / 1000)];
                ++byY[size_t((y0 + y) / 1000)];
                ++byChunkRow[size_t((y0 + y) % 64)];
                if (n <= 12)
                    first += (n > 1 ? ", " : "") + std::string("[") + std::to_string(x) + ", " +
                             std::to_string(y0 + y) + ", " + std::to_string(ra->row(y)[x]) + ", " +
                             std::to_string(rb->row(y)[x]) + "]";
            }
    }
    auto list = [](const std::vector<long long>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i)
            s += (i ? "," : "") + std::to_string(v[i]);
        return s;
    };
    std::printf("{\"differing\": %lld, \"max\": %d, \"first\": [%s], \"by_x\": [%s], "
                "\"by_y\": [%s], \"by_y_mod_64\": [%s]}\n",
                n, maxDiff, first.c_str(), list(byX).c_str(), list(byY).c_str(),
                list(byChunkRow).c_str());
    return 0;
}

int main(int argc, char** argv)
{
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "scan" && argc >= 5) {
        TiledWriteOptions o;
        o.tileSize = 256;
        o.compression = argc > 5 && std::string(argv[5]) == "zstd" ? TileCompression::Zstd
                                                                   : TileCompression::Deflate;
        o.compressionLevel = 1;
        o.pixelSizeXmm = o.pixelSizeYmm = 0.2;
        std::string why;
        const int w = std::atoi(argv[3]), h = std::atoi(argv[4]);
        bool ok = false;
        if (argc > 6) {
            Result<Image> pixels = readImage(argv[6], 1ull << 30);
            if (!pixels)
                why = std::string(argv[6]) + ": " + pixels.status().toString();
            else
                ok = bench::writePhotoScan(argv[2], w, h, *pixels, o, &why);
        } else {
            ok = bench::writeSyntheticScan(argv[2], w, h, 3, o, &why);
        }
        if (!ok) {
            std::fprintf(stderr, "bench_infer: %s\n", why.c_str());
            return 1;
        }
        return 0;
    }
    if (cmd == "model" && argc >= 3) {
        ModelConfig c;
        c.type = ModelType::UNet;
        c.inputSize = 256;
        c.width = argc > 3 ? std::atoi(argv[3]) : 16;
        c.depth = argc > 4 ? std::atoi(argv[4]) : 4;
        auto m = Model::create(c, 1);
        Status s = m ? m->save(argv[2]) : m.status();
        if (!s) {
            std::fprintf(stderr, "bench_infer: %s\n", s.toString().c_str());
            return 1;
        }
        return 0;
    }
    if (cmd == "net" && argc >= 6) {
        const std::string mode = argv[5];
        applyMode(mode);
        auto m = Model::load(argv[2]);
        auto img = m ? readImage(argv[3]) : Result<Image>(m.status());
        auto ti = img ? TiledInference::create(std::move(*m), InferOptions{})
                      : Result<std::unique_ptr<TiledInference>>(img.status());
        if (!ti) {
            std::fprintf(stderr, "bench_infer: %s\n", ti.status().toString().c_str());
            return 1;
        }
        auto map = (*ti)->runImage(*img);
        const int64_t tiles = 20 * int64_t((*ti)->policy().batchSize);
        auto secs = (*ti)->timeNetworkOnly(tiles);
        if (!map || !secs) {
            std::fprintf(stderr, "bench_infer: failed\n");
            return 1;
        }
        std::ofstream(argv[4], std::ios::binary)
            .write(reinterpret_cast<const char*>(map->pixels.data()),
                   std::streamsize(map->pixels.size()));
        const double mp = double(tiles) * (*ti)->tileSize() * (*ti)->tileSize() / 1e6;
        std::string choice = "-", graph = "-";
        for (const auto& c : (*ti)->policy().choices) {
            if (c.what == "conv_bias_relu")
                choice = c.value;
            if (c.what == "network_graph")
                graph = c.value + (c.reasonArg.empty() ? "" : " (" + c.reasonArg + ")");
        }
        std::printf("{\"mode\": \"%s\", \"policy\": \"%s\", \"graph\": \"%s\", \"batch\": %d, "
                    "\"tile\": %d, \"network_mp_per_s\": %.1f}\n",
                    argv[5], choice.c_str(), graph.c_str(), (*ti)->policy().batchSize,
                    (*ti)->tileSize(), mp / *secs);
        return 0;
    }
    if (cmd == "e2e" && argc >= 6) {
        const std::string mode = argv[5];
        applyMode(mode);
        auto m = Model::load(argv[2]);
        InferOptions io;
        if (const char* g = std::getenv("GPUS")) // several: the scan split over that many GPUs
            io.gpus = std::atoi(g);
        testing::reverseSplitDevices(std::getenv("REVERSE") != nullptr);
        if (const char* c = std::getenv("CPU_BANDS")) // on the CPU: split as over that many GPUs
            testing::splitCpuInference(std::atoi(c));
        const std::string codec = argc > 6 ? argv[6] : "deflate"; // "zstd:9" names a level
        io.output.compression =
            codec.rfind("zstd", 0) == 0 ? TileCompression::Zstd : TileCompression::Deflate;
        if (codec.find(':') != std::string::npos)
            io.output.compressionLevel = std::atoi(codec.c_str() + codec.find(':') + 1);
        auto ti = m ? TiledInference::create(std::move(*m), io)
                    : Result<std::unique_ptr<TiledInference>>(m.status());
        // LANE=k: the whole scan on device k alone (0: the first GPU, 1..: its replicas).
        const char* lane = std::getenv("LANE");
        auto st = !ti    ? Result<InferStats>(ti.status())
                  : lane ? (*ti)->runOn(std::atoi(lane), argv[3], argv[4])
                         : (*ti)->run(argv[3], argv[4]);
        auto net = st ? (*ti)->timeNetworkOnly(st->tiles) : Result<double>(st.status());
        if (!net) {
            std::fprintf(stderr, "bench_infer: %s\n", net.status().toString().c_str());
            return 1;
        }
        std::printf("{\"mode\": \"%s\", \"network_only_seconds\": %.4f, \"stats\": %s}\n",
                    mode.c_str(), *net, toJson(*st, -1).c_str());
        return 0;
    }
    if (cmd == "diff" && argc >= 4)
        return diffMaps(argv[2], argv[3]);
    std::fprintf(stderr, "usage: bench_infer scan OUT WIDTH HEIGHT [deflate|zstd]\n"
                         "       bench_infer model OUT [WIDTH DEPTH]\n"
                         "       bench_infer net MODEL IMAGE MAP fused,kernels,graph|separate\n"
                         "       bench_infer e2e MODEL IN OUT fused,kernels,graph|separate "
                         "[deflate|zstd[:LEVEL]]\n");
    return 2;
}

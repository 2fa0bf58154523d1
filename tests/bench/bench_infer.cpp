// Inputs for the tiled-inference benchmarks (gpu_infer.sh, cpu_infer.sh):
//   bench_infer scan OUT WIDTH HEIGHT [deflate|zstd]   synthetic RGB scan, tiled pyramidal BigTIFF
//   bench_infer model OUT [WIDTH DEPTH]                 a Fisura U-Net (random weights; the
//                                                       cost of a forward pass does not depend
//                                                       on what the weights learned)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fisura/model.h"
#include "synthetic_scan.h"

using namespace fisura;

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
        if (!bench::writeSyntheticScan(argv[2], std::atoi(argv[3]), std::atoi(argv[4]), 3, o,
                                       &why)) {
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
    std::fprintf(stderr, "usage: bench_infer scan OUT WIDTH HEIGHT [deflate|zstd]\n"
                         "       bench_infer model OUT [WIDTH DEPTH]\n");
    return 2;
}

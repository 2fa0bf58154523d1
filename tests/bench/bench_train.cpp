// The training step before and after its no-synchronisation rewrite, in one binary so both run
// on the same machine, data and build (gpu_train.sh):
//   bench_train DATA EPOCHS BATCH WORKERS PRECISION KERNEL READBACK
// KERNEL: per-tensor | foreach | fused | auto (the optimiser step); READBACK: read the loss back
// every N steps (1 = every step, as before; 0 = the default, every half second on a GPU).
// Same job as `fisura-cli train --task segment --size 256 --depth 4 --width 32 --val 0
// --patience 0`. Prints one JSON line: images/s per epoch and the mean of epochs 2 and later.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fisura/train.h"

using namespace fisura;

int main(int argc, char** argv)
{
    if (argc < 8) {
        std::fprintf(stderr, "usage: bench_train DATA EPOCHS BATCH WORKERS PRECISION KERNEL "
                             "READBACK\n");
        return 2;
    }
    TrainOptions o;
    o.task = TaskKind::Segment;
    o.dataDir = argv[1];
    o.outPath = "/tmp/bench_train_" + std::string(argv[6]) + "_" + argv[7] + ".fisura";
    o.epochs = std::atoi(argv[2]);
    o.batchSize = std::atoi(argv[3]);
    o.loaderThreads = std::atoi(argv[4]);
    if (!parsePrecision(argv[5], o.precision)) {
        std::fprintf(stderr, "bench_train: unknown precision %s\n", argv[5]);
        return 2;
    }
    o.model.inputSize = 256;
    o.model.depth = 4;
    o.model.width = 32;
    o.valFraction = 0;
    o.patience = 0;
    const std::string kernel = argv[6];
    testing::forceAdamWKernel(kernel == "auto" ? "" : kernel);
    testing::setLossReadBackSteps(std::atoi(argv[7]));
    auto r = train(o);
    if (!r) {
        std::fprintf(stderr, "bench_train: %s\n", r.status().toString().c_str());
        return 1;
    }
    std::string epochs;
    double sum = 0;
    int n = 0;
    for (const auto& m : r->history) {
        epochs += (epochs.empty() ? "" : ", ") + std::to_string(m.imagesPerSecond);
        if (m.epoch >= 1) {
            sum += m.imagesPerSecond;
            ++n;
        }
    }
    std::printf("{\"kernel\": \"%s\", \"readback\": %s, \"epoch_images_per_second\": [%s], "
                "\"images_per_second\": %.1f, \"final_loss\": %.4f}\n",
                argv[6], argv[7], epochs.c_str(), n ? sum / n : 0.0,
                r->history.empty() ? -1.0 : r->history.back().trainLoss);
    return 0;
}

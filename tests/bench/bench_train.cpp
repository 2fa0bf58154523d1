// The training step before and after its no-synchronisation rewrite, in one binary so both run
// on the same machine, data and build (gpu_train.sh):
//   bench_train DATA EPOCHS BATCH WORKERS PRECISION KERNEL READBACK [BN [SOURCE [STEP]]]
// KERNEL: per-tensor | foreach | fused | auto (the optimiser step); READBACK: read the loss back
// every N steps (1 = every step, as before; 0 = the default, every half second on a GPU);
// BN: fused (default: Fisura's BatchNorm + ReLU, max pooling with the skip gradient and loss
// kernels where built) | bnrelu (the BatchNorm + ReLU kernels only) | eager (LibTorch's modules);
// SOURCE: files (default: decoded from the files every step) | gpu (the first batch, kept on the
// device, for every step: the step's own speed); STEP: graph (default: one CUDA graph per step
// on a GPU) | eager (op by op).
// Same job as `fisura-cli train --task segment --size 256 --depth 4 --width 32 --val 0
// --patience 0`. Prints one JSON line: images/s per epoch and the mean of epochs 2 and later.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fisura/testing.h"
#include "fisura/train.h"

using namespace fisura;

int main(int argc, char** argv)
{
    if (argc < 8) {
        std::fprintf(stderr, "usage: bench_train DATA EPOCHS BATCH WORKERS PRECISION KERNEL "
                             "READBACK [fused|bnrelu|eager [files|gpu [graph|eager]]]\n");
        return 2;
    }
    TrainOptions o;
    o.task = TaskKind::Segment;
    o.dataDir = argv[1];
    o.outPath = "/tmp/bench_train_" + std::string(argv[6]) + "_" + argv[7] + "_" +
                (argc > 8 ? argv[8] : "fused") + ".fisura";
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
    const std::string bn = argc > 8 ? argv[8] : "fused";
    const std::string source = argc > 9 ? argv[9] : "files";
    const std::string step = argc > 10 ? argv[10] : "graph";
    testing::setTrainingStepGraphs(step != "eager");
    testing::setFusedBatchNormRelu(bn != "eager");
    testing::setUNetTrainingKernels(bn == "fused");
    testing::reuseFirstBatch(source == "gpu");
    auto r = train(o);
    if (!r) {
        std::fprintf(stderr, "bench_train: %s\n", r.status().toString().c_str());
        return 1;
    }
    std::string ran = "-", why;
    for (const auto& c : r->policy.choices)
        if (c.what == "training_step") {
            ran = c.value;
            why = c.reason;
        }
    std::fprintf(stderr, "bench_train: training step %s: %s\n", ran.c_str(), why.c_str());
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
    std::printf("{\"kernel\": \"%s\", \"readback\": %s, \"bn\": \"%s\", \"source\": \"%s\", "
                "\"step\": \"%s\", \"step_ran\": \"%s\", "
                "\"epoch_images_per_second\": [%s], \"images_per_second\": %.1f, "
                "\"final_loss\": %.4f}\n",
                argv[6], argv[7], bn.c_str(), source.c_str(), step.c_str(), ran.c_str(),
                epochs.c_str(), n ? sum / n : 0.0,
                r->history.empty() ? -1.0 : r->history.back().trainLoss);
    return 0;
}

// Data-parallel training speed (gpu_multi_train.sh): the U-Net job of bench_train as one rank of a job
// that torchrun (or `fisura-cli train --gpus`' conventions) starts, one process per GPU:
//   torchrun --nproc-per-node N --no-python bench_train_dist DATA EPOCHS BATCH WORKERS SOURCE
// BATCH is per GPU; SOURCE: files (decoded from the files every step) | gpu (the first batch
// kept on the device: the step's own speed). Rank 0 prints one JSON line: the job's images/s
// (all GPUs) per epoch and the mean of epochs 2 and later, with the policy's data-parallel
// choices. With WORLD_SIZE unset it runs as one process (the 1-GPU baseline).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fisura/distributed.h"
#include "fisura/testing.h"
#include "fisura/train.h"

using namespace fisura;

int main(int argc, char** argv)
{
    if (argc < 6) {
        std::fprintf(stderr, "usage: bench_train_dist DATA EPOCHS BATCH WORKERS files|gpu\n");
        return 2;
    }
    auto id = readDistributedEnvironment();
    if (!id) {
        std::fprintf(stderr, "bench_train_dist: %s\n", id.status().toString().c_str());
        return 2;
    }
    TrainOptions o;
    o.task = TaskKind::Segment;
    o.dataDir = argv[1];
    o.outPath = "/tmp/bench_train_dist_" + std::to_string(id->worldSize) + ".fisura";
    o.epochs = std::atoi(argv[2]);
    o.batchSize = std::atoi(argv[3]);
    o.loaderThreads = std::atoi(argv[4]);
    o.precision = Precision::BF16;
    o.model.inputSize = 256;
    o.model.depth = 4;
    o.model.width = 32;
    o.valFraction = 0;
    o.patience = 0;
    o.distributed = *id;
    const std::string source = argv[5];
    testing::reuseFirstBatch(source == "gpu");
    auto r = train(o);
    if (!r) {
        std::fprintf(stderr, "bench_train_dist rank %d: %s\n", id->rank,
                     r.status().toString().c_str());
        return 1;
    }
    if (id->rank != 0)
        return 0;
    std::string epochs, losses, choices;
    double sum = 0;
    int n = 0;
    for (const auto& m : r->history) {
        epochs += (epochs.empty() ? "" : ", ") + std::to_string(m.imagesPerSecond);
        losses += (losses.empty() ? "" : ", ") + std::to_string(m.trainLoss);
        if (m.epoch >= 1) {
            sum += m.imagesPerSecond;
            ++n;
        }
    }
    for (const auto& c : r->policy.choices)
        if (c.what == "data_parallel" || c.what == "training_step" || c.what == "gpu" ||
            c.what == "batch_per_process")
            choices += std::string(choices.empty() ? "" : ", ") + "\"" + c.what + "\": \"" +
                       c.value + "\"";
    std::printf("{\"world\": %d, \"batch_per_gpu\": %s, \"source\": \"%s\", %s, "
                "\"epoch_images_per_second\": [%s], \"epoch_loss\": [%s], "
                "\"images_per_second\": %.1f}\n",
                id->worldSize, argv[3], source.c_str(), choices.c_str(), epochs.c_str(),
                losses.c_str(), n ? sum / n : 0.0);
    return 0;
}

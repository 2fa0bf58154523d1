// The training loader alone (decode, crop, augmentation into pinned-or-not uint8 batches), no
// model: images/s per epoch, to tell a loader-bound training from a step-bound one.
//   bench_loader DATA THREADS [EPOCHS] [BATCH] [SIZE] [pinned]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fisura/dataset.h"

using namespace fisura;

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_loader DATA THREADS [EPOCHS] [BATCH] [SIZE] [pinned]\n");
        return 2;
    }
    auto ds = scanDataset(argv[1], TaskKind::Segment);
    if (!ds) {
        std::fprintf(stderr, "bench_loader: %s\n", ds.status().toString().c_str());
        return 1;
    }
    std::vector<int> idx(ds->items.size());
    for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = int(i);
    LoaderOptions o;
    o.threads = std::atoi(argv[2]);
    const int epochs = argc > 3 ? std::atoi(argv[3]) : 3;
    o.batchSize = argc > 4 ? std::atoi(argv[4]) : 64;
    o.inputSize = argc > 5 ? std::atoi(argv[5]) : 256;
    o.prefetch = 2 * o.threads; // as the trainer
    o.pinned = argc > 6 && std::string(argv[6]) == "pinned";
    o.augment = o.shuffle = o.dropLast = true;
    BatchLoader loader(*ds, idx, o);
    double best = 0;
    for (int ep = 0; ep < epochs; ++ep) {
        loader.startEpoch(ep);
        const auto t0 = std::chrono::steady_clock::now();
        BatchView b;
        int n = 0;
        while (loader.next(b))
            n += b.count;
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, n / s);
    }
    std::printf("{\"threads\": %d, \"batch\": %d, \"pinned\": %d, \"images_per_second\": %.1f}\n",
                o.threads, o.batchSize, int(o.pinned), best);
    return 0;
}

// trainOnLocalGpus(): the ranks of a data-parallel job as threads of this process, one per GPU
// (the GUI's "all GPUs"); the command line starts them as processes instead (train_launch.cpp).
// Plain C++: every rank is an ordinary train() call with its identity.
#include <algorithm>
#include <future>
#include <vector>

#include "fisura/distributed.h"
#include "fisura/sysinfo.h"
#include "fisura/train.h"

namespace fisura
{

int localTrainingGpus(int gpus)
{
    const MachineInfo m = queryMachine();
    const int usable = m.cudaUsable ? int(m.gpus.size()) : 0;
    return gpus <= 0 ? usable : std::min(gpus, usable);
}

Result<TrainResult> trainOnLocalGpus(const TrainOptions& options, int gpus,
                                     const CancelToken& cancel, TrainSink* sink)
{
    const int n =
        options.preferCpu || options.distributed.distributed() ? 1 : localTrainingGpus(gpus);
    if (n <= 1)
        return train(options, cancel, sink);
    const int port = freeLocalPort();
    if (port <= 0)
        return Status(ErrorCode::IoError,
                      "no free local port for the GPUs' rendezvous; training on several GPUs "
                      "needs a TCP port on 127.0.0.1");
    std::vector<std::future<Result<TrainResult>>> ranks;
    for (int r = 0; r < n; ++r) {
        TrainOptions o = options;
        o.distributed.rank = r;
        o.distributed.worldSize = n;
        o.distributed.localRank = r;
        o.distributed.localWorldSize = n;
        o.distributed.masterAddr = "127.0.0.1";
        o.distributed.masterPort = port;
        o.distributed.launcher = "threads";
        ranks.push_back(std::async(std::launch::async, [o, cancel, r, sink] {
            return train(o, cancel, r == 0 ? sink : nullptr);
        }));
    }
    std::vector<Result<TrainResult>> results;
    for (auto& f : ranks)
        results.push_back(f.get());
    // Rank 0's result, unless another rank failed first: its Status says what went wrong.
    if (!results[0])
        return results[0];
    for (auto& r : results)
        if (!r)
            return r.status();
    return std::move(results[0]);
}

} // namespace fisura

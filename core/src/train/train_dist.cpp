// The data-parallel side of a training job: one process per GPU (or CPU processes over gloo),
// each a full replica. They meet through the TCP store, start from rank 0's weights, train on
// their own shard of every global batch, average the gradients in buckets after each backward
// pass and so take the same optimiser step. Rank 0 validates and writes; the decisions that end
// the job (cancel, early stop, pause) are taken once and shared, so no process waits for a step
// the others will not take.
#include "compat/torch_compat.h"

#include <atomic>

#ifdef FISURA_TORCH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include "fisura/testing.h"
#include "models/model_impl.h"
#include "train/trainer.h"

namespace fisura
{

namespace
{
std::atomic<bool> g_freezeBatchNorm{false};
} // namespace

void testing::freezeBatchNormStatistics(bool frozen)
{
    g_freezeBatchNorm.store(frozen);
}

namespace train_detail
{

/// What a data-parallel job cannot do (checked before any LibTorch work).
Status Trainer::checkDistributed() const
{
    const DistributedIdentity& id = o_.distributed;
    if (id.worldSize < 1 || id.rank < 0 || id.rank >= id.worldSize)
        return Status(ErrorCode::InvalidArgument, "rank " + std::to_string(id.rank) +
                                                      " is outside a job of " +
                                                      std::to_string(id.worldSize));
    if (!id.distributed())
        return Status::ok();
    if (mc_.type == ModelType::PatchGaussian)
        return Status(ErrorCode::Unsupported,
                      "a patch-gaussian model is fitted in one pass by one process");
    if (id.masterAddr.empty() || id.masterPort <= 0)
        return Status(ErrorCode::InvalidArgument, "a job of several processes needs the address "
                                                  "and port of rank 0 (MASTER_ADDR, MASTER_PORT)");
    return Status::ok();
}

/// The policy counted this host's cores for one process: the processes of one host share them
/// (loader threads and LibTorch's threads), unless the user set the numbers.
void Trainer::shareHostCores()
{
    const int local = std::max(1, o_.distributed.localWorldSize);
    if (world_ <= 1 || local <= 1)
        return;
    ExecutionPolicy& p = res_.policy;
    const std::string shared = " (shared by " + std::to_string(local) + " processes on this host)";
    for (auto& c : p.choices) {
        if (c.what == "loader_threads" && o_.loaderThreads <= 0) {
            p.loaderThreads = std::max(1, p.loaderThreads / local);
            c.value = std::to_string(p.loaderThreads);
            c.reason += shared;
        } else if (c.what == "intra_op_threads" && o_.intraOpThreads <= 0) {
            p.intraOpThreads = std::max(1, p.intraOpThreads / local);
            c.value = std::to_string(p.intraOpThreads);
            c.reason += shared;
        }
    }
}

/// Connect to the other processes (rank 0 waits for them all), on this rank's device.
Status Trainer::joinJob()
{
    if (world_ <= 1)
        return Status::ok();
#ifdef FISURA_TORCH_CUDA
    // This thread's CUDA work (and its context) on this rank's GPU only, never on GPU 0.
    if (device_.is_cuda()) {
        c10::cuda::set_device(device_.index());
        // The job's work on a stream of its own, set before the gradient buckets keep their
        // parameters' AccumulateGrad nodes: a node runs on the stream it was made on, and the
        // step's capture as a CUDA graph needs it on the capturing stream, not the legacy default
        // one (PyTorch's CUDA Graphs notes: build DDP under the side stream of the capture).
        jobStream_ = std::make_shared<c10::cuda::CUDAStreamGuard>(
            c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device_.index()));
    }
#endif
    auto c = dist::Communicator::connect(o_.distributed, device_, cancel_);
    if (!c)
        return c.status();
    comm_ = std::move(*c);
    return Status::ok();
}

/// Every rank starts from rank 0's weights (and BatchNorm statistics) and trains with the
/// smallest batch any rank measured; the gradients then live in the all-reduce buckets.
Status Trainer::shareStartingPoint()
{
    if (!comm_)
        return Status::ok();
    dist::broadcastModuleState(*comm_, *net_);
    auto b = torch::full({1}, int64_t(st_.batchSize),
                         torch::TensorOptions().dtype(torch::kLong).device(device_));
    comm_->allReduceMin(b);
    st_.batchSize = int(b.cpu().item<int64_t>());
    const int64_t cap = o_.bucketBytes == 0 ? dist::kDefaultBucketBytes : o_.bucketBytes;
    buckets_ = std::make_unique<dist::GradBuckets>(params_, cap);
    buckets_->overlapWith(*comm_); // bucketed: each bucket travels while backward goes on
    return Status::ok();
}

/// The policy's data-parallel choices: processes, this one's GPU, the batch per process.
void Trainer::describeDataParallel()
{
    auto& choices = res_.policy.choices;
    const std::string w = std::to_string(world_);
    if (world_ <= 1) {
        choices.push_back({"data_parallel", "1", "one process trains alone", "dp_single", ""});
        return;
    }
    const bool gpu = device_.is_cuda();
    const std::string b = std::to_string(
        buckets_ && buckets_->bucketed()
            ? (o_.bucketBytes == 0 ? dist::kDefaultBucketBytes : o_.bucketBytes) / (1024 * 1024)
            : 0);
    choices.push_back(
        {"data_parallel", w,
         gpu ? w + " processes, one per GPU, average their gradients over NCCL in buckets of " + b +
                   " MB while the backward pass runs"
             : w + " processes on the processor average their gradients over gloo",
         gpu ? "dp_nccl" : "dp_gloo", w});
    if (gpu)
        choices.push_back({"gpu", std::to_string(device_.index()),
                           "each process drives the GPU of its local rank (" +
                               std::to_string(o_.distributed.localWorldSize) +
                               " processes on this host)",
                           "dp_local_rank", std::to_string(o_.distributed.localWorldSize)});
    const std::string global = std::to_string(int64_t(st_.batchSize) * world_);
    choices.push_back({"batch_per_process", std::to_string(st_.batchSize),
                       "every step trains " + global + " samples: " +
                           std::to_string(st_.batchSize) + " on each of " + w + " processes",
                       "dp_batch", global});
}

/// To zero without dropping the bucket views (2.x's zero_grad would set them to none).
void Trainer::zeroGrads()
{
    if (buckets_) {
        buckets_->zero();
        buckets_->beginStep(); // the backward pass that follows starts the all-reduces
    } else {
        opt_->zero_grad();
    }
}

void Trainer::averageGradients()
{
    if (!comm_ || !buckets_)
        return;
    if (buckets_->overlapping())
        buckets_->finishStep();
    else
        buckets_->allReduceMean(*comm_);
}

/// The read-back of a data-parallel job: the window's loss summed over the ranks and whether
/// any rank was cancelled, in one all-reduce at the same step everywhere. Returns the summed
/// loss.
double Trainer::agreeOnReadBack(const torch::Tensor& windowLoss, bool& stopAgreed)
{
    auto v = torch::zeros({2}, torch::TensorOptions().dtype(torch::kDouble).device(device_));
    v[0].copy_(windowLoss.reshape({}));
    v[1].fill_(cancel_.isCancelled() ? 1.0 : 0.0);
    comm_->allReduceSum(v);
    const auto host = v.cpu();
    stopAgreed = host[1].item<double>() > 0;
    return host[0].item<double>();
}

/// Rank 0 validated and decided; the others take its decision and counters.
void Trainer::shareEpochOutcome()
{
    if (!comm_)
        return;
    auto v = torch::zeros({8}, torch::TensorOptions().dtype(torch::kDouble).device(device_));
    if (isRoot()) {
        const double vals[8] = {
            double(stop_),         double(res_.cancelled), double(res_.stoppedEarly),
            double(res_.paused),   double(st_.epochsDone), double(st_.badEpochs),
            double(st_.bestEpoch), st_.bestScore};
        v.copy_(torch::from_blob(const_cast<double*>(vals), {8}, torch::kDouble));
    }
    comm_->broadcastFromRoot(v);
    if (isRoot())
        return;
    const auto h = v.cpu();
    const double* p = h.data_ptr<double>();
    stop_ = p[0] != 0;
    res_.cancelled = p[1] != 0;
    res_.stoppedEarly = p[2] != 0;
    res_.paused = p[3] != 0;
    st_.epochsDone = int(p[4]);
    st_.badEpochs = int(p[5]);
    st_.bestEpoch = int(p[6]);
    st_.bestScore = p[7];
}

bool Trainer::stopRequested() const
{
    return comm_ ? stopAgreed_ : cancel_.isCancelled();
}

void Trainer::freezeBatchNormIfAsked()
{
    if (!g_freezeBatchNorm.load())
        return;
    net_->apply([](torch::nn::Module& m) {
        if (m.as<torch::nn::BatchNorm2dImpl>())
            m.eval();
    });
}

} // namespace train_detail

} // namespace fisura

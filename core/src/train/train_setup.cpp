// Setting a training job up: data, split and policy first (no LibTorch), then the model, the
// optimiser, the batch size probe on a GPU, a resume, and the loaders.
#include "compat/torch_compat.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>

#include "device/torch_step.h"
#include "fisura/evaluate.h"
#include "fisura/sysinfo.h"
#include "fisura/testing.h"
#include "models/model_impl.h"
#include "train/trainer.h"
#include "util/json_bounded.h"

namespace fs = std::filesystem;

namespace fisura::train_detail
{

void toChannelsLast(torch::nn::Module& net)
{
    for (auto& p : net.parameters())
        if (p.dim() == 4)
            p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
}

Status Trainer::prepareData()
{
    if (o_.outPath.empty())
        return Status(ErrorCode::InvalidArgument, "no output model path");
    res_.modelPath = o_.outPath;
    res_.checkpointPath = o_.checkpointPath.empty() ? o_.outPath + ".ckpt" : o_.checkpointPath;
    res_.splitPath = o_.splitPath.empty() ? o_.outPath + ".split.json" : o_.splitPath;

    auto scanned = scanDataset(o_.dataDir, o_.task, o_.scan, cancel_);
    if (!scanned)
        return scanned.status();
    ds_ = std::move(*scanned);
    const Dataset& ds = *ds_;
    for (const auto& p : ds.problems)
        ev_.notice("skipped_file", p.path + ": " + p.reason);
    mc_ = o_.model;
    mc_.type = trainedModelType(o_);
    if (mc_.type == ModelType::PatchGaussian && !o_.resumeFrom.empty())
        return Status(ErrorCode::InvalidArgument,
                      "a patch-gaussian model is fitted in one pass: there is nothing to resume");
    if (o_.task == TaskKind::Classify)
        mc_.classes = int(std::max<size_t>(2, ds.classes.size()));
    if (Status s = loadStartingModel(); !s)
        return s;
    // After the model checks, so a refused job leaves no split behind. A saved split is reused,
    // so a resumed or repeated job validates on the same images.
    std::error_code ec;
    if (fs::exists(res_.splitPath, ec)) {
        auto loaded = loadSplit(res_.splitPath, ds);
        if (!loaded)
            return loaded.status();
        split_ = *loaded;
        ev_.notice("split_reused", res_.splitPath);
    } else {
        // Every rank makes the same split from the seed; rank 0 alone writes it.
        split_ = makeSplit(ds, o_.valFraction, 0.0, o_.seed);
        if (isRoot()) {
            if (Status st = saveSplit(res_.splitPath, ds, split_); !st)
                return st;
            splitCreated_ = true;
        }
    }
    if (split_.train.empty())
        return Status(ErrorCode::InvalidArgument, "the training split is empty");
    res_.policy = choosePolicy(queryMachine(), policyRequestFor(o_));
    if (Status s = checkDistributed(); !s)
        return s;
    shareHostCores();
    // One process per GPU: this one drives the GPU of its local rank, or the one GPU it sees
    // when the launcher gave each process its own (srun --gpus-per-task 1, CUDA_VISIBLE_DEVICES).
    if (world_ > 1 && res_.policy.useCuda) {
        const int gpus = int(queryMachine().gpus.size());
        const DistributedIdentity& id = o_.distributed;
        if (gpus >= id.localWorldSize)
            res_.policy.deviceIndex = id.localRank;
        else if (gpus == 1)
            res_.policy.deviceIndex = 0;
        else
            return Status(ErrorCode::InvalidArgument,
                          "local rank " + std::to_string(id.localRank) + " of " +
                              std::to_string(id.localWorldSize) +
                              " processes on this host, but this process sees " +
                              std::to_string(gpus) + " GPUs");
    }
    return Status::ok();
}

Status Trainer::setUp()
{
    const ExecutionPolicy& pol = res_.policy;
    device_ =
        pol.useCuda ? torch::Device(torch::kCUDA, pol.deviceIndex) : torch::Device(torch::kCPU);
    applyCpuSettings(pol); // the job's thread runs the steps: LibTorch's OpenMP team is per thread
    if (!pol.useCuda)
        mallocScope_ = std::make_unique<detail::TrainingMallocScope>();
    if (Status s = joinJob(); !s)
        return s;
    if (pol.useCuda) {
        at::globalContext().setAllowTF32CuBLAS(pol.tf32);
        at::globalContext().setAllowTF32CuDNN(pol.tf32);
        at::globalContext().setBenchmarkCuDNN(pol.cudnnBenchmark);
        at::globalContext().setDeterministicCuDNN(false); // an inference may have set it
    }
    if (Status s = createModel(); !s)
        return s;
    // A resumed job keeps its batch; an explicit one is the user's.
    if (pol.useCuda && o_.batchSize <= 0 && o_.resumeFrom.empty())
        if (Status s = measureBatchSize(); !s)
            return s;

    st_.batchSize = pol.batchSize;
    scaler_.enabled = pol.useCuda && pol.precision == Precision::FP16 && pol.lossScaling;
    if (scaler_.enabled)
        scaler_.init(device_);
    if (!o_.resumeFrom.empty())
        if (Status s = resumeFromCheckpoint(); !s)
            return s;
    res_.history = st_.history;
    if (st_.bestEpoch >= 0)
        for (const auto& h : st_.history)
            if (h.epoch == st_.bestEpoch)
                res_.best = h;
    res_.bestEpoch = st_.bestEpoch;
    if (Status s = shareStartingPoint(); !s)
        return s;

    chooseStepGraph();
    createLoaders();
    if (world_ > 1 && samplesPerEpoch_ < st_.batchSize * world_)
        return Status(ErrorCode::InvalidArgument,
                      "the training split has " + std::to_string(samplesPerEpoch_) +
                          " samples, fewer than one global batch of " +
                          std::to_string(st_.batchSize * world_) + " (" +
                          std::to_string(st_.batchSize) + " per process x " +
                          std::to_string(world_) + ")");
    describeDataParallel();
    announceStart();
    chooseCpuMicroBatch();

    const ModelInfo& info = model_.info();
    const auto optF = torch::TensorOptions().dtype(torch::kFloat).device(device_);
    mean_ = torch::tensor(info.mean, optF).view({1, 3, 1, 1}) * 255.0;
    stdv_ = torch::tensor(info.std, optF).view({1, 3, 1, 1}) * 255.0;
    amp_ = pol.precision == Precision::BF16 ? at::kBFloat16 : at::kHalf;
    useAmp_ = pol.useCuda && pol.precision != Precision::FP32;

    // Batches go up on a side stream (CUDA): the compute stream waits for the copy, the CPU
    // does not. On a GPU the next batch is fetched and sent while the GPU still runs the
    // backward pass of the current one; on the CPU nothing changes (no copy at all).
    copies_ = std::make_unique<detail::CopyStream>(device_);
    lookahead_ = device_.is_cuda();

    // The schedule runs over the samples of the whole job (see lrAt).
    // A data-parallel job counts global samples: per process x processes per step.
    jobSamples_ = int64_t(o_.epochs) * (o_.maxBatchesPerEpoch > 0 ? int64_t(o_.maxBatchesPerEpoch) *
                                                                        st_.batchSize * world_
                                                                  : int64_t(samplesPerEpoch_));
    // The ranks read the loss back (and agree whether to stop) at the same steps.
    if (comm_ && readBackEverySteps_ == 0)
        readBackEverySteps_ = 16;
    return reestimateBatchNorm();
}

Status Trainer::createModel()
{
    // Model::create seeds LibTorch's global generator and draws the initial weights from it:
    // two jobs of one process (the ranks of a test, two GUI jobs) must not interleave there.
    static std::mutex creating;
    std::unique_lock<std::mutex> lock(creating);
    auto created = Model::create(mc_, o_.seed);
    lock.unlock();
    if (!created)
        return created.status();
    model_ = std::move(*created);
    ModelInfo& info = model_.info();
    info.classNames = ds_->classes;
    info.policyJson = util::dumpJson(policyJson(pol()));
    info.datasetJson = datasetSummaryJson(*ds_);
    net_ = model_.impl()->net.get();
    auto& net = *net_;
    net.to(device_);
    if (pol().channelsLast)
        toChannelsLast(net);
    adoptStartingWeights();
    params_ = net.parameters();
    opt_ = std::make_unique<torch::optim::AdamW>(
        params_, torch::optim::AdamWOptions(o_.learningRate).weight_decay(o_.weightDecay));
    adamwKernel_ = chooseAdamWKernel(device_);
    readBackEverySteps_ = lossReadBackSteps(device_);
    const bool fused = adamwKernel_ == AdamWKernel::Fused;
    res_.policy.choices.push_back(
        {"optimizer", adamwKernelName(adamwKernel_),
         fused ? "AdamW as one fused kernel for all weights; the loss is read back every half "
                 "second, so no step waits for the GPU"
               : "AdamW on all weights at once (multi-tensor operations)",
         fused ? "optimizer_fused" : "optimizer_foreach", ""});
    return Status::ok();
}

/// Batch size by measurement on a GPU (issue: never make analysts guess): forward and backward
/// passes of this very network on random inputs at growing sizes; the memory table stays the
/// fallback when probing fails.
Status Trainer::measureBatchSize()
{
    const ExecutionPolicy& pol = res_.policy;
    auto& net = *net_;
    const at::ScalarType probeAmp = pol.precision == Precision::BF16 ? at::kBFloat16 : at::kHalf;
    const bool probeUseAmp = pol.precision != Precision::FP32;
    BatchProbeOptions po;
    po.deviceIndex = pol.deviceIndex;
    // A batch larger than a quarter of the training set leaves too few optimizer steps
    // per epoch, whatever the GPU could hold.
    po.maxBatch = std::clamp(std::max(int(split_.train.size()), o_.samplesPerEpoch) / 4, 1, 1024);
    auto step = [&](int b) {
        return detail::guardTorchStep([&] {
            auto x = torch::randn({b, 3, mc_.inputSize, mc_.inputSize},
                                  torch::TensorOptions().device(device_));
            if (pol.channelsLast)
                x = x.contiguous(at::MemoryFormat::ChannelsLast);
            torch::Tensor out;
            {
                compat::CudaAutocast ac(probeUseAmp, probeAmp);
                out = model_.impl()->forward(x);
            }
            out.to(torch::kFloat).mean().backward();
            net.zero_grad();
        });
    };
    auto probe = probeBatchSize(step, po, cancel_);
    net.zero_grad();
    if (cancel_.isCancelled())
        return Status(ErrorCode::Cancelled, "cancelled while measuring the batch size");
    if (probe) {
        applyProbe(res_.policy, *probe);
        model_.info().policyJson = util::dumpJson(policyJson(pol));
        ev_.notice("batch_probed", probe->reason);
    } else {
        ev_.notice("batch_probe_failed", probe.status().toString());
    }
    return Status::ok();
}

void Trainer::createLoaders()
{
    const ExecutionPolicy& pol = res_.policy;
    LoaderOptions lo;
    lo.inputSize = mc_.inputSize;
    lo.batchSize = st_.batchSize;
    lo.threads = o_.loaderThreads > 0 ? o_.loaderThreads : pol.loaderThreads;
    lo.prefetch = o_.prefetch > 0 ? o_.prefetch : 2 * lo.threads;
    lo.augment = o_.augment;
    lo.shuffle = true;
    // BatchNorm dislikes a batch of 1.
    lo.dropLast = std::max(int(split_.train.size()), o_.samplesPerEpoch) > st_.batchSize;
    lo.pinned = pol.pinnedMemory;
    lo.seed = o_.seed;
    lo.minSamplesPerEpoch = o_.samplesPerEpoch;
    // The next epoch's first batches are decoded while this one ends and while rank 0 validates
    // and writes the checkpoint, so an epoch does not begin with the GPU waiting for data.
    lo.lookAhead = LookAhead::NextEpoch;
    trainLoader_ = std::make_unique<BatchLoader>(*ds_, split_.train, lo);
    LoaderOptions vo = lo;
    vo.augment = false;
    vo.shuffle = false;
    vo.dropLast = false;
    vo.threads = std::max(1, lo.threads / 2);
    vo.prefetch = 2 * vo.threads;
    vo.lookAhead = LookAhead::SameEpoch; // every validation reads the same batches
    vo.minSamplesPerEpoch = 0;
    valLoader_ = std::make_unique<BatchLoader>(*ds_, split_.val, vo);
    tl_ = trainLoader_->impl();
    vl_ = valLoader_->impl();
    tl_->setShard(rank_, world_); // validation: rank 0 reads the whole split

    tl_->start(st_.epochsDone, 0, st_.batchSize);
    samplesPerEpoch_ = tl_->samplesPerEpoch();
    batchesPerEpoch_ = std::max(1, tl_->batchesPerEpoch());
    if (o_.maxBatchesPerEpoch > 0)
        batchesPerEpoch_ = std::min(batchesPerEpoch_, o_.maxBatchesPerEpoch);
}

/// On the CPU, a batch whose training memory (estimateFootprint) is over the budget trains in
/// equal parts with its gradients accumulated (train/micro_batch.h); the log says so. Not in a
/// data-parallel job: its gradient all-reduce starts during the (one) backward pass.
void Trainer::chooseCpuMicroBatch()
{
    microBatch_ = 0;
    if (pol().useCuda || comm_ || st_.batchSize <= 1)
        return;
    auto fp = estimateFootprint(mc_, pol().precision);
    if (!fp)
        return; // no estimate: the batch trains whole, as before
    const uint64_t budget = cpuTrainingBudgetBytes(o_.cpuMemoryMb);
    const int part = fp->partWithin(st_.batchSize, budget);
    if (part >= st_.batchSize)
        return;
    microBatch_ = part;
    auto mib = [](uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20); };
    ev_.notice("cpu_micro_batch", "batches of " + std::to_string(st_.batchSize) + " train in " +
                                      std::to_string(st_.batchSize / part) + " parts of " +
                                      std::to_string(part) + ": a whole batch needs about " +
                                      mib(fp->trainingBytes(st_.batchSize)) +
                                      " MiB, over the CPU training budget of " + mib(budget) +
                                      " MiB (cpu_memory_mb, --cpu-memory)");
}

void Trainer::announceStart()
{
    if (!sink_)
        return;
    TrainStarted s;
    s.policy = pol();
    s.datasetJson = model_.info().datasetJson;
    s.trainItems = int(split_.train.size());
    s.valItems = int(split_.val.size());
    s.batchesPerEpoch = batchesPerEpoch_;
    s.parameters = model_.parameterCount();
    s.startEpoch = st_.epochsDone;
    s.worldSize = world_;
    s.batchPerProcess = st_.batchSize;
    s.globalBatch = st_.batchSize * world_;
    s.startedFrom = startPath_;
    sink_->started(s);
}

} // namespace fisura::train_detail

// Fitting a patch-gaussian model (PaDiM, Defard et al. 2020): it is not trained by gradients but
// fitted in one pass over the crack-free training images, feature statistics accumulated per
// position (anomaly/patch_stats.h); the threshold then comes from the scores of the held-out
// validation images, as the autoencoder's does (their 99th percentile), here of each image's
// highest pixel score. Memory is checked before anything is allocated: the statistics need
// positions x d^2 values, on the device when they fit there, else on the host, else the job is
// refused with the numbers. The model file is written once, at the end, atomically.
#include "compat/torch_compat.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "fisura/gpumemory.h"
#include "fisura/sysinfo.h"
#include "fisura/testing.h"
#include "models/model_impl.h"
#include "models/patch_gaussian.h"
#include "train/trainer.h"

namespace fisura::train_detail
{

namespace
{

/// Share of the free memory the statistics may take (the rest: features, batches, the rest of
/// the process and the system).
constexpr double kUsableShare = 0.6;

/// "12.3 MiB" (KiB below one MiB, GiB from one GiB).
std::string mib(uint64_t bytes)
{
    std::ostringstream s;
    s.precision(1);
    s << std::fixed;
    if (bytes >= (1ull << 30))
        s << double(bytes) / double(1ull << 30) << " GiB";
    else if (bytes >= (1ull << 20))
        s << double(bytes) / double(1ull << 20) << " MiB";
    else
        s << double(bytes) / 1024.0 << " KiB";
    return s.str();
}

models::PatchGaussianImpl& patchNet(Model& m)
{
    return static_cast<models::PatchGaussianImpl&>(*m.impl()->net);
}

/// Nearest-rank quantile of sorted values.
double quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0.0;
    const size_t k = size_t(std::ceil(q * double(sorted.size())));
    return sorted[std::min(sorted.size() - 1, k > 0 ? k - 1 : 0)];
}

} // namespace

uint64_t g_patchMemoryLimit = 0; // testing::limitPatchStatisticsMemory

/// Where the statistics can live: the training device, else the host; refused when neither has
/// room (OutOfMemory with the numbers).
Status Trainer::choosePatchDevice(torch::Device& statsDevice)
{
    auto size = patchGaussianSize(mc_);
    if (!size)
        return size.status();
    const uint64_t need = size->fitBytes;
    const std::string what = std::to_string(size->positions) + " positions x " +
                             std::to_string(size->featureDim) + "^2 features";
    std::string where;
    statsDevice = device_;
    if (device_.is_cuda()) {
        auto gm = gpuMemoryStats(pol().deviceIndex); // device_ may carry no index
        const uint64_t free = gm ? gm->driverFreeBytes : 0;
        if (double(need) <= kUsableShare * double(free)) {
            ev_.notice("patch_memory", "statistics need " + mib(need) + " (" + what + "), " +
                                           mib(free) + " free on the GPU");
            return Status::ok();
        }
        where = mib(free) + " free on the GPU, ";
        statsDevice = torch::Device(torch::kCPU);
    }
    uint64_t ram = queryMachine().availableRamBytes;
    if (g_patchMemoryLimit > 0)
        ram = g_patchMemoryLimit;
    if (double(need) > kUsableShare * double(ram))
        return Status(ErrorCode::OutOfMemory,
                      "the patch-gaussian statistics need " + mib(need) + " (" + what + "); " +
                          where + mib(ram) + " available in RAM. Use a smaller input size or " +
                          "feature dimension, or pool the positions");
    ev_.notice("patch_memory", "statistics need " + mib(need) + " (" + what + "), kept in RAM (" +
                                   where + mib(ram) + " available)");
    return Status::ok();
}

/// One pass over the training images; progress with ETA after every batch, a cancel answered
/// between batches (and inside the loader's wait).
Status Trainer::accumulatePatches(const torch::Device& statsDevice, anomaly::PatchStats& stats)
{
    auto& net = patchNet(model_);
    const int g = net.grid;
    const bool pooled = mc_.pooledPositions;
    anomaly::GaussianAccumulator acc(net.dim, pooled ? 1 : g, pooled ? 1 : g, statsDevice);
    tl_->start(0, 0, st_.batchSize);
    const auto t0 = Clock::now();
    EpochTally t;
    DeviceBatch d;
    while (!cancel_.isCancelled() && t.batchIndex < batchesPerEpoch_ &&
           tl_->next(d.host, cancel_)) {
        upload(d);
        const auto f = net.forAccumulator(net.features(toInput(d.pixels)));
        acc.add(f.to(statsDevice));
        ++t.batchIndex;
        t.samplesDone += d.host.count;
        t.images += d.host.count;
        smoothedRate_ = t.samplesDone / std::max(1e-6, secondsSince(t0));
        reportFit(t);
        d = {};
    }
    if (cancel_.isCancelled())
        return Status::ok();
    if (!tl_->error.isOk())
        return tl_->error;
    if (acc.count() < 2)
        return Status(ErrorCode::InvalidArgument,
                      "a patch-gaussian model needs at least two training images");
    anomaly::PatchStatsOptions po;
    po.shrinkage = anomaly::Shrinkage::Paco;
    try {
        stats = acc.finish(po);
    } catch (const c10::Error& e) {
        // PACO shrinks towards diag(S): a feature without any variance (a flat image region in
        // every sample) keeps C singular. Ledoit-Wolf shrinks towards a scaled identity.
        if (compat::isOutOfMemory(e))
            throw;
        ev_.notice("shrinkage", "the PACO-shrunk covariance is singular (a feature never "
                                "varies); using Ledoit-Wolf shrinkage instead");
        po.shrinkage = anomaly::Shrinkage::LedoitWolf;
        stats = acc.finish(po);
    }
    return Status::ok();
}

/// Progress of the fit as BatchProgress of its single "epoch"; the ETA counts the validation
/// pass (a forward pass per image, as fast as the fit's).
void Trainer::reportFit(const EpochTally& t)
{
    if (!sink_)
        return;
    BatchProgress bp;
    bp.epochs = 1;
    bp.batch = t.batchIndex;
    bp.batches = batchesPerEpoch_;
    bp.batchSize = st_.batchSize;
    bp.imagesPerSecond = smoothedRate_;
    const int64_t left = jobSamples_ - t.samplesDone + int64_t(split_.val.size());
    bp.etaSeconds = smoothedRate_ > 0 ? double(std::max<int64_t>(0, left)) / smoothedRate_ : -1;
    const auto gm = compat::gpuMemory(pol().deviceIndex);
    bp.gpuAllocatedBytes = gm.allocated;
    bp.gpuReservedBytes = gm.reserved;
    bp.gpuPeakBytes = gm.peak;
    sink_->batch(bp);
}

/// Scores of the validation images (the training images when there are none): each image's
/// highest pixel score; the threshold is their 99th percentile.
Status Trainer::patchThreshold(EpochMetrics& m)
{
    BatchLoader::Impl* loader = split_.val.empty() ? tl_ : vl_;
    if (split_.val.empty())
        ev_.notice("threshold_from_training",
                   "no validation images: the threshold comes from the training images");
    loader->start(0, 0, st_.batchSize);
    std::vector<double> scores;
    DeviceBatch d;
    while (!cancel_.isCancelled() && loader->next(d.host, cancel_)) {
        upload(d);
        const auto s = model_.impl()->forward(toInput(d.pixels)).flatten(1);
        const auto top = std::get<0>(s.max(1)).to(torch::kDouble).cpu();
        for (int i = 0; i < d.host.count; ++i)
            scores.push_back(top[i].item<double>());
        d = {};
    }
    if (cancel_.isCancelled())
        return Status::ok();
    if (!loader->error.isOk())
        return loader->error;
    std::sort(scores.begin(), scores.end());
    double sum = 0;
    for (double s : scores)
        sum += s;
    m.errorMean = scores.empty() ? 0.0 : sum / double(scores.size());
    m.errorP50 = quantile(scores, 0.50);
    m.errorP95 = quantile(scores, 0.95);
    m.errorP99 = quantile(scores, 0.99);
    m.errorMax = scores.empty() ? 0.0 : scores.back();
    m.anomalyThreshold = std::max(1e-6, m.errorP99);
    m.score = -m.errorP99;
    return Status::ok();
}

Status Trainer::fitPatchGaussian()
{
    const auto t0 = Clock::now();
    const ExecutionPolicy& pol = res_.policy;
    device_ =
        pol.useCuda ? torch::Device(torch::kCUDA, pol.deviceIndex) : torch::Device(torch::kCPU);
    torch::Device statsDevice = device_;
    if (Status s = choosePatchDevice(statsDevice); !s)
        return s;
    auto created = Model::create(mc_, o_.seed);
    if (!created)
        return created.status();
    model_ = std::move(*created);
    ModelInfo& info = model_.info();
    info.classNames = ds_->classes;
    info.policyJson = policyJson(pol).dump();
    info.datasetJson = datasetSummaryJson(*ds_);
    net_ = model_.impl()->net.get();
    net_->to(device_);
    net_->eval();
    st_.batchSize = o_.batchSize > 0 ? o_.batchSize : std::max(1, pol.batchSize);

    LoaderOptions lo;
    lo.inputSize = mc_.inputSize;
    lo.batchSize = st_.batchSize;
    lo.threads = o_.loaderThreads > 0 ? o_.loaderThreads : pol.loaderThreads;
    lo.prefetch = o_.prefetch > 0 ? o_.prefetch : 2 * lo.threads;
    lo.pinned = pol.pinnedMemory;
    lo.seed = o_.seed; // no augmentation, no shuffling: the statistics of the images as they are
    trainLoader_ = std::make_unique<BatchLoader>(*ds_, split_.train, lo);
    valLoader_ = std::make_unique<BatchLoader>(*ds_, split_.val, lo);
    tl_ = trainLoader_->impl();
    vl_ = valLoader_->impl();
    tl_->start(0, 0, st_.batchSize);
    samplesPerEpoch_ = tl_->samplesPerEpoch();
    batchesPerEpoch_ = std::max(1, tl_->batchesPerEpoch());
    if (o_.maxBatchesPerEpoch > 0)
        batchesPerEpoch_ = std::min(batchesPerEpoch_, o_.maxBatchesPerEpoch);
    jobSamples_ = std::min<int64_t>(samplesPerEpoch_, int64_t(batchesPerEpoch_) * st_.batchSize);
    epochOverheadSeconds_ = -1;
    announceStart();

    const auto optF = torch::TensorOptions().dtype(torch::kFloat).device(device_);
    mean_ = torch::tensor(info.mean, optF).view({1, 3, 1, 1}) * 255.0;
    stdv_ = torch::tensor(info.std, optF).view({1, 3, 1, 1}) * 255.0;
    copies_ = std::make_unique<detail::CopyStream>(device_);

    c10::InferenceMode guard;
    anomaly::PatchStats stats;
    if (Status s = accumulatePatches(statsDevice, stats); !s)
        return s;
    if (!cancel_.isCancelled()) {
        patchNet(model_).setStatistics(stats);
        EpochMetrics m;
        m.epoch = 0;
        m.imagesPerSecond = smoothedRate_;
        if (Status s = patchThreshold(m); !s)
            return s;
        if (!cancel_.isCancelled()) {
            m.seconds = secondsSince(t0);
            m.gpuPeakBytes = compat::gpuMemory(pol.deviceIndex).peak;
            m.improved = true;
            if (Status s = saveBestModel(m); !s)
                return s;
            res_.best = m;
            res_.bestEpoch = 0;
            res_.history = {m};
            res_.epochsRun = 1;
            res_.finalBatchSize = st_.batchSize;
            if (sink_)
                sink_->epoch(m);
            return Status::ok();
        }
    }
    res_.cancelled = true;
    ev_.notice("cancelled", "stopped while fitting the patch statistics; nothing was written");
    return Status::ok();
}

} // namespace fisura::train_detail

namespace fisura::testing
{
void limitPatchStatisticsMemory(uint64_t bytes)
{
    train_detail::g_patchMemoryLimit = bytes;
}
} // namespace fisura::testing

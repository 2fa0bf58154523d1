// One epoch of optimiser steps: the learning-rate schedule, mixed precision with loss scaling,
// gradient clipping, the look-ahead copy of the next batch, and the out-of-memory back-off that
// halves the batch and carries on where the epoch was.
#include "compat/torch_compat.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "fisura/testing.h"
#include "models/model_impl.h"
#include "models/unet_train.h"
#include "train/train_optim.h"
#include "train/trainer.h"

namespace fisura
{

namespace
{
std::atomic<int> g_oomAtStep{-1};
std::atomic<int> g_readBackSteps{0};
std::atomic<bool> g_reuseFirstBatch{false};
} // namespace

void testing::injectOutOfMemoryAtStep(int step)
{
    g_oomAtStep.store(step);
}

void testing::setLossReadBackSteps(int steps)
{
    g_readBackSteps.store(std::max(0, steps));
}

void testing::reuseFirstBatch(bool reuse)
{
    g_reuseFirstBatch.store(reuse);
}

namespace train_detail
{

double lrAt(Schedule s, double base, double p)
{
    p = std::clamp(p, 0.0, 1.0);
    const double pi = 3.14159265358979323846;
    if (s == Schedule::OneCycle) {
        const double warm = 0.3, start = base / 25.0, end = base / 1e4;
        if (p < warm)
            return start + (base - start) * 0.5 * (1.0 - std::cos(pi * p / warm));
        return end + (base - end) * 0.5 * (1.0 + std::cos(pi * (p - warm) / (1.0 - warm)));
    }
    const double warm = 0.05;
    if (p < warm)
        return base * (p / warm);
    return base * 1e-3 +
           base * (1.0 - 1e-3) * 0.5 * (1.0 + std::cos(pi * (p - warm) / (1.0 - warm)));
}

void LossScaler::init(const torch::Device& dev)
{
    scale = torch::full({1}, 65536.0, torch::TensorOptions().dtype(torch::kFloat).device(dev));
    growthTracker = torch::zeros({1}, torch::TensorOptions().dtype(torch::kInt).device(dev));
    foundInf = torch::zeros({1}, torch::TensorOptions().dtype(torch::kFloat).device(dev));
}

bool LossScaler::unscale(const std::vector<torch::Tensor>& params)
{
    std::vector<torch::Tensor> grads;
    for (const auto& p : params)
        if (p.grad().defined())
            grads.push_back(p.grad());
    foundInf.zero_();
    at::_amp_foreach_non_finite_check_and_unscale_(grads, foundInf, scale.reciprocal());
    return foundInf.item<float>() == 0.0f;
}

void LossScaler::update()
{
    at::_amp_update_scale_(scale, growthTracker, foundInf, 2.0, 0.5, 2000);
}

void Trainer::upload(DeviceBatch& d)
{
    d.pixels = copies_->upload(d.host.pixels);
    if (d.host.labels.defined())
        d.labels = copies_->upload(d.host.labels);
    if (d.host.masks.defined())
        d.masks = copies_->upload(d.host.masks);
    d.uploaded = true;
}

/// uint8 NHWC pixels to the normalised float input of the network.
torch::Tensor Trainer::toInput(const torch::Tensor& pixels) const
{
    auto x = pixels.permute({0, 3, 1, 2}).to(torch::kFloat);
    x = (x - mean_) / stdv_; // NHWC storage permuted = channels-last already
    return pol().channelsLast ? x.contiguous(at::MemoryFormat::ChannelsLast) : x.contiguous();
}

/// The task's loss (training and validation alike); `target` gets what the metrics compare to.
torch::Tensor Trainer::lossOf(const torch::Tensor& out, const torch::Tensor& x,
                              const DeviceBatch& b, torch::Tensor* target) const
{
    if (o_.task == TaskKind::Classify) {
        *target = b.labels;
        return torch::nn::functional::cross_entropy(out.to(torch::kFloat), *target);
    }
    if (o_.task == TaskKind::Segment) { // BCE for the pixels, Dice for the thin crack shapes
        *target = b.masks.unsqueeze(1).to(torch::kFloat);
        return models::segmentationLoss(out, *target);
    }
    return torch::mse_loss(out.to(torch::kFloat), x);
}

Status Trainer::trainEpoch(int epoch, EpochTally& t)
{
    tl_->start(epoch, 0, st_.batchSize);
    batchesPerEpoch_ = std::max(1, tl_->batchesPerEpoch());
    if (o_.maxBatchesPerEpoch > 0)
        batchesPerEpoch_ = std::min(batchesPerEpoch_, o_.maxBatchesPerEpoch);
    ahead_.reset();
    t.windowStart = Clock::now();
    double lr = 0;
    while (t.batchIndex < batchesPerEpoch_) {
        DeviceBatch d;
        if (!takeBatch(d)) {
            if (!cancel_.isCancelled() && !tl_->error.isOk())
                return tl_->error;
            break;
        }
        lr = setLearningRate(epoch, t.samplesDone);
        torch::Tensor loss;
        try {
            loss = trainStep(d, t.batchIndex + 1 < batchesPerEpoch_, lr);
        } catch (const c10::Error& e) {
            if (!compat::isOutOfMemory(e))
                throw;
            if (comm_) // the other processes cannot halve their batch at this very step
                return Status(ErrorCode::OutOfMemory,
                              "out of memory with a batch of " + std::to_string(st_.batchSize) +
                                  " per process; start the job again with a smaller --batch");
            if (Status s = backOffAfterOutOfMemory(epoch, t, d); !s)
                return s;
            continue;
        }
        ++st_.step;
        ++t.batchIndex;
        // Samples of the whole job: every rank trains a batch of the same size at each step.
        const int stepSamples = d.host.count * world_;
        t.samplesDone += stepSamples;
        t.images += stepSamples;
        const auto weighted = loss * double(d.host.count); // stays on the device
        t.windowLoss = t.windowLoss.defined() ? t.windowLoss + weighted : weighted;
        t.windowSamples += stepSamples;
        ++t.windowSteps;
        if (readBackDue(t))
            readBack(epoch, t, lr);
        if (stopRequested())
            break;
    }
    if (t.windowSteps > 0)
        readBack(epoch, t, lr);
    ahead_.reset();
    return Status::ok();
}

int lossReadBackSteps(const torch::Device& device)
{
    if (const int forced = g_readBackSteps.load(); forced > 0)
        return forced;
    return device.is_cuda() ? 0 : 1;
}

/// On the CPU every step is synchronous anyway: read each one. On a GPU the host reads the loss
/// (and so waits for the device) only every half second, so it can queue the next steps.
bool Trainer::readBackDue(const EpochTally& t) const
{
    if (readBackEverySteps_ > 0)
        return t.windowSteps >= readBackEverySteps_;
    return secondsSince(t.windowStart) >= 0.5;
}

/// The one host synchronisation of a window of steps: its mean loss, the rate over the window
/// (exact, since the device has finished it) and the loss scale; then the progress event.
void Trainer::readBack(int epoch, EpochTally& t, double lr)
{
    const double lossSum =
        comm_ ? agreeOnReadBack(t.windowLoss, stopAgreed_) : t.windowLoss.item<double>();
    const double seconds = std::max(1e-6, secondsSince(t.windowStart));
    t.lossSum += lossSum;
    t.lossCount += t.windowSamples;
    const double rate = t.windowSamples / seconds;
    // The same smoothing as one step at a time (weight 0.1 per step).
    const double keep = std::pow(0.9, t.windowSteps);
    smoothedRate_ = smoothedRate_ < 0 ? rate : keep * smoothedRate_ + (1.0 - keep) * rate;
    if (scaler_.enabled)
        st_.lossScale = scaler_.scale.item<double>();
    const float meanLoss = float(lossSum / std::max(1, t.windowSamples));
    t.windowLoss = torch::Tensor();
    t.windowSamples = t.windowSteps = 0;
    t.windowStart = Clock::now();
    reportBatch(epoch, t, meanLoss, lr);
}

/// The batch sent ahead during the previous step, else the loader's next one.
bool Trainer::takeBatch(DeviceBatch& d)
{
    if (g_reuseFirstBatch.load() && reused_) {
        d = *reused_;
        return true;
    }
    if (ahead_) {
        d = std::move(*ahead_);
        ahead_.reset();
        return true;
    }
    // The ranks of a data-parallel job stop together at a read-back (agreeOnReadBack), never
    // because one of them saw the cancellation first.
    return tl_->next(d.host, comm_ ? CancelToken() : cancel_);
}

double Trainer::setLearningRate(int epoch, int samplesDone)
{
    const double p = double(int64_t(epoch) * (jobSamples_ / o_.epochs) + samplesDone) /
                     double(std::max<int64_t>(1, jobSamples_));
    const double lr = lrAt(o_.schedule, o_.learningRate, p);
    for (auto& g : opt_->param_groups())
        static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
    return lr;
}

/// Forward, loss, backward and the optimiser step; returns the batch loss as a device scalar
/// (read back by readBack, not here). An out-of-memory comes out as c10::Error (trainEpoch backs
/// off). With bf16 or fp32 nothing in the step waits for the device; fp16's loss scaling reads
/// one flag per step to skip steps whose gradients overflowed.
torch::Tensor Trainer::trainStep(DeviceBatch& d, bool moreBatches, double lr)
{
    if (g_oomAtStep.load() >= 0 && g_oomAtStep.load() == st_.step) {
        g_oomAtStep.store(-1);
        compat::throwOutOfMemory("Injected for a test.");
    }
    if (!d.uploaded)
        upload(d);
    if (g_reuseFirstBatch.load() && !reused_)
        reused_ = d;
    if (stepGraphReady(d))
        return replayStep(d, lr, moreBatches);
    if (stepGraphDue(d))
        return captureAfterEagerStep(d, moreBatches);
    return eagerStep(d, moreBatches);
}

/// The batch in parts of microBatch_ (the CPU, chooseCpuMicroBatch): each part's loss, weighted
/// by its share of the batch, is backpropagated on its own, so only one part's activations are
/// alive at a time and the gradients add up to those of the batch's mean loss (BatchNorm and the
/// Dice term aside: they see one part). Returns the batch's loss, the parts' weighted sum.
torch::Tensor Trainer::backwardInParts(const DeviceBatch& d)
{
    zeroGrads();
    const int64_t n = d.pixels.size(0);
    torch::Tensor total;
    for (int64_t start = 0; start < n; start += microBatch_) {
        const int64_t len = std::min<int64_t>(microBatch_, n - start);
        DeviceBatch part;
        part.pixels = d.pixels.narrow(0, start, len);
        if (d.labels.defined())
            part.labels = d.labels.narrow(0, start, len);
        if (d.masks.defined())
            part.masks = d.masks.narrow(0, start, len);
        const auto x = toInput(part.pixels);
        torch::Tensor out;
        {
            compat::CpuAutocast cac(pol().precision == Precision::BF16);
            out = model_.impl()->forward(x);
        }
        torch::Tensor target;
        const auto loss = lossOf(out, x, part, &target) * (double(len) / double(n));
        loss.backward();
        total = total.defined() ? total + loss.detach() : loss.detach();
    }
    return total;
}

/// The step op by op (the CPU, fp16, a batch of another size, and the graph's warm-up).
torch::Tensor Trainer::eagerStep(DeviceBatch& d, bool moreBatches)
{
    if (microBatch_ > 0 &&
        d.pixels.size(0) > microBatch_) { // the CPU only: no scaler, no look-ahead
        auto loss = backwardInParts(d);
        if (o_.clipNorm > 0)
            clipGradNormOnDevice(params_, o_.clipNorm);
        adamwStep(*opt_, params_, adamwKernel_);
        return loss;
    }
    const auto x = toInput(d.pixels);
    torch::Tensor out;
    {
        compat::CudaAutocast ac(useAmp_, amp_);
        compat::CpuAutocast cac(!pol().useCuda && pol().precision == Precision::BF16);
        out = model_.impl()->forward(x);
    }
    torch::Tensor target;
    auto loss = lossOf(out, x, d, &target);
    zeroGrads();
    bool finite = true;
    if (scaler_.enabled)
        (loss * scaler_.scale).backward();
    else
        loss.backward();
    // The backward pass is queued, not done: fetch and send the next batch now, before anything
    // waits for the GPU.
    if (lookahead_ && moreBatches && !g_reuseFirstBatch.load())
        fetchAhead();
    averageGradients(); // data-parallel: the same mean gradient on every rank from here on
    if (scaler_.enabled)
        finite = scaler_.unscale(params_);
    if (finite && o_.clipNorm > 0)
        clipGradNormOnDevice(params_, o_.clipNorm);
    if (finite)
        adamwStep(*opt_, params_, adamwKernel_);
    if (scaler_.enabled)
        scaler_.update();
    return loss.detach();
}

/// The look-ahead copy (GPU only): the next batch goes up on the side stream while this one's
/// backward pass runs. Out of memory for it is no failure: the batch is sent again next step.
void Trainer::fetchAhead()
{
    DeviceBatch nb;
    if (tl_->next(nb.host, comm_ ? CancelToken() : cancel_)) {
        try {
            upload(nb);
        } catch (const c10::Error& e) {
            if (!compat::isOutOfMemory(e))
                throw;
            nb.pixels = nb.labels = nb.masks = torch::Tensor(); // retried next step
            nb.uploaded = false;
        }
        ahead_ = std::move(nb);
    }
}

/// Out of memory in a step: free what the step held, halve the batch and restart the loader at
/// the first sample not yet trained, so the epoch still sees every sample once.
Status Trainer::backOffAfterOutOfMemory(int epoch, EpochTally& t, DeviceBatch& d)
{
    opt_->zero_grad();
    ahead_.reset(); // the loader restarts below
    d = {};
    compat::releaseGpuCache();
    if (st_.batchSize <= 1)
        return Status(ErrorCode::OutOfMemory, "out of memory even with a batch of 1");
    const int old = st_.batchSize;
    st_.batchSize = std::max(1, st_.batchSize / 2);
    dropStepGraph(); // its buffers held memory; recaptured at the new size
    ++st_.oomRecoveries;
    ev_.notice("out_of_memory", "out of memory with a batch of " + std::to_string(old) +
                                    "; released the cache and continue with " +
                                    std::to_string(st_.batchSize));
    tl_->start(epoch, t.samplesDone, st_.batchSize);
    const int remaining = std::max(1, tl_->batchesPerEpoch());
    batchesPerEpoch_ = t.batchIndex + remaining;
    // A capped epoch (maxBatchesPerEpoch) keeps its samples: twice the steps at half the batch.
    if (o_.maxBatchesPerEpoch > 0)
        batchesPerEpoch_ =
            std::min(batchesPerEpoch_, t.batchIndex + 2 * (o_.maxBatchesPerEpoch - t.batchIndex));
    return Status::ok();
}

void Trainer::reportBatch(int epoch, const EpochTally& t, float loss, double lr)
{
    if (!sink_)
        return;
    BatchProgress bp;
    bp.epoch = epoch;
    bp.epochs = o_.epochs;
    bp.batch = t.batchIndex;
    bp.batches = batchesPerEpoch_;
    bp.batchSize = st_.batchSize;
    bp.loss = loss;
    bp.learningRate = lr;
    bp.imagesPerSecond = smoothedRate_;
    // Samples an epoch really trains: a dropped last partial batch is not trained.
    const int64_t perEpoch =
        std::min<int64_t>(jobSamples_ / o_.epochs, int64_t(batchesPerEpoch_) * st_.batchSize);
    const int64_t left = int64_t(o_.epochs - epoch) * perEpoch - t.samplesDone;
    if (smoothedRate_ > 0) {
        // Every epoch still to end validates and writes a checkpoint: before the first one has,
        // guess validation at a third of a training step per image (forward pass only).
        const double overhead = epochOverheadSeconds_ >= 0
                                    ? epochOverheadSeconds_
                                    : double(split_.val.size()) / (3.0 * smoothedRate_);
        bp.etaSeconds = double(std::max<int64_t>(0, left)) / smoothedRate_ +
                        double(o_.epochs - epoch) * overhead;
    } else {
        bp.etaSeconds = -1;
    }
    const auto gm = compat::gpuMemory(pol().deviceIndex);
    bp.gpuAllocatedBytes = gm.allocated;
    bp.gpuReservedBytes = gm.reserved;
    bp.gpuPeakBytes = gm.peak;
    sink_->batch(bp);
}

} // namespace train_detail

} // namespace fisura

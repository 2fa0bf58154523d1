// The training loop. Data arrives from BatchLoader as uint8 NHWC host batches; the conversion to
// normalised float NCHW (channels-last when the policy says so) happens on the device.
#include "compat/torch_compat.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "data/loader_impl.h"
#include "device/copy_stream.h"
#include "device/torch_step.h"
#include "fisura/sysinfo.h"
#include "fisura/train.h"
#include "models/model_impl.h"
#include "train/metrics.h"
#include "train/trainer.h"
#include "util/atomic_file.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace fisura
{

using train_detail::JobState;
using train_detail::LossScaler;
using train_detail::lrAt;
using train_detail::metricsFromJson;
using train_detail::metricsJson;
using train_detail::policyJson;
using train_detail::saveCheckpoint;

namespace
{

std::atomic<int> g_oomAtStep{-1};

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string utcNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

struct Event {
    TrainSink* sink;
    TrainResult& result;
    void notice(const std::string& code, const std::string& msg)
    {
        result.notices.push_back(code + ": " + msg);
        if (sink)
            sink->notice(code, msg);
    }
};

void toChannelsLast(torch::nn::Module& net)
{
    for (auto& p : net.parameters())
        if (p.dim() == 4)
            p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
}

/// A loader batch and its tensors on the training device (the same tensors on the CPU).
struct DeviceBatch {
    data::Batch host;
    torch::Tensor pixels, labels, masks;
    bool uploaded = false;
};

} // namespace

void testing::injectOutOfMemoryAtStep(int step)
{
    g_oomAtStep.store(step);
}

Result<TrainResult> train(const TrainOptions& o, const CancelToken& cancel, TrainSink* sink)
{
    const auto t0 = Clock::now();
    TrainResult res;
    Event ev{sink, res};
    if (o.outPath.empty())
        return Status(ErrorCode::InvalidArgument, "no output model path");
    if (o.epochs < 1)
        return Status(ErrorCode::InvalidArgument, "epochs must be at least 1");
    res.modelPath = o.outPath;
    res.checkpointPath = o.checkpointPath.empty() ? o.outPath + ".ckpt" : o.checkpointPath;
    res.splitPath = o.splitPath.empty() ? o.outPath + ".split.json" : o.splitPath;

    // Data.
    auto scanned = scanDataset(o.dataDir, o.task, o.scan, cancel);
    if (!scanned)
        return scanned.status();
    const Dataset& ds = *scanned;
    for (const auto& p : ds.problems)
        ev.notice("skipped_file", p.path + ": " + p.reason);
    DatasetSplit split;
    std::error_code ec;
    if (fs::exists(res.splitPath, ec)) {
        auto loaded = loadSplit(res.splitPath, ds);
        if (!loaded)
            return loaded.status();
        split = *loaded;
        ev.notice("split_reused", res.splitPath);
    } else {
        split = makeSplit(ds, o.valFraction, 0.0, o.seed);
        if (Status st = saveSplit(res.splitPath, ds, split); !st)
            return st;
    }
    if (split.train.empty())
        return Status(ErrorCode::InvalidArgument, "the training split is empty");

    // Policy and model.
    ModelConfig mc = o.model;
    mc.type = modelTypeFor(o.task);
    if (o.task == TaskKind::Classify)
        mc.classes = int(std::max<size_t>(2, ds.classes.size()));
    PolicyRequest req;
    req.kind = JobKind::Train;
    req.model = modelTypeName(mc.type);
    req.inputSize = mc.inputSize;
    req.precision = o.precision;
    req.batchSize = o.batchSize;
    req.preferCpu = o.preferCpu;
    res.policy = choosePolicy(queryMachine(), req);
    const ExecutionPolicy& pol = res.policy;

    try {
        const torch::Device device =
            pol.useCuda ? torch::Device(torch::kCUDA, pol.deviceIndex) : torch::Device(torch::kCPU);
        if (pol.useCuda) {
            at::globalContext().setAllowTF32CuBLAS(pol.tf32);
            at::globalContext().setAllowTF32CuDNN(pol.tf32);
            at::globalContext().setBenchmarkCuDNN(pol.cudnnBenchmark);
        }
        auto created = Model::create(mc, o.seed);
        if (!created)
            return created.status();
        Model model = std::move(*created);
        ModelInfo& info = model.info();
        info.classNames = ds.classes;
        info.policyJson = policyJson(pol).dump();
        info.datasetJson = datasetSummaryJson(ds);
        auto& net = *model.impl()->net;
        net.to(device);
        if (pol.channelsLast)
            toChannelsLast(net);
        auto params = net.parameters();
        torch::optim::AdamW opt(
            params, torch::optim::AdamWOptions(o.learningRate).weight_decay(o.weightDecay));

        // Batch size by measurement on a GPU (issue: never make analysts guess): forward and
        // backward passes of this very network on random inputs at growing sizes; the memory
        // table stays the fallback when probing fails. A resumed job keeps its batch.
        if (pol.useCuda && o.batchSize <= 0 && o.resumeFrom.empty()) {
            const at::ScalarType probeAmp =
                pol.precision == Precision::BF16 ? at::kBFloat16 : at::kHalf;
            const bool probeUseAmp = pol.precision != Precision::FP32;
            BatchProbeOptions po;
            po.deviceIndex = pol.deviceIndex;
            // A batch larger than a quarter of the training set leaves too few optimizer steps
            // per epoch, whatever the GPU could hold.
            po.maxBatch = std::clamp(int(split.train.size()) / 4, 1, 1024);
            auto step = [&](int b) {
                return detail::guardTorchStep([&] {
                    auto x = torch::randn({b, 3, mc.inputSize, mc.inputSize},
                                          torch::TensorOptions().device(device));
                    if (pol.channelsLast)
                        x = x.contiguous(at::MemoryFormat::ChannelsLast);
                    torch::Tensor out;
                    {
                        compat::CudaAutocast ac(probeUseAmp, probeAmp);
                        out = model.impl()->forward(x);
                    }
                    out.to(torch::kFloat).mean().backward();
                    net.zero_grad();
                });
            };
            auto probe = probeBatchSize(step, po, cancel);
            net.zero_grad();
            if (cancel.isCancelled())
                return Status(ErrorCode::Cancelled, "cancelled while measuring the batch size");
            if (probe) {
                applyProbe(res.policy, *probe);
                info.policyJson = policyJson(pol).dump();
                ev.notice("batch_probed", probe->reason);
            } else {
                ev.notice("batch_probe_failed", probe.status().toString());
            }
        }

        JobState st;
        st.batchSize = pol.batchSize;
        LossScaler scaler;
        scaler.enabled = pol.useCuda && pol.precision == Precision::FP16 && pol.lossScaling;
        if (scaler.enabled)
            scaler.init(device);

        if (!o.resumeFrom.empty()) {
            torch::serialize::InputArchive ar, mar, oar;
            std::error_code fec;
            if (!fs::is_regular_file(o.resumeFrom, fec))
                return Status(ErrorCode::NotFound, "no checkpoint at " + o.resumeFrom);
            try {
                ar.load_from(o.resumeFrom, device);
            } catch (const c10::Error& e) {
                return Status(ErrorCode::Corrupt, o.resumeFrom + " is not a Fisura checkpoint: " +
                                                      e.what_without_backtrace());
            }
            c10::IValue sv;
            if (!ar.try_read("state", sv) || !sv.isString())
                return Status(ErrorCode::Corrupt, o.resumeFrom + " is not a Fisura checkpoint");
            json j = json::parse(sv.toStringRef(), nullptr, false);
            if (j.is_discarded() || j.value("format", "") != "fisura-checkpoint")
                return Status(ErrorCode::Corrupt, o.resumeFrom + " is not a Fisura checkpoint");
            if (j.value("task", "") != taskName(o.task))
                return Status(ErrorCode::InvalidArgument,
                              o.resumeFrom + " is a " + j.value("task", "?") + " checkpoint");
            const json& mj = j["model"];
            if (mj.value("input_size", 0) != mc.inputSize || mj.value("depth", 0) != mc.depth ||
                mj.value("width", 0) != mc.width || mj.value("classes", 0) != mc.classes)
                return Status(ErrorCode::InvalidArgument,
                              o.resumeFrom + " was trained with another model configuration");
            ar.read("model", mar);
            ar.read("optimizer", oar);
            net.load(mar);
            if (pol.channelsLast)
                toChannelsLast(net);
            opt.load(oar);
            st.epochsDone = j.value("epochs_done", 0);
            st.batchSize = o.batchSize > 0 ? o.batchSize : j.value("batch_size", st.batchSize);
            st.bestScore = j.value("best_score", -1e300);
            st.bestEpoch = j.value("best_epoch", -1);
            st.badEpochs = j.value("bad_epochs", 0);
            st.oomRecoveries = j.value("oom_recoveries", 0);
            st.step = j.value("step", int64_t(0));
            st.lossScale = j.value("loss_scale", 65536.0);
            for (const auto& h : j.value("history", json::array()))
                st.history.push_back(metricsFromJson(h));
            torch::Tensor rng;
            if (ar.try_read("rng", rng))
                compat::setCpuRngState(rng);
            if (scaler.enabled)
                scaler.scale.fill_(st.lossScale);
            ev.notice("resumed", "continuing after epoch " + std::to_string(st.epochsDone) +
                                     " from " + o.resumeFrom);
        }
        res.history = st.history;
        if (st.bestEpoch >= 0)
            for (const auto& h : st.history)
                if (h.epoch == st.bestEpoch)
                    res.best = h;
        res.bestEpoch = st.bestEpoch;

        LoaderOptions lo;
        lo.inputSize = mc.inputSize;
        lo.batchSize = st.batchSize;
        lo.threads = o.loaderThreads > 0 ? o.loaderThreads : pol.loaderThreads;
        lo.prefetch = o.prefetch > 0 ? o.prefetch : 2 * lo.threads;
        lo.augment = o.augment;
        lo.shuffle = true;
        lo.dropLast = int(split.train.size()) > st.batchSize; // BatchNorm dislikes a batch of 1
        lo.pinned = pol.pinnedMemory;
        lo.seed = o.seed;
        BatchLoader trainLoader(ds, split.train, lo);
        LoaderOptions vo = lo;
        vo.augment = false;
        vo.shuffle = false;
        vo.dropLast = false;
        vo.threads = std::max(1, lo.threads / 2);
        vo.prefetch = 2 * vo.threads;
        BatchLoader valLoader(ds, split.val, vo);
        auto& tl = *trainLoader.impl();
        auto& vl = *valLoader.impl();

        tl.start(st.epochsDone, 0, st.batchSize);
        const int samplesPerEpoch = tl.samplesPerEpoch();
        int batchesPerEpoch = std::max(1, tl.batchesPerEpoch());
        if (o.maxBatchesPerEpoch > 0)
            batchesPerEpoch = std::min(batchesPerEpoch, o.maxBatchesPerEpoch);
        if (sink) {
            TrainStarted s;
            s.policy = pol;
            s.datasetJson = info.datasetJson;
            s.trainItems = int(split.train.size());
            s.valItems = int(split.val.size());
            s.batchesPerEpoch = batchesPerEpoch;
            s.parameters = model.parameterCount();
            s.startEpoch = st.epochsDone;
            sink->started(s);
        }

        const auto optF = torch::TensorOptions().dtype(torch::kFloat).device(device);
        const torch::Tensor mean = torch::tensor(info.mean, optF).view({1, 3, 1, 1}) * 255.0;
        const torch::Tensor stdv = torch::tensor(info.std, optF).view({1, 3, 1, 1}) * 255.0;
        const at::ScalarType amp = pol.precision == Precision::BF16 ? at::kBFloat16 : at::kHalf;
        const bool useAmp = pol.useCuda && pol.precision != Precision::FP32;

        // Batches go up on a side stream (CUDA): the compute stream waits for the copy, the CPU
        // does not. On a GPU the next batch is fetched and sent while the GPU still runs the
        // backward pass of the current one; on the CPU nothing changes (no copy at all).
        detail::CopyStream copies(device);
        const bool lookahead = device.is_cuda();
        auto upload = [&](DeviceBatch& d) {
            d.pixels = copies.upload(d.host.pixels);
            if (d.host.labels.defined())
                d.labels = copies.upload(d.host.labels);
            if (d.host.masks.defined())
                d.masks = copies.upload(d.host.masks);
            d.uploaded = true;
        };
        auto toInput = [&](const torch::Tensor& pixels) {
            auto x = pixels.permute({0, 3, 1, 2}).to(torch::kFloat);
            x = (x - mean) / stdv; // NHWC storage permuted = channels-last already
            return pol.channelsLast ? x.contiguous(at::MemoryFormat::ChannelsLast) : x.contiguous();
        };
        auto lossOf = [&](const torch::Tensor& out, const torch::Tensor& x, const DeviceBatch& b,
                          torch::Tensor* target) {
            if (o.task == TaskKind::Classify) {
                *target = b.labels;
                return torch::nn::functional::cross_entropy(out.to(torch::kFloat), *target);
            }
            if (o.task == TaskKind::Segment) {
                *target = b.masks.unsqueeze(1).to(torch::kFloat);
                const auto logits = out.to(torch::kFloat);
                const auto bce =
                    torch::nn::functional::binary_cross_entropy_with_logits(logits, *target);
                const auto p = torch::sigmoid(logits);
                const auto dice =
                    1.0 - (2.0 * (p * *target).sum() + 1.0) / (p.sum() + target->sum() + 1.0);
                return bce + dice;
            }
            return torch::mse_loss(out.to(torch::kFloat), x);
        };

        const int64_t jobSamples =
            int64_t(o.epochs) * (o.maxBatchesPerEpoch > 0
                                     ? int64_t(o.maxBatchesPerEpoch) * st.batchSize
                                     : int64_t(samplesPerEpoch));
        double smoothedRate = -1;
        for (int epoch = st.epochsDone; epoch < o.epochs; ++epoch) {
            const auto te = Clock::now();
            compat::resetGpuPeak(pol.deviceIndex);
            net.train();
            int samplesDone = 0, batchIndex = 0;
            double lossSum = 0;
            int lossCount = 0;
            tl.start(epoch, 0, st.batchSize);
            batchesPerEpoch = std::max(1, tl.batchesPerEpoch());
            if (o.maxBatchesPerEpoch > 0)
                batchesPerEpoch = std::min(batchesPerEpoch, o.maxBatchesPerEpoch);
            int epochImages = 0;
            std::optional<DeviceBatch> ahead; // fetched (and sent) during the previous step
            while (batchIndex < batchesPerEpoch) {
                auto tb = Clock::now();
                DeviceBatch d;
                if (ahead) {
                    d = std::move(*ahead);
                    ahead.reset();
                } else if (!tl.next(d.host, cancel)) {
                    if (cancel.isCancelled())
                        break;
                    if (!tl.error.isOk())
                        return tl.error;
                    break;
                }
                const double p = double(int64_t(epoch) * (jobSamples / o.epochs) + samplesDone) /
                                 double(std::max<int64_t>(1, jobSamples));
                const double lr = lrAt(o.schedule, o.learningRate, p);
                for (auto& g : opt.param_groups())
                    static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
                float lossValue = 0;
                try {
                    if (g_oomAtStep.load() >= 0 && g_oomAtStep.load() == st.step) {
                        g_oomAtStep.store(-1);
                        compat::throwOutOfMemory("Injected for a test.");
                    }
                    if (!d.uploaded)
                        upload(d);
                    const auto x = toInput(d.pixels);
                    torch::Tensor out;
                    {
                        compat::CudaAutocast ac(useAmp, amp);
                        out = model.impl()->forward(x);
                    }
                    torch::Tensor target;
                    auto loss = lossOf(out, x, d, &target);
                    opt.zero_grad();
                    bool finite = true;
                    if (scaler.enabled)
                        (loss * scaler.scale).backward();
                    else
                        loss.backward();
                    // The backward pass is queued, not done: fetch and send the next batch now,
                    // before the first read-back (gradient clipping) waits for the GPU.
                    if (lookahead && batchIndex + 1 < batchesPerEpoch) {
                        DeviceBatch nb;
                        if (tl.next(nb.host, cancel)) {
                            try {
                                upload(nb);
                            } catch (const c10::Error& e) {
                                if (!compat::isOutOfMemory(e))
                                    throw;
                                nb.pixels = nb.labels = nb.masks =
                                    torch::Tensor(); // retried next step
                                nb.uploaded = false;
                            }
                            ahead = std::move(nb);
                        }
                    }
                    if (scaler.enabled)
                        finite = scaler.unscale(params);
                    if (finite && o.clipNorm > 0)
                        torch::nn::utils::clip_grad_norm_(params, o.clipNorm);
                    if (finite)
                        opt.step();
                    if (scaler.enabled) {
                        scaler.update();
                        st.lossScale = scaler.scale.item<double>();
                    }
                    lossValue = loss.item<float>();
                } catch (const c10::Error& e) {
                    if (!compat::isOutOfMemory(e))
                        throw;
                    opt.zero_grad();
                    ahead.reset(); // the loader restarts below
                    d = {};
                    compat::releaseGpuCache();
                    if (st.batchSize <= 1)
                        return Status(ErrorCode::OutOfMemory,
                                      "out of memory even with a batch of 1");
                    const int old = st.batchSize;
                    st.batchSize = std::max(1, st.batchSize / 2);
                    ++st.oomRecoveries;
                    ev.notice("out_of_memory", "out of memory with a batch of " +
                                                   std::to_string(old) +
                                                   "; released the cache and continue with " +
                                                   std::to_string(st.batchSize));
                    tl.start(epoch, samplesDone, st.batchSize);
                    const int remaining = std::max(1, tl.batchesPerEpoch());
                    batchesPerEpoch = batchIndex + remaining;
                    if (o.maxBatchesPerEpoch > 0)
                        batchesPerEpoch = std::min(
                            batchesPerEpoch, batchIndex + 2 * (o.maxBatchesPerEpoch - batchIndex));
                    continue;
                }
                ++st.step;
                ++batchIndex;
                samplesDone += d.host.count;
                epochImages += d.host.count;
                lossSum += lossValue * d.host.count;
                lossCount += d.host.count;
                const double rate = d.host.count / std::max(1e-6, secondsSince(tb));
                smoothedRate = smoothedRate < 0 ? rate : 0.9 * smoothedRate + 0.1 * rate;
                if (sink) {
                    BatchProgress bp;
                    bp.epoch = epoch;
                    bp.epochs = o.epochs;
                    bp.batch = batchIndex;
                    bp.batches = batchesPerEpoch;
                    bp.batchSize = st.batchSize;
                    bp.loss = lossValue;
                    bp.learningRate = lr;
                    bp.imagesPerSecond = smoothedRate;
                    const int64_t left =
                        int64_t(o.epochs - epoch) * (jobSamples / o.epochs) - samplesDone;
                    bp.etaSeconds =
                        smoothedRate > 0 ? double(std::max<int64_t>(0, left)) / smoothedRate : -1;
                    const auto gm = compat::gpuMemory(pol.deviceIndex);
                    bp.gpuAllocatedBytes = gm.allocated;
                    bp.gpuReservedBytes = gm.reserved;
                    bp.gpuPeakBytes = gm.peak;
                    sink->batch(bp);
                }
                if (cancel.isCancelled())
                    break;
            }
            if (cancel.isCancelled()) {
                res.cancelled = true;
                ev.notice("cancelled", "stopped during epoch " + std::to_string(epoch + 1) +
                                           "; the checkpoint of the last completed epoch is kept");
                break;
            }
            const double trainSeconds = secondsSince(te);

            // Validation.
            EpochMetrics m;
            m.epoch = epoch;
            m.trainLoss = lossCount ? lossSum / lossCount : -1;
            m.learningRate = lrAt(o.schedule, o.learningRate,
                                  double(int64_t(epoch + 1) * (jobSamples / o.epochs)) /
                                      double(std::max<int64_t>(1, jobSamples)));
            m.imagesPerSecond = epochImages / std::max(1e-6, trainSeconds);
            m.gpuPeakBytes = compat::gpuMemory(pol.deviceIndex).peak;
            if (!split.val.empty()) {
                net.eval();
                torch::NoGradGuard ng;
                train_detail::MetricAccumulator acc(o.task, ds.positiveClass(), device);
                vl.start(0, 0, st.batchSize);
                DeviceBatch vb, vnext;
                bool have = vl.next(vb.host, cancel);
                double vloss = 0;
                int vcount = 0;
                while (have) {
                    if (!vb.uploaded)
                        upload(vb);
                    const auto x = toInput(vb.pixels);
                    torch::Tensor out;
                    {
                        compat::CudaAutocast ac(useAmp, amp);
                        out = model.impl()->forward(x);
                    }
                    torch::Tensor target;
                    const auto batchLoss = lossOf(out, x, vb, &target);
                    bool haveNext = false;
                    if (lookahead) { // as in training: the next batch travels during this one
                        haveNext = vl.next(vnext.host, cancel);
                        if (haveNext)
                            upload(vnext);
                    }
                    vloss += batchLoss.item<double>() * vb.host.count;
                    vcount += vb.host.count;
                    acc.add(out.to(torch::kFloat), x, target);
                    if (!lookahead)
                        haveNext = vl.next(vnext.host, cancel);
                    vb = std::move(vnext);
                    vnext = {};
                    have = haveNext;
                }
                if (cancel.isCancelled()) {
                    res.cancelled = true;
                    ev.notice("cancelled",
                              "stopped while validating epoch " + std::to_string(epoch + 1) +
                                  "; the checkpoint of the last completed epoch is kept");
                    break;
                }
                if (!vl.error.isOk())
                    return vl.error;
                m.valLoss = vcount ? vloss / vcount : -1;
                acc.finish(m);
            } else {
                m.score = -m.trainLoss;
            }
            m.seconds = secondsSince(te);
            m.improved = m.score > st.bestScore;
            if (m.improved) {
                st.bestScore = m.score;
                st.bestEpoch = epoch;
                st.badEpochs = 0;
                info.threshold = o.task == TaskKind::Segment
                                     ? (m.bestThreshold > 0 ? m.bestThreshold : 0.5)
                                 : o.task == TaskKind::Anomaly ? m.anomalyThreshold
                                                               : 0.5;
                info.metricsJson = metricsJson(m).dump();
                info.trainedAt = utcNow();
                if (Status s = model.save(o.outPath); !s)
                    return s;
                res.best = m;
                res.bestEpoch = epoch;
            } else {
                ++st.badEpochs;
            }
            st.history.push_back(m);
            res.history = st.history;
            st.epochsDone = epoch + 1;
            if (Status s = saveCheckpoint(res.checkpointPath, model, opt, st, o); !s)
                return s;
            if (sink)
                sink->epoch(m);
            if (o.patience > 0 && st.badEpochs >= o.patience && epoch + 1 < o.epochs) {
                res.stoppedEarly = true;
                ev.notice("early_stop",
                          "no improvement for " + std::to_string(st.badEpochs) + " epochs");
                break;
            }
            const bool pauseNow = (o.stopAfterEpoch > 0 && st.epochsDone >= o.stopAfterEpoch) ||
                                  o.pauseRequested.isCancelled();
            if (pauseNow && epoch + 1 < o.epochs) {
                res.paused = true;
                ev.notice("paused",
                          "stopped after epoch " + std::to_string(st.epochsDone) + " as asked");
                break;
            }
        }
        res.epochsRun = st.epochsDone;
        res.finalBatchSize = st.batchSize;
        res.outOfMemoryRecoveries = st.oomRecoveries;
    } catch (const c10::Error& e) {
        if (compat::isOutOfMemory(e))
            return Status(ErrorCode::OutOfMemory, e.what_without_backtrace());
        return Status(ErrorCode::DeviceError, e.what_without_backtrace());
    } catch (const std::exception& e) {
        return Status(ErrorCode::Internal, e.what());
    }
    res.seconds = secondsSince(t0);
    return res;
}

} // namespace fisura

// Evaluation of a saved model on the validation part of its run's split: the same loader, the
// same normalisation and the same device choice as training, in inference mode. Everything is
// accumulated batch by batch: probability histograms (segmentation), a confusion matrix
// (classification), one error per image (anomaly) and a bounded gallery; nothing per pixel
// outlives its batch.
#include "compat/torch_compat.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "data/loader_impl.h"
#include "device/torch_step.h"
#include "fisura/evaluate.h"
#include "fisura/infer.h"
#include "fisura/sysinfo.h"
#include "models/model_impl.h"
#include "train/evaluate_gallery.h"
#include "train/evaluate_whole.h"

namespace fisura
{

namespace
{

using Clock = std::chrono::steady_clock;

TaskKind taskFor(ModelType t)
{
    switch (t) {
    case ModelType::Classifier:
        return TaskKind::Classify;
    case ModelType::Autoencoder:
    case ModelType::PatchGaussian:
        return TaskKind::Anomaly;
    case ModelType::UNet:
        break;
    }
    return TaskKind::Segment;
}

Status checkOptions(const EvaluateOptions& o)
{
    if (o.curvePoints < 2 || o.curvePoints > 10001)
        return Status(ErrorCode::InvalidArgument, "curvePoints must be 2..10001");
    if (o.histogramBins < 1 || o.histogramBins > 100000)
        return Status(ErrorCode::InvalidArgument, "histogramBins must be 1..100000");
    if (o.gallery < 0 || o.gallery > 1000)
        return Status(ErrorCode::InvalidArgument, "gallery must be 0..1000");
    if (o.maxItems < 0 || o.batchSize < 0 || o.threads < 0)
        return Status(ErrorCode::InvalidArgument, "maxItems, batchSize and threads must be >= 0");
    return Status::ok();
}

std::vector<uint8_t> bytesOf(const torch::Tensor& t)
{
    const auto c = t.to(torch::kCPU, torch::kUInt8).contiguous();
    std::vector<uint8_t> v(size_t(c.numel()));
    std::memcpy(v.data(), c.data_ptr<uint8_t>(), v.size());
    return v;
}

/// Per-task accumulation of one batch after another.
class Evaluator
{
public:
    Evaluator(const Dataset& ds, const ModelInfo& info, const EvaluateOptions& o,
              const torch::Device& device, EvaluationReport& report)
        : ds_(ds), o_(o), report_(report), gallery_(o.gallery)
    {
        report_.task = ds.task;
        report_.threshold = info.threshold;
        patchGaussian_ = info.config.type == ModelType::PatchGaussian;
        if (ds.task == TaskKind::Segment) {
            // Every curve threshold falls on a bin edge, so the curve is exact to the bin.
            binsPerStep_ = std::max(1, (2000 + o.curvePoints - 2) / (o.curvePoints - 1));
            bins_ = binsPerStep_ * (o.curvePoints - 1);
            const auto d = torch::TensorOptions().dtype(torch::kDouble).device(device);
            posHist_ = torch::zeros({bins_}, d);
            negHist_ = torch::zeros({bins_}, d);
        }
        if (ds.task == TaskKind::Classify)
            setUpClasses(info);
    }

    Status classStatus() const { return classStatus_; }

    /// `x` the normalised input, `pred` Model::Impl::predict(x), `masks` the device masks.
    void add(const data::Batch& b, const torch::Tensor& x, const torch::Tensor& pred,
             const torch::Tensor& masks)
    {
        if (ds_.task == TaskKind::Segment)
            addSegment(b, pred, masks);
        else if (ds_.task == TaskKind::Classify)
            addClassify(b, pred);
        else
            addAnomaly(b, x, pred);
    }

    void finish()
    {
        if (ds_.task == TaskKind::Segment)
            finishSegment();
        else if (ds_.task == TaskKind::Anomaly)
            finishAnomaly();
        report_.best = gallery_.takeBest();
        report_.worst = gallery_.takeWorst();
    }

private:
    GallerySample baseSample(const data::Batch& b, int i) const
    {
        GallerySample s;
        s.item = b.items[size_t(i)];
        const DatasetItem& it = ds_.items[size_t(s.item)];
        s.image = it.image;
        s.mask = it.mask;
        s.size = int(b.pixels.size(1));
        s.rgb = bytesOf(b.pixels[i]);
        return s;
    }

    void setUpClasses(const ModelInfo& info)
    {
        const int n = std::max(2, info.config.classes);
        report_.classes = info.classNames;
        if (report_.classes.empty())
            report_.classes = ds_.classes;
        report_.classes.resize(size_t(n));
        for (int i = 0; i < n; ++i)
            if (report_.classes[size_t(i)].empty())
                report_.classes[size_t(i)] = "class " + std::to_string(i);
        report_.confusion.assign(size_t(n), std::vector<int64_t>(size_t(n), 0));
        // Dataset labels index the dataset's sorted class names; the model may name its classes
        // in another order (or the dataset may have classes the model never saw).
        for (const auto& name : ds_.classes) {
            auto it = std::find(report_.classes.begin(), report_.classes.end(), name);
            if (it == report_.classes.end()) {
                classStatus_ = Status(ErrorCode::InvalidArgument,
                                      "the dataset's class " + name + " is unknown to the model");
                labelMap_.push_back(-1);
            } else {
                labelMap_.push_back(int(it - report_.classes.begin()));
            }
        }
        positive_ = n > 1 ? 1 : 0;
        for (int i = 0; i < n; ++i)
            if (report_.classes[size_t(i)] == "cracked" || report_.classes[size_t(i)] == "crack")
                positive_ = i;
    }

    void addSegment(const data::Batch& b, const torch::Tensor& pred, const torch::Tensor& masks)
    {
        const auto prob = pred.to(torch::kFloat);
        const auto truth = masks.unsqueeze(1) > 0;
        posHist_ += torch::histc(prob.masked_select(truth), bins_, 0, 1).to(torch::kDouble);
        negHist_ +=
            torch::histc(prob.masked_select(truth.logical_not()), bins_, 0, 1).to(torch::kDouble);
        const auto said = prob >= report_.threshold;
        const auto tp = (said & truth).sum({1, 2, 3}).to(torch::kDouble).cpu();
        const auto fp = (said & truth.logical_not()).sum({1, 2, 3}).to(torch::kDouble).cpu();
        const auto fn = (said.logical_not() & truth).sum({1, 2, 3}).to(torch::kDouble).cpu();
        const auto tpa = tp.accessor<double, 1>(), fpa = fp.accessor<double, 1>(),
                   fna = fn.accessor<double, 1>();
        for (int i = 0; i < b.count; ++i) {
            const double den = 2 * tpa[i] + fpa[i] + fna[i];
            const double f1 = den > 0 ? 2 * tpa[i] / den : 1.0; // nothing to find, nothing found
            gallery_.offer(f1, [&] {
                GallerySample s = baseSample(b, i);
                s.quality = f1;
                s.truth = bytesOf(b.masks[i] * 255);
                s.prediction = bytesOf((prob[i][0] * 255.0).round().clamp(0, 255));
                return s;
            });
        }
        if (b.count > 0)
            countItems(b);
    }

    void addClassify(const data::Batch& b, const torch::Tensor& pred)
    {
        auto probs = pred.to(torch::kFloat);
        if (probs.size(1) == 1) // one column: the crack probability
            probs = torch::cat({1 - probs, probs}, 1);
        probs = probs.cpu().contiguous();
        const int n = int(report_.classes.size());
        const auto pa = probs.accessor<float, 2>();
        const auto labels = b.labels.accessor<int64_t, 1>();
        for (int i = 0; i < b.count; ++i) {
            const int dsLabel = int(labels[i]);
            const int t =
                dsLabel >= 0 && dsLabel < int(labelMap_.size()) ? labelMap_[size_t(dsLabel)] : -1;
            int p = 0;
            for (int c = 1; c < std::min<int>(n, int(probs.size(1))); ++c)
                if (pa[i][c] > pa[i][p])
                    p = c;
            if (t >= 0)
                ++report_.confusion[size_t(t)][size_t(p)];
            const double q = t >= 0 && t < probs.size(1) ? double(pa[i][t]) : 0.0;
            gallery_.offer(q, [&] {
                GallerySample s = baseSample(b, i);
                s.quality = q;
                s.trueLabel = t;
                s.predictedLabel = p;
                s.value = positive_ < probs.size(1) ? double(pa[i][positive_]) : 0.0;
                return s;
            });
        }
        report_.items += b.count;
    }

    void addAnomaly(const data::Batch& b, const torch::Tensor& x, const torch::Tensor& pred)
    {
        // The autoencoder's per-image value is its mean error, the patch-gaussian's its highest
        // distance: the statistics each threshold was chosen from.
        const auto perPixel = patchGaussian_
                                  ? pred.to(torch::kFloat).select(1, 0)
                                  : (pred.to(torch::kFloat) - x.to(torch::kFloat)).pow(2).mean(1);
        const auto err =
            (patchGaussian_ ? std::get<0>(perPixel.flatten(1).max(1)) : perPixel.flatten(1).mean(1))
                .to(torch::kDouble)
                .cpu();
        const auto ea = err.accessor<double, 1>();
        for (int i = 0; i < b.count; ++i) {
            const double e = ea[i];
            report_.errors.push_back(e);
            gallery_.offer(-e, [&] {
                GallerySample s = baseSample(b, i);
                s.quality = -e;
                s.value = e;
                // 128 = a pixel whose error equals the per-image threshold.
                const double ref = report_.threshold > 0 ? report_.threshold : std::max(e, 1e-12);
                s.prediction = bytesOf((perPixel[i] * (128.0 / ref)).round().clamp(0, 255));
                return s;
            });
        }
        report_.items += b.count;
    }

    /// Segmentation batches hold grid crops: an image counts once, however many crops it has.
    void countItems(const data::Batch& b)
    {
        for (int item : b.items)
            if (item != lastItem_) {
                ++report_.items;
                lastItem_ = item;
            }
    }

    void finishSegment()
    {
        const auto pos = posHist_.cpu(), neg = negHist_.cpu();
        const auto pa = pos.accessor<double, 1>(), na = neg.accessor<double, 1>();
        std::vector<double> tpAt(size_t(bins_) + 1, 0.0), fpAt(size_t(bins_) + 1, 0.0);
        for (int i = bins_ - 1; i >= 0; --i) { // pixels with probability >= i / bins
            tpAt[size_t(i)] = tpAt[size_t(i) + 1] + pa[i];
            fpAt[size_t(i)] = fpAt[size_t(i) + 1] + na[i];
        }
        const double positives = tpAt[0];
        report_.prCurve.clear();
        for (int k = 0; k < o_.curvePoints; ++k) {
            const size_t at = size_t(k) * size_t(binsPerStep_);
            const double tp = tpAt[at], fp = fpAt[at], fn = positives - tp;
            PrPoint p;
            p.threshold = double(k) / double(o_.curvePoints - 1);
            // No pixel called crack: no false alarm, so precision 1 (the curve's usual end).
            p.precision = tp + fp > 0 ? tp / (tp + fp) : 1.0;
            p.recall = positives > 0 ? tp / positives : 0.0;
            p.f1 = 2 * tp + fp + fn > 0 ? 2 * tp / (2 * tp + fp + fn) : 0.0;
            p.iou = tp + fp + fn > 0 ? tp / (tp + fp + fn) : 0.0;
            report_.prCurve.push_back(p);
        }
    }

    void finishAnomaly()
    {
        const int bins = o_.histogramBins;
        double lo = 0, hi = std::max(1e-12, report_.threshold);
        if (!report_.errors.empty()) {
            const auto [mn, mx] = std::minmax_element(report_.errors.begin(), report_.errors.end());
            lo = std::min(*mn, report_.threshold > 0 ? report_.threshold : *mn);
            hi = std::max(*mx, report_.threshold);
        }
        if (!(hi > lo))
            hi = lo + std::max(1e-12, std::abs(lo) * 1e-6);
        report_.histogramEdges.resize(size_t(bins) + 1);
        for (int i = 0; i <= bins; ++i)
            report_.histogramEdges[size_t(i)] = lo + (hi - lo) * double(i) / double(bins);
        report_.histogram.assign(size_t(bins), 0);
        for (double e : report_.errors) {
            const int b = std::clamp(int((e - lo) / (hi - lo) * bins), 0, bins - 1);
            ++report_.histogram[size_t(b)];
        }
    }

    const Dataset& ds_;
    const EvaluateOptions& o_;
    EvaluationReport& report_;
    eval_detail::GalleryKeeper gallery_;
    int bins_ = 0, binsPerStep_ = 1;
    torch::Tensor posHist_, negHist_;
    std::vector<int> labelMap_;
    int positive_ = 1;
    int lastItem_ = -1;
    bool patchGaussian_ = false;
    Status classStatus_;
};

/// Model, data and the validation indices to evaluate, all checked.
struct Prepared {
    Model model;
    Dataset dataset;
    std::vector<int> val;
};

Result<Prepared> prepare(const std::string& modelPath, const std::string& dataDir,
                         const EvaluateOptions& o, const CancelToken& cancel)
{
    Prepared p;
    auto loaded = Model::load(modelPath, o.modelLoad);
    if (!loaded)
        return loaded.status();
    p.model = std::move(*loaded);
    const TaskKind task = taskFor(p.model.info().config.type);
    ScanOptions so;
    so.threads = o.threads;
    auto scanned = scanDataset(dataDir, task, so, cancel);
    if (!scanned)
        return scanned.status();
    p.dataset = std::move(*scanned);
    if (o.splitPath.empty()) { // a plain folder: every image, scored by the crack protocol
        if (task != TaskKind::Segment)
            return Status(ErrorCode::InvalidArgument,
                          "no split file given (only a segmentation model can be evaluated on a "
                          "whole folder)");
        for (int i = 0; i < int(p.dataset.items.size()); ++i)
            p.val.push_back(i);
        if (o.maxItems > 0 && int(p.val.size()) > o.maxItems)
            p.val.resize(size_t(o.maxItems));
        if (p.val.empty())
            return Status(ErrorCode::InvalidArgument, dataDir + " holds no image/mask pairs");
        return p;
    }
    auto split = loadSplit(o.splitPath, p.dataset);
    if (!split)
        return split.status();
    p.val = split->val;
    std::sort(p.val.begin(), p.val.end());
    if (o.maxItems > 0 && int(p.val.size()) > o.maxItems)
        p.val.resize(size_t(o.maxItems));
    if (p.val.empty())
        return Status(ErrorCode::InvalidArgument, o.splitPath + " has no validation items");
    return p;
}

} // namespace

Result<EvaluationReport> evaluateModel(const std::string& modelPath, const std::string& dataDir,
                                       const EvaluateOptions& o, const CancelToken& cancel,
                                       ProgressSink* progress)
{
    const auto t0 = Clock::now();
    if (Status st = checkOptions(o); !st)
        return st;
    auto prepared = prepare(modelPath, dataDir, o, cancel);
    if (!prepared)
        return prepared.status();
    Prepared& p = *prepared;
    const ModelInfo& info = p.model.info();
    if (o.splitPath.empty()) {
        EvaluationReport report;
        report.task = TaskKind::Segment;
        report.threshold = info.threshold;
        report.items = int(p.val.size());
        if (Status s = eval_detail::scoreWholeImages(modelPath, p.dataset, p.val, o, cancel,
                                                     progress, report);
            !s)
            return s;
        report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return report;
    }

    InferOptions patches; // whole validation images of the model's input size, not tiles
    patches.tileSize = info.config.inputSize;
    patches.preferCpu = o.preferCpu;
    const ExecutionPolicy pol = choosePolicy(queryMachine(), policyRequestFor(info, patches));
    applyCpuSettings(pol); // LibTorch's threads, on this (the evaluating) thread
    const int batch = o.batchSize > 0 ? o.batchSize : (pol.useCuda ? 32 : 8);

    EvaluationReport report;
    const Status run = detail::guardTorchJob([&]() -> Status {
        const torch::Device device =
            pol.useCuda ? torch::Device(torch::kCUDA, pol.deviceIndex) : torch::Device(torch::kCPU);
        Model::Impl& m = *p.model.impl();
        m.to(device);
        m.eval();
        Evaluator ev(p.dataset, info, o, device, report);
        if (Status st = ev.classStatus(); !st)
            return st;

        LoaderOptions lo;
        lo.inputSize = info.config.inputSize;
        lo.batchSize = batch;
        lo.threads = o.threads > 0 ? o.threads : std::max(1, pol.loaderThreads);
        lo.prefetch = 2 * lo.threads;
        lo.pinned = pol.pinnedMemory;
        BatchLoader loader(p.dataset, p.val, lo);
        auto& L = *loader.impl();
        L.start(0, 0, batch);
        const int batches = std::max(1, L.batchesPerEpoch());

        const int ch = info.inputChannels == 1 ? 1 : 3;
        const auto optF = torch::TensorOptions().dtype(torch::kFloat).device(device);
        std::vector<float> mean = info.mean, stdv = info.std;
        mean.resize(size_t(ch), 0.5f);
        stdv.resize(size_t(ch), 0.25f);
        const auto meanT = torch::tensor(mean, optF).view({1, ch, 1, 1}) * 255.0;
        const auto stdT = torch::tensor(stdv, optF).view({1, ch, 1, 1}) * 255.0;
        const bool amp = pol.useCuda && pol.precision != Precision::FP32;
        const at::ScalarType ampType = pol.precision == Precision::BF16 ? at::kBFloat16 : at::kHalf;

        ProgressTracker tracker(progress, batches);
        c10::InferenceMode guard;
        data::Batch b;
        int done = 0;
        while (L.next(b, cancel)) {
            auto x = b.pixels.to(device, /*non_blocking=*/true).permute({0, 3, 1, 2});
            x = x.to(torch::kFloat);
            if (ch == 1)
                x = x.mean(1, /*keepdim=*/true);
            x = ((x - meanT) / stdT).contiguous();
            torch::Tensor pred;
            {
                compat::CudaAutocast ac(amp, ampType);
                pred = m.predict(x);
            }
            torch::Tensor masks;
            if (b.masks.defined())
                masks = b.masks.to(device, /*non_blocking=*/true);
            ev.add(b, x, pred, masks);
            ++done;
            tracker.update(done, "batch " + std::to_string(done) + "/" + std::to_string(batches));
            if (cancel.isCancelled())
                break;
        }
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "evaluation cancelled");
        if (!L.error.isOk())
            return L.error;
        ev.finish();
        tracker.finish("done");
        return Status::ok();
    });
    if (!run)
        return run;
    if (report.task == TaskKind::Segment && o.crackScores)
        if (Status s = eval_detail::scoreWholeImages(modelPath, p.dataset, p.val, o, cancel,
                                                     nullptr, report);
            !s)
            return s;
    report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return report;
}

} // namespace fisura

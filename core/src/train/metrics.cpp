#include "compat/torch_compat.h"

#include "train/metrics.h"

#include <cmath>

namespace fisura::train_detail
{

MetricAccumulator::MetricAccumulator(TaskKind task, int positiveClass, const torch::Device& device)
    : task_(task), positive_(positiveClass)
{
    const auto d = torch::TensorOptions().dtype(torch::kDouble).device(device);
    conf_ = torch::zeros({2, 2}, torch::kLong);
    posHist_ = torch::zeros({kProbBins}, d);
    negHist_ = torch::zeros({kProbBins}, d);
    errHist_ = torch::zeros({kErrorBins}, torch::kDouble);
}

void MetricAccumulator::add(const torch::Tensor& out, const torch::Tensor& x,
                            const torch::Tensor& target)
{
    if (task_ == TaskKind::Classify) {
        const auto pred = out.argmax(1);
        const auto p = (pred == positive_).to(torch::kLong);
        const auto t = (target == positive_).to(torch::kLong);
        const auto idx = (p * 2 + t).cpu();
        conf_.view({4}).index_add_(0, idx, torch::ones_like(idx));
        correct_ += (pred == target).sum().item<int64_t>();
        total_ += target.size(0);
    } else if (task_ == TaskKind::Segment) {
        const auto prob = torch::sigmoid(out).flatten();
        const auto t = target.flatten() > 0.5;
        posHist_ += torch::histc(prob.masked_select(t), kProbBins, 0, 1).to(torch::kDouble);
        negHist_ +=
            torch::histc(prob.masked_select(t.logical_not()), kProbBins, 0, 1).to(torch::kDouble);
    } else {
        const auto err = (out - x).pow(2).flatten(1).mean(1); // per image
        const auto e = err.to(torch::kDouble).cpu();
        errSum_ += e.sum().item<double>();
        errMax_ = std::max(errMax_, e.max().item<double>());
        errCount_ += e.size(0);
        errHist_ +=
            torch::histc(torch::log10(e.clamp_min(1e-8)).to(torch::kFloat), kErrorBins, -8, 1)
                .to(torch::kDouble);
    }
}

void MetricAccumulator::finish(EpochMetrics& m) const
{
    auto safe = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    if (task_ == TaskKind::Classify) {
        const auto c = conf_.accessor<int64_t, 2>();
        const double tp = double(c[1][1]), fp = double(c[1][0]), fn = double(c[0][1]);
        m.accuracy = safe(double(correct_), double(total_));
        m.precision = safe(tp, tp + fp);
        m.recall = safe(tp, tp + fn);
        m.f1 = safe(2 * tp, 2 * tp + fp + fn);
        m.score = m.f1 + 1e-3 * m.accuracy;
    } else if (task_ == TaskKind::Segment) {
        const auto pos = posHist_.cpu(), neg = negHist_.cpu();
        const auto pa = pos.accessor<double, 1>(), na = neg.accessor<double, 1>();
        std::vector<double> tpAt(kProbBins + 1, 0.0), fpAt(kProbBins + 1, 0.0);
        for (int i = kProbBins - 1; i >= 0; --i) { // counts with probability >= i / kProbBins
            tpAt[size_t(i)] = tpAt[size_t(i) + 1] + pa[i];
            fpAt[size_t(i)] = fpAt[size_t(i) + 1] + na[i];
        }
        const double positives = tpAt[0];
        auto at = [&](int i, double& iou, double& f1, double& prec, double& rec) {
            const double tp = tpAt[size_t(i)], fp = fpAt[size_t(i)], fn = positives - tp;
            iou = safe(tp, tp + fp + fn);
            f1 = safe(2 * tp, 2 * tp + fp + fn);
            prec = safe(tp, tp + fp);
            rec = safe(tp, tp + fn);
        };
        at(kProbBins / 2, m.iou, m.segF1, m.segPrecision, m.segRecall);
        int best = kProbBins / 2;
        double bestF1 = -1;
        for (int i = 1; i < kProbBins; ++i) {
            double iou, f1, p, r;
            at(i, iou, f1, p, r);
            if (f1 > bestF1) {
                bestF1 = f1;
                best = i;
            }
        }
        at(best, m.iouAtBest, m.f1AtBest, m.precisionAtBest, m.recallAtBest);
        m.bestThreshold = double(best) / kProbBins;
        m.score = m.f1AtBest;
    } else {
        const auto h = errHist_.accessor<double, 1>();
        auto quantile = [&](double q) {
            const double want = q * double(errCount_);
            double cum = 0;
            for (int i = 0; i < kErrorBins; ++i) {
                cum += h[i];
                if (cum >= want && cum > 0) // upper edge of the bin: a slightly conservative value
                    return std::pow(10.0, -8.0 + 9.0 * (i + 1) / kErrorBins);
            }
            return errMax_;
        };
        m.errorMean = errCount_ ? errSum_ / double(errCount_) : 0.0;
        m.errorP50 = std::min(errMax_, quantile(0.50));
        m.errorP95 = std::min(errMax_, quantile(0.95));
        m.errorP99 = std::min(errMax_, quantile(0.99));
        m.errorMax = errMax_;
        m.anomalyThreshold = m.errorP99;
        m.score = -m.valLoss;
    }
}

} // namespace fisura::train_detail

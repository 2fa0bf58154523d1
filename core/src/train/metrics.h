// Validation metrics accumulated batch by batch on the device: nothing grows with the dataset.
#pragma once

#include "compat/torch_compat.h"

#include "fisura/train.h"

namespace fisura::train_detail
{

class MetricAccumulator
{
public:
    MetricAccumulator(TaskKind task, int positiveClass, const torch::Device& device);
    /// `out`: logits (classify, segment) or reconstruction (anomaly); `x` the normalised input.
    void add(const torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& target);
    /// Fill the task's fields of `m` and its early-stopping score.
    void finish(EpochMetrics& m) const;

    static constexpr int kProbBins = 100;   ///< segmentation thresholds 0.00 .. 0.99
    static constexpr int kErrorBins = 1800; ///< log10 error in [-8, 1], 0.005 decades a bin

private:
    TaskKind task_;
    int positive_;
    torch::Tensor conf_; ///< classify: [pred, truth] counts of positive/negative
    int64_t correct_ = 0, total_ = 0;
    torch::Tensor posHist_, negHist_; ///< segment: probability histograms by ground truth
    torch::Tensor errHist_;           ///< anomaly: per-image error histogram (log10)
    double errSum_ = 0, errMax_ = 0;
    int64_t errCount_ = 0;
};

} // namespace fisura::train_detail

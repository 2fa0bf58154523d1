// What a trained model does on its validation images: the numbers and pictures the Train pane
// shows when a run ends (precision-recall over thresholds, confusion matrix, error histogram, a
// gallery of best and worst predictions), plus size estimates for the model presets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fisura/dataset.h"
#include "fisura/image.h"
#include "fisura/job.h"
#include "fisura/model.h"
#include "fisura/policy.h"
#include "fisura/status.h"

namespace fisura
{

struct EvaluateOptions {
    /// The run's split: its validation part is evaluated. Empty: every image of the folder
    /// (segmentation models only: a plain images/ + masks/ pair such as a public crack set,
    /// scored by the crack protocol below; no crop curve, no gallery).
    std::string splitPath;
    int maxItems = 0;       ///< 0 = every validation item; > 0 caps them (first by index)
    int gallery = 6;        ///< samples in each of best and worst
    int curvePoints = 51;   ///< thresholds 0..1 in equal steps (segmentation)
    int histogramBins = 40; ///< anomaly error histogram
    bool preferCpu = false;
    int batchSize = 0;          ///< 0 = small and safe for the device
    int threads = 0;            ///< loader threads, 0 = from the policy
    ModelLoadOptions modelLoad; ///< size limit, consent to run a TorchScript module
    /// Segmentation: also score the whole images with the crack protocol (CrackScores), run as
    /// `infer` runs them (tiles, blending). Always on for a folder without a split.
    bool crackScores = true;
    int tolerancePx = 2; ///< the protocol's matching distance, 0..32 px (Euclidean)
};

/// The protocol crack-detection papers report, over whole images (DeepCrack, Liu et al. 2019;
/// Zou et al. 2019; CrackForest, Shi et al. 2016; BSDS's ODS/OIS, Arbelaez et al. 2011):
/// - a predicted crack pixel is a true positive when a truth pixel lies within `tolerancePx`
///   (Euclidean), and a truth pixel is found when a prediction lies within it (precision and
///   recall counted separately, no one-to-one assignment);
/// - thresholds are map bytes 1..255 (probability t/255); counts are summed over images;
/// - ODS: the F1 of the summed counts at the one threshold that is best for the whole set;
/// - OIS: each image at its own best threshold (a crack-free image may predict nothing), then
///   the F1 of the counts summed at those thresholds (as BSDS computes it);
/// - mIoU: mean of the crack-class and background IoU, pixel-exact (no tolerance), over the
///   summed counts at the ODS threshold; crackIou is the crack class alone.
struct CrackScores {
    int images = 0;
    int tolerancePx = 2;
    double threshold = 0.5;                   ///< the model's (probability)
    double precision = 0, recall = 0, f1 = 0; ///< at the model's threshold
    double odsThreshold = 0;                  ///< probability (byte / 255)
    double odsPrecision = 0, odsRecall = 0, odsF1 = 0;
    double oisPrecision = 0, oisRecall = 0, oisF1 = 0;
    double miou = 0, crackIou = 0;
};

/// Sums the protocol's counts image by image (what evaluateModel uses; tests feed it
/// hand-made maps).
class CrackScoreAccumulator
{
public:
    explicit CrackScoreAccumulator(int tolerancePx = 2);
    /// One image: its map (1 channel, byte = probability x 255) and truth (non-zero = crack;
    /// a colour mask counts its largest colour channel) of the same size. InvalidArgument when
    /// they do not fit.
    Status add(const Image& map, const Image& truth);
    int images() const { return images_; }
    /// The scores, with F1 etc. at `modelThreshold` (a probability) besides ODS and OIS.
    CrackScores scores(double modelThreshold) const;

private:
    int tolerance_;
    int images_ = 0;
    // Over all images, per map byte: all pixels, pixels within tolerance of the truth, truth
    // pixels by the largest map value within tolerance, and (pixel-exact) truth pixels.
    std::vector<uint64_t> map_, near_, truthMax_, exact_;
    uint64_t truth_ = 0, pixels_ = 0;
    // OIS: the counts of each image at its own best threshold, summed.
    uint64_t oisPredicted_ = 0, oisHits_ = 0, oisTruth_ = 0, oisFound_ = 0;
};

/// Pixel-level (segmentation) quality at one probability threshold.
struct PrPoint {
    double threshold = 0;
    double precision = 0, recall = 0, f1 = 0, iou = 0;
};

/// One validation sample as the model saw it (inputSize x inputSize).
struct GallerySample {
    int item = -1; ///< index into the dataset's items
    std::string image, mask;
    int size = 0;             ///< edge of the square pictures below
    std::vector<uint8_t> rgb; ///< size x size x 3, the input crop
    /// Segmentation: the truth mask (0/255). Anomaly / classify: empty.
    std::vector<uint8_t> truth;
    /// Segmentation: crack probability 0..255; anomaly: per-pixel reconstruction error scaled so
    /// 128 = the model's threshold; classify: empty.
    std::vector<uint8_t> prediction;
    /// How well the model did on this sample: segmentation F1 at the threshold; classify the
    /// probability it gave the true class; anomaly the negative reconstruction error.
    double quality = 0;
    int trueLabel = -1, predictedLabel = -1; ///< classify
    double value = 0; ///< classify: probability of the crack class; anomaly: the error
};

struct EvaluationReport {
    TaskKind task = TaskKind::Segment;
    int items = 0;
    double threshold = 0.5; ///< the model's threshold used for the gallery and the matrix
    // segment
    std::vector<PrPoint> prCurve;
    // classify: confusion[true][predicted], classes as in the model
    std::vector<std::string> classes;
    std::vector<std::vector<int64_t>> confusion;
    // anomaly: per-image reconstruction errors and their histogram
    std::vector<double> errors;
    std::vector<double> histogramEdges; ///< bins + 1 edges
    std::vector<int64_t> histogram;
    // best first / worst first by GallerySample::quality
    std::vector<GallerySample> best, worst;
    // segment, with EvaluateOptions::crackScores: the crack protocol over the whole images
    bool hasCrackScores = false;
    CrackScores crack;
    double seconds = 0;
};

/// Evaluate the model file on the validation part of `dataDir` (scanned for the model's task)
/// as saved in options.splitPath, or (no split, segmentation) on every image of `dataDir`.
/// Errors: NotFound / Corrupt for the model, the data or the split; InvalidArgument when the
/// split has no validation items, or no split is given for a model that is not a U-Net;
/// Cancelled.
Result<EvaluationReport> evaluateModel(const std::string& modelPath, const std::string& dataDir,
                                       const EvaluateOptions& options,
                                       const CancelToken& cancel = {},
                                       ProgressSink* progress = nullptr);

/// Size of a network before it exists on the device: exact parameter count and an estimate of
/// the training memory at a batch (weights, gradients, AdamW state, activations kept for the
/// backward pass at the given precision). Cheap enough to call on every preset change.
struct ModelFootprint {
    int64_t parameters = 0;
    uint64_t weightBytes = 0; ///< fp32 weights + gradients + optimizer state
    uint64_t activationBytesPerImage = 0;
    uint64_t trainingBytes(int batch) const
    {
        return weightBytes + activationBytesPerImage * uint64_t(batch > 0 ? batch : 1);
    }
    /// The part of `batch` a step on the processor runs at once within `budgetBytes`
    /// (TrainOptions::cpuMemoryMb): the largest divisor of `batch` whose trainingBytes fit, at
    /// least 1; `batch` itself when it fits or when nothing is known of the activations.
    int partWithin(int batch, uint64_t budgetBytes) const;
};
/// TrainOptions::cpuMemoryMb in bytes.
uint64_t cpuTrainingBudgetBytes(double cpuMemoryMb);
Result<ModelFootprint> estimateFootprint(const ModelConfig& config,
                                         Precision precision = Precision::FP32);

/// Rewrite the threshold stored in a Fisura model file (atomically; the weights are untouched).
Status setModelThreshold(const std::string& modelPath, double threshold);

} // namespace fisura

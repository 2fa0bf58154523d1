#include "train/metrics_json.h"
#include "util/json_bounded.h"
#include "util/json_int.h"

using nlohmann::json;

namespace fisura
{

namespace train_detail
{

json metricsJson(const EpochMetrics& m)
{
    json j{{"epoch", m.epoch},      {"train_loss", m.trainLoss},
           {"val_loss", m.valLoss}, {"learning_rate", m.learningRate},
           {"seconds", m.seconds},  {"images_per_second", m.imagesPerSecond},
           {"score", m.score},      {"improved", m.improved}};
    auto put = [&](const char* k, double v) {
        if (v >= 0)
            j[k] = v;
    };
    if (m.gpuPeakBytes)
        j["gpu_peak_bytes"] = m.gpuPeakBytes;
    put("accuracy", m.accuracy);
    put("precision", m.precision);
    put("recall", m.recall);
    put("f1", m.f1);
    put("iou", m.iou);
    put("seg_f1", m.segF1);
    put("seg_precision", m.segPrecision);
    put("seg_recall", m.segRecall);
    put("best_threshold", m.bestThreshold);
    put("iou_at_best", m.iouAtBest);
    put("f1_at_best", m.f1AtBest);
    put("precision_at_best", m.precisionAtBest);
    put("recall_at_best", m.recallAtBest);
    put("error_mean", m.errorMean);
    put("error_p50", m.errorP50);
    put("error_p95", m.errorP95);
    put("error_p99", m.errorP99);
    put("error_max", m.errorMax);
    put("anomaly_threshold", m.anomalyThreshold);
    return j;
}

EpochMetrics metricsFromJson(const json& j)
{
    EpochMetrics m;
    auto get = [&](const char* k, double& v) {
        if (j.contains(k))
            v = j[k].get<double>();
    };
    m.epoch = util::jsonInt(j, "epoch", 0); // a float such as 1e300 throws, never casts
    get("train_loss", m.trainLoss);
    get("val_loss", m.valLoss);
    get("learning_rate", m.learningRate);
    get("seconds", m.seconds);
    get("images_per_second", m.imagesPerSecond);
    get("score", m.score);
    m.improved = j.value("improved", false);
    m.gpuPeakBytes = util::jsonUInt64(j, "gpu_peak_bytes", 0);
    get("accuracy", m.accuracy);
    get("precision", m.precision);
    get("recall", m.recall);
    get("f1", m.f1);
    get("iou", m.iou);
    get("seg_f1", m.segF1);
    get("seg_precision", m.segPrecision);
    get("seg_recall", m.segRecall);
    get("best_threshold", m.bestThreshold);
    get("iou_at_best", m.iouAtBest);
    get("f1_at_best", m.f1AtBest);
    get("precision_at_best", m.precisionAtBest);
    get("recall_at_best", m.recallAtBest);
    get("error_mean", m.errorMean);
    get("error_p50", m.errorP50);
    get("error_p95", m.errorP95);
    get("error_p99", m.errorP99);
    get("error_max", m.errorMax);
    get("anomaly_threshold", m.anomalyThreshold);
    return m;
}

} // namespace train_detail

std::string toJson(const EpochMetrics& m)
{
    return util::dumpJson(train_detail::metricsJson(m));
}

} // namespace fisura

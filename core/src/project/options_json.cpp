// TrainOptions and EpochMetrics as JSON: what a project records about each run, so the run can
// be shown, repeated or resumed later. Enums are stored by name, never by number.
#include "fisura/project.h"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace fisura
{

namespace
{

const char* scheduleName(Schedule s)
{
    return s == Schedule::Cosine ? "cosine" : "onecycle";
}

bool parseSchedule(const std::string& text, Schedule& out)
{
    if (text == "onecycle" || text == "cosine") {
        out = text == "cosine" ? Schedule::Cosine : Schedule::OneCycle;
        return true;
    }
    return false;
}

bool parseModelType(const std::string& text, ModelType& out)
{
    for (ModelType t :
         {ModelType::Classifier, ModelType::UNet, ModelType::Autoencoder, ModelType::PatchGaussian})
        if (text == modelTypeName(t)) {
            out = t;
            return true;
        }
    return false;
}

bool parsePatchFeatures(const std::string& text, PatchFeatures& out)
{
    for (PatchFeatures f : {PatchFeatures::Cnn, PatchFeatures::Pixels})
        if (text == patchFeaturesName(f)) {
            out = f;
            return true;
        }
    return false;
}

/// Reads keys of one JSON object into typed fields; the first problem wins and is kept.
class Reader
{
public:
    Reader(const json& j, std::string prefix) : j_(j), prefix_(std::move(prefix)) {}

    void integer(const char* key, int& v, long long lo, long long hi)
    {
        const json* x = find(key);
        if (!x)
            return;
        if (!x->is_number_integer())
            return fail(key, "expected an integer");
        const long long n = x->get<long long>();
        if (n < lo || n > hi)
            return fail(key, "out of range (" + std::to_string(n) + ")");
        v = int(n);
    }
    void unsignedInteger(const char* key, uint64_t& v)
    {
        const json* x = find(key);
        if (!x)
            return;
        if (!x->is_number_unsigned())
            return fail(key, "expected a non-negative integer");
        v = x->get<uint64_t>();
    }
    void number(const char* key, double& v, double lo, double hi)
    {
        const json* x = find(key);
        if (!x)
            return;
        if (!x->is_number())
            return fail(key, "expected a number");
        const double d = x->get<double>();
        if (!(d >= lo && d <= hi))
            return fail(key, "out of range (" + x->dump() + ")");
        v = d;
    }
    void boolean(const char* key, bool& v)
    {
        const json* x = find(key);
        if (!x)
            return;
        if (!x->is_boolean())
            return fail(key, "expected true or false");
        v = x->get<bool>();
    }
    void text(const char* key, std::string& v)
    {
        const json* x = find(key);
        if (!x)
            return;
        if (!x->is_string())
            return fail(key, "expected a string");
        v = x->get<std::string>();
    }
    template <class E> void name(const char* key, E& v, bool (*parse)(const std::string&, E&))
    {
        std::string s;
        const json* x = find(key);
        if (!x)
            return;
        text(key, s);
        if (x->is_string() && !parse(s, v))
            fail(key, "unknown value \"" + s + "\"");
    }
    const json* object(const char* key)
    {
        const json* x = find(key);
        if (x && !x->is_object()) {
            fail(key, "expected an object");
            return nullptr;
        }
        return x;
    }
    void fail(const std::string& key, const std::string& why)
    {
        if (error_.empty())
            error_ = prefix_ + key + ": " + why;
    }
    const std::string& error() const { return error_; }
    void adopt(const Reader& inner)
    {
        if (error_.empty())
            error_ = inner.error_;
    }

private:
    const json* find(const char* key) const
    {
        auto it = j_.find(key);
        return it == j_.end() || it->is_null() ? nullptr : &*it;
    }

    const json& j_;
    std::string prefix_;
    std::string error_;
};

json scanJson(const ScanOptions& s)
{
    json rules = json::array();
    for (const auto& r : s.rules)
        rules.push_back({{"folder", r.folder}, {"class", r.className}});
    return {{"rules", rules}, {"verify", s.verify}, {"threads", s.threads}};
}

void readScan(const json& j, ScanOptions& s, Reader& outer)
{
    Reader r(j, "scan.");
    r.boolean("verify", s.verify);
    r.integer("threads", s.threads, 0, 4096);
    if (auto it = j.find("rules"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) {
            r.fail("rules", "expected a list");
        } else {
            s.rules.clear();
            for (const auto& rule : *it) {
                if (!rule.is_object() || !rule.value("folder", json()).is_string() ||
                    !rule.value("class", json()).is_string()) {
                    r.fail("rules", "each rule needs a folder and a class");
                    break;
                }
                s.rules.push_back(
                    {rule["folder"].get<std::string>(), rule["class"].get<std::string>()});
            }
        }
    }
    outer.adopt(r);
}

} // namespace

std::string toJson(const TrainOptions& o, int indent)
{
    json model{{"type", modelTypeName(o.model.type)},
               {"input_size", o.model.inputSize},
               {"classes", o.model.classes},
               {"depth", o.model.depth},
               {"width", o.model.width}};
    if (o.model.type == ModelType::PatchGaussian) {
        model["patch_features"] = patchFeaturesName(o.model.patchFeatures);
        model["feature_dim"] = o.model.featureDim;
        model["patch_radius"] = o.model.patchRadius;
        model["pooled_positions"] = o.model.pooledPositions;
    }
    const json j{{"task", taskName(o.task)},
                 {"data_dir", o.dataDir},
                 {"out_path", o.outPath},
                 {"checkpoint_path", o.checkpointPath},
                 {"resume_from", o.resumeFrom},
                 {"split_path", o.splitPath},
                 {"epochs", o.epochs},
                 {"batch_size", o.batchSize},
                 {"precision", precisionName(o.precision)},
                 {"prefer_cpu", o.preferCpu},
                 {"model", model},
                 {"start_from", o.startFrom},
                 {"samples_per_epoch", o.samplesPerEpoch},
                 {"learning_rate", o.learningRate},
                 {"weight_decay", o.weightDecay},
                 {"schedule", scheduleName(o.schedule)},
                 {"clip_norm", o.clipNorm},
                 {"patience", o.patience},
                 {"val_fraction", o.valFraction},
                 {"seed", o.seed},
                 {"augment", o.augment},
                 {"loader_threads", o.loaderThreads},
                 {"prefetch", o.prefetch},
                 {"max_batches_per_epoch", o.maxBatchesPerEpoch},
                 {"stop_after_epoch", o.stopAfterEpoch},
                 {"scan", scanJson(o.scan)}};
    return j.dump(indent);
}

Result<TrainOptions> trainOptionsFromJson(const std::string& text)
{
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Status(ErrorCode::InvalidArgument, "training options are not a JSON object");
    TrainOptions o;
    constexpr int kBig = 1 << 30;
    Reader r(j, "");
    r.name("task", o.task, parseTask);
    r.text("data_dir", o.dataDir);
    r.text("out_path", o.outPath);
    r.text("checkpoint_path", o.checkpointPath);
    r.text("resume_from", o.resumeFrom);
    r.text("split_path", o.splitPath);
    r.integer("epochs", o.epochs, 1, kBig);
    r.integer("batch_size", o.batchSize, 0, kBig);
    r.name("precision", o.precision, parsePrecision);
    r.boolean("prefer_cpu", o.preferCpu);
    if (const json* m = r.object("model")) {
        Reader mr(*m, "model.");
        mr.name("type", o.model.type, parseModelType);
        mr.integer("input_size", o.model.inputSize, 1, 1 << 16);
        mr.integer("classes", o.model.classes, 1, 1 << 16);
        mr.integer("depth", o.model.depth, 0, 16);
        mr.integer("width", o.model.width, 1, 1 << 16);
        mr.name("patch_features", o.model.patchFeatures, parsePatchFeatures);
        mr.integer("feature_dim", o.model.featureDim, 1, 1024);
        mr.integer("patch_radius", o.model.patchRadius, 0, 7);
        mr.boolean("pooled_positions", o.model.pooledPositions);
        r.adopt(mr);
    }
    r.text("start_from", o.startFrom);
    r.integer("samples_per_epoch", o.samplesPerEpoch, 0, kBig);
    r.number("learning_rate", o.learningRate, 1e-12, 1e3);
    r.number("weight_decay", o.weightDecay, 0, 1e3);
    r.name("schedule", o.schedule, parseSchedule);
    r.number("clip_norm", o.clipNorm, -1e30, 1e30);
    r.integer("patience", o.patience, 0, kBig);
    r.number("val_fraction", o.valFraction, 0, 0.99);
    r.unsignedInteger("seed", o.seed);
    r.boolean("augment", o.augment);
    r.integer("loader_threads", o.loaderThreads, 0, 4096);
    r.integer("prefetch", o.prefetch, 0, 4096);
    r.integer("max_batches_per_epoch", o.maxBatchesPerEpoch, 0, kBig);
    r.integer("stop_after_epoch", o.stopAfterEpoch, 0, kBig);
    if (const json* s = r.object("scan"))
        readScan(*s, o.scan, r);
    if (!r.error().empty())
        return Status(ErrorCode::InvalidArgument, "training options: " + r.error());
    return o;
}

Result<EpochMetrics> epochMetricsFromJson(const std::string& text)
{
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Status(ErrorCode::InvalidArgument, "epoch metrics are not a JSON object");
    EpochMetrics m;
    constexpr double kInf = 1e300;
    Reader r(j, "");
    r.integer("epoch", m.epoch, 0, 1 << 30);
    const std::pair<const char*, double*> numbers[] = {
        {"train_loss", &m.trainLoss},
        {"val_loss", &m.valLoss},
        {"learning_rate", &m.learningRate},
        {"seconds", &m.seconds},
        {"images_per_second", &m.imagesPerSecond},
        {"accuracy", &m.accuracy},
        {"precision", &m.precision},
        {"recall", &m.recall},
        {"f1", &m.f1},
        {"iou", &m.iou},
        {"seg_f1", &m.segF1},
        {"seg_precision", &m.segPrecision},
        {"seg_recall", &m.segRecall},
        {"best_threshold", &m.bestThreshold},
        {"iou_at_best", &m.iouAtBest},
        {"f1_at_best", &m.f1AtBest},
        {"precision_at_best", &m.precisionAtBest},
        {"recall_at_best", &m.recallAtBest},
        {"error_mean", &m.errorMean},
        {"error_p50", &m.errorP50},
        {"error_p95", &m.errorP95},
        {"error_p99", &m.errorP99},
        {"error_max", &m.errorMax},
        {"anomaly_threshold", &m.anomalyThreshold},
        {"score", &m.score},
    };
    for (const auto& [key, field] : numbers)
        r.number(key, *field, -kInf, kInf);
    r.unsignedInteger("gpu_peak_bytes", m.gpuPeakBytes);
    r.boolean("improved", m.improved);
    if (!r.error().empty())
        return Status(ErrorCode::InvalidArgument, "epoch metrics: " + r.error());
    return m;
}

} // namespace fisura

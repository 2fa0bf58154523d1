// TrainOptions and EpochMetrics as JSON: what a project records about each run, so the run can
// be shown, repeated or resumed later. Enums are stored by name, never by number. TrainOptions
// are written and read field by field from the option table (options/option_fields.h): every
// field, under its schema key, within the schema's range.
#include "fisura/project.h"

#include <type_traits>

#include <nlohmann/json.hpp>

#include "options/option_fields.h"

using nlohmann::json;

namespace fisura
{

namespace
{

using options_detail::Spec;

/// Reads keys of one JSON object into typed fields; the first problem wins and is kept.
class Reader
{
public:
    explicit Reader(const json& j) : j_(j) {}

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
    const std::string& error() const { return error_; }

private:
    void fail(const std::string& key, const std::string& why)
    {
        if (error_.empty())
            error_ = key + ": " + why;
    }
    const json* find(const char* key) const
    {
        auto it = j_.find(key);
        return it == j_.end() || it->is_null() ? nullptr : &*it;
    }

    const json& j_;
    std::string error_;
};

/// The parts of a dotted key: "model.depth" -> "model", "depth".
std::vector<std::string> keyPath(const char* key)
{
    std::vector<std::string> parts(1);
    for (const char* c = key; *c; ++c)
        if (*c == '.')
            parts.emplace_back();
        else
            parts.back() += *c;
    return parts;
}

/// Writes each visited field under its key (nested objects for dotted keys).
class WriteFields
{
public:
    json root = json::object();

    template <class T> void field(const Spec& s, const T& v) { slot(s.key) = v; }
    template <class E>
    void choice(const Spec& s, const E& v, const std::vector<E>&, const char* (*name)(E))
    {
        slot(s.key) = name(v);
    }
    void rules(const Spec& s, const std::vector<FolderRule>& rules)
    {
        json a = json::array();
        for (const auto& r : rules)
            a.push_back({{"folder", r.folder}, {"class", r.className}});
        slot(s.key) = std::move(a);
    }

private:
    json& slot(const char* key)
    {
        json* j = &root;
        for (const std::string& part : keyPath(key))
            j = &(*j)[part];
        return *j;
    }
};

/// Reads each visited field from its key, within the schema's range; the first problem wins.
/// Absent keys (and null) keep the field's value; unknown keys are ignored.
class ReadFields
{
public:
    explicit ReadFields(const json& root) : root_(root) {}
    std::string error;

    template <class T> void field(const Spec& s, T& v)
    {
        const json* x = find(s.key);
        if (!x)
            return;
        if constexpr (std::is_same_v<T, bool>) {
            if (!x->is_boolean())
                return fail(s.key, "expected true or false");
            v = x->get<bool>();
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!x->is_string())
                return fail(s.key, "expected a string");
            v = x->get<std::string>();
        } else if constexpr (std::is_integral_v<T>) {
            if (!x->is_number_integer())
                return fail(s.key, "expected an integer");
            // Non-negative integers are unsigned in nlohmann::json; every bound is below 2^53.
            const double n =
                x->is_number_unsigned() ? double(x->get<uint64_t>()) : double(x->get<int64_t>());
            if (!(n >= s.min && n <= s.max))
                return outOfRange(s, *x);
            v = x->is_number_unsigned() ? T(x->get<uint64_t>()) : T(x->get<int64_t>());
        } else {
            if (!x->is_number())
                return fail(s.key, "expected a number");
            const double d = x->get<double>();
            if (!(d >= s.min && d <= s.max))
                return outOfRange(s, *x);
            v = d;
        }
    }
    template <class E>
    void choice(const Spec& s, E& v, const std::vector<E>& values, const char* (*name)(E))
    {
        const json* x = find(s.key);
        if (!x)
            return;
        if (!x->is_string())
            return fail(s.key, "expected a string");
        const std::string text = x->get<std::string>();
        for (E e : values)
            if (text == name(e)) {
                v = e;
                return;
            }
        fail(s.key, "unknown value \"" + text + "\" (" + range(s) + ")");
    }
    void rules(const Spec& s, std::vector<FolderRule>& rules)
    {
        const json* x = find(s.key);
        if (!x)
            return;
        if (!x->is_array())
            return fail(s.key, "expected a list");
        std::vector<FolderRule> read;
        for (const auto& rule : *x) {
            if (!rule.is_object() || !rule.value("folder", json()).is_string() ||
                !rule.value("class", json()).is_string())
                return fail(s.key, "each rule needs a folder and a class");
            read.push_back({rule["folder"].get<std::string>(), rule["class"].get<std::string>()});
        }
        rules = std::move(read);
    }

private:
    static std::string range(const Spec& s) { return optionRangeText(trainOption(s.key)); }
    void outOfRange(const Spec& s, const json& x)
    {
        fail(s.key, x.dump() + " is out of range (" + range(s) + ")");
    }
    void fail(const std::string& key, const std::string& why)
    {
        if (error.empty())
            error = key + ": " + why;
    }
    /// The value at a dotted key; nullptr when absent or null (an enclosing value that is no
    /// object is an error).
    const json* find(const char* key)
    {
        const json* j = &root_;
        std::string at;
        for (const std::string& part : keyPath(key)) {
            if (!j->is_object()) {
                fail(at, "expected an object");
                return nullptr;
            }
            auto it = j->find(part);
            if (it == j->end() || it->is_null())
                return nullptr;
            j = &*it;
            at += (at.empty() ? "" : ".") + part;
        }
        return j;
    }

    const json& root_;
};

} // namespace

std::string toJson(const TrainOptions& o, int indent)
{
    WriteFields w;
    options_detail::visitTrainFields(o, w);
    return w.root.dump(indent);
}

Result<TrainOptions> trainOptionsFromJson(const std::string& text)
{
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Status(ErrorCode::InvalidArgument, "training options are not a JSON object");
    TrainOptions o;
    ReadFields r(j);
    options_detail::visitTrainFields(o, r);
    if (!r.error.empty())
        return Status(ErrorCode::InvalidArgument, "training options: " + r.error);
    return o;
}

Result<EpochMetrics> epochMetricsFromJson(const std::string& text)
{
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Status(ErrorCode::InvalidArgument, "epoch metrics are not a JSON object");
    EpochMetrics m;
    constexpr double kInf = 1e300;
    Reader r(j);
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

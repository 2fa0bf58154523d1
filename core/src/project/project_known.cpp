// The known layout of the JSON a project embeds; see project_known.h.
#include "project/project_known.h"

#include <optional>

#include "fisura/dataset.h"
#include "fisura/infer.h"
#include "fisura/policy.h"
#include "fisura/project.h"
#include "util/json_bounded.h"

namespace fisura::project_detail
{

namespace
{

using json = nlohmann::ordered_json;

/// The layout of `sample`: objects keep their keys, an array the layout of its first element
/// (null: scalars), every scalar becomes null (any scalar).
json shapeOf(const json& sample)
{
    if (sample.is_object()) {
        json out = json::object();
        for (auto it = sample.begin(); it != sample.end(); ++it)
            out[it.key()] = shapeOf(it.value());
        return out;
    }
    if (sample.is_array())
        return json::array({sample.empty() ? json() : shapeOf(sample.front())});
    return nullptr;
}

json shapeOfText(const std::string& text)
{
    auto j = util::parseJson<json>(text, "sample");
    return j ? shapeOf(*j) : json();
}

json summaryShape()
{
    Dataset d;
    d.task = TaskKind::Classify;
    d.classes = {"a"};
    d.classCounts = {1};
    d.problems = {{"path", "reason"}};
    json s = shapeOfText(datasetSummaryJson(d));
    s["classes"] = {{"*", nullptr}}; // keyed by class name
    return s;
}

json optionsShape()
{
    TrainOptions o;
    o.scan.rules = {{"folder", "class"}};
    return shapeOfText(toJson(o));
}

json policyShape()
{
    ExecutionPolicy p;
    p.choices.push_back({"what", "value", "reason", "id", "arg"});
    json s = shapeOfText(toJson(p, -1));
    // A project stores each choice's reason id and argument too (project.cpp, policyJson).
    s["choices"][0]["reason_id"] = nullptr;
    s["choices"][0]["reason_arg"] = nullptr;
    return s;
}

/// toJson(ScoreCurve) written out: its writer lives with the scoring pass (OpenCV, the layer
/// writers), which the project code does not link. tst_project checks the two agree.
json scoreShape()
{
    json s = json::object();
    for (const char* key :
         {"map", "truth", "width", "height", "tolerance", "threshold", "precision", "recall", "f1",
          "iou", "true_positives", "false_positives", "false_negatives", "truth_pixels",
          "predicted_pixels", "best_threshold", "best_f1", "seconds"})
        s[key] = nullptr;
    s["layers"] = {{"tp", nullptr}, {"fp", nullptr}, {"fn", nullptr}};
    return s;
}

const json& shapeFor(Embedded kind)
{
    static const json summary = summaryShape();
    static const json options = optionsShape();
    static const json policy = policyShape();
    static const json stats = shapeOfText(toJson(InferStats{}, -1));
    static const json score = scoreShape();
    switch (kind) {
    case Embedded::Summary:
        return summary;
    case Embedded::Options:
        return options;
    case Embedded::Policy:
        return policy;
    case Embedded::Stats:
        return stats;
    case Embedded::Score:
        break;
    }
    return score;
}

std::optional<json> keep(const json& value, const json& shape)
{
    if (shape.is_object()) {
        if (!value.is_object())
            return std::nullopt;
        const auto any = shape.find("*");
        json out = json::object();
        for (auto it = value.begin(); it != value.end(); ++it) {
            auto known = shape.find(it.key());
            if (known == shape.end())
                known = any;
            if (known == shape.end() || it.key().size() > kMaxKnownString ||
                out.size() >= kMaxKnownArray)
                continue;
            if (auto kept = keep(it.value(), *known))
                out[it.key()] = std::move(*kept);
        }
        return out;
    }
    if (shape.is_array()) {
        if (!value.is_array())
            return std::nullopt;
        json out = json::array();
        for (size_t i = 0; i < value.size() && i < kMaxKnownArray; ++i)
            if (auto kept = keep(value[i], shape.front()))
                out.push_back(std::move(*kept));
        return out;
    }
    if (value.is_structured() || value.is_binary() ||
        (value.is_string() && value.get_ref<const std::string&>().size() > kMaxKnownString))
        return std::nullopt;
    return value;
}

} // namespace

nlohmann::ordered_json knownOnly(const nlohmann::ordered_json& value, Embedded kind)
{
    auto kept = keep(value, shapeFor(kind));
    return kept ? std::move(*kept) : json();
}

} // namespace fisura::project_detail

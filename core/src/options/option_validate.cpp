// validate(): every option against the schema's range, then the rules between options.
#include <cmath>
#include <type_traits>

#include "options/option_fields.h"

namespace fisura
{

namespace
{

using options_detail::Spec;

/// The first option out of range, as a message naming its key and what it allows.
class Check
{
public:
    explicit Check(OptionSet set) : set_(set) {}
    std::string error;

    template <class T> void field(const Spec& s, const T& value)
    {
        if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
            const OptionDef& d = optionDef(set_, s.key);
            if (d.allows(double(value)))
                return;
            if constexpr (std::is_floating_point_v<T>)
                if (!std::isfinite(value))
                    return fail(d, "must be a finite number, " + optionRangeText(d) + " (got " +
                                       (std::isnan(value) ? "nan" : "infinity") + ")");
            fail(d, "must be " + optionRangeText(d) + " (got " +
                        optionNumberText(d, double(value)) + ")");
        }
    }
    template <class E>
    void choice(const Spec& s, const E& value, const std::vector<E>& values, const char* (*)(E))
    {
        for (E e : values)
            if (e == value)
                return;
        const OptionDef& d = optionDef(set_, s.key);
        fail(d, "must be " + optionRangeText(d) + " (got the value " +
                    std::to_string(static_cast<long long>(value)) + ")");
    }
    void textChoice(const Spec& s, const std::string& value,
                    const std::vector<std::string>& choices)
    {
        for (const std::string& c : choices)
            if (c == value)
                return;
        const OptionDef& d = optionDef(set_, s.key);
        fail(d, "must be " + optionRangeText(d) + " (got \"" + value + "\")");
    }
    void list(const Spec& s, const std::vector<double>& values)
    {
        const OptionDef& d = optionDef(set_, s.key);
        for (double v : values)
            if (!d.allows(v))
                return fail(d, std::string("values must be ") +
                                   (std::isfinite(v) ? "" : "finite numbers, ") +
                                   optionRangeText(d) + " (got " +
                                   (std::isnan(v)      ? std::string("nan")
                                    : std::isfinite(v) ? optionNumberText(d, v)
                                                       : std::string("infinity")) +
                                   ")");
    }
    template <class R> void rules(const Spec&, const R&) {}

private:
    void fail(const OptionDef& d, const std::string& why)
    {
        if (error.empty())
            error = d.key + " " + why;
    }
    OptionSet set_;
};

Status invalid(const std::string& why)
{
    return Status(ErrorCode::InvalidArgument, why);
}

/// The network training builds: the task's own, or patch statistics for the anomaly task.
ModelType trainedType(const TrainOptions& o)
{
    if (o.task == TaskKind::Anomaly && o.model.type == ModelType::PatchGaussian)
        return ModelType::PatchGaussian;
    return modelTypeFor(o.task);
}

} // namespace

Status validate(const TrainOptions& o)
{
    Check check(OptionSet::Train);
    options_detail::visitTrainFields(o, check);
    if (!check.error.empty())
        return invalid(check.error);
    if (trainedType(o) == ModelType::UNet) {
        // Each U-Net level halves the image: the input must halve evenly depth times (a depth
        // of 0 means the default, 4).
        const int depth = o.model.depth > 0 ? o.model.depth : 4;
        const int stride = 1 << depth;
        if (o.model.inputSize % stride != 0)
            return invalid("model.input_size must be a multiple of " + std::to_string(stride) +
                           " px for a U-Net of model.depth " + std::to_string(depth) + " (got " +
                           std::to_string(o.model.inputSize) + ")");
    }
    return Status::ok();
}

Status validate(const InferOptions& o)
{
    Check check(OptionSet::Infer);
    options_detail::visitInferFields(o, check);
    if (!check.error.empty())
        return invalid(check.error);
    if (o.tileSize > 0 && o.tileSize < 16)
        return invalid("tile_size must be 0 (from the model) or 16..4096 px (got " +
                       std::to_string(o.tileSize) + ")");
    if (o.tileSize > 0 && o.overlap > o.tileSize / 2)
        return invalid("overlap must be at most half of tile_size: 0.." +
                       std::to_string(o.tileSize / 2) + " px (got " + std::to_string(o.overlap) +
                       ")");
    if (o.output.tileSize % 16 != 0)
        return invalid("output.tile_size must be a multiple of 16 px (got " +
                       std::to_string(o.output.tileSize) + ")");
    if (o.output.compression == TileCompression::Deflate && o.output.compressionLevel > 9)
        return invalid("output.compression_level: deflate's level must be 1-9, or 0 for the "
                       "default (got " +
                       std::to_string(o.output.compressionLevel) + ")");
    return Status::ok();
}

Status validate(const MeasureOptions& o)
{
    Check check(OptionSet::Measure);
    options_detail::visitMeasureFields(o, check);
    if (!check.error.empty())
        return invalid(check.error);
    // A closing looks 2 x its radius beyond a tile's core, the skeleton 16 px more.
    if (o.marginPx < minimumMarginPx(o.closingRadiusPx))
        return invalid("margin_px must be at least 2 x closing_radius_px + 16 = " +
                       std::to_string(minimumMarginPx(o.closingRadiusPx)) + " px (got " +
                       std::to_string(o.marginPx) + ")");
    return o.classes.validate();
}

Status validate(const AlignOptions& o)
{
    Check check(OptionSet::Compare);
    options_detail::visitAlignFields(o, check);
    return check.error.empty() ? Status::ok() : invalid(check.error);
}

Status validate(const CompareOptions& o)
{
    Check check(OptionSet::Compare);
    options_detail::visitComparisonFields(o, check);
    if (!check.error.empty())
        return invalid(check.error);
    if (Status s = validate(o.measure); !s)
        return invalid("measure." + s.detail());
    return Status::ok();
}

} // namespace fisura

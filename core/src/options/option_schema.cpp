// The option schema as data: the table of option_fields.h visited over default-constructed
// options, so every default is the struct's own.
#include <cmath>
#include <sstream>
#include <type_traits>

#include "options/option_fields.h"

namespace fisura
{

namespace
{

using options_detail::Spec;

/// Turns each visited field into an OptionDef whose default is the visited value.
class Collect
{
public:
    std::vector<OptionDef> defs;

    template <class T> void field(const Spec& s, const T& value)
    {
        OptionDef& d = add(s);
        if constexpr (std::is_same_v<T, bool>) {
            d.type = OptionType::Boolean;
            d.defaultBoolean = value;
        } else if constexpr (std::is_same_v<T, std::string>) {
            d.type = (s.flags & options_detail::kPath) ? OptionType::Path : OptionType::Text;
            d.defaultText = value;
        } else {
            d.type = std::is_integral_v<T> ? OptionType::Integer : OptionType::Number;
            d.defaultNumber = double(value);
        }
    }
    template <class E>
    void choice(const Spec& s, const E& value, const std::vector<E>& values, const char* (*name)(E))
    {
        OptionDef& d = add(s);
        d.type = OptionType::Choice;
        for (E e : values)
            d.choices.emplace_back(name(e));
        d.defaultText = name(value);
    }
    void textChoice(const Spec& s, const std::string& value,
                    const std::vector<std::string>& choices)
    {
        OptionDef& d = add(s);
        d.type = OptionType::Choice;
        d.choices = choices;
        d.defaultText = value;
    }
    void list(const Spec& s, const std::vector<double>& value)
    {
        OptionDef& d = add(s);
        d.type = OptionType::List;
        d.defaultNumbers = value;
    }
    template <class R> void rules(const Spec& s, const R&) { add(s).type = OptionType::List; }

private:
    OptionDef& add(const Spec& s)
    {
        OptionDef d;
        d.key = s.key;
        d.cli = s.cli;
        d.cliClears = (s.flags & options_detail::kCliClears) != 0;
        d.min = s.min;
        d.max = s.max;
        d.unit = s.unit;
        d.help = s.help;
        defs.push_back(std::move(d));
        return defs.back();
    }
};

std::vector<OptionDef> trainSchema()
{
    const TrainOptions defaults;
    Collect c;
    options_detail::visitTrainFields(defaults, c);
    return std::move(c.defs);
}

std::vector<OptionDef> inferSchema()
{
    const InferOptions defaults;
    Collect c;
    options_detail::visitInferFields(defaults, c);
    return std::move(c.defs);
}

std::vector<OptionDef> measureSchema()
{
    const MeasureOptions defaults;
    Collect c;
    options_detail::visitMeasureFields(defaults, c);
    return std::move(c.defs);
}

std::vector<OptionDef> compareSchema()
{
    const AlignOptions align;
    const CompareOptions compare;
    Collect c;
    options_detail::visitAlignFields(align, c);
    options_detail::visitComparisonFields(compare, c);
    return std::move(c.defs);
}

std::vector<OptionExclusion> exclusions(OptionSet set)
{
    std::vector<OptionExclusion> v;
    auto add = [&v](const char* field, const char* reason) { v.push_back({field, reason}); };
    if (set == OptionSet::Train)
        options_detail::trainExclusions(add);
    else if (set == OptionSet::Infer)
        options_detail::inferExclusions(add);
    else if (set == OptionSet::Measure)
        options_detail::measureExclusions(add);
    else
        options_detail::compareExclusions(add);
    return v;
}

} // namespace

const char* optionTypeName(OptionType type)
{
    switch (type) {
    case OptionType::Integer:
        return "integer";
    case OptionType::Number:
        return "number";
    case OptionType::Boolean:
        return "boolean";
    case OptionType::Choice:
        return "choice";
    case OptionType::Text:
        return "text";
    case OptionType::Path:
        return "path";
    case OptionType::List:
        return "list";
    }
    return "integer";
}

const std::vector<OptionDef>& optionSchema(OptionSet set)
{
    static const std::vector<OptionDef> train = trainSchema();
    static const std::vector<OptionDef> infer = inferSchema();
    static const std::vector<OptionDef> measure = measureSchema();
    static const std::vector<OptionDef> compare = compareSchema();
    return set == OptionSet::Train     ? train
           : set == OptionSet::Infer   ? infer
           : set == OptionSet::Measure ? measure
                                       : compare;
}

const std::vector<OptionExclusion>& optionExclusions(OptionSet set)
{
    static const std::vector<OptionExclusion> train = exclusions(OptionSet::Train);
    static const std::vector<OptionExclusion> infer = exclusions(OptionSet::Infer);
    static const std::vector<OptionExclusion> measure = exclusions(OptionSet::Measure);
    static const std::vector<OptionExclusion> compare = exclusions(OptionSet::Compare);
    return set == OptionSet::Train     ? train
           : set == OptionSet::Infer   ? infer
           : set == OptionSet::Measure ? measure
                                       : compare;
}

const OptionDef& optionDef(OptionSet set, const std::string& key)
{
    static const OptionDef none;
    for (const OptionDef& d : optionSchema(set))
        if (d.key == key)
            return d;
    return none;
}

std::string optionNumberText(const OptionDef& def, double value)
{
    if (def.type == OptionType::Integer && std::abs(value) < 9e18) // fits a long long
        return std::to_string(static_cast<long long>(value));
    std::ostringstream os; // C locale: this text goes to logs, JSON errors and the CLI
    os.imbue(std::locale::classic());
    os.precision(15);
    os << value;
    return os.str();
}

std::string optionRangeText(const OptionDef& def)
{
    if (def.isNumeric() || (def.type == OptionType::List && def.max > def.min)) {
        std::string s = optionNumberText(def, def.min) + ".." + optionNumberText(def, def.max);
        return def.unit.empty() ? s : s + " " + def.unit;
    }
    if (def.type == OptionType::Boolean)
        return "true or false";
    if (def.type == OptionType::Choice) {
        std::string s;
        for (size_t i = 0; i < def.choices.size(); ++i)
            s += (i == 0 ? "" : i + 1 == def.choices.size() ? " or " : ", ") + def.choices[i];
        return s;
    }
    return def.type == OptionType::List ? "a list" : "text";
}

const char* scheduleName(Schedule s)
{
    return s == Schedule::Cosine ? "cosine" : "onecycle";
}

const char* blendWindowName(BlendWindow w)
{
    return w == BlendWindow::Gaussian ? "gaussian" : "cosine";
}

const char* tileCompressionName(TileCompression c)
{
    return c == TileCompression::Deflate ? "deflate" : "zstd";
}

const char* classByName(ClassBy by)
{
    return by == ClassBy::Mean ? "mean" : by == ClassBy::Max ? "max" : "median";
}

} // namespace fisura

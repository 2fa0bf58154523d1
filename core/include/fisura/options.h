// The option schema: one definition of every training, inference, measurement and comparison
// option — its
// stable key (the JSON name), fisura-cli's flag, type, default, range, unit and help text — that
// the command line, the GUI's fields and the JSON reader all read, and that validate() checks. The
// model is QGIS Processing's parameter definitions, which feed its dialogs, qgis_process and its
// Python API from one place.
//
// Defaults are never written here: each definition's default is read from a default-constructed
// TrainOptions / InferOptions, so the structs stay the one place for them.
#pragma once

#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura
{

// Declared in fisura/train.h, fisura/infer.h, fisura/measure.h, fisura/change.h and
// fisura/tiledwriter.h (this
// header does not include them: train.h and policy.h each declare a toJson(ExecutionPolicy)).
struct TrainOptions;
struct InferOptions;
struct MeasureOptions;
struct AlignOptions;
struct CompareOptions;
enum class ClassBy;
enum class Schedule;
enum class BlendWindow;
enum class TileCompression;

enum class OptionType {
    Integer, ///< a whole number in [min, max] (every bound below 2^53, so exact as a double)
    Number,  ///< a finite floating-point number in [min, max] (NaN and infinities refused)
    Boolean,
    Choice, ///< one of `choices` (an enum stored by name)
    Text,
    Path, ///< a file or folder
    List, ///< several values: numbers in [min, max] (`defaultNumbers`), or structured (folder
          ///< rules, JSON only)
};
const char* optionTypeName(OptionType type); ///< "integer", "number", "boolean", ...

struct OptionDef {
    std::string key; ///< stable name and JSON key; dotted for nested objects ("model.depth")
    std::string cli; ///< fisura-cli's flag ("--lr"); empty: not on the command line
    /// Boolean options: the flag turns the option off ("--no-augment") instead of on.
    bool cliClears = false;
    OptionType type = OptionType::Integer;
    double min = 0, max = 0; ///< Integer and Number: the allowed range, inclusive
    double defaultNumber = 0;
    bool defaultBoolean = false;
    std::string defaultText;            ///< Choice (one of choices), Text and Path
    std::vector<double> defaultNumbers; ///< List of numbers
    std::vector<std::string> choices;
    std::string unit; ///< "px", "epochs", "threads", "bytes", ...; empty for plain numbers
    /// English, for fisura-cli's help and logs. The GUI shows its own translated text per key.
    std::string help;

    bool isNumeric() const { return type == OptionType::Integer || type == OptionType::Number; }
    /// In range (numeric options); false for NaN.
    bool allows(double v) const { return v >= min && v <= max; }
};

/// A field of an options struct that is deliberately no option, and why.
struct OptionExclusion {
    std::string field;
    std::string reason;
};

enum class OptionSet { Train, Infer, Measure, Compare };

/// Every option of TrainOptions (with its ModelConfig and ScanOptions), of InferOptions (with
/// the map writer's options), of MeasureOptions (with its width classes), or of a comparison of
/// two dates (AlignOptions as "align.*" and "input_limits.*", CompareOptions with its
/// measurement as "measure.*"), in a stable order.
const std::vector<OptionDef>& optionSchema(OptionSet set);
/// The fields that are not options (a live control, this process's place in a job, ...).
const std::vector<OptionExclusion>& optionExclusions(OptionSet set);
/// The definition of `key`; a definition with an empty key when there is none.
const OptionDef& optionDef(OptionSet set, const std::string& key);
inline const OptionDef& trainOption(const std::string& key)
{
    return optionDef(OptionSet::Train, key);
}
inline const OptionDef& inferOption(const std::string& key)
{
    return optionDef(OptionSet::Infer, key);
}
inline const OptionDef& measureOption(const std::string& key)
{
    return optionDef(OptionSet::Measure, key);
}
inline const OptionDef& compareOption(const std::string& key)
{
    return optionDef(OptionSet::Compare, key);
}

/// "1..100000 epochs", "0..0.9", "classify, segment or anomaly": what a message says is allowed.
std::string optionRangeText(const OptionDef& def);
/// A value as the schema writes it: integers without a fraction, numbers shortest ("1e-06").
std::string optionNumberText(const OptionDef& def, double value);

/// Every option in range (NaN and infinities refused), choices known, and the rules between
/// options: a U-Net's input size a multiple of its stride (2^depth). InvalidArgument naming the
/// option's key and what it allows. train() calls it first.
Status validate(const TrainOptions& options);
/// The same for inference, plus: a tile of 0 (from the model) or 16 px and more; an overlap of
/// at most half an explicit tile; a map tile a multiple of 16; Deflate levels 1-9.
/// TiledInference::create calls it first.
Status validate(const InferOptions& options);
/// The same for measuring, plus: a margin of at least 2 x the closing radius + 16 px
/// (minimumMarginPx), and width classes that WidthClasses::validate accepts (limits ascending,
/// one more name than limits). measureCracks calls it first.
Status validate(const MeasureOptions& options);
/// Alignment and comparison options against OptionSet::Compare; the comparison's measurement
/// as validate(MeasureOptions) does, its message's key prefixed "measure.". alignScans and
/// compareCrackMaps call them first.
Status validate(const AlignOptions& options);
Status validate(const CompareOptions& options);

const char* scheduleName(Schedule s);               ///< "onecycle", "cosine"
const char* blendWindowName(BlendWindow w);         ///< "cosine", "gaussian"
const char* tileCompressionName(TileCompression c); ///< "zstd", "deflate"
const char* classByName(ClassBy by);                ///< "median", "mean", "max"

} // namespace fisura

// The option schema (fisura/options.h): defaults equal the structs', validate() refuses every
// value out of range (NaN and infinities too) naming the key, the rules between options, and
// TrainOptions' JSON carries every field (a fully non-default object survives the round trip).
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include "field_count.h"
#include "fisura/change.h"
#include "fisura/infer.h"
#include "fisura/measure.h"
#include "fisura/options.h"
#include "fisura/project.h"
#include "fisura/train.h"

using namespace fisura;

namespace
{

// A field added to one of these structs must be added to the option table
// (core/src/options/option_fields.h) or to its exclusions, and to the lists of this test.
static_assert(test::fieldCount<TrainOptions>() == 32, "TrainOptions changed: see above");
static_assert(test::fieldCount<ModelConfig>() == 9, "ModelConfig changed: see above");
static_assert(test::fieldCount<ScanOptions>() == 3, "ScanOptions changed: see above");
static_assert(test::fieldCount<InferOptions>() == 16, "InferOptions changed: see above");
static_assert(test::fieldCount<TiledWriteOptions>() == 10, "TiledWriteOptions changed: see above");
static_assert(test::fieldCount<MeasureOptions>() == 13, "MeasureOptions changed: see above");
static_assert(test::fieldCount<WidthClasses>() == 4, "WidthClasses changed: see above");
static_assert(test::fieldCount<AlignOptions>() == 14, "AlignOptions changed: see above");
static_assert(test::fieldCount<CompareOptions>() == 5, "CompareOptions changed: see above");

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// A double into a field's type; negative values into unsigned fields become their largest
/// value (out of range all the same).
template <class T> T fit(double v)
{
    if constexpr (std::is_unsigned_v<T>)
        if (v < 0)
            return std::numeric_limits<T>::max();
    return T(v);
}

template <class O> struct Access {
    std::function<double(const O&)> get;
    std::function<void(O&, double)> set;
};

#define FISURA_FIELD(key, member)                                                                  \
    {                                                                                              \
        key,                                                                                       \
        {                                                                                          \
            [](const auto& o) { return double(o.member); },                                        \
                [](auto& o, double v) { o.member = fit<decltype(o.member)>(v); }                   \
        }                                                                                          \
    }

/// Every numeric option by key, written out here (not taken from the schema), so a field the
/// schema forgets or names differently is noticed.
const std::map<std::string, Access<TrainOptions>>& trainNumbers()
{
    static const std::map<std::string, Access<TrainOptions>> m{
        FISURA_FIELD("epochs", epochs),
        FISURA_FIELD("batch_size", batchSize),
        FISURA_FIELD("model.input_size", model.inputSize),
        FISURA_FIELD("model.classes", model.classes),
        FISURA_FIELD("model.depth", model.depth),
        FISURA_FIELD("model.width", model.width),
        FISURA_FIELD("model.feature_dim", model.featureDim),
        FISURA_FIELD("model.patch_radius", model.patchRadius),
        FISURA_FIELD("samples_per_epoch", samplesPerEpoch),
        FISURA_FIELD("learning_rate", learningRate),
        FISURA_FIELD("weight_decay", weightDecay),
        FISURA_FIELD("clip_norm", clipNorm),
        FISURA_FIELD("patience", patience),
        FISURA_FIELD("val_fraction", valFraction),
        FISURA_FIELD("seed", seed),
        FISURA_FIELD("cpu_memory_mb", cpuMemoryMb),
        FISURA_FIELD("loader_threads", loaderThreads),
        FISURA_FIELD("intra_op_threads", intraOpThreads),
        FISURA_FIELD("inter_op_threads", interOpThreads),
        FISURA_FIELD("prefetch", prefetch),
        FISURA_FIELD("max_batches_per_epoch", maxBatchesPerEpoch),
        FISURA_FIELD("stop_after_epoch", stopAfterEpoch),
        FISURA_FIELD("scan.threads", scan.threads),
        FISURA_FIELD("bucket_bytes", bucketBytes),
    };
    return m;
}

const std::map<std::string, Access<InferOptions>>& inferNumbers()
{
    static const std::map<std::string, Access<InferOptions>> m{
        FISURA_FIELD("tile_size", tileSize),
        FISURA_FIELD("overlap", overlap),
        FISURA_FIELD("batch_size", batchSize),
        FISURA_FIELD("reader_threads", readerThreads),
        FISURA_FIELD("intra_op_threads", intraOpThreads),
        FISURA_FIELD("inter_op_threads", interOpThreads),
        FISURA_FIELD("prefetch_batches", prefetchBatches),
        FISURA_FIELD("cache_bytes", cacheBytes),
        FISURA_FIELD("max_flat_pixels", maxFlatPixels),
        FISURA_FIELD("gpus", gpus),
        FISURA_FIELD("input_limits.max_pixels", inputLimits.maxPixels),
        FISURA_FIELD("input_limits.max_pixels_per_byte", inputLimits.maxPixelsPerByte),
        FISURA_FIELD("output.tile_size", output.tileSize),
        FISURA_FIELD("output.compression_level", output.compressionLevel),
        FISURA_FIELD("output.max_overview_side", output.maxOverviewSide),
        FISURA_FIELD("output.threads", output.threads),
    };
    return m;
}

const std::map<std::string, Access<MeasureOptions>>& measureNumbers()
{
    static const std::map<std::string, Access<MeasureOptions>> m{
        FISURA_FIELD("threshold", threshold),
        FISURA_FIELD("closing_radius_px", closingRadiusPx),
        FISURA_FIELD("min_area_px", minAreaPx),
        FISURA_FIELD("pixel_size_mm", pixelSizeMm),
        FISURA_FIELD("tile_size", tileSize),
        FISURA_FIELD("margin_px", marginPx),
        FISURA_FIELD("threads", threads),
        FISURA_FIELD("branch_memory_mb", branchMemoryMb),
        FISURA_FIELD("input_limits.max_pixels", limits.maxPixels),
        FISURA_FIELD("input_limits.max_pixels_per_byte", limits.maxPixelsPerByte),
    };
    return m;
}

const std::map<std::string, Access<AlignOptions>>& alignNumbers()
{
    static const std::map<std::string, Access<AlignOptions>> m{
        FISURA_FIELD("align.overview_side", overviewSide),
        FISURA_FIELD("align.features", features),
        FISURA_FIELD("align.ratio", ratio),
        FISURA_FIELD("align.min_inliers", minInliers),
        FISURA_FIELD("align.region_grid", regionGrid),
        FISURA_FIELD("align.windows_per_region", windowsPerRegion),
        FISURA_FIELD("align.window_px", windowPx),
        FISURA_FIELD("align.min_overlap", minOverlap),
        FISURA_FIELD("align.max_scale_change", maxScaleChange),
        FISURA_FIELD("align.max_anisotropy", maxAnisotropy),
        FISURA_FIELD("input_limits.max_pixels", limits.maxPixels),
        FISURA_FIELD("input_limits.max_pixels_per_byte", limits.maxPixelsPerByte),
    };
    return m;
}

const std::map<std::string, Access<CompareOptions>>& comparisonNumbers()
{
    static const std::map<std::string, Access<CompareOptions>> m{
        FISURA_FIELD("tolerance_px", tolerancePx),
        FISURA_FIELD("min_length_gain_px", minLengthGainPx),
        FISURA_FIELD("min_width_gain_px", minWidthGainPx),
        FISURA_FIELD("min_covered_fraction", minCoveredFraction),
        FISURA_FIELD("measure.threshold", measure.threshold),
        FISURA_FIELD("measure.closing_radius_px", measure.closingRadiusPx),
        FISURA_FIELD("measure.min_area_px", measure.minAreaPx),
        FISURA_FIELD("measure.pixel_size_mm", measure.pixelSizeMm),
        FISURA_FIELD("measure.tile_size", measure.tileSize),
        FISURA_FIELD("measure.margin_px", measure.marginPx),
        FISURA_FIELD("measure.threads", measure.threads),
        FISURA_FIELD("measure.branch_memory_mb", measure.branchMemoryMb),
    };
    return m;
}

#undef FISURA_FIELD

/// Measurement options whose margin leaves every closing radius and margin in range valid
/// (the rule between them aside), for checking one option's bounds at a time.
MeasureOptions roomyMeasureOptions()
{
    MeasureOptions o;
    o.closingRadiusPx = 0;
    o.marginPx = 1024;
    return o;
}

/// The option `key` of `set` at `value` in default options (roomy ones for measuring), validated.
Status validateWith(OptionSet set, const std::string& key, double value)
{
    if (set == OptionSet::Train) {
        TrainOptions o;
        trainNumbers().at(key).set(o, value);
        return validate(o);
    }
    if (set == OptionSet::Infer) {
        InferOptions o;
        inferNumbers().at(key).set(o, value);
        return validate(o);
    }
    if (set == OptionSet::Measure) {
        MeasureOptions o = roomyMeasureOptions();
        measureNumbers().at(key).set(o, value);
        return validate(o);
    }
    if (alignNumbers().count(key)) {
        AlignOptions o;
        alignNumbers().at(key).set(o, value);
        return validate(o);
    }
    CompareOptions o;
    o.measure = roomyMeasureOptions();
    comparisonNumbers().at(key).set(o, value);
    return validate(o);
}

/// The default of option `key` of the Compare set, read from the structs.
double compareDefault(const std::string& key)
{
    if (alignNumbers().count(key))
        return alignNumbers().at(key).get(AlignOptions());
    return comparisonNumbers().at(key).get(CompareOptions());
}

bool knowsNumber(OptionSet set, const std::string& key)
{
    return set == OptionSet::Train   ? trainNumbers().count(key) > 0
           : set == OptionSet::Infer ? inferNumbers().count(key) > 0
           : set == OptionSet::Measure
               ? measureNumbers().count(key) > 0
               : alignNumbers().count(key) + comparisonNumbers().count(key) > 0;
}

/// Every field of TrainOptions changed from its default (the excluded ones aside), values
/// inside the schema's ranges.
TrainOptions everyFieldChanged()
{
    TrainOptions o;
    o.task = TaskKind::Anomaly;
    o.dataDir = "/data/clean";
    o.outPath = "/out/m.fisura";
    o.checkpointPath = "/out/m.ckpt";
    o.resumeFrom = "/out/old.ckpt";
    o.splitPath = "/out/split.json";
    o.epochs = 7;
    o.batchSize = 48;
    o.precision = Precision::BF16;
    o.preferCpu = true;
    o.model.type = ModelType::PatchGaussian;
    o.model.inputSize = 224;
    o.model.classes = 3;
    o.model.depth = 5;
    o.model.width = 24;
    o.model.patchFeatures = PatchFeatures::Pixels;
    o.model.featureDim = 48;
    o.model.patchRadius = 3;
    o.model.pooledPositions = false;
    o.startFrom = "/models/mine.fisura";
    o.samplesPerEpoch = 64;
    o.learningRate = 3e-4;
    o.weightDecay = 5e-5;
    o.schedule = Schedule::Cosine;
    o.clipNorm = 0.5;
    o.patience = 0;
    o.valFraction = 0.25;
    o.seed = 2147483647;
    o.cpuMemoryMb = 1536.5;
    o.augment = false;
    o.loaderThreads = 3;
    o.intraOpThreads = 5;
    o.interOpThreads = 2;
    o.prefetch = 9;
    o.maxBatchesPerEpoch = 11;
    o.stopAfterEpoch = 4;
    o.scan.rules = {{"D/CD", "cracked"}, {"UD", "uncracked"}};
    o.scan.verify = false;
    o.scan.threads = 2;
    o.bucketBytes = -1;
    return o;
}

/// Leaves of a JSON value: scalars and lists.
int leaves(const QJsonValue& v)
{
    if (!v.isObject())
        return 1;
    int n = 0;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        n += leaves(it.value());
    return n;
}

/// The value at a dotted key of a JSON object.
QJsonValue at(QJsonObject o, const std::string& key)
{
    const QStringList parts = q(key).split(QLatin1Char('.'));
    for (int i = 0; i + 1 < parts.size(); ++i)
        o = o[parts[i]].toObject();
    return o[parts.back()];
}

/// {"a":{"b":value}} for the key "a.b".
std::string jsonAt(const std::string& key, const std::string& value)
{
    std::string open, close;
    const QStringList parts = q(key).split(QLatin1Char('.'));
    for (int i = 0; i < parts.size(); ++i) {
        open += "{\"" + parts[i].toStdString() + "\":";
        close += "}";
    }
    return open + value + close;
}

} // namespace

class TstOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFieldIsAnOptionOrExcluded_data()
    {
        QTest::addColumn<int>("set");
        QTest::addColumn<int>("fields");
        // The structs' leaves: nested option structs count by their own fields.
        QTest::newRow("train") << int(OptionSet::Train)
                               << int(test::fieldCount<TrainOptions>() - 2 +
                                      test::fieldCount<ModelConfig>() +
                                      test::fieldCount<ScanOptions>());
        QTest::newRow("infer") << int(OptionSet::Infer)
                               << int(test::fieldCount<InferOptions>() - 2 +
                                      test::fieldCount<TiledWriteOptions>() +
                                      test::fieldCount<ImageLimits>());
        QTest::newRow("measure") << int(OptionSet::Measure)
                                 << int(test::fieldCount<MeasureOptions>() - 2 +
                                        test::fieldCount<WidthClasses>() +
                                        test::fieldCount<ImageLimits>());
        // The alignment's leaves, then the comparison's with its measurement's.
        QTest::newRow("compare")
            << int(OptionSet::Compare)
            << int(test::fieldCount<AlignOptions>() - 1 + test::fieldCount<ImageLimits>() +
                   test::fieldCount<CompareOptions>() - 1 + test::fieldCount<MeasureOptions>() - 2 +
                   test::fieldCount<WidthClasses>() + test::fieldCount<ImageLimits>());
    }

    void everyFieldIsAnOptionOrExcluded()
    {
        QFETCH(int, set);
        QFETCH(int, fields);
        const auto& schema = optionSchema(OptionSet(set));
        const auto& excluded = optionExclusions(OptionSet(set));
        QCOMPARE(int(schema.size() + excluded.size()), fields);
        std::set<std::string> keys, flags;
        for (const OptionDef& d : schema) {
            QVERIFY2(keys.insert(d.key).second, d.key.c_str());
            QVERIFY2(d.cli.empty() || flags.insert(d.cli).second, d.cli.c_str());
            QVERIFY2(!d.help.empty(), d.key.c_str());
            QCOMPARE(&optionDef(OptionSet(set), d.key), &d);
            if (d.isNumeric()) {
                QVERIFY2(d.min <= d.defaultNumber && d.defaultNumber <= d.max, d.key.c_str());
                QVERIFY2(d.max < 9007199254740992.0, d.key.c_str()); // exact as a double
            }
            if (d.type == OptionType::Choice)
                QVERIFY2(std::count(d.choices.begin(), d.choices.end(), d.defaultText) == 1,
                         d.key.c_str());
        }
        for (const OptionExclusion& e : excluded)
            QVERIFY2(!e.reason.empty() && !keys.count(e.field), e.field.c_str());
        QVERIFY(optionDef(OptionSet(set), "no_such_option").key.empty());
    }

    void numericDefaultsAreTheStructs()
    {
        const TrainOptions t;
        for (const auto& [key, access] : trainNumbers()) {
            const OptionDef& d = trainOption(key);
            QCOMPARE(q(d.key), q(key));
            QVERIFY2(d.isNumeric(), key.c_str());
            QCOMPARE(d.defaultNumber, access.get(t));
        }
        const InferOptions i;
        for (const auto& [key, access] : inferNumbers()) {
            const OptionDef& d = inferOption(key);
            QCOMPARE(q(d.key), q(key));
            QVERIFY2(d.isNumeric(), key.c_str());
            QCOMPARE(d.defaultNumber, access.get(i));
        }
        const MeasureOptions m;
        for (const auto& [key, access] : measureNumbers()) {
            const OptionDef& d = measureOption(key);
            QCOMPARE(q(d.key), q(key));
            QVERIFY2(d.isNumeric(), key.c_str());
            QCOMPARE(d.defaultNumber, access.get(m));
        }
        for (const OptionDef& d : optionSchema(OptionSet::Compare))
            if (d.isNumeric())
                QVERIFY2(d.defaultNumber == compareDefault(d.key), d.key.c_str());
        // The comparison's measurement is measure's: the same ranges and flags.
        for (const OptionDef& d : optionSchema(OptionSet::Compare))
            if (d.key.rfind("measure.", 0) == 0) {
                const OptionDef& m = measureOption(d.key.substr(8));
                QVERIFY2(m.min == d.min && m.max == d.max && m.cli == d.cli, d.key.c_str());
            }
        // And the schema has no numeric option this test does not know.
        for (OptionSet set :
             {OptionSet::Train, OptionSet::Infer, OptionSet::Measure, OptionSet::Compare})
            for (const OptionDef& d : optionSchema(set))
                QVERIFY2(!d.isNumeric() || knowsNumber(set, d.key), d.key.c_str());
    }

    void otherDefaultsAreTheStructs()
    {
        QCOMPARE(q(trainOption("task").defaultText), QStringLiteral("segment"));
        QCOMPARE(q(trainOption("precision").defaultText), QStringLiteral("auto"));
        QCOMPARE(q(trainOption("schedule").defaultText), QStringLiteral("onecycle"));
        QCOMPARE(q(trainOption("model.type").defaultText), QStringLiteral("unet"));
        QCOMPARE(trainOption("augment").defaultBoolean, TrainOptions().augment);
        QCOMPARE(trainOption("model.pooled_positions").defaultBoolean,
                 ModelConfig().pooledPositions);
        QCOMPARE(trainOption("scan.verify").defaultBoolean, ScanOptions().verify);
        QCOMPARE(trainOption("data_dir").type, OptionType::Path);
        QCOMPARE(trainOption("scan.rules").type, OptionType::List);
        QCOMPARE(q(inferOption("window").defaultText), QStringLiteral("cosine"));
        QCOMPARE(q(inferOption("output.compression").defaultText), QStringLiteral("zstd"));
        QCOMPARE(inferOption("output.pyramid").defaultBoolean, TiledWriteOptions().pyramid);
        QCOMPARE(q(measureOption("class_by").defaultText), QStringLiteral("median"));
        QCOMPARE(q(measureOption("classes.preset").defaultText), QStringLiteral("default"));
        QCOMPARE(measureOption("classes.upper_limits_mm").type, OptionType::List);
        QCOMPARE(measureOption("classes.upper_limits_mm").defaultNumbers,
                 WidthClasses().upperLimitsMm);
        QCOMPARE(measureOption("scan_path").type, OptionType::Path);
        // Every preset is a choice, and the user's own limits.
        const auto& presets = measureOption("classes.preset").choices;
        QCOMPARE(presets.size(), widthClassPresets().size() + 1);
        for (const WidthClassPreset& p : widthClassPresets())
            QVERIFY2(std::count(presets.begin(), presets.end(), p.id) == 1, p.id.c_str());
        QCOMPARE(q(presets.back()), QStringLiteral("custom"));
        // Every default as the JSON writer writes a default TrainOptions.
        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(toJson(TrainOptions()))).object();
        for (const OptionDef& d : optionSchema(OptionSet::Train)) {
            const QJsonValue v = at(j, d.key);
            if (d.isNumeric())
                QCOMPARE(v.toDouble(), d.defaultNumber);
            else if (d.type == OptionType::Boolean)
                QCOMPARE(v.toBool(), d.defaultBoolean);
            else if (d.type != OptionType::List)
                QCOMPARE(v.toString(), q(d.defaultText));
        }
    }

    void rangeTexts()
    {
        QCOMPARE(q(optionRangeText(trainOption("epochs"))), QStringLiteral("1..100000 epochs"));
        QCOMPARE(q(optionRangeText(trainOption("learning_rate"))), QStringLiteral("1e-06..1"));
        QCOMPARE(q(optionRangeText(trainOption("val_fraction"))), QStringLiteral("0..0.9"));
        QCOMPARE(q(optionRangeText(trainOption("seed"))), QStringLiteral("0..2147483647"));
        QCOMPARE(q(optionRangeText(trainOption("task"))),
                 QStringLiteral("classify, segment or anomaly"));
        QCOMPARE(q(optionRangeText(inferOption("overlap"))), QStringLiteral("-1..2048 px"));
        QCOMPARE(q(optionRangeText(measureOption("classes.upper_limits_mm"))),
                 QStringLiteral("0.001..10000 mm"));
        QCOMPARE(q(optionRangeText(measureOption("class_by"))),
                 QStringLiteral("median, mean or max"));
    }

    void validateAcceptsDefaultsAndBounds()
    {
        QVERIFY(validate(TrainOptions()));
        QVERIFY(validate(InferOptions()));
        QVERIFY(validate(everyFieldChanged()));
        for (const auto& [key, access] : trainNumbers())
            for (double v : {trainOption(key).min, trainOption(key).max}) {
                TrainOptions o;
                access.set(o, v);
                const Status s = validate(o);
                QVERIFY2(s, (key + ": " + s.detail()).c_str());
            }
        for (const auto& [key, access] : inferNumbers())
            for (double v : {inferOption(key).min, inferOption(key).max}) {
                InferOptions o;
                access.set(o, v);
                const Status s = validate(o);
                QVERIFY2(s, (key + ": " + s.detail()).c_str());
            }
        QVERIFY(validate(MeasureOptions()));
        for (const auto& [key, access] : measureNumbers())
            for (double v : {measureOption(key).min, measureOption(key).max}) {
                const Status s = validateWith(OptionSet::Measure, key, v);
                QVERIFY2(s, (key + ": " + s.detail()).c_str());
            }
        for (const WidthClassPreset& p : widthClassPresets()) {
            MeasureOptions o;
            o.classes = p.classes;
            QVERIFY2(validate(o), p.id.c_str());
        }
        QVERIFY(validate(AlignOptions()));
        QVERIFY(validate(CompareOptions()));
        for (const OptionDef& d : optionSchema(OptionSet::Compare))
            if (d.isNumeric())
                for (double v : {d.min, d.max}) {
                    const Status s = validateWith(OptionSet::Compare, d.key, v);
                    QVERIFY2(s, (d.key + ": " + s.detail()).c_str());
                }
    }

    void validateRefusesOutOfRange_data()
    {
        QTest::addColumn<int>("set");
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        const char* names[] = {"train ", "infer ", "measure ", "compare "};
        for (int set : {int(OptionSet::Train), int(OptionSet::Infer), int(OptionSet::Measure),
                        int(OptionSet::Compare)})
            for (const OptionDef& d : optionSchema(OptionSet(set))) {
                if (!d.isNumeric())
                    continue;
                const QString k = q(d.key);
                const QString name = QLatin1String(names[set]) + k;
                const double step = d.type == OptionType::Integer ? 1 : d.max * 1e-3;
                QTest::newRow(qPrintable(name + QStringLiteral(" below")))
                    << set << k << d.min - step;
                QTest::newRow(qPrintable(name + QStringLiteral(" above")))
                    << set << k << d.max + step;
                if (d.type == OptionType::Number)
                    for (double bad : {nan, inf, -inf})
                        QTest::newRow(qPrintable(name + QStringLiteral(" ") + QString::number(bad)))
                            << set << k << bad;
            }
    }

    void validateRefusesOutOfRange()
    {
        QFETCH(int, set);
        QFETCH(QString, key);
        QFETCH(double, value);
        const std::string k = key.toStdString();
        QVERIFY2(knowsNumber(OptionSet(set), k), k.c_str());
        const Status s = validateWith(OptionSet(set), k, value);
        QVERIFY2(!s, k.c_str());
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        const QString detail = q(s.detail());
        QVERIFY2(detail.startsWith(key + QLatin1Char(' ')), qPrintable(detail));
        const OptionDef& d = optionDef(OptionSet(set), k);
        QVERIFY2(detail.contains(q(optionRangeText(d))), qPrintable(detail));
        if (std::isnan(value))
            QVERIFY2(detail.contains(QStringLiteral("finite")), qPrintable(detail));
    }

    void validateRefusesUnknownChoices()
    {
        TrainOptions t;
        t.precision = Precision(42);
        QVERIFY(q(validate(t).detail()).startsWith(QStringLiteral("precision ")));
        t = {};
        t.schedule = Schedule(7);
        QVERIFY(q(validate(t).detail()).contains(QStringLiteral("onecycle or cosine")));
        InferOptions i;
        i.window = BlendWindow(3);
        QVERIFY(q(validate(i).detail()).startsWith(QStringLiteral("window ")));
    }

    void validateRulesBetweenOptions()
    {
        TrainOptions t;
        t.model.inputSize = 36; // a U-Net of depth 3 halves it three times: 8 px steps
        t.model.depth = 3;
        Status s = validate(t);
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(s.detail()).contains(QStringLiteral("model.input_size must be a multiple of 8")),
                 s.detail().c_str());
        t.model.depth = 0; // the default depth, 4: 16 px steps
        QVERIFY(q(validate(t).detail()).contains(QStringLiteral("multiple of 16")));
        t.task = TaskKind::Classify; // a classifier takes any size
        QVERIFY(validate(t));

        InferOptions i;
        i.tileSize = 8;
        QVERIFY(q(validate(i).detail()).startsWith(QStringLiteral("tile_size ")));
        i.tileSize = 256;
        i.overlap = 129;
        s = validate(i);
        QVERIFY2(q(s.detail()).contains(QStringLiteral("overlap must be at most half")),
                 s.detail().c_str());
        i.overlap = 128;
        QVERIFY(validate(i));
        i.tileSize = 0; // the model's tile: checked once the model is known
        i.overlap = 2000;
        QVERIFY(validate(i));
        i = {};
        i.output.tileSize = 40;
        QVERIFY(q(validate(i).detail()).startsWith(QStringLiteral("output.tile_size ")));
        i = {};
        i.output.compressionLevel = 12;
        QVERIFY(validate(i)); // zstd has 22 levels
        i.output.compression = TileCompression::Deflate;
        QVERIFY(q(validate(i).detail()).contains(QStringLiteral("level must be 1-9")));
    }

    void measureRulesAndLists()
    {
        MeasureOptions o;
        o.closingRadiusPx = 8; // a closing by 8 px looks 16 px beyond a tile: 32 px of margin
        o.marginPx = 31;
        Status s = validate(o);
        QCOMPARE(s.code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(s.detail()).startsWith(QStringLiteral("margin_px must be at least")),
                 s.detail().c_str());
        QVERIFY2(q(s.detail()).contains(QStringLiteral("= 32 px (got 31)")), s.detail().c_str());
        o.marginPx = 32;
        QVERIFY(validate(o));

        o = {};
        o.classes.preset = "en1992-xc9";
        s = validate(o);
        QVERIFY2(q(s.detail()).startsWith(QStringLiteral("classes.preset must be default, ")),
                 s.detail().c_str());
        QVERIFY(q(s.detail()).contains(QStringLiteral("or custom (got \"en1992-xc9\")")));

        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (double bad : {0.0, -0.2, 2e4, nan}) {
            o = {};
            o.classes.upperLimitsMm = {0.1, bad, 1.0};
            s = validate(o);
            QVERIFY2(q(s.detail())
                         .startsWith(QStringLiteral("classes.upper_limits_mm values "
                                                    "must be ")),
                     s.detail().c_str());
            QVERIFY(q(s.detail()).contains(QStringLiteral("0.001..10000 mm")));
        }
        o = {};
        o.classes.upperLimitsMm = {0.3, 0.1, 1.0}; // in range, not ascending
        QVERIFY2(q(validate(o).detail()).contains(QStringLiteral("ascending")),
                 validate(o).detail().c_str());
        o = {};
        o.classBy = ClassBy(5);
        QVERIFY(q(validate(o).detail()).startsWith(QStringLiteral("class_by ")));
    }

    void compareRulesAndNames()
    {
        CompareOptions o;
        o.measure.closingRadiusPx = 30; // the measurement's own rule, named under "measure."
        Status s = validate(o);
        QVERIFY2(q(s.detail()).startsWith(QStringLiteral("measure.margin_px must be at least")),
                 s.detail().c_str());
        o = {};
        o.measure.classes.preset = "iso-9999";
        QVERIFY(q(validate(o).detail()).startsWith(QStringLiteral("measure.classes.preset ")));
        AlignOptions a;
        a.model = AlignModel(9);
        QVERIFY(q(validate(a).detail()).startsWith(QStringLiteral("align.model ")));
        QCOMPARE(q(optionRangeText(compareOption("align.model"))),
                 QStringLiteral("auto, similarity, affine or homography"));
        a = {};
        a.field = AlignField(5);
        QVERIFY(q(validate(a).detail()).startsWith(QStringLiteral("align.field ")));
        QCOMPARE(q(optionRangeText(compareOption("align.field"))), QStringLiteral("auto or off"));
        a = {};
        a.georeference = AlignGeoreference(5);
        QVERIFY(q(validate(a).detail()).startsWith(QStringLiteral("align.georeference ")));
        // Comparing checks before reading anything.
        CompareOptions bad;
        bad.tolerancePx = 0;
        auto r = compareCrackMaps("/nonexistent/a.tif", "/nonexistent/b.tif", AlignResult(), bad);
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(r.status().detail()).startsWith(QStringLiteral("tolerance_px must be")),
                 r.status().detail().c_str());
    }

    void measureValidatesFirst()
    {
        MeasureOptions o;
        o.threshold = 0; // every pixel crack: refused before the (missing) map is opened
        auto r = measureCracks("/nonexistent/map.tif", o, CancelToken());
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(r.status().detail()).startsWith(QStringLiteral("threshold must be 0.001..1")),
                 r.status().detail().c_str());
    }

    void trainAndInferenceValidateFirst()
    {
        TrainOptions t;
        t.dataDir = "/nonexistent";
        t.outPath = "/nonexistent/m.fisura";
        t.learningRate = std::numeric_limits<double>::quiet_NaN();
        auto r = train(t); // refused before the (missing) data is looked at
        QCOMPARE(r.status().code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(r.status().detail()).startsWith(QStringLiteral("learning_rate ")),
                 r.status().detail().c_str());

        ModelConfig c;
        c.inputSize = 32;
        c.depth = 2;
        c.width = 4;
        auto m = Model::create(c);
        QVERIFY(m);
        InferOptions i;
        i.preferCpu = true;
        i.tileSize = 64;
        i.overlap = 40;
        auto e = TiledInference::create(std::move(*m), i);
        QCOMPARE(e.status().code(), ErrorCode::InvalidArgument);
        QVERIFY2(q(e.status().detail()).startsWith(QStringLiteral("overlap ")),
                 e.status().detail().c_str());
    }

    void everyFieldRoundTrips()
    {
        const TrainOptions d;
        const TrainOptions o = everyFieldChanged();
        // Each field really differs from its default (or the round trip would prove nothing).
        QVERIFY(o.task != d.task && o.dataDir != d.dataDir && o.outPath != d.outPath);
        QVERIFY(o.checkpointPath != d.checkpointPath && o.resumeFrom != d.resumeFrom);
        QVERIFY(o.splitPath != d.splitPath && o.precision != d.precision);
        QVERIFY(o.preferCpu != d.preferCpu && o.model.type != d.model.type);
        QVERIFY(o.model.patchFeatures != d.model.patchFeatures);
        QVERIFY(o.model.pooledPositions != d.model.pooledPositions);
        QVERIFY(o.schedule != d.schedule && o.augment != d.augment);
        QVERIFY(o.startFrom != d.startFrom);
        QVERIFY(o.scan.rules.size() != d.scan.rules.size() && o.scan.verify != d.scan.verify);
        for (const auto& [key, access] : trainNumbers())
            QVERIFY2(access.get(o) != access.get(d), key.c_str());

        const std::string text = toJson(o);
        auto back = trainOptionsFromJson(text);
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE(back->task, o.task);
        QCOMPARE(q(back->dataDir), q(o.dataDir));
        QCOMPARE(q(back->outPath), q(o.outPath));
        QCOMPARE(q(back->checkpointPath), q(o.checkpointPath));
        QCOMPARE(q(back->resumeFrom), q(o.resumeFrom));
        QCOMPARE(q(back->splitPath), q(o.splitPath));
        QCOMPARE(q(back->startFrom), q(o.startFrom));
        QCOMPARE(back->precision, o.precision);
        QCOMPARE(back->preferCpu, o.preferCpu);
        QCOMPARE(back->model.type, o.model.type);
        QCOMPARE(back->model.patchFeatures, o.model.patchFeatures);
        QCOMPARE(back->model.pooledPositions, o.model.pooledPositions);
        QCOMPARE(back->schedule, o.schedule);
        QCOMPARE(back->augment, o.augment);
        QCOMPARE(back->scan.verify, o.scan.verify);
        QCOMPARE(back->scan.rules.size(), o.scan.rules.size());
        for (size_t k = 0; k < o.scan.rules.size(); ++k) {
            QCOMPARE(q(back->scan.rules[k].folder), q(o.scan.rules[k].folder));
            QCOMPARE(q(back->scan.rules[k].className), q(o.scan.rules[k].className));
        }
        for (const auto& [key, access] : trainNumbers())
            QVERIFY2(access.get(*back) == access.get(o), key.c_str());
        // The threads and buckets reach peer ranks and resumed runs (they were once dropped).
        QCOMPARE(back->intraOpThreads, 5);
        QCOMPARE(back->interOpThreads, 2);
        QCOMPARE(back->bucketBytes, int64_t(-1));

        // One JSON value per option, each under its schema key.
        const QJsonObject j = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
        QCOMPARE(leaves(j), int(optionSchema(OptionSet::Train).size()));
        for (const OptionDef& def : optionSchema(OptionSet::Train))
            QVERIFY2(!at(j, def.key).isUndefined(), def.key.c_str());
        QCOMPARE(at(j, "scan.rules").toArray().size(), 2);
    }

    void jsonReaderTakesTheSchemasRanges_data()
    {
        QTest::addColumn<QString>("key");
        for (const OptionDef& d : optionSchema(OptionSet::Train))
            if (d.type == OptionType::Integer)
                QTest::newRow(d.key.c_str()) << q(d.key);
    }

    void jsonReaderTakesTheSchemasRanges()
    {
        QFETCH(QString, key);
        const std::string k = key.toStdString();
        const OptionDef& d = trainOption(k);
        auto atMax = trainOptionsFromJson(jsonAt(k, optionNumberText(d, d.max)));
        QVERIFY2(atMax, atMax.status().toString().c_str());
        QCOMPARE(trainNumbers().at(k).get(*atMax), d.max);
        for (double bad : {d.min - 1, d.max + 1}) {
            auto o = trainOptionsFromJson(jsonAt(k, optionNumberText(d, bad)));
            QVERIFY2(!o, k.c_str());
            QCOMPARE(o.status().code(), ErrorCode::InvalidArgument);
            QVERIFY2(q(o.status().detail()).contains(key + QStringLiteral(": ")),
                     o.status().detail().c_str());
            QVERIFY2(q(o.status().detail()).contains(q(optionRangeText(d))),
                     o.status().detail().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TstOptions)
#include "tst_options.moc"

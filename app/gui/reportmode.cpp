#include "reportmode.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstring>

#include "common/errortext.h"
#include "common/languagemanager.h"
#include "fisura/measure.h"
#include "inspect/report.h"
#include "startoptions.h"

namespace fisura::app
{

namespace
{

void printError(const QString& text)
{
    std::fprintf(stderr, "fisura: %s\n", text.toLocal8Bit().constData());
}

} // namespace

ReportMode::ReportMode(QCommandLineParser& parser)
    : pdf_(QStringLiteral("report-pdf"),
           tr("Write the PDF inspection report of --map to <file> without opening a window."),
           QStringLiteral("file")),
      map_(QStringLiteral("map"), tr("Map (or mask) to measure for the report."),
           QStringLiteral("map")),
      scan_(QStringLiteral("scan"), tr("The scan the map belongs to (overview, pixel size)."),
            QStringLiteral("scan")),
      pixelSize_(QStringLiteral("pixel-size"), tr("Pixel size in mm (default: the files' tags)."),
                 QStringLiteral("mm")),
      threshold_(QStringLiteral("threshold"),
                 tr("The crack probability from which a pixel is crack (above 0, at most 1)."),
                 QStringLiteral("probability"), QStringLiteral("0.5")),
      lang_(QStringLiteral("lang"), tr("Report language: es or en."), QStringLiteral("lang")),
      model_(QStringLiteral("model"), tr("Name of the model that made the map, for the report."),
             QStringLiteral("name")),
      limits_(QStringLiteral("class-limits"),
              tr("Upper limits of the width classes in mm, comma-separated (default 0.1,0.3,1)."),
              QStringLiteral("mm")),
      classes_(QStringLiteral("classes"),
               tr("Width classes: a standard's preset (aci224r-humid, en1992-xc1, ...) whose "
                  "tolerable width the report flags, default, or custom (--class-limits)."),
               QStringLiteral("preset"))
{
    // --map, --threshold and --lang are the start options' own (same names, same meaning):
    // values are read through these objects by name.
    parser.addOptions({pdf_, scan_, pixelSize_, model_, limits_, classes_});
}

void ReportMode::prepare(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if ((std::strncmp(argv[i], "--report-pdf", 12) == 0 ||
             std::strncmp(argv[i], "--change-report-pdf", 19) == 0) &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
}

bool ReportMode::requested(const QCommandLineParser& parser) const
{
    return parser.isSet(pdf_);
}

int ReportMode::run(const QCommandLineParser& parser) const
{
    using ui::LanguageManager;
    const QString lang = parser.value(lang_);
    if (!lang.isEmpty() && lang != QLatin1String("es") && lang != QLatin1String("en")) {
        printError(tr("--lang must be es or en."));
        return 2;
    }
    if (!lang.isEmpty())
        LanguageManager::instance().applyForSession(lang == QLatin1String("es")
                                                        ? LanguageManager::Language::Spanish
                                                        : LanguageManager::Language::English);
    if (!parser.isSet(map_)) {
        printError(tr("--report-pdf needs --map."));
        return 2;
    }
    MeasureOptions o;
    bool ok = true;
    QString thresholdError;
    if (!parseThresholdOption(parser.value(threshold_), o.threshold, thresholdError)) {
        printError(thresholdError);
        return 2;
    }
    if (o.threshold <= 0) { // every pixel would be crack: the whole map one crack
        printError(tr("--threshold must be above 0 to measure cracks."));
        return 2;
    }
    if (parser.isSet(pixelSize_)) {
        o.pixelSizeMm = parser.value(pixelSize_).toDouble(&ok);
        if (!ok || o.pixelSizeMm <= 0) {
            printError(tr("--pixel-size must be a positive number of millimetres."));
            return 2;
        }
    }
    if (const QString preset = parser.value(classes_);
        !preset.isEmpty() && preset != QLatin1String("custom")) {
        const auto p = widthClassPreset(preset.toStdString());
        if (!p) {
            printError(tr("--classes: unknown preset %1.").arg(preset));
            return 2;
        }
        o.classes = p->classes;
    }
    if (parser.isSet(limits_)) {
        o.classes.upperLimitsMm.clear();
        o.classes.preset = "custom";
        for (const QString& v : parser.value(limits_).split(QLatin1Char(',')))
            o.classes.upperLimitsMm.push_back(v.toDouble(&ok));
        if (!ok || !o.classes.validate()) {
            printError(tr("--class-limits must be three rising numbers of millimetres."));
            return 2;
        }
    }
    o.scanPath = parser.value(scan_).toStdString();
    auto measured = measureCracks(parser.value(map_).toStdString(), o);
    if (!measured) {
        printError(ui::errorMessage(measured.status()));
        return 1;
    }
    ui::ReportInput in;
    in.result = std::make_shared<const MeasureResult>(std::move(*measured));
    in.scanPath = parser.value(scan_);
    in.modelName = parser.isSet(model_) ? parser.value(model_)
                                        : ui::MeasureReport::modelFor(parser.value(map_));
    auto picture = ui::MeasureReport::overviewPicture(in.scanPath, *in.result);
    if (!picture) {
        printError(ui::errorMessage(picture.status()));
        return 1;
    }
    in.overview = *picture;
    ui::MeasureReport::renderPlots(in);
    const QString pdf = parser.value(pdf_);
    if (const Status s = ui::MeasureReport::writePdf(pdf, in); !s) {
        printError(ui::errorMessage(s));
        return 1;
    }
    return 0;
}

} // namespace fisura::app

#include "changereportmode.h"

#include <QDate>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "common/errortext.h"
#include "common/languagemanager.h"
#include "fisura/change.h"
#include "fisura/options.h"
#include "inspect/changereport.h"
#include "startoptions.h"

namespace fisura::app
{

namespace
{

void printError(const QString& text)
{
    std::fprintf(stderr, "fisura: %s\n", text.toLocal8Bit().constData());
}

/// The language of --lang (start options): false after a message when it is neither es nor en.
bool applyLanguage(const QCommandLineParser& parser)
{
    using ui::LanguageManager;
    const QString lang = parser.value(QStringLiteral("lang"));
    if (lang.isEmpty())
        return true;
    if (lang != QLatin1String("es") && lang != QLatin1String("en")) {
        printError(ChangeReportMode::tr("--lang must be es or en."));
        return false;
    }
    LanguageManager::instance().applyForSession(lang == QLatin1String("es")
                                                    ? LanguageManager::Language::Spanish
                                                    : LanguageManager::Language::English);
    return true;
}

/// --before-date / --after-date (ISO 8601), else the scan file's date.
bool dateOf(const QCommandLineParser& parser, const QCommandLineOption& option, const QString& scan,
            QDate& date)
{
    if (!parser.isSet(option)) {
        date = QFileInfo(scan).lastModified().date();
        return true;
    }
    date = QDate::fromString(parser.value(option), Qt::ISODate);
    if (!date.isValid())
        printError(ChangeReportMode::tr("--%1 must be a date as YYYY-MM-DD.")
                       .arg(option.names().constFirst()));
    return date.isValid();
}

/// The comparison's options from the command line; false after a message.
struct NumberOptions {
    const QCommandLineOption &tolerance, &closing, &minArea, &classBy;
};

/// --closing, --min-area and --class-by into `o`; false when one is not a number or a statistic.
bool measureOptionsOf(const QCommandLineParser& parser, const NumberOptions& n, MeasureOptions& o)
{
    bool ok = true;
    if (parser.isSet(n.closing))
        o.closingRadiusPx = parser.value(n.closing).toInt(&ok);
    if (ok && parser.isSet(n.minArea))
        o.minAreaPx = parser.value(n.minArea).toInt(&ok);
    o.marginPx = std::max(o.marginPx, minimumMarginPx(o.closingRadiusPx));
    const QString by = parser.value(n.classBy);
    for (ClassBy b : {ClassBy::Median, ClassBy::Mean, ClassBy::Max})
        if (by == QLatin1String(classByName(b)))
            o.classBy = b;
    return ok && (by.isEmpty() || by == QLatin1String(classByName(o.classBy)));
}

bool optionsOf(const QCommandLineParser& parser, const NumberOptions& n, CompareOptions& o)
{
    QString error;
    if (!parseThresholdOption(parser.value(QStringLiteral("threshold")), o.measure.threshold,
                              error)) {
        printError(error);
        return false;
    }
    bool ok = true;
    if (parser.isSet(QStringLiteral("pixel-size")))
        o.measure.pixelSizeMm = parser.value(QStringLiteral("pixel-size")).toDouble(&ok);
    if (ok && parser.isSet(n.tolerance))
        o.tolerancePx = parser.value(n.tolerance).toDouble(&ok);
    ok = ok && measureOptionsOf(parser, n, o.measure);
    const QString preset = parser.value(QStringLiteral("classes"));
    if (!preset.isEmpty() && preset != QLatin1String("custom")) {
        const auto p = widthClassPreset(preset.toStdString());
        ok = ok && bool(p);
        if (p)
            o.measure.classes = p->classes;
    }
    if (parser.isSet(QStringLiteral("class-limits"))) {
        o.measure.classes.upperLimitsMm.clear();
        o.measure.classes.preset = "custom";
        for (const QString& v :
             parser.value(QStringLiteral("class-limits")).split(QLatin1Char(',')))
            o.measure.classes.upperLimitsMm.push_back(ok ? v.toDouble(&ok) : 0);
    }
    const Status s = ok ? validate(o) : Status(ErrorCode::InvalidArgument, "not a number");
    if (!s)
        printError(ChangeReportMode::tr("An option is out of range: %1")
                       .arg(QString::fromStdString(s.detail())));
    return bool(s);
}

} // namespace

ChangeReportMode::ChangeReportMode(QCommandLineParser& parser)
    : pdf_(QStringLiteral("change-report-pdf"),
           tr("Compare two inspections and write the PDF report of the changes to <file> "
              "without opening a window."),
           QStringLiteral("file")),
      before_(QStringLiteral("before"), tr("The earlier scan."), QStringLiteral("scan")),
      beforeMap_(QStringLiteral("before-map"), tr("The earlier scan's crack map."),
                 QStringLiteral("map")),
      after_(QStringLiteral("after"), tr("The later scan."), QStringLiteral("scan")),
      afterMap_(QStringLiteral("after-map"), tr("The later scan's crack map."),
                QStringLiteral("map")),
      beforeDate_(QStringLiteral("before-date"),
                  tr("Date of the earlier inspection, YYYY-MM-DD (default: the scan file's)."),
                  QStringLiteral("date")),
      afterDate_(QStringLiteral("after-date"),
                 tr("Date of the later inspection, YYYY-MM-DD (default: the scan file's)."),
                 QStringLiteral("date")),
      tolerance_(QStringLiteral("tolerance"),
                 tr("Centre lines closer than this many pixels are the same crack."),
                 QStringLiteral("px")),
      closing_(QStringLiteral("closing"), tr("Close gaps with a disk of this radius (px)."),
               QStringLiteral("px")),
      minArea_(QStringLiteral("min-area"), tr("Drop cracks with fewer pixels."),
               QStringLiteral("px")),
      classBy_(QStringLiteral("class-by"),
               tr("Width statistic that decides the class: median, mean or max."),
               QStringLiteral("statistic")),
      alignModel_(QStringLiteral("align-model"),
                  tr("Alignment model: auto, similarity, affine or homography."),
                  QStringLiteral("model"))
{
    parser.addOptions({pdf_, before_, beforeMap_, after_, afterMap_, beforeDate_, afterDate_,
                       tolerance_, closing_, minArea_, classBy_, alignModel_});
}

bool ChangeReportMode::requested(const QCommandLineParser& parser) const
{
    return parser.isSet(pdf_);
}

int ChangeReportMode::run(const QCommandLineParser& parser) const
{
    if (!applyLanguage(parser))
        return 2;
    for (const QCommandLineOption* o : {&before_, &beforeMap_, &after_, &afterMap_})
        if (!parser.isSet(*o)) {
            printError(tr("--change-report-pdf needs --%1.").arg(o->names().constFirst()));
            return 2;
        }
    ui::ChangeReportInput in;
    in.beforeScan = parser.value(before_);
    in.afterScan = parser.value(after_);
    CompareOptions o;
    if (!dateOf(parser, beforeDate_, in.beforeScan, in.beforeDate) ||
        !dateOf(parser, afterDate_, in.afterScan, in.afterDate) ||
        !optionsOf(parser, {tolerance_, closing_, minArea_, classBy_}, o))
        return 2;
    AlignOptions ao;
    if (parser.isSet(alignModel_)) {
        const auto model = alignModelFromName(parser.value(alignModel_).toStdString());
        if (!model) {
            printError(tr("--align-model must be auto, similarity, affine or homography."));
            return 2;
        }
        ao.model = *model;
    }
    const QTemporaryDir work;
    const std::string aligned =
        QDir(work.path()).filePath(QStringLiteral("aligned.tif")).toStdString();
    auto al = alignScans(in.beforeScan.toStdString(), in.afterScan.toStdString(), ao);
    Status s =
        al ? warpMapToBefore(parser.value(afterMap_).toStdString(), *al, aligned) : al.status();
    Result<ChangeResult> r =
        s ? compareCrackMaps(parser.value(beforeMap_).toStdString(), aligned, *al, o)
          : Result<ChangeResult>(s);
    if (!r) {
        printError(ui::errorMessage(r.status()));
        return 1;
    }
    in.result = std::make_shared<const ChangeResult>(std::move(*r));
    auto picture = ui::ChangeReport::overviewPicture(in.beforeScan, *in.result);
    if (!picture) {
        printError(ui::errorMessage(picture.status()));
        return 1;
    }
    in.overview = *picture;
    if (const Status w = ui::ChangeReport::writePdf(parser.value(pdf_), in); !w) {
        printError(ui::errorMessage(w));
        return 1;
    }
    return 0;
}

} // namespace fisura::app

#include "startoptions.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

#include "analyze/analyzepane.h"
#include "common/errortext.h"
#include "common/languagemanager.h"
#include "data/datapane.h"
#include "fisura/threshold.h"
#include "inspect/inspectpane.h"
#include "mainwindow.h"
#include "project/projectactions.h"
#include "project/projectsession.h"
#include "train/trainpane.h"

namespace fisura::app
{

bool parseThresholdOption(const QString& text, double& probability, QString& error)
{
    bool ok = false;
    const double v = text.toDouble(&ok); // C locale: command lines are the same in every language
    if (ok && isProbability(v)) {
        probability = v;
        return true;
    }
    if (const int byte = ok ? legacyByteThreshold(v) : -1; byte >= 0)
        error = QApplication::translate("main", "--threshold %1 is a map byte; use --threshold %2 "
                                                "(a crack probability from 0 to 1).")
                    .arg(text, QString::number(probabilityOfMapByte(byte)));
    else
        error =
            QApplication::translate("main", "--threshold must be a crack probability from 0 to 1.");
    return false;
}

StartOptions::StartOptions()
    : demo_(QStringLiteral("demo"),
            QApplication::translate(
                "main", "Open the demo dataset in <dir>, generating it first if needed."),
            QStringLiteral("dir")),
      demoProject_(QStringLiteral("demo-project"),
                   QApplication::translate("main", "Open the demo project (Documents/Fisura/"
                                                   "demo-project), generating it first if "
                                                   "needed.")),
      quit_(QStringLiteral("quit-after"),
            QApplication::translate("main", "Quit after <ms> milliseconds (for smoke tests)."),
            QStringLiteral("ms")),
      project_(QStringLiteral("project"),
               QApplication::translate("main", "Open the project in <dir>."),
               QStringLiteral("dir")),
      pane_(QStringLiteral("pane"),
            QApplication::translate("main",
                                    "Show this pane: data, train, analyze, inspect or system."),
            QStringLiteral("id")),
      lang_(QStringLiteral("lang"),
            QApplication::translate("main", "Language for this start or the report: es or en (not "
                                            "remembered)."),
            QStringLiteral("code")),
      startTraining_(QStringLiteral("start-training"),
                     QApplication::translate(
                         "main",
                         "Start training with the Train pane's settings once the project is "
                         "open.")),
      analyze_(QStringLiteral("analyze"),
               QApplication::translate(
                   "main",
                   "Add this scan (or folder) to the Analyze queue and run the queue; may be "
                   "given several times."),
               QStringLiteral("scan")),
      inspect_(QStringLiteral("inspect"),
               QApplication::translate("main", "Open this scan in Inspect."),
               QStringLiteral("scan")),
      map_(QStringLiteral("map"),
           QApplication::translate("main", "With --inspect: lay this map over the scan; with "
                                           "--report-pdf: the map to measure."),
           QStringLiteral("map")),
      threshold_(QStringLiteral("threshold"),
                 QApplication::translate("main", "With --map: the crack probability from which a "
                                                 "pixel is crack, 0 to 1 (default 0.5)."),
                 QStringLiteral("probability"), QStringLiteral("0.5")),
      measure_(QStringLiteral("measure"),
               QApplication::translate("main", "With --map: measure the cracks of the map.")),
      label_(QStringLiteral("label"),
             QApplication::translate("main", "Start labelling this image in Inspect."),
             QStringLiteral("image"))
{
}

void StartOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({demo_, demoProject_, quit_, project_, pane_, lang_, startTraining_, analyze_,
                       inspect_, map_, threshold_, measure_, label_});
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QApplication::translate("main",
                                "A project (its folder or project.json) or a scan to open."),
        QStringLiteral("[file]"));
}

void StartOptions::applyLanguage(const QCommandLineParser& parser) const
{
    if (parser.isSet(lang_))
        ui::LanguageManager::instance().applyForSession(
            parser.value(lang_) == QStringLiteral("es") ? ui::LanguageManager::Language::Spanish
                                                        : ui::LanguageManager::Language::English);
}

bool StartOptions::applyTo(const QCommandLineParser& parser, MainWindow& window) const
{
    if (parser.isSet(project_)) {
        const QString dir = parser.value(project_);
        if (const Status s = window.projectSession()->openProject(dir); !s) {
            std::fprintf(stderr, "fisura: cannot open the project %s: %s\n", qPrintable(dir),
                         s.toString().c_str());
            return false;
        }
    }
    if (parser.isSet(pane_))
        window.showPane(parser.value(pane_));
    if (parser.isSet(startTraining_))
        QTimer::singleShot(0, window.trainPane(),
                           [&window] { window.trainPane()->startTraining(); });
    if (parser.isSet(analyze_)) {
        window.analyzePane()->addScans(parser.values(analyze_));
        QTimer::singleShot(0, window.analyzePane(), [&window] { window.analyzePane()->run(); });
    }
    if (parser.isSet(inspect_)) {
        double threshold = 0.5;
        QString error;
        if (!parseThresholdOption(parser.value(threshold_), threshold, error)) {
            std::fprintf(stderr, "fisura: %s\n", error.toLocal8Bit().constData());
            return false;
        }
        window.showPane(QStringLiteral("inspect"));
        const QString scan = parser.value(inspect_);
        const Status s = parser.isSet(map_)
                             ? window.inspectPane()->openWithMap(scan, parser.value(map_),
                                                                 mapByteThreshold(threshold))
                             : window.inspectPane()->openScan(scan);
        if (!s)
            std::fprintf(stderr, "fisura: cannot open %s: %s\n", qPrintable(scan),
                         s.toString().c_str());
        if (s && parser.isSet(map_))
            showMapResults(parser, window);
    }
    if (const QStringList files = parser.positionalArguments(); !files.isEmpty())
        openPositional(files.first(), window);
    if (parser.isSet(label_)) {
        window.showPane(QStringLiteral("inspect"));
        window.inspectPane()->setProjectSession(window.projectSession());
        window.inspectPane()->startLabelling(parser.value(label_));
    }
    if (parser.isSet(demo_))
        openDemo(window, QFileInfo(parser.value(demo_)).absoluteFilePath());
    if (parser.isSet(demoProject_))
        window.projectActions()->openDemoProject();
    if (parser.isSet(quit_))
        QTimer::singleShot(parser.value(quit_).toInt(), qApp, &QApplication::quit);
    return true;
}

/// --measure: what a person does next with a map open in Inspect.
void StartOptions::showMapResults(const QCommandLineParser& parser, MainWindow& window) const
{
    ui::InspectPane* inspect = window.inspectPane();
    if (parser.isSet(measure_))
        QTimer::singleShot(0, inspect, [inspect] { inspect->measureCracks(); });
}

void StartOptions::openPositional(const QString& path, MainWindow& window) const
{
    const QFileInfo info(path);
    const QString projectDir = info.fileName() == QStringLiteral("project.json")
                                   ? info.absolutePath()
                                   : (info.isDir() ? info.absoluteFilePath() : QString());
    Status s;
    if (!projectDir.isEmpty()) {
        s = window.projectSession()->openProject(projectDir);
    } else {
        window.showPane(QStringLiteral("inspect"));
        s = window.inspectPane()->openScan(info.absoluteFilePath());
    }
    if (!s)
        QMessageBox::warning(&window, QApplication::translate("main", "Cannot open %1").arg(path),
                             ui::errorMessage(s));
}

void StartOptions::openDemo(MainWindow& window, const QString& dir) const
{
    auto* data = window.dataPane();
    window.showPane(QStringLiteral("data"));
    auto openFirst = [data, dir] {
        data->setRootFolder(dir);
        const QString first = QDir(dir + QStringLiteral("/segmentation/images"))
                                  .entryList({QStringLiteral("*.tif")}, QDir::Files, QDir::Name)
                                  .value(0);
        if (!first.isEmpty())
            data->previewImage(dir + QStringLiteral("/segmentation/images/") + first);
    };
    if (QFileInfo::exists(dir + QStringLiteral("/manifest.json"))) {
        openFirst();
    } else {
        QObject::connect(data, &ui::DataPane::demoDataReady, data, openFirst);
        data->generateDemoData(dir);
    }
}

} // namespace fisura::app

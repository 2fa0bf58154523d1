// fisura: the desktop application.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

#include "common/languagemanager.h"
#include "data/datapane.h"
#include "fisura/version.h"
#include "mainwindow.h"
#include "reportmode.h"

int main(int argc, char** argv)
{
    fisura::app::ReportMode::prepare(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Fisura"));
    QApplication::setApplicationName(QStringLiteral("Fisura"));
    QApplication::setApplicationVersion(QString::fromStdString(fisura::version()));
    fisura::ui::LanguageManager::instance().applySaved();

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Crack inspection workbench"));
    parser.addHelpOption();
    const QCommandLineOption versionOpt(
        QStringLiteral("version"), QApplication::translate("main", "Print the version and exit."));
    const QCommandLineOption demoOpt(
        QStringLiteral("demo"),
        QApplication::translate("main",
                                "Open the demo dataset in <dir>, generating it first if needed."),
        QStringLiteral("dir"));
    const QCommandLineOption quitOpt(
        QStringLiteral("quit-after"),
        QApplication::translate("main", "Quit after <ms> milliseconds (for smoke tests)."),
        QStringLiteral("ms"));
    parser.addOption(versionOpt);
    parser.addOption(demoOpt);
    parser.addOption(quitOpt);
    const fisura::app::ReportMode report(parser);
    parser.process(app);
    if (parser.isSet(versionOpt)) {
        std::printf("fisura %s (LibTorch %s, Qt %s)\n", fisura::version().c_str(),
                    fisura::torchVersion().c_str(), qVersion());
        return 0;
    }
    if (report.requested(parser))
        return report.run(parser);

    fisura::app::MainWindow window;
    window.show();
    if (parser.isSet(demoOpt)) {
        const QString dir = QFileInfo(parser.value(demoOpt)).absoluteFilePath();
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
            QObject::connect(data, &fisura::ui::DataPane::demoDataReady, data, openFirst);
            data->generateDemoData(dir);
        }
    }
    if (parser.isSet(quitOpt))
        QTimer::singleShot(parser.value(quitOpt).toInt(), &app, &QApplication::quit);
    return app.exec();
}

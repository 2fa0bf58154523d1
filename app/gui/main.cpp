// fisura: the desktop application (and, with --report-pdf, a windowless report writer).
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>

#include <cstdio>

#include "common/languagemanager.h"
#include "common/settingscheck.h"
#include "fisura/process.h"
#include "fisura/version.h"
#include "mainwindow.h"
#include "quitsignals.h"
#include "reportmode.h"
#include "startoptions.h"

int main(int argc, char** argv)
{
    fisura::restartWithQuietOpenMpThreads(argc, argv);
    fisura::app::ReportMode::prepare(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Fisura"));
    QApplication::setApplicationName(QStringLiteral("Fisura"));
    QApplication::setApplicationVersion(QString::fromStdString(fisura::version()));
    QApplication::setDesktopFileName(QStringLiteral("org.fisura.Fisura"));
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/fisura-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);
    // Before anything reads a setting: a damaged settings file is moved aside (defaults used).
    const fisura::ui::SettingsCheck settingsCheck = fisura::ui::checkSettingsFile();
    fisura::ui::LanguageManager::instance().applySaved();

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Crack inspection workbench"));
    parser.addHelpOption();
    const QCommandLineOption versionOpt(
        QStringLiteral("version"), QApplication::translate("main", "Print the version and exit."));
    parser.addOption(versionOpt);
    const fisura::app::StartOptions start; // --map, --threshold and --lang serve both modes
    start.addTo(parser);
    const fisura::app::ReportMode report(parser);
    parser.process(app);
    if (parser.isSet(versionOpt)) {
        std::printf("fisura %s (LibTorch %s, Qt %s)\n", fisura::version().c_str(),
                    fisura::torchVersion().c_str(), qVersion());
        return 0;
    }
    if (report.requested(parser))
        return report.run(parser);
    start.applyLanguage(parser);

    fisura::app::MainWindow window;
    fisura::app::quitOnTerminationSignals(&window);
    window.show();
    if (settingsCheck.damaged) {
        auto* box = new QMessageBox(
            QMessageBox::Warning, QApplication::translate("main", "Settings"),
            fisura::ui::settingsCheckMessage(settingsCheck), QMessageBox::Ok, &window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    if (!start.applyTo(parser, window))
        return 1;
    return app.exec();
}

// fisura: the desktop application (and, with --report-pdf or --change-report-pdf, a windowless
// report writer).
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>

#include <cstdio>
#include <cstring>
#include <optional>

#include "changereportmode.h"
#include "common/languagemanager.h"
#include "common/settingscheck.h"
#include "fisura/process.h"
#include "fisura/version.h"
#include "mainwindow.h"
#include "quitsignals.h"
#include "reportmode.h"
#include "startoptions.h"

namespace
{

void describeApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Fisura"));
    QCoreApplication::setApplicationName(QStringLiteral("Fisura"));
    QCoreApplication::setApplicationVersion(QString::fromStdString(fisura::version()));
}

/// Every option of the command line; --help lists them, so both starts declare the same ones.
struct CommandLine {
    QCommandLineParser parser;
    QCommandLineOption version{QStringLiteral("version"),
                               QCoreApplication::translate("main", "Print the version and exit.")};
    fisura::app::StartOptions start;               // --map, --threshold and --lang serve both modes
    std::optional<fisura::app::ReportMode> report; // adds its options after the others
    std::optional<fisura::app::ChangeReportMode> changeReport;

    CommandLine()
    {
        parser.setApplicationDescription(
            QCoreApplication::translate("main", "Crack inspection workbench"));
        parser.addHelpOption();
        parser.addOption(version);
        start.addTo(parser);
        report.emplace(parser);
        changeReport.emplace(parser);
    }
    void printVersion() const
    {
        std::printf("fisura %s (LibTorch %s, Qt %s)\n", fisura::version().c_str(),
                    fisura::torchVersion().c_str(), qVersion());
    }
};

/// --help and --version only print: they must work like any command-line program, also over
/// ssh or in a script with no display (QApplication would abort without one).
bool onlyPrints(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        for (const char* o : {"-h", "--help", "--help-all", "--version"})
            if (std::strcmp(argv[i], o) == 0)
                return true;
    return false;
}

int printAndExit(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    describeApplication();
    fisura::ui::LanguageManager::instance().applySaved();
    CommandLine cl;
    cl.parser.process(app); // --help prints and exits here; a wrong option too, with code 1
    if (cl.parser.isSet(cl.version))
        cl.printVersion();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    fisura::restartWithQuietOpenMpThreads(argc, argv);
    if (onlyPrints(argc, argv))
        return printAndExit(argc, argv);
    fisura::app::ReportMode::prepare(argc, argv);
    QApplication app(argc, argv);
    describeApplication();
    QApplication::setDesktopFileName(QStringLiteral("org.fisura.Fisura"));
    QIcon icon;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/fisura-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);
    // Before anything reads a setting: a damaged settings file is moved aside (defaults used).
    const fisura::ui::SettingsCheck settingsCheck = fisura::ui::checkSettingsFile();
    fisura::ui::LanguageManager::instance().applySaved();

    CommandLine cl;
    QCommandLineParser& parser = cl.parser;
    parser.process(app);
    if (parser.isSet(cl.version)) {
        cl.printVersion();
        return 0;
    }
    const fisura::app::StartOptions& start = cl.start;
    if (cl.report->requested(parser))
        return cl.report->run(parser);
    if (cl.changeReport->requested(parser))
        return cl.changeReport->run(parser);
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

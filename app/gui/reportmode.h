// `fisura --report-pdf FILE --map MAP [--scan SCAN] [--pixel-size MM] [--threshold T]
// [--lang es|en] [--model NAME] [--class-limits A,B,C]`: measures the cracks of a map and writes
// the PDF inspection report without opening a window (fisura-cli measure --pdf runs this; the CLI
// links no Qt).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace fisura::app
{

class ReportMode
{
    Q_DECLARE_TR_FUNCTIONS(fisura::app::ReportMode)
public:
    /// Adds the report options to `parser`.
    explicit ReportMode(QCommandLineParser& parser);
    /// Before QApplication exists: a report needs no display, so the offscreen platform is
    /// chosen unless one is set.
    static void prepare(int argc, char** argv);
    bool requested(const QCommandLineParser& parser) const;
    /// Measures and writes the report; the process exit code (0, 1 on errors, 2 on bad usage).
    int run(const QCommandLineParser& parser) const;

private:
    QCommandLineOption pdf_, map_, scan_, pixelSize_, threshold_, lang_, model_, limits_, classes_;
};

} // namespace fisura::app

// `fisura --change-report-pdf FILE --before SCAN_A --before-map MAP_A --after SCAN_B
// --after-map MAP_B [--before-date YYYY-MM-DD] [--after-date YYYY-MM-DD] [--pixel-size MM]
// [--threshold T] [--classes PRESET] [--tolerance PX] [--closing PX] [--min-area PX]
// [--class-by median|mean|max] [--align-model auto|...] [--lang es|en]`: compares two inspections
// of one surface (align, warp, match, as fisura-cli compare does) and writes the report of the
// changes without opening a window (fisura-cli compare --pdf runs this; the CLI links no Qt).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>

namespace fisura::app
{

class ChangeReportMode
{
    Q_DECLARE_TR_FUNCTIONS(fisura::app::ChangeReportMode)
public:
    /// Adds its options to `parser` (--pixel-size, --threshold, --classes, --class-limits and
    /// --lang are the measurement report's and the start options', read by name).
    explicit ChangeReportMode(QCommandLineParser& parser);
    bool requested(const QCommandLineParser& parser) const;
    /// Compares and writes the report; the process exit code (0, 1 on errors, 2 on bad usage).
    int run(const QCommandLineParser& parser) const;

private:
    QCommandLineOption pdf_, before_, beforeMap_, after_, afterMap_, beforeDate_, afterDate_,
        tolerance_, closing_, minArea_, classBy_, alignModel_;
};

} // namespace fisura::app

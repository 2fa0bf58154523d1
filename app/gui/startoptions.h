// Command-line options of the desktop application that put the window into a state: open a
// project or the demo dataset, show a pane, start training, analyse scans, inspect a map, label an
// image. Every one is also a click away in the window; scripts (screenshots, smoke tests) use them.
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

class QCommandLineParser;

namespace fisura::app
{

class MainWindow;

/// The value of --threshold (here and in the report mode): a crack probability 0..1. The old
/// map-byte form (2..255) is refused with the probability that means the same. False, with a
/// translated `error`, when `text` is not a probability.
bool parseThresholdOption(const QString& text, double& probability, QString& error);

class StartOptions
{
public:
    StartOptions();
    void addTo(QCommandLineParser& parser) const;
    /// Before the window exists: the language for this start.
    void applyLanguage(const QCommandLineParser& parser) const;
    /// After the window is shown. Returns false (and prints why) when the project does not open.
    bool applyTo(const QCommandLineParser& parser, MainWindow& window) const;

private:
    void openDemo(MainWindow& window, const QString& dir) const;
    void showMapResults(const QCommandLineParser& parser, MainWindow& window) const;
    /// `fisura FILE` (how a desktop opens a project.json or a scan with Fisura): a project
    /// folder or its project.json opens the project, anything else opens in Inspect. A failure
    /// is shown in the window, since a desktop start has no terminal.
    void openPositional(const QString& path, MainWindow& window) const;

    QCommandLineOption demo_, demoProject_, quit_, project_, pane_, lang_, startTraining_, analyze_,
        inspect_, map_, threshold_, measure_, label_;
};

} // namespace fisura::app

// What a training run is called wherever a person reads it (the Train pane's list and plots, the
// model choosers of Analyze and the Data pane): "Run 3 · 27 Nov 14:05", its number in the order the
// project's runs started and its start in the user's locale, instead of the record's id.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <vector>

#include "fisura/project.h"

namespace fisura::ui
{

class RunName
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::RunName)
public:
    /// 1 for the project's first run; runs are numbered in the order they started (ties: id).
    static int number(const std::vector<ProjectRun>& runs, const ProjectRun& run);
    /// "Run 3 · 27 Nov 14:05" (the year too when it is not this year's).
    static QString of(const std::vector<ProjectRun>& runs, const ProjectRun& run);
    /// When it started, short, in the user's locale; empty when the record has no valid time.
    static QString started(const ProjectRun& run);
};

} // namespace fisura::ui

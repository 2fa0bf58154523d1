#include "project/runname.h"

#include <QDateTime>
#include <QLocale>

namespace fisura::ui
{

int RunName::number(const std::vector<ProjectRun>& runs, const ProjectRun& run)
{
    int n = 1;
    for (const ProjectRun& r : runs)
        if (r.startedAt < run.startedAt || (r.startedAt == run.startedAt && r.id < run.id))
            ++n;
    return n;
}

QString RunName::started(const ProjectRun& run)
{
    const QDateTime t =
        QDateTime::fromString(QString::fromStdString(run.startedAt), Qt::ISODate).toLocalTime();
    if (!t.isValid())
        return {};
    const QLocale loc;
    // Day and month name in the language's words ("27 Nov", "27 nov"), then the short time.
    const bool thisYear = t.date().year() == QDate::currentDate().year();
    const QString day =
        loc.toString(t.date(), thisYear ? QStringLiteral("d MMM") : QStringLiteral("d MMM yyyy"));
    return day + QLatin1Char(' ') + loc.toString(t.time(), QLocale::ShortFormat);
}

QString RunName::of(const std::vector<ProjectRun>& runs, const ProjectRun& run)
{
    const QString when = started(run);
    const QString n = QLocale().toString(number(runs, run));
    return when.isEmpty() ? tr("Run %1").arg(n) : tr("Run %1 · %2").arg(n, when);
}

} // namespace fisura::ui

#include "common/plotlocale.h"

#include <QEvent>

#include "common/qcp.h"

namespace fisura::ui
{

namespace
{

// One filter per plot, owned by it; LanguageChange reaches every widget after the language
// manager has set the default locale.
class PlotLocaleFilter : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override
    {
        // Not LocaleChange: a plot given its own locale (setLocale sends that event) keeps it.
        if (e->type() == QEvent::LanguageChange) {
            auto* plot = static_cast<QCustomPlot*>(watched);
            if (plot->locale() != plotLocale()) {
                plot->setLocale(plotLocale());
                plot->replot(QCustomPlot::rpQueuedReplot);
            }
        }
        return QObject::eventFilter(watched, e);
    }
};

} // namespace

QLocale plotLocale()
{
    QLocale l;
    l.setNumberOptions(QLocale::OmitGroupSeparator);
    return l;
}

void followUiLocale(QCustomPlot* plot)
{
    plot->setLocale(plotLocale());
    plot->installEventFilter(new PlotLocaleFilter(plot));
}

} // namespace fisura::ui

// Plot tick labels in the language in force. QCustomPlot sets a locale of its own when it is
// made (QWidget::setLocale, without group separators), so it keeps the old language's decimal
// point after a live switch; followUiLocale() makes a plot take QLocale() now and at every
// language change, and redraws it.
#pragma once

#include <QLocale>

class QCustomPlot;

namespace fisura::ui
{

/// QLocale() without group separators ("0,25", "1500"), as QCustomPlot wants for ticks.
QLocale plotLocale();

/// Sets plotLocale() on `plot` now and again (with a replot) on every QEvent::LanguageChange.
void followUiLocale(QCustomPlot* plot);

} // namespace fisura::ui

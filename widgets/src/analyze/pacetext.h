// Translated text for a scan's pace forecast (fisura::PaceForecast: core speaks English only),
// numbers through QLocale: the Analyze queue's tooltip and the policy list of the scan running.
#pragma once

#include <QCoreApplication>
#include <QString>

#include "fisura/infer.h"

namespace fisura::ui
{

/// What is expected to set the pace, in a word or two: "reading the scan", "the network".
QString paceForecastValue(const PaceForecast& forecast);
/// One sentence with both rates, or why there is no forecast.
QString paceForecastText(const PaceForecast& forecast);

class PaceText
{
    Q_DECLARE_TR_FUNCTIONS(PaceText)
    friend QString paceForecastValue(const PaceForecast&);
    friend QString paceForecastText(const PaceForecast&);
};

} // namespace fisura::ui

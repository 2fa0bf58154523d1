// Words and numbers of crack measurement in the user's language: the width class names and
// note that core gives as stable ids, class ranges, and lengths and widths with their unit.
#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QString>

#include <string>

#include "fisura/measure.h"

namespace fisura::ui
{

class MeasureText
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::MeasureText)
public:
    /// "Hairline", "Fine", ... for core's class ids; an unknown id is shown as it is.
    static QString className(const std::string& id);
    /// The class of index `k` of `classes`, or "—" when k < 0 (no pixel size).
    static QString className(const WidthClasses& classes, int k);
    /// The list entry of a width-class preset id of core ("custom": the user's own limits).
    static QString presetName(const std::string& id);
    /// Where a preset's limits come from, e.g. "ACI 224R-01, Table 4.1: tolerable 0.30 mm
    /// (humidity, moist air, soil)", numbers through QLocale.
    static QString presetSource(const WidthClassPreset& preset);
    /// The translated kWidthClassNote.
    static QString classNote();
    /// "< 0.1 mm", "0.1 – 0.3 mm", "≥ 1 mm".
    static QString classRange(double fromMm, double toMm);
    /// Length or width: in mm when known (mm >= 0), else in px.
    static QString length(double px, double mm, int decimals = 1);
    static QString width(double px, double mm);
    /// Colour of class k of `classes` in the overlay, the table, the plots and the report
    /// (fisura::widthClassColour: hairline green ... wide red; a standard's over-limit class
    /// vermillion, the within-limit one blue).
    static QColor classColour(const WidthClasses& classes, int k);
};

} // namespace fisura::ui

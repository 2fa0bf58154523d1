#include "inspect/measuretext.h"

#include <QLocale>

namespace fisura::ui
{

QString MeasureText::className(const std::string& id)
{
    if (id == "hairline")
        return tr("Hairline");
    if (id == "fine")
        return tr("Fine");
    if (id == "medium")
        return tr("Medium");
    if (id == "wide")
        return tr("Wide");
    if (id == "within_limit")
        return tr("Within limit");
    if (id == "over_limit")
        return tr("Over limit");
    return QString::fromStdString(id);
}

QString MeasureText::className(const WidthClasses& classes, int k)
{
    if (k < 0 || size_t(k) >= classes.ids.size())
        return QStringLiteral("—");
    return className(classes.ids[size_t(k)]);
}

namespace
{

// The case of each standard's preset (ACI 224R-01 Table 4.1; EN 1992-1-1 Table 7.1N).
QString presetCase(const std::string& id)
{
    if (id == "aci224r-dry")
        return MeasureText::tr("dry air or protective membrane");
    if (id == "aci224r-humid")
        return MeasureText::tr("humidity, moist air, soil");
    if (id == "aci224r-deicing")
        return MeasureText::tr("de-icing chemicals");
    if (id == "aci224r-seawater")
        return MeasureText::tr("seawater and seawater spray, wetting and drying");
    if (id == "aci224r-water-retaining")
        return MeasureText::tr("water-retaining structures");
    if (id == "en1992-xc1")
        return MeasureText::tr("exposure X0, XC1");
    if (id == "en1992-xc2-xs")
        return MeasureText::tr("exposure XC2–XC4, XD, XS, reinforced members");
    if (id == "en1992-prestressed")
        return MeasureText::tr("prestressed members with bonded tendons");
    return QString::fromStdString(id);
}

QString presetCitation(const std::string& id)
{
    if (id.rfind("aci224r", 0) == 0)
        return MeasureText::tr("ACI 224R-01, Table 4.1");
    if (id.rfind("en1992", 0) == 0)
        return MeasureText::tr("EN 1992-1-1, Table 7.1N");
    return QString::fromStdString(id);
}

} // namespace

QString MeasureText::presetName(const std::string& id)
{
    if (id == "default")
        return tr("Fisura (hairline, fine, medium, wide)");
    if (id == "custom")
        return tr("Custom limits");
    if (id.rfind("aci224r", 0) == 0)
        return tr("ACI 224R-01: %1").arg(presetCase(id));
    if (id.rfind("en1992", 0) == 0)
        return tr("EN 1992-1-1: %1").arg(presetCase(id));
    return QString::fromStdString(id);
}

QString MeasureText::presetSource(const WidthClassPreset& preset)
{
    const QLocale l;
    const WidthClasses& c = preset.classes;
    if (c.tolerableMm <= 0 && c.upperLimitsMm.size() == 3)
        return tr("Fisura's classes: hairline below %1 mm, fine below %2 mm, medium below %3 mm, "
                  "wide from there")
            .arg(l.toString(c.upperLimitsMm[0], 'g', 3), l.toString(c.upperLimitsMm[1], 'g', 3),
                 l.toString(c.upperLimitsMm[2], 'g', 3));
    return tr("%1: tolerable %2 mm (%3)")
        .arg(presetCitation(preset.id), l.toString(c.tolerableMm, 'f', 2), presetCase(preset.id));
}

QString MeasureText::classNote()
{
    return tr("The width class limits depend on the standard in force (inspection manual, "
              "contract); check them before reporting.");
}

QString MeasureText::classRange(double fromMm, double toMm)
{
    const QLocale l;
    if (fromMm <= 0 && toMm >= 0)
        return tr("< %1 mm").arg(l.toString(toMm, 'g', 3));
    if (toMm < 0)
        return tr("≥ %1 mm").arg(l.toString(fromMm, 'g', 3));
    return tr("%1 – %2 mm").arg(l.toString(fromMm, 'g', 3), l.toString(toMm, 'g', 3));
}

QString MeasureText::length(double px, double mm, int decimals)
{
    const QLocale l;
    if (mm >= 0)
        return tr("%1 mm").arg(l.toString(mm, 'f', decimals));
    return tr("%1 px").arg(l.toString(px, 'f', decimals));
}

QString MeasureText::width(double px, double mm)
{
    const QLocale l;
    if (mm >= 0)
        return tr("%1 mm").arg(l.toString(mm, 'f', 2));
    return tr("%1 px").arg(l.toString(px, 'f', 1));
}

QColor MeasureText::classColour(const WidthClasses& classes, int k)
{
    const auto c = widthClassColour(classes, k);
    return QColor(c[0], c[1], c[2]);
}

} // namespace fisura::ui

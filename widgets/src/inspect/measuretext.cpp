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
    return QString::fromStdString(id);
}

QString MeasureText::className(const WidthClasses& classes, int k)
{
    if (k < 0 || size_t(k) >= classes.ids.size())
        return QStringLiteral("—");
    return className(classes.ids[size_t(k)]);
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

QColor MeasureText::classColour(int k)
{
    static const QColor colours[] = {QColor(46, 160, 67), QColor(230, 190, 0), QColor(245, 120, 20),
                                     QColor(215, 30, 40)};
    if (k < 0)
        return QColor(128, 128, 128);
    return colours[std::min(k, 3)];
}

} // namespace fisura::ui

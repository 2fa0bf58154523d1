// Whole numbers for people in the UI locale's digit grouping. Qt 6.4 applies a locale's minimum
// grouping (2 in Spanish: 1234 stays ungrouped) to the leading group of every number, so
// QLocale(es).toString(1942577) gives "1942.577" where a Spanish reader expects "1.942.577".
#pragma once

#include <QLocale>
#include <QString>

namespace fisura::ui
{

inline QString integerText(qint64 value, const QLocale& loc = QLocale())
{
    const QString qt = loc.toString(value);
    const QString sep = loc.groupSeparator();
    const qint64 magnitude = value < 0 ? -value : value;
    if (sep.isEmpty() || magnitude < 10000 || loc.zeroDigit() != QLatin1String("0"))
        return qt; // below five digits the locale's own rule (and other digit shapes) stand
    const QString digits = QString::number(magnitude);
    QString out = value < 0 ? loc.negativeSign() : QString();
    for (int i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += sep;
        out += digits[i];
    }
    return out;
}

} // namespace fisura::ui

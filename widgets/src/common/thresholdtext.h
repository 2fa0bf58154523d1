// Thresholds as a person reads them: a crack probability in the user's locale ("0,5" in
// Spanish), also where the GUI keeps the map byte it stands for (fisura/threshold.h).
#pragma once

#include <QLocale>
#include <QString>

#include "fisura/threshold.h"

namespace fisura::ui
{

/// A crack probability in its shortest exact form: "0,5", "0,498", "1".
inline QString probabilityText(double probability, const QLocale& locale = QLocale())
{
    return locale.toString(probability, 'f', QLocale::FloatingPointShortest);
}

/// The crack probability of a map byte (probabilityOfMapByte): 128 -> "0,5".
inline QString mapByteText(int mapByte, const QLocale& locale = QLocale())
{
    return probabilityText(probabilityOfMapByte(mapByte), locale);
}

} // namespace fisura::ui

// The one way Fisura includes QCustomPlot. Its header uses Qt's keyword macros (signals,
// foreach), which Fisura disables with QT_NO_KEYWORDS; map them for this header only.
#pragma once

#define signals Q_SIGNALS
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef foreach
#undef signals

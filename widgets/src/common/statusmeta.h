// fisura::Status travels in signals (and QSignalSpy/QVariant): declare it to the meta-type system
// once, before any moc'd header uses it.
#pragma once

#include <QMetaType>

#include "fisura/status.h"

Q_DECLARE_METATYPE(fisura::Status)

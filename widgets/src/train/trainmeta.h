// Training events travel in queued signals (and QSignalSpy): declare them to the meta-type system
// once, before any moc'd header uses them.
#pragma once

#include <QMetaType>

#include "common/statusmeta.h"
#include "fisura/train.h"

Q_DECLARE_METATYPE(fisura::TrainStarted)
Q_DECLARE_METATYPE(fisura::BatchProgress)
Q_DECLARE_METATYPE(fisura::EpochMetrics)

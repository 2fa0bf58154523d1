// The file in which Analyze keeps its scan queue between sessions (analyze-queue.json), read
// with Qt Core alone so that tests/fuzz/fuzz_queue.cpp can feed it any bytes: a damaged or
// hand-edited file gives an empty or smaller queue, never a negative size, a threshold outside
// the map's scale or an id that overflows.
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

namespace fisura::ui
{

/// Files larger than this are not read (the bound of every JSON file core reads).
constexpr qint64 kMaxQueueFileBytes = qint64(64) << 20;

/// One saved row, as the file says it; the state is its text ("waiting", "done", ...).
struct QueueFileRow {
    QString id, input, output, state, model, run, error;
    int width = 0, height = 0; ///< 0 when unknown or not a size
    int threshold = 128;       ///< the model's map byte, 1..255
    double pixelSizeMm = 0.0, seconds = 0.0, megapixelsPerSecond = 0.0; ///< finite, >= 0
};

struct QueueFile {
    QString model, run;         ///< the model and run chosen when the queue was saved
    QVector<QueueFileRow> rows; ///< rows without an input are left out
};

/// The queue in `bytes`; empty when they are not a JSON object or exceed kMaxQueueFileBytes.
QueueFile readQueueFile(const QByteArray& bytes);

/// N of an id "scan-N" with 0 <= N < INT_MAX, else -1.
int queueIdNumber(const QString& id);

} // namespace fisura::ui

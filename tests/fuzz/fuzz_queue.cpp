// Fuzz target: Analyze's saved scan queue (analyze-queue.json, readQueueFile; Qt Core's JSON
// parser underneath). Every row read must have a size, threshold and numbers in range, and an id
// number that cannot overflow when the next id is made from it.
#include <QByteArray>

#include <climits>
#include <cmath>
#include <cstdlib>

#include "analyze/queuefile.h"
#include "fuzz_entry.h"

FISURA_FUZZ_TARGET(queue)
{
    const auto q = fisura::ui::readQueueFile(
        QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)));
    for (const auto& r : q.rows) {
        if (r.input.isEmpty() || r.width < 0 || r.height < 0 || r.threshold < 1 ||
            r.threshold > 255 || !(r.pixelSizeMm >= 0) || !std::isfinite(r.pixelSizeMm) ||
            !(r.seconds >= 0) || !std::isfinite(r.seconds) || !(r.megapixelsPerSecond >= 0))
            std::abort();
        const int n = fisura::ui::queueIdNumber(r.id);
        if (n != -1 && (n < 0 || n == INT_MAX))
            std::abort();
    }
    return 0;
}

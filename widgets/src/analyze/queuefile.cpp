// Reading Analyze's saved queue; see queuefile.h.
#include "analyze/queuefile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <climits>
#include <cmath>

namespace fisura::ui
{

namespace
{

double nonNegative(const QJsonValue& v)
{
    const double d = v.toDouble();
    return std::isfinite(d) && d > 0 ? d : 0.0;
}

int size(const QJsonValue& v)
{
    const int n = v.toInt();
    return n > 0 ? n : 0;
}

} // namespace

QueueFile readQueueFile(const QByteArray& bytes)
{
    QueueFile q;
    if (bytes.size() > kMaxQueueFileBytes)
        return q;
    const QJsonObject json = QJsonDocument::fromJson(bytes).object();
    q.model = json.value(QStringLiteral("model")).toString();
    q.run = json.value(QStringLiteral("run")).toString();
    for (const QJsonValue& v : json.value(QStringLiteral("rows")).toArray()) {
        const QJsonObject o = v.toObject();
        QueueFileRow r;
        r.input = o.value(QStringLiteral("input")).toString();
        if (r.input.isEmpty())
            continue;
        r.id = o.value(QStringLiteral("id")).toString();
        r.output = o.value(QStringLiteral("output")).toString();
        r.state = o.value(QStringLiteral("state")).toString();
        r.model = o.value(QStringLiteral("model")).toString();
        r.run = o.value(QStringLiteral("run")).toString();
        r.error = o.value(QStringLiteral("error")).toString();
        r.width = size(o.value(QStringLiteral("width")));
        r.height = size(o.value(QStringLiteral("height")));
        const int t = o.value(QStringLiteral("threshold")).toInt(128);
        r.threshold = t >= 1 && t <= 255 ? t : 128;
        r.pixelSizeMm = nonNegative(o.value(QStringLiteral("pixel_size_mm")));
        r.seconds = nonNegative(o.value(QStringLiteral("seconds")));
        r.megapixelsPerSecond = nonNegative(o.value(QStringLiteral("megapixels_per_second")));
        q.rows.push_back(std::move(r));
    }
    return q;
}

int queueIdNumber(const QString& id)
{
    if (!id.startsWith(QStringLiteral("scan-")))
        return -1;
    bool ok = false;
    const long long n = id.mid(5).toLongLong(&ok);
    return ok && n >= 0 && n < INT_MAX ? int(n) : -1;
}

} // namespace fisura::ui

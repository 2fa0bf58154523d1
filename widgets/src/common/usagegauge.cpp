#include "common/usagegauge.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>

namespace fisura::ui
{

namespace
{

void drawLevel(QPainter& p, const QRect& r, double percent, const QColor& color)
{
    p.setPen(QPen(QColor(0x80, 0x80, 0x80)));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    if (percent < 0)
        return;
    const int w = int((r.width() - 2) * std::clamp(percent, 0.0, 100.0) / 100.0);
    p.fillRect(QRect(r.left() + 1, r.top() + 1, w, r.height() - 2), color);
}

QString gib(uint64_t bytes)
{
    return QLocale().toString(bytes / 1073741824.0, 'f', 1);
}

} // namespace

UsageGauge::UsageGauge(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("usageGauge"));
}

void UsageGauge::setSample(const TelemetrySample& s)
{
    cpu_ = s.systemCpuPercent;
    gpu_ = s.gpus.empty() ? -1 : s.gpus.front().utilizationGpu;
    const QLocale loc;
    QString tip = tr("CPU %1 %").arg(cpu_ < 0 ? QStringLiteral("–") : loc.toString(cpu_, 'f', 0));
    if (!s.gpus.empty()) {
        const GpuSample& g = s.gpus.front();
        tip = tr("GPU %1 %, memory %2 / %3 GiB")
                  .arg(gpu_ < 0 ? QStringLiteral("–") : loc.toString(gpu_, 'f', 0),
                       gib(g.memoryUsedBytes), gib(g.memoryTotalBytes)) +
              QLatin1Char('\n') + tip;
    }
    setToolTip(tip);
    update();
}

QSize UsageGauge::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(QStringLiteral("GPU CPU")) + 2 * 40 + 16,
            fontMetrics().height()};
}

void UsageGauge::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const int h = std::max(6, fontMetrics().height() - 4);
    int x = 0;
    auto meter = [&](const QString& label, double v, const QColor& c) {
        p.setPen(palette().color(QPalette::WindowText));
        const int tw = fontMetrics().horizontalAdvance(label);
        p.drawText(QRect(x, 0, tw, height()), Qt::AlignVCenter, label);
        x += tw + 3;
        drawLevel(p, QRect(x, (height() - h) / 2, 40, h), v, c);
        x += 48;
    };
    if (gpu_ >= 0)
        meter(tr("GPU"), gpu_, QColor(0x1f, 0x77, 0xb4));
    meter(tr("CPU"), cpu_, QColor(0x2c, 0xa0, 0x2c));
}

MemoryBar::MemoryBar(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("memoryBar"));
    setMinimumHeight(fontMetrics().height() + 8);
}

void MemoryBar::setValues(uint64_t used, uint64_t total, uint64_t allocated, uint64_t reserved)
{
    used_ = used;
    total_ = total;
    allocated_ = allocated;
    reserved_ = reserved;
    setToolTip(tr("Used on the device: %1 GiB of %2 GiB\nFisura tensors: %3 GiB\nHeld by "
                  "Fisura's memory cache: %4 GiB")
                   .arg(gib(used), gib(total), gib(allocated), gib(reserved)));
    update();
}

QString MemoryBar::caption() const
{
    return tr("%1 / %2 GiB").arg(gib(used_), gib(total_));
}

QSize MemoryBar::sizeHint() const
{
    return {300, fontMetrics().height() + 8};
}

void MemoryBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRect r = rect().adjusted(0, 0, -1, -1);
    p.setPen(QColor(0x80, 0x80, 0x80));
    p.drawRect(r);
    if (total_ > 0) {
        auto px = [&](uint64_t v) {
            return int((r.width() - 1) * std::min(1.0, double(v) / double(total_)));
        };
        p.fillRect(QRect(r.left() + 1, r.top() + 1, px(used_), r.height() - 1),
                   QColor(0x1f, 0x77, 0xb4, 90));
        p.fillRect(QRect(r.left() + 1, r.top() + 1, px(reserved_), r.height() - 1),
                   QColor(0x9e, 0x3a, 0xb4, 110));
        p.fillRect(QRect(r.left() + 1, r.top() + 1, px(allocated_), r.height() - 1),
                   QColor(0x9e, 0x3a, 0xb4, 200));
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(r, Qt::AlignCenter, caption());
}

} // namespace fisura::ui

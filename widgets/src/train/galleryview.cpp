#include "train/galleryview.h"

#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>

#include "fisura/threshold.h"

namespace fisura::ui
{

namespace
{

constexpr int kGap = 2; // px between the two panels of a picture

QRgb blend(QRgb base, QColor over, double alpha)
{
    auto mix = [alpha](int a, int b) { return int(a * (1.0 - alpha) + b * alpha + 0.5); };
    return qRgb(mix(qRed(base), over.red()), mix(qGreen(base), over.green()),
                mix(qBlue(base), over.blue()));
}

/// Blue (low) through green and yellow to red (high); 128 sits at yellow: the threshold.
QColor heat(int v)
{
    const double t = std::clamp(v / 255.0, 0.0, 1.0);
    if (t < 0.5)
        return QColor::fromRgbF(0.0, float(t * 2.0), float(1.0 - t * 2.0));
    return QColor::fromRgbF(1.0f, float(1.0 - (t - 0.5) * 2.0), 0.0f);
}

QImage inputImage(const GallerySample& s)
{
    QImage im(s.size, s.size, QImage::Format_RGB32);
    if (s.rgb.size() < size_t(s.size) * s.size * 3) {
        im.fill(Qt::gray);
        return im;
    }
    for (int y = 0; y < s.size; ++y) {
        auto* line = reinterpret_cast<QRgb*>(im.scanLine(y));
        const uint8_t* p = s.rgb.data() + size_t(y) * s.size * 3;
        for (int x = 0; x < s.size; ++x)
            line[x] = qRgb(p[3 * x], p[3 * x + 1], p[3 * x + 2]);
    }
    return im;
}

/// Colour `over` into `im` where `mask` passes `test`, with alpha from `alpha`.
template <class Alpha>
QImage overlay(QImage im, const std::vector<uint8_t>& mask, Alpha alpha, QColor over)
{
    const int n = im.width();
    if (mask.size() < size_t(n) * n)
        return im;
    for (int y = 0; y < n; ++y) {
        auto* line = reinterpret_cast<QRgb*>(im.scanLine(y));
        for (int x = 0; x < n; ++x) {
            const double a = alpha(mask[size_t(y) * n + x]);
            if (a > 0)
                line[x] = blend(line[x], over, a);
        }
    }
    return im;
}

QImage sideBySide(const QImage& left, const QImage& right)
{
    QImage out(left.width() + kGap + right.width(), std::max(left.height(), right.height()),
               QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter p(&out);
    p.drawImage(0, 0, left);
    p.drawImage(left.width() + kGap, 0, right);
    return out;
}

} // namespace

QImage galleryPicture(const GallerySample& s, TaskKind task, double threshold)
{
    if (s.size <= 0)
        return {};
    const QImage input = inputImage(s);
    if (task == TaskKind::Segment) {
        const int cut = mapByteThreshold(threshold);
        const QImage predicted = overlay(
            input, s.prediction, [cut](uint8_t v) { return v >= cut ? 0.65 : 0.0; },
            QColor(255, 40, 40));
        const QImage truth = overlay(
            input, s.truth, [](uint8_t v) { return v > 0 ? 0.7 : 0.0; }, QColor(40, 220, 60));
        return sideBySide(predicted, truth);
    }
    if (task == TaskKind::Anomaly) {
        QImage map = input;
        if (s.prediction.size() >= size_t(s.size) * s.size)
            for (int y = 0; y < s.size; ++y) {
                auto* line = reinterpret_cast<QRgb*>(map.scanLine(y));
                for (int x = 0; x < s.size; ++x)
                    line[x] = blend(line[x], heat(s.prediction[size_t(y) * s.size + x]), 0.6);
            }
        return sideBySide(input, map);
    }
    return input;
}

TrainGalleryView::TrainGalleryView(QWidget* parent)
    : QWidget(parent), grid_(new QGridLayout), bestTitle_(new QLabel(this)),
      worstTitle_(new QLabel(this)), empty_(new QLabel(this))
{
    setObjectName(QStringLiteral("gallery"));
    bestTitle_->setObjectName(QStringLiteral("galleryBestTitle"));
    worstTitle_->setObjectName(QStringLiteral("galleryWorstTitle"));
    empty_->setObjectName(QStringLiteral("galleryEmpty"));
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->addWidget(empty_, 0, 0, 1, -1);
    grid_->addWidget(bestTitle_, 1, 0, Qt::AlignTop);
    grid_->addWidget(worstTitle_, 2, 0, Qt::AlignTop);
    auto* outer = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    row->addLayout(grid_);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(1);
    retranslateUi();
}

void TrainGalleryView::setReport(const EvaluationReport& report)
{
    report_ = report;
    threshold_ = report.threshold;
    rebuild();
}

void TrainGalleryView::setThreshold(double threshold)
{
    if (threshold == threshold_)
        return;
    threshold_ = threshold;
    if (report_.task == TaskKind::Segment)
        rebuild();
}

void TrainGalleryView::clear()
{
    report_ = {};
    rebuild();
}

QString TrainGalleryView::toolTipFor(const GallerySample& s) const
{
    const QLocale loc;
    const QString file = QFileInfo(QString::fromStdString(s.image)).fileName();
    switch (report_.task) {
    case TaskKind::Segment:
        return tr("%1\nF1 at the threshold: %2").arg(file, loc.toString(s.quality, 'f', 3));
    case TaskKind::Classify:
        return tr("%1\nProbability of the true class: %2")
            .arg(file, loc.toString(s.quality, 'f', 3));
    case TaskKind::Anomaly:
        return tr("%1\nReconstruction error: %2").arg(file, loc.toString(s.value, 'g', 4));
    }
    return file;
}

void TrainGalleryView::rebuild()
{
    for (QLabel* t : thumbs_)
        delete t->parentWidget();
    thumbs_.clear();
    const bool any = !report_.best.empty() || !report_.worst.empty();
    empty_->setVisible(!any);
    bestTitle_->setVisible(any);
    worstTitle_->setVisible(any);
    const QLocale loc;
    auto addRow = [&](const std::vector<GallerySample>& v, int row, const QString& name) {
        for (size_t i = 0; i < v.size(); ++i) {
            const GallerySample& s = v[i];
            auto* box = new QWidget(this);
            box->setObjectName(name);
            box->setProperty("item", s.item);
            box->setProperty("quality", s.quality);
            auto* lay = new QVBoxLayout(box);
            lay->setContentsMargins(2, 2, 2, 2);
            lay->setSpacing(1);
            auto* pic = new QLabel(box);
            pic->setObjectName(QStringLiteral("thumbnailPicture"));
            const QImage im = galleryPicture(s, report_.task, threshold_);
            const bool upscale = s.size < kPanel; // crisp pixels rather than a blur
            if (!im.isNull())
                pic->setPixmap(QPixmap::fromImage(im.scaledToHeight(
                    kPanel, upscale ? Qt::FastTransformation : Qt::SmoothTransformation)));
            auto* caption = new QLabel(box);
            caption->setObjectName(QStringLiteral("thumbnailCaption"));
            if (report_.task == TaskKind::Classify) {
                auto name = [&](int c) {
                    return c >= 0 && c < int(report_.classes.size())
                               ? QString::fromStdString(report_.classes[size_t(c)])
                               : QStringLiteral("?");
                };
                caption->setText(
                    tr("True: %1\nPredicted: %2").arg(name(s.trueLabel), name(s.predictedLabel)));
                caption->setStyleSheet(s.trueLabel == s.predictedLabel
                                           ? QStringLiteral("color: #2c7a2c;")
                                           : QStringLiteral("color: #c62828;"));
            } else if (report_.task == TaskKind::Segment) {
                caption->setText(tr("F1 %1").arg(loc.toString(s.quality, 'f', 2)));
            } else {
                caption->setText(tr("Error %1").arg(loc.toString(s.value, 'g', 3)));
            }
            lay->addWidget(pic);
            lay->addWidget(caption);
            box->setToolTip(toolTipFor(s));
            grid_->addWidget(box, row, int(i) + 1, Qt::AlignLeft | Qt::AlignTop);
            thumbs_.push_back(pic);
        }
    };
    addRow(report_.best, 1, QStringLiteral("bestThumbnail"));
    addRow(report_.worst, 2, QStringLiteral("worstThumbnail"));
}

void TrainGalleryView::retranslateUi()
{
    bestTitle_->setText(tr("Best"));
    worstTitle_->setText(tr("Worst"));
    empty_->setText(tr("No validation samples to show yet."));
    rebuild(); // captions and tooltips
}

void TrainGalleryView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

} // namespace fisura::ui

#include "inspect/comparisonsummary.h"

#include <QColorDialog>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

#include "common/thresholdtext.h"

namespace fisura::ui
{

const char* ComparisonSummary::kindKey(Kind kind)
{
    static const char* const keys[3] = {"tp", "fp", "fn"};
    return keys[size_t(kind)];
}

QColor ComparisonSummary::defaultColour(Kind kind)
{
    switch (kind) {
    case TruePositive:
        return QColor(0x00, 0x9E, 0x73); // bluish green
    case FalsePositive:
        return QColor(0xE6, 0x9F, 0x00); // orange
    case FalseNegative:
        break;
    }
    return QColor(0x00, 0x72, 0xB2); // blue
}

ComparisonSummary::ComparisonSummary(QWidget* parent)
    : QWidget(parent), numbers_(new QFormLayout), precision_(new QLabel(this)),
      recall_(new QLabel(this)), f1_(new QLabel(this)), iou_(new QLabel(this)),
      tp_(new QLabel(this)), fp_(new QLabel(this)), fn_(new QLabel(this)),
      toleranceValue_(new QLabel(this)), thresholdValue_(new QLabel(this))
{
    setObjectName(QStringLiteral("comparisonSummary"));
    const std::array<const char*, 9> names = {
        "truePositivesValue", "falsePositivesValue", "falseNegativesValue",
        "precisionValue",     "recallValue",         "f1Value",
        "iouValue",           "toleranceValue",      "comparisonThresholdValue"};
    const std::array<QLabel*, 9> values = {
        tp_, fp_, fn_, precision_, recall_, f1_, iou_, toleranceValue_, thresholdValue_};
    for (size_t i = 0; i < values.size(); ++i) {
        values[i]->setObjectName(QString::fromLatin1(names[i]));
        values[i]->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        values[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    // The legend is also where the counts are: swatch, name, pixels.
    auto* grid = new QGridLayout;
    for (int k = 0; k < 3; ++k) {
        colours_[size_t(k)] = defaultColour(Kind(k));
        auto* b = new QToolButton(this);
        b->setObjectName(QString::fromLatin1(kindKey(Kind(k))) + QStringLiteral("Swatch"));
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, [this, k] {
            const QColor c = QColorDialog::getColor(colours_[size_t(k)], this, kindName(Kind(k)));
            if (c.isValid())
                setColour(Kind(k), c);
        });
        auto* l = new QLabel(this);
        l->setObjectName(QString::fromLatin1(kindKey(Kind(k))) + QStringLiteral("LegendLabel"));
        l->setBuddy(b);
        swatches_[size_t(k)] = b;
        legend_[size_t(k)] = l;
        grid->addWidget(b, k, 0);
        grid->addWidget(l, k, 1);
        grid->addWidget(values[size_t(k)], k, 2);
    }
    grid->setColumnStretch(1, 1);
    for (size_t i = 3; i < values.size(); ++i) {
        auto* name = new QLabel(this); // text set in retranslateUi
        name->setBuddy(values[i]);
        numbers_->addRow(name, values[i]);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(grid);
    layout->addLayout(numbers_);
    retranslateUi();
    updateSwatches();
}

void ComparisonSummary::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

QString ComparisonSummary::kindName(Kind kind) const
{
    switch (kind) {
    case TruePositive:
        return tr("True positives");
    case FalsePositive:
        return tr("False positives");
    case FalseNegative:
        break;
    }
    return tr("Missed cracks");
}

void ComparisonSummary::retranslateUi()
{
    for (int k = 0; k < 3; ++k) {
        legend_[size_t(k)]->setText(kindName(Kind(k)));
        swatches_[size_t(k)]->setToolTip(tr("Change the colour"));
    }
    legend_[FalseNegative]->setToolTip(tr("Cracks of the ground truth with no prediction nearby "
                                          "(false negatives)"));
    const std::array<QString, 6> rows = {tr("Precision"), tr("Recall"),    tr("F1"),
                                         tr("IoU"),       tr("Tolerance"), tr("Threshold")};
    const std::array<QLabel*, 6> values = {precision_, recall_,         f1_,
                                           iou_,       toleranceValue_, thresholdValue_};
    for (size_t i = 0; i < rows.size(); ++i)
        if (auto* l = qobject_cast<QLabel*>(numbers_->labelForField(values[i])))
            l->setText(rows[i]);
    showCounts(curve_, threshold_, tolerance_);
}

void ComparisonSummary::setColour(Kind kind, const QColor& colour)
{
    if (!colour.isValid() || colour == colours_[size_t(kind)])
        return;
    colours_[size_t(kind)] = colour;
    updateSwatches();
    Q_EMIT colourChanged(int(kind), colour);
}

void ComparisonSummary::showCounts(const ScoreCurve* curve, int threshold, int tolerance)
{
    curve_ = curve;
    threshold_ = threshold;
    tolerance_ = tolerance;
    const QLocale l;
    thresholdValue_->setText(mapByteText(threshold, l));
    toleranceValue_->setText(tr("%1 px").arg(l.toString(tolerance)));
    const std::array<QLabel*, 7> values = {precision_, recall_, f1_, iou_, tp_, fp_, fn_};
    if (!curve) {
        for (QLabel* v : values)
            v->setText(QStringLiteral("–"));
        return;
    }
    const ScoreCounts c = curve->at(threshold);
    precision_->setText(l.toString(c.precision, 'f', 3));
    recall_->setText(l.toString(c.recall, 'f', 3));
    f1_->setText(l.toString(c.f1, 'f', 3));
    iou_->setText(l.toString(c.iou, 'f', 3));
    tp_->setText(l.toString(qulonglong(c.truePositives)));
    fp_->setText(l.toString(qulonglong(c.falsePositives)));
    fn_->setText(l.toString(qulonglong(c.falseNegatives)));
}

void ComparisonSummary::updateSwatches()
{
    for (int k = 0; k < 3; ++k) {
        QPixmap pm(16, 16);
        pm.fill(colours_[size_t(k)]);
        QPainter p(&pm);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawRect(pm.rect().adjusted(0, 0, -1, -1));
        p.end();
        swatches_[size_t(k)]->setIcon(QIcon(pm));
    }
}

} // namespace fisura::ui

#include "inspect/classpresetbox.h"

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include "fisura/measure.h"
#include "inspect/measuretext.h"

namespace fisura::ui
{

namespace
{
const char* const kCustom = "custom";
}

ClassPresetBox::ClassPresetBox(QWidget* parent)
    : QWidget(parent), combo_(new QComboBox(this)), source_(new QLabel(this))
{
    combo_->setObjectName(QStringLiteral("measureClassPreset"));
    // Long entries (a standard's case) must not widen the side pane; the list shows them whole.
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo_->setMinimumContentsLength(16);
    source_->setObjectName(QStringLiteral("measureClassSource"));
    source_->setWordWrap(true);
    source_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (const WidthClassPreset& p : widthClassPresets())
        combo_->addItem(QString(), QString::fromStdString(p.id));
    combo_->addItem(QString(), QString::fromLatin1(kCustom));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(combo_);
    layout->addWidget(source_);
    connect(combo_, &QComboBox::currentIndexChanged, this, [this] {
        showSource();
        Q_EMIT presetChanged();
    });
    retranslateUi();
}

std::string ClassPresetBox::presetId() const
{
    return combo_->currentData().toString().toStdString();
}

bool ClassPresetBox::setPresetId(const std::string& id)
{
    const int i = combo_->findData(QString::fromStdString(id));
    if (i < 0)
        return false;
    combo_->setCurrentIndex(i);
    return true;
}

void ClassPresetBox::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

void ClassPresetBox::retranslateUi()
{
    for (int i = 0; i < combo_->count(); ++i)
        combo_->setItemText(i,
                            MeasureText::presetName(combo_->itemData(i).toString().toStdString()));
    combo_->setToolTip(tr("Where the width class limits come from: Fisura's classes, a standard's "
                          "tolerable crack width, or your own limits"));
    showSource();
}

void ClassPresetBox::showSource()
{
    const std::string id = presetId();
    const auto preset = widthClassPreset(id);
    source_->setText(preset ? MeasureText::presetSource(*preset)
                            : tr("Your own upper limits, below."));
}

} // namespace fisura::ui

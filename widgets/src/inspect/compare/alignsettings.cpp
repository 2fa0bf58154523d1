#include "inspect/compare/alignsettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "common/optiontexts.h"

namespace fisura::ui
{

namespace
{
constexpr AlignModel kModels[] = {AlignModel::Auto, AlignModel::Similarity, AlignModel::Affine,
                                  AlignModel::Homography};
} // namespace

AlignSettings::AlignSettings(QWidget* parent)
    : QWidget(parent), modelLabel_(new QLabel(this)), model_(new QComboBox(this)),
      field_(new QCheckBox(this)), georeference_(new QCheckBox(this)), again_(new QPushButton(this))
{
    setObjectName(QStringLiteral("alignSettings"));
    model_->setObjectName(QStringLiteral("alignModelBox"));
    field_->setObjectName(QStringLiteral("alignFieldBox"));
    georeference_->setObjectName(QStringLiteral("alignGeoreferenceBox"));
    again_->setObjectName(QStringLiteral("compareAgainButton"));
    for (AlignModel m : kModels)
        model_->addItem(QString(), int(m));
    applyOptionText(model_, OptionSet::Compare, "align.model");
    applyOptionText(field_, OptionSet::Compare, "align.field");
    applyOptionText(georeference_, OptionSet::Compare, "align.georeference");
    modelLabel_->setBuddy(model_);
    connect(again_, &QPushButton::clicked, this, &AlignSettings::compareAgain);

    auto* modelRow = new QHBoxLayout;
    modelRow->setContentsMargins(0, 0, 0, 0);
    modelRow->addWidget(modelLabel_);
    modelRow->addWidget(model_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(modelRow);
    layout->addWidget(field_);
    layout->addWidget(georeference_);
    layout->addWidget(again_);
    setOptions({});
    retranslateUi();
}

AlignOptions AlignSettings::options() const
{
    AlignOptions o;
    o.model = AlignModel(model_->currentData().toInt());
    o.field = field_->isChecked() ? AlignField::Auto : AlignField::Off;
    o.georeference = georeference_->isChecked() ? AlignGeoreference::Auto : AlignGeoreference::Off;
    return o;
}

void AlignSettings::setOptions(const AlignOptions& o)
{
    model_->setCurrentIndex(std::max(0, model_->findData(int(o.model))));
    field_->setChecked(o.field != AlignField::Off);
    georeference_->setChecked(o.georeference != AlignGeoreference::Off);
}

void AlignSettings::retranslateUi()
{
    modelLabel_->setText(tr("Alignment &model:"));
    const QString names[] = {tr("Automatic"), tr("Similarity"), tr("Affine"), tr("Homography")};
    for (int i = 0; i < model_->count(); ++i)
        model_->setItemText(i, names[i]);
    field_->setText(tr("Correction field where the surface is not flat"));
    georeference_->setText(tr("Start from the georeference"));
    again_->setText(tr("Compare again"));
    again_->setToolTip(tr("Align and compare the same two dates again with these settings"));
    retranslateOptions(this);
}

void AlignSettings::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(e);
}

} // namespace fisura::ui

#include "common/settingsdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "common/languagemanager.h"

namespace fisura::ui
{

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent), languageLabel_(new QLabel(this)), language_(new QComboBox(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Close, this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    language_->setObjectName(QStringLiteral("languageBox"));
    // Items in LanguageManager::Language order; language names are shown in their own language.
    language_->addItem(QString());
    language_->addItem(QStringLiteral("Español"));
    language_->addItem(QStringLiteral("English"));
    language_->setCurrentIndex(int(LanguageManager::instance().language()));
    connect(language_, &QComboBox::currentIndexChanged, this,
            [](int i) { LanguageManager::instance().setLanguage(LanguageManager::Language(i)); });
    auto* form = new QFormLayout;
    form->addRow(languageLabel_, language_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslateUi();
}

void SettingsDialog::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(e);
}

void SettingsDialog::retranslateUi()
{
    setWindowTitle(tr("Preferences"));
    languageLabel_->setText(tr("&Language:"));
    languageLabel_->setBuddy(language_);
    language_->setItemText(0, tr("System language"));
}

} // namespace fisura::ui

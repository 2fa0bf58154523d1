// Preferences. Changes apply at once (the language switches live) and are remembered.
#pragma once

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;

namespace fisura::ui
{

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(QWidget* parent = nullptr);
    QComboBox* languageBox() const { return language_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslateUi();

    QLabel* languageLabel_;
    QComboBox* language_;
    QDialogButtonBox* buttons_;
};

} // namespace fisura::ui

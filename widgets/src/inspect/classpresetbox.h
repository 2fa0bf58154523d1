// The "Width classes" choice of the measurement panel: Fisura's default classes, every
// ACI 224R-01 and EN 1992-1-1 preset of core (fisura::widthClassPresets()) and custom limits,
// with the chosen standard's source and tolerable width named under the list, in the language
// in force.
#pragma once

#include <QWidget>

#include <string>

class QComboBox;
class QLabel;

namespace fisura::ui
{

class ClassPresetBox : public QWidget
{
    Q_OBJECT
public:
    explicit ClassPresetBox(QWidget* parent = nullptr);

    /// A preset id of core, or "custom".
    std::string presetId() const;
    /// Chooses a preset by id; false (and no change) for an unknown id.
    bool setPresetId(const std::string& id);
    QComboBox* combo() const { return combo_; }
    QLabel* sourceLabel() const { return source_; }
    void retranslateUi();

Q_SIGNALS:
    void presetChanged();

protected:
    void changeEvent(QEvent* e) override;

private:
    void showSource();

    QComboBox* combo_;
    QLabel* source_;
};

} // namespace fisura::ui

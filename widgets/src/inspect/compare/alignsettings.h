// The alignment settings of "Compare dates" (the option schema's align.* options): the model, the
// correction field and the georeferenced start, and "Compare again" to rerun the last comparison
// with them.
#pragma once

#include <QWidget>

#include "fisura/change.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace fisura::ui
{

class AlignSettings : public QWidget
{
    Q_OBJECT
public:
    explicit AlignSettings(QWidget* parent = nullptr);

    /// The alignment options these controls say (every other option at its default).
    AlignOptions options() const;
    void setOptions(const AlignOptions& options);
    QComboBox* modelBox() const { return model_; }
    QCheckBox* fieldBox() const { return field_; }
    QCheckBox* georeferenceBox() const { return georeference_; }
    QPushButton* againButton() const { return again_; }
    void retranslateUi();

Q_SIGNALS:
    /// "Compare again" was pressed.
    void compareAgain();

protected:
    void changeEvent(QEvent* e) override;

private:
    QLabel* modelLabel_;
    QComboBox* model_;
    QCheckBox* field_;
    QCheckBox* georeference_;
    QPushButton* again_;
};

} // namespace fisura::ui

// What the Analyze pane says about the chosen model: type, input size, normalization, threshold,
// tile and overlap defaults; what it was trained on, its licence and held-out scores when its
// metadata says (the starter model's does); for an imported TorchScript module also what its
// JSON sidecar says.
// A model that cannot be used is refused with the reason.
#pragma once

#include <QString>
#include <QWidget>

#include "fisura/model.h"
#include "fisura/status.h"

class QFormLayout;
class QLabel;
class QPlainTextEdit;

namespace fisura::ui
{

struct ModelDescription {
    QString path;
    bool ok = false;
    ModelInfo info;
    Status status;       ///< why the model cannot be used (when !ok)
    QString sidecarPath; ///< a TorchScript sidecar beside the file, if there is one
    QString sidecarText; ///< its content, as written
};

/// Reads the model's metadata (Model::load) and its sidecar, if any.
ModelDescription describeModel(const QString& path);

class ModelFactsWidget : public QWidget
{
    Q_OBJECT
public:
    explicit ModelFactsWidget(QWidget* parent = nullptr);

    void setDescription(const ModelDescription& d);
    void clear();
    const ModelDescription& description() const { return d_; }
    /// The refusal shown for an unusable model (empty when it is fine).
    QString errorText() const;
    void retranslateUi();

private:
    void refresh();
    void refreshProvenance();

    ModelDescription d_;
    bool hasModel_ = false;
    QFormLayout* form_;
    QLabel* fileLabel_;
    QLabel* typeLabel_;
    QLabel* inputLabel_;
    QLabel* normLabel_;
    QLabel* thresholdLabel_;
    QLabel* tileLabel_;
    QLabel* trainedOnLabel_;
    QLabel* licenceLabel_;
    QLabel* scoresLabel_;
    QLabel* trainedOn_;
    QLabel* licence_;
    QLabel* scores_;
    QLabel* file_;
    QLabel* type_;
    QLabel* input_;
    QLabel* norm_;
    QLabel* threshold_;
    QLabel* tile_;
    QLabel* error_;
    QLabel* sidecarHeading_;
    QPlainTextEdit* sidecar_;
};

} // namespace fisura::ui

// "Start from" in the Train pane: Fisura's starter model (the default for segmentation, when
// installed), a finished run of the project for the same task, or scratch; below it, what the
// choice means. A choice of a model fixes the architecture (the size preset no longer applies)
// and brings the fine-tuning defaults (FineTuneDefaults). The explanation is its own label
// (reasonLabel()), placed by the form that holds the box.
#pragma once

#include <QHash>
#include <QString>
#include <QWidget>

#include <string>
#include <vector>

#include "fisura/model.h"
#include "fisura/project.h"

class QComboBox;
class QLabel;

namespace fisura::ui
{

class StartFromBox : public QWidget
{
    Q_OBJECT
public:
    explicit StartFromBox(QWidget* parent = nullptr);

    /// The choices for `task`: the starter (segmentation), the project's finished runs of that
    /// task (newest first), scratch. Keeps the current choice while it is still offered, else
    /// the default: the starter for segmentation when installed, else scratch.
    void setChoices(TaskKind task, const std::vector<ProjectRun>& runs);
    /// TrainOptions::startFrom of the current choice ("" = scratch).
    std::string startFrom() const;
    /// A model is chosen (not scratch) and could be read: its network.
    bool fromModel() const;
    const ModelConfig& modelConfig() const { return config_; }
    /// Chooses by TrainOptions::startFrom ("starter", a model path or "" for scratch) when it
    /// is offered; false otherwise.
    bool choose(const std::string& startFrom);
    QLabel* label() const { return label_; }
    /// What the choice means, wrapped: a row of its own under the box in the form (inside the
    /// box's own layout a form gave it less height than its wrapped lines need).
    QLabel* reasonLabel() const { return reason_; }
    void retranslateUi();

Q_SIGNALS:
    void changed();

private:
    void onChosen();
    void describe();

    QLabel* label_;
    QComboBox* box_;
    QLabel* reason_;
    TaskKind task_ = TaskKind::Segment;
    std::vector<ProjectRun> runs_;
    QString starterPath_;
    ModelConfig config_;
    bool configOk_ = false;
    QString error_;
    QHash<QString, ModelConfig> configs_; ///< networks of model files read so far
};

} // namespace fisura::ui

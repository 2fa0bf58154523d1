// The left side of the Train pane: what to train. Dataset, task, the anomaly task's model
// (autoencoder or patch statistics), model size preset (with its parameter count and estimated
// memory) and epochs up front; everything else folded under "Advanced" with the engine's
// defaults.
#pragma once

#include <QWidget>

#include "fisura/policy.h"
#include "fisura/project.h"
#include "fisura/train.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QToolButton;

namespace fisura::ui
{

class DatasetPicker;
class StartFromBox;

class TrainSetupPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Size { Small, Medium, Large, Custom };

    explicit TrainSetupPanel(QWidget* parent = nullptr);

    DatasetPicker* datasetPicker() const { return picker_; }
    StartFromBox* startFrom() const { return startFrom_; }
    /// The project's runs: finished ones of the task are offered to start from.
    void setProjectRuns(const std::vector<ProjectRun>& runs);
    TaskKind task() const;
    void setTask(TaskKind task);
    /// The anomaly task's model: Autoencoder or PatchGaussian (other tasks have one model).
    ModelType anomalyModel() const;
    void setAnomalyModel(ModelType type);
    Size size() const;
    void setSize(Size size);
    /// Network width (channels of the first level) and depth; a shape no preset has is Custom.
    void setModelShape(int width, int depth);
    void setEpochs(int epochs);
    void setCropSize(int px);
    void setPreferCpu(bool cpu);
    /// Usable GPUs of this machine: with two or more, "All GPUs" appears (ticked by default).
    void setGpuCount(int gpus);
    /// Processes the next job trains with, one per GPU: every usable GPU when the box is shown
    /// and ticked (and "Processor only" is not), else 1.
    int ranks() const;
    void setAdvancedVisible(bool visible);
    /// The batch the policy would use, for the memory estimate when the batch is automatic.
    void setPolicyBatch(int batch);

    /// The job as set up (dataDir from the selected dataset; output paths left to the project).
    TrainOptions options() const;
    /// What the execution policy preview needs.
    PolicyRequest policyRequest() const;
    /// Width and depth of a preset.
    static void presetShape(Size size, int& width, int& depth);

    void retranslateUi();

Q_SIGNALS:
    /// Something that changes the job (and so the policy preview) changed.
    void changed();
    /// The task was changed (the dataset is scanned again for it).
    void taskChanged(fisura::TaskKind task);

private:
    void buildAdvanced();
    void onSizeChosen();
    void onShapeEdited();
    void updateFootprint();
    void updatePatchRows();
    void buildPatchRows(QFormLayout* basic);
    void onStartChosen();

    DatasetPicker* picker_;
    StartFromBox* startFrom_;
    std::vector<ProjectRun> runs_;
    bool fineTuning_ = false; ///< the fine-tuning defaults are in the fields
    QLabel* taskLabel_;
    QComboBox* task_;
    QLabel* sizeLabel_;
    QComboBox* size_;
    QLabel* sizeInfo_;
    QLabel* modelLabel_;
    QComboBox* model_;
    QLabel* featuresLabel_;
    QComboBox* features_;
    QLabel* featureDimLabel_;
    QSpinBox* featureDim_;
    QCheckBox* perPosition_;
    QLabel* epochsLabel_;
    QSpinBox* epochs_;
    QToolButton* advancedToggle_;
    QWidget* advanced_;
    QFormLayout* form_;
    QSpinBox* batch_;
    QComboBox* precision_;
    QCheckBox* cpu_;
    QCheckBox* allGpus_;
    QLabel* allGpusLabel_ = nullptr;
    int gpuCount_ = 0;
    QDoubleSpinBox* lr_;
    QComboBox* schedule_;
    QDoubleSpinBox* valFraction_;
    QSpinBox* patience_;
    QCheckBox* augment_;
    QSpinBox* loaders_;
    QSpinBox* threads_; ///< LibTorch's intra-op threads, 0 = the policy's
    QSpinBox* seed_;
    QSpinBox* crop_;
    QSpinBox* width_;
    QSpinBox* depth_;
    bool applyingPreset_ = false;
    int policyBatch_ = 16;
};

} // namespace fisura::ui

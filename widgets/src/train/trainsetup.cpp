#include "train/trainsetup.h"

#include <algorithm>
#include <iterator>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "common/optiontexts.h"
#include "fisura/evaluate.h"
#include "train/datasetpicker.h"
#include "train/startfrom.h"

namespace fisura::ui
{

TrainSetupPanel::TrainSetupPanel(QWidget* parent)
    : QWidget(parent), picker_(new DatasetPicker(this)), startFrom_(new StartFromBox(this)),
      taskLabel_(new QLabel(this)), task_(new QComboBox(this)), sizeLabel_(new QLabel(this)),
      size_(new QComboBox(this)), sizeInfo_(new QLabel(this)), modelLabel_(new QLabel(this)),
      model_(new QComboBox(this)), featuresLabel_(new QLabel(this)), features_(new QComboBox(this)),
      featureDimLabel_(new QLabel(this)), featureDim_(new QSpinBox(this)),
      perPosition_(new QCheckBox(this)), epochsLabel_(new QLabel(this)),
      epochs_(new QSpinBox(this)), advancedToggle_(new QToolButton(this)),
      advanced_(new QWidget(this))
{
    task_->setObjectName(QStringLiteral("taskBox"));
    size_->setObjectName(QStringLiteral("sizeBox"));
    sizeInfo_->setObjectName(QStringLiteral("sizeInfo"));
    epochs_->setObjectName(QStringLiteral("epochsSpin"));
    advancedToggle_->setObjectName(QStringLiteral("advancedToggle"));
    advanced_->setObjectName(QStringLiteral("advanced"));
    sizeInfo_->setWordWrap(true);
    for (TaskKind t : {TaskKind::Segment, TaskKind::Classify, TaskKind::Anomaly})
        task_->addItem(QString(), int(t));
    for (Size s : {Size::Small, Size::Medium, Size::Large, Size::Custom})
        size_->addItem(QString(), int(s));
    applyOption(epochs_, OptionSet::Train, "epochs");
    advancedToggle_->setCheckable(true);
    advancedToggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    advancedToggle_->setArrowType(Qt::RightArrow);
    advancedToggle_->setAutoRaise(true);
    connect(advancedToggle_, &QToolButton::toggled, this, &TrainSetupPanel::setAdvancedVisible);
    buildAdvanced();
    advanced_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(picker_);
    auto* basic = new QFormLayout;
    basic->addRow(taskLabel_, task_);
    basic->addRow(startFrom_->label(), startFrom_);
    basic->addRow(nullptr, startFrom_->reasonLabel());
    buildPatchRows(basic);
    basic->addRow(sizeLabel_, size_);
    basic->addRow(nullptr, sizeInfo_);
    basic->addRow(epochsLabel_, epochs_);
    layout->addLayout(basic);
    layout->addWidget(advancedToggle_);
    layout->addWidget(advanced_);

    connect(startFrom_, &StartFromBox::changed, this, &TrainSetupPanel::onStartChosen);
    connect(task_, &QComboBox::currentIndexChanged, this, [this] {
        startFrom_->setChoices(task(), runs_);
        updatePatchRows();
        updateFootprint();
        Q_EMIT taskChanged(task());
        Q_EMIT changed();
    });
    connect(size_, &QComboBox::currentIndexChanged, this, &TrainSetupPanel::onSizeChosen);
    connect(epochs_, &QSpinBox::valueChanged, this, &TrainSetupPanel::changed);
    setSize(Size::Medium);
    updatePatchRows();
    startFrom_->setChoices(task(), runs_);
    retranslateUi();
}

void TrainSetupPanel::setProjectRuns(const std::vector<ProjectRun>& runs)
{
    runs_ = runs;
    startFrom_->setChoices(task(), runs_);
}

/// A model to start from brings its network and the fine-tuning defaults; scratch gives the
/// size presets and the engine's defaults back.
void TrainSetupPanel::onStartChosen()
{
    const bool model = startFrom_->fromModel();
    for (QWidget* w : {static_cast<QWidget*>(size_), static_cast<QWidget*>(width_),
                       static_cast<QWidget*>(depth_)})
        w->setEnabled(!model);
    if (model)
        setModelShape(startFrom_->modelConfig().width, startFrom_->modelConfig().depth);
    if (model != fineTuning_) {
        const TrainOptions d;
        epochs_->setValue(model ? FineTuneDefaults::epochs : d.epochs);
        lr_->setValue(model ? FineTuneDefaults::learningRate : d.learningRate);
        fineTuning_ = model;
    }
    updateFootprint();
    Q_EMIT changed();
}

/// The anomaly task's model choice and, for patch statistics, its features: shown only where
/// they apply.
void TrainSetupPanel::buildPatchRows(QFormLayout* basic)
{
    model_->setObjectName(QStringLiteral("anomalyModelBox"));
    model_->addItem(QString(), int(ModelType::Autoencoder));
    model_->addItem(QString(), int(ModelType::PatchGaussian));
    features_->setObjectName(QStringLiteral("patchFeaturesBox"));
    features_->addItem(QString(), int(PatchFeatures::Cnn));
    features_->addItem(QString(), int(PatchFeatures::Pixels));
    applyOptionText(features_, OptionSet::Train, "model.patch_features");
    featureDim_->setObjectName(QStringLiteral("featureDimSpin"));
    applyOption(featureDim_, OptionSet::Train, "model.feature_dim");
    perPosition_->setObjectName(QStringLiteral("perPositionCheck"));
    perPosition_->setChecked(!trainOption("model.pooled_positions").defaultBoolean);
    applyOptionText(perPosition_, OptionSet::Train, "model.pooled_positions");
    basic->addRow(modelLabel_, model_);
    basic->addRow(featuresLabel_, features_);
    basic->addRow(featureDimLabel_, featureDim_);
    basic->addRow(nullptr, perPosition_);
    auto refresh = [this] {
        updatePatchRows();
        updateFootprint();
        Q_EMIT changed();
    };
    connect(model_, &QComboBox::currentIndexChanged, this, refresh);
    connect(features_, &QComboBox::currentIndexChanged, this, refresh);
    connect(featureDim_, &QSpinBox::valueChanged, this, refresh);
    connect(perPosition_, &QCheckBox::toggled, this, refresh);
}

void TrainSetupPanel::updatePatchRows()
{
    const bool anomaly = task() == TaskKind::Anomaly;
    const bool patch = anomaly && anomalyModel() == ModelType::PatchGaussian;
    for (QWidget* w : {static_cast<QWidget*>(modelLabel_), static_cast<QWidget*>(model_)})
        w->setVisible(anomaly);
    for (QWidget* w : {static_cast<QWidget*>(featuresLabel_), static_cast<QWidget*>(features_),
                       static_cast<QWidget*>(featureDimLabel_), static_cast<QWidget*>(featureDim_),
                       static_cast<QWidget*>(perPosition_)})
        w->setVisible(patch);
    // A fit is one pass with no network to size: no epochs, no size preset.
    for (QWidget* w : {static_cast<QWidget*>(sizeLabel_), static_cast<QWidget*>(size_),
                       static_cast<QWidget*>(epochsLabel_), static_cast<QWidget*>(epochs_)})
        w->setVisible(!patch);
}

ModelType TrainSetupPanel::anomalyModel() const
{
    return ModelType(model_->currentData().toInt());
}

void TrainSetupPanel::setAnomalyModel(ModelType type)
{
    const int i = model_->findData(int(type));
    if (i >= 0)
        model_->setCurrentIndex(i);
}

void TrainSetupPanel::buildAdvanced()
{
    form_ = new QFormLayout(advanced_);
    form_->setContentsMargins(0, 0, 0, 0);
    const TrainOptions d; // the engine's defaults
    // Range, default, unit and tooltip from the option schema.
    auto spin = [this](const char* name, const char* key) {
        auto* s = new QSpinBox(advanced_);
        s->setObjectName(QLatin1String(name));
        applyOption(s, OptionSet::Train, key);
        connect(s, &QSpinBox::valueChanged, this, &TrainSetupPanel::changed);
        return s;
    };
    batch_ = spin("batchSpin", "batch_size");
    connect(batch_, &QSpinBox::valueChanged, this, [this] { updateFootprint(); });
    precision_ = new QComboBox(advanced_);
    precision_->setObjectName(QStringLiteral("precisionBox"));
    for (Precision p : {Precision::Auto, Precision::FP32, Precision::BF16, Precision::FP16})
        precision_->addItem(QString(), int(p));
    applyOptionText(precision_, OptionSet::Train, "precision");
    connect(precision_, &QComboBox::currentIndexChanged, this, [this] {
        updateFootprint();
        Q_EMIT changed();
    });
    cpu_ = new QCheckBox(advanced_);
    cpu_->setObjectName(QStringLiteral("cpuCheck"));
    cpu_->setChecked(d.preferCpu);
    applyOptionText(cpu_, OptionSet::Train, "prefer_cpu");
    connect(cpu_, &QCheckBox::toggled, this, [this] {
        updateFootprint(); // the processor trains a large batch in parts
        Q_EMIT changed();
    });
    allGpus_ = new QCheckBox(advanced_);
    allGpus_->setObjectName(QStringLiteral("allGpusCheck"));
    allGpus_->setChecked(true); // every GPU of the machine, unless the user says otherwise
    connect(allGpus_, &QCheckBox::toggled, this, &TrainSetupPanel::changed);
    connect(cpu_, &QCheckBox::toggled, allGpus_, [this](bool cpu) { allGpus_->setEnabled(!cpu); });
    lr_ = new QDoubleSpinBox(advanced_);
    lr_->setObjectName(QStringLiteral("learningRateSpin"));
    lr_->setDecimals(6);
    lr_->setSingleStep(1e-4);
    applyOption(lr_, OptionSet::Train, "learning_rate");
    schedule_ = new QComboBox(advanced_);
    schedule_->setObjectName(QStringLiteral("scheduleBox"));
    schedule_->addItem(QString(), int(Schedule::OneCycle));
    schedule_->addItem(QString(), int(Schedule::Cosine));
    applyOptionText(schedule_, OptionSet::Train, "schedule");
    valFraction_ = new QDoubleSpinBox(advanced_);
    valFraction_->setObjectName(QStringLiteral("valFractionSpin"));
    valFraction_->setSingleStep(0.05);
    applyOption(valFraction_, OptionSet::Train, "val_fraction");
    patience_ = spin("patienceSpin", "patience");
    augment_ = new QCheckBox(advanced_);
    augment_->setObjectName(QStringLiteral("augmentCheck"));
    augment_->setChecked(d.augment);
    applyOptionText(augment_, OptionSet::Train, "augment");
    loaders_ = spin("loaderSpin", "loader_threads");
    threads_ = spin("threadsSpin", "intra_op_threads");
    seed_ = spin("seedSpin", "seed");
    crop_ = spin("cropSpin", "model.input_size");
    crop_->setSingleStep(16);
    width_ = spin("widthSpin", "model.width");
    depth_ = spin("depthSpin", "model.depth");
    for (QSpinBox* s : {crop_, width_, depth_})
        connect(s, &QSpinBox::valueChanged, this, &TrainSetupPanel::onShapeEdited);
    QWidget* fields[] = {batch_,    precision_,   cpu_,      allGpus_, lr_,
                         schedule_, valFraction_, patience_, augment_, loaders_,
                         threads_,  seed_,        crop_,     width_,   depth_};
    for (QWidget* field : fields) // labels are set in retranslateUi()
        form_->addRow(new QLabel(advanced_), field);
    allGpusLabel_ = qobject_cast<QLabel*>(form_->labelForField(allGpus_));
    setGpuCount(0);
}

void TrainSetupPanel::retranslateUi()
{
    picker_->retranslateUi();
    taskLabel_->setText(tr("Task"));
    task_->setItemText(0, tr("Segment cracks (pixel masks)"));
    task_->setItemText(1, tr("Classify images (cracked or not)"));
    task_->setItemText(2, tr("Detect anomalies (learn crack-free surfaces)"));
    modelLabel_->setText(tr("Model"));
    model_->setItemText(0, tr("Autoencoder (learns to redraw the surface)"));
    model_->setItemText(1, tr("Patch statistics (PaDiM, fitted in one pass)"));
    model_->setToolTip(tr("Patch statistics need no training: a Gaussian of the features of "
                          "crack-free images, fitted in one pass; a patch far from it scores "
                          "high."));
    featuresLabel_->setText(tr("Features"));
    features_->setItemText(0, tr("small random network"));
    features_->setItemText(1, tr("gray pixel patches"));
    featureDimLabel_->setText(tr("Feature channels"));
    perPosition_->setText(tr("One distribution per image position"));
    sizeLabel_->setText(tr("Model size"));
    size_->setItemText(0, tr("Small"));
    size_->setItemText(1, tr("Medium"));
    size_->setItemText(2, tr("Large"));
    size_->setItemText(3, tr("Custom"));
    epochsLabel_->setText(tr("Epochs"));
    startFrom_->retranslateUi();
    advancedToggle_->setText(tr("Advanced"));
    const QString labels[] = {tr("Batch size"),          tr("Precision"),
                              tr("Processor only"),      tr("All GPUs"),
                              tr("Learning rate"),       tr("Schedule"),
                              tr("Validation fraction"), tr("Patience (epochs)"),
                              tr("Augmentation"),        tr("Loader threads"),
                              tr("Compute threads"),     tr("Seed"),
                              tr("Crop size"),           tr("Width (channels)"),
                              tr("Depth (levels)")};
    for (int i = 0; i < int(std::size(labels)); ++i)
        if (auto* l = qobject_cast<QLabel*>(form_->itemAt(i, QFormLayout::LabelRole)->widget()))
            l->setText(labels[i]);
    batch_->setSpecialValueText(tr("automatic (measured)"));
    loaders_->setSpecialValueText(tr("automatic"));
    threads_->setSpecialValueText(tr("automatic"));
    patience_->setSpecialValueText(tr("never stop early"));
    depth_->setSpecialValueText(tr("from the crop size"));
    precision_->setItemText(0, tr("automatic"));
    precision_->setItemText(1, QStringLiteral("fp32"));
    precision_->setItemText(2, QStringLiteral("bf16"));
    precision_->setItemText(3, QStringLiteral("fp16"));
    // The form's labels name the check boxes; the longer explanation is their tooltip, so the
    // panel stays narrow.
    allGpus_->setText(tr("train on all %n GPUs", nullptr, gpuCount_));
    allGpus_->setToolTip(tr("Every GPU trains on its share of each batch and the gradients are "
                            "averaged: about N times the images per second. Untick to train on "
                            "one GPU."));
    schedule_->setItemText(0, tr("one cycle"));
    schedule_->setItemText(1, tr("cosine"));
    retranslateOptions(this);
    updateFootprint();
}

TaskKind TrainSetupPanel::task() const
{
    return TaskKind(task_->currentData().toInt());
}

void TrainSetupPanel::setTask(TaskKind task)
{
    task_->setCurrentIndex(task_->findData(int(task)));
}

TrainSetupPanel::Size TrainSetupPanel::size() const
{
    return Size(size_->currentData().toInt());
}

void TrainSetupPanel::presetShape(Size size, int& width, int& depth)
{
    switch (size) {
    case Size::Small:
        width = 8, depth = 3;
        return;
    case Size::Medium:
        width = 16, depth = 4;
        return;
    case Size::Large:
        width = 32, depth = 5;
        return;
    case Size::Custom:
        return;
    }
}

void TrainSetupPanel::setSize(Size size)
{
    size_->setCurrentIndex(size_->findData(int(size)));
    onSizeChosen();
}

void TrainSetupPanel::onSizeChosen()
{
    int w = width_->value(), d = depth_->value();
    presetShape(size(), w, d);
    applyingPreset_ = true;
    width_->setValue(w);
    depth_->setValue(d);
    applyingPreset_ = false;
    updateFootprint();
    Q_EMIT changed();
}

void TrainSetupPanel::onShapeEdited()
{
    if (!applyingPreset_) {
        Size match = Size::Custom;
        for (Size s : {Size::Small, Size::Medium, Size::Large}) {
            int w = 0, d = 0;
            presetShape(s, w, d);
            if (w == width_->value() && d == depth_->value())
                match = s;
        }
        const QSignalBlocker block(size_);
        size_->setCurrentIndex(size_->findData(int(match)));
    }
    updateFootprint();
}

void TrainSetupPanel::setModelShape(int width, int depth)
{
    width_->setValue(width);
    depth_->setValue(depth);
}

void TrainSetupPanel::setEpochs(int epochs)
{
    epochs_->setValue(epochs);
}

void TrainSetupPanel::setCropSize(int px)
{
    crop_->setValue(px);
}

void TrainSetupPanel::setPreferCpu(bool cpu)
{
    cpu_->setChecked(cpu);
}

void TrainSetupPanel::setGpuCount(int gpus)
{
    gpuCount_ = gpus;
    const bool several = gpus >= 2;
    allGpus_->setVisible(several);
    if (allGpusLabel_)
        allGpusLabel_->setVisible(several);
    allGpus_->setText(tr("train on all %n GPUs", nullptr, gpus));
    updateFootprint();
}

int TrainSetupPanel::ranks() const
{
    return gpuCount_ >= 2 && allGpus_->isChecked() && !cpu_->isChecked() ? gpuCount_ : 1;
}

void TrainSetupPanel::setAdvancedVisible(bool visible)
{
    advanced_->setVisible(visible);
    advancedToggle_->setArrowType(visible ? Qt::DownArrow : Qt::RightArrow);
    if (advancedToggle_->isChecked() != visible)
        advancedToggle_->setChecked(visible);
}

void TrainSetupPanel::setPolicyBatch(int batch)
{
    policyBatch_ = batch > 0 ? batch : 16;
    updateFootprint();
}

TrainOptions TrainSetupPanel::options() const
{
    TrainOptions o;
    o.task = task();
    o.dataDir = picker_->datasetPath().toStdString();
    o.epochs = epochs_->value();
    o.batchSize = batch_->value();
    o.precision = Precision(precision_->currentData().toInt());
    o.preferCpu = cpu_->isChecked();
    o.model.type = o.task == TaskKind::Anomaly ? anomalyModel() : modelTypeFor(o.task);
    o.model.patchFeatures = PatchFeatures(features_->currentData().toInt());
    o.model.featureDim = featureDim_->value();
    o.model.pooledPositions = !perPosition_->isChecked();
    if (o.model.type == ModelType::PatchGaussian)
        o.epochs = 1; // fitted in one pass
    o.model.inputSize = crop_->value();
    o.model.width = width_->value();
    o.model.depth = depth_->value();
    o.learningRate = lr_->value();
    o.schedule = Schedule(schedule_->currentData().toInt());
    o.valFraction = valFraction_->value();
    o.patience = patience_->value();
    o.augment = augment_->isChecked();
    o.loaderThreads = loaders_->value();
    o.intraOpThreads = threads_->value();
    o.seed = uint64_t(seed_->value());
    o.startFrom = startFrom_->startFrom();
    if (!startsFromScratch(o.startFrom) && o.task == TaskKind::Segment)
        o.samplesPerEpoch = FineTuneDefaults::samplesPerEpoch;
    return o;
}

PolicyRequest TrainSetupPanel::policyRequest() const
{
    return policyRequestFor(options()); // what train() will ask
}

void TrainSetupPanel::updateFootprint()
{
    const TrainOptions o = options();
    if (o.model.type == ModelType::PatchGaussian) {
        auto z = patchGaussianSize(o.model);
        if (!z) {
            sizeInfo_->clear();
            return;
        }
        const QLocale loc;
        sizeInfo_->setText(
            tr("%Ln distribution(s) of %1 features · about %2 of memory to fit, %3 in the model "
               "file",
               nullptr, int(std::min<int64_t>(z->positions, 1 << 30)))
                .arg(loc.toString(z->featureDim), loc.formattedDataSize(qint64(z->fitBytes)),
                     loc.formattedDataSize(qint64(z->modelBytes))));
        return;
    }
    const Precision p = o.precision == Precision::Auto ? Precision::FP32 : o.precision;
    auto fp = estimateFootprint(o.model, p);
    if (!fp) {
        sizeInfo_->clear();
        return;
    }
    const QLocale loc;
    const int batch = o.batchSize > 0 ? o.batchSize : policyBatch_;
    const double millions = double(fp->parameters) / 1e6;
    const QString params = loc.toString(millions, 'f', millions < 1 ? 2 : 1);
    const QString whole = loc.formattedDataSize(qint64(fp->trainingBytes(batch)));
    // On the processor a batch over the step's memory budget trains in parts (as the trainer
    // decides it, from the same option).
    const bool onCpu = o.preferCpu || gpuCount_ == 0;
    const int part = onCpu ? fp->partWithin(batch, cpuTrainingBudgetBytes(o.cpuMemoryMb)) : batch;
    if (part < batch) {
        sizeInfo_->setText(tr("%1 million parameters · batches of %3 would need about %2 of "
                              "memory; on the processor they train in %4 parts of %5, about %6 "
                              "each")
                               .arg(params, whole, loc.toString(batch), loc.toString(batch / part),
                                    loc.toString(part),
                                    loc.formattedDataSize(qint64(fp->trainingBytes(part)))));
        return;
    }
    sizeInfo_->setText(tr("%1 million parameters · about %2 of memory to train with batches of %3")
                           .arg(params, whole, loc.toString(batch)));
}

} // namespace fisura::ui

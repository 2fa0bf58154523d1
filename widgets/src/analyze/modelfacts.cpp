#include "analyze/modelfacts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include "common/errortext.h"
#include "common/modelconsent.h"
#include "common/provenancetext.h"
#include "fisura/infer.h"

namespace fisura::ui
{

namespace
{

/// The sidecar Model::load looks for: `model.pt.json`, else `model.json`.
QString sidecarOf(const QString& path)
{
    if (QFileInfo(path + QStringLiteral(".json")).isFile())
        return path + QStringLiteral(".json");
    const QFileInfo fi(path);
    const QString stem = fi.dir().filePath(fi.completeBaseName() + QStringLiteral(".json"));
    if (stem != path && QFileInfo(stem).isFile())
        return stem;
    return {};
}

QString numbers(const std::vector<float>& v)
{
    const QLocale loc;
    QStringList parts;
    for (float x : v)
        parts << loc.toString(double(x), 'g', 4);
    return parts.join(QStringLiteral("; "));
}

} // namespace

ModelDescription describeModel(const QString& path)
{
    ModelDescription d;
    d.path = path;
    auto loaded = Model::load(path.toStdString(), ModelConsent::optionsFor(path));
    if (loaded) {
        d.ok = true;
        d.info = loaded->info();
    } else {
        d.status = loaded.status();
    }
    if (!d.ok || d.info.source == "torchscript") {
        d.sidecarPath = sidecarOf(path);
        QFile f(d.sidecarPath);
        if (!d.sidecarPath.isEmpty() && f.open(QIODevice::ReadOnly))
            d.sidecarText = QString::fromUtf8(f.read(64 * 1024));
    }
    return d;
}

ModelFactsWidget::ModelFactsWidget(QWidget* parent)
    : QWidget(parent), form_(new QFormLayout), fileLabel_(new QLabel(this)),
      typeLabel_(new QLabel(this)), inputLabel_(new QLabel(this)), normLabel_(new QLabel(this)),
      thresholdLabel_(new QLabel(this)), tileLabel_(new QLabel(this)),
      trainedOnLabel_(new QLabel(this)), licenceLabel_(new QLabel(this)),
      scoresLabel_(new QLabel(this)), trainedOn_(new QLabel(this)), licence_(new QLabel(this)),
      scores_(new QLabel(this)), file_(new QLabel(this)), type_(new QLabel(this)),
      input_(new QLabel(this)), norm_(new QLabel(this)), threshold_(new QLabel(this)),
      tile_(new QLabel(this)), error_(new QLabel(this)), sidecarHeading_(new QLabel(this)),
      sidecar_(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("modelFacts"));
    type_->setObjectName(QStringLiteral("modelType"));
    input_->setObjectName(QStringLiteral("modelInput"));
    norm_->setObjectName(QStringLiteral("modelNormalization"));
    threshold_->setObjectName(QStringLiteral("modelThreshold"));
    tile_->setObjectName(QStringLiteral("modelTiles"));
    error_->setObjectName(QStringLiteral("modelError"));
    sidecar_->setObjectName(QStringLiteral("sidecarText"));
    trainedOn_->setObjectName(QStringLiteral("modelTrainedOn"));
    licence_->setObjectName(QStringLiteral("modelLicence"));
    scores_->setObjectName(QStringLiteral("modelHeldOutScores"));
    for (QLabel* l :
         {file_, type_, input_, norm_, threshold_, tile_, trainedOn_, licence_, scores_, error_}) {
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
    }
    file_->setTextInteractionFlags(
        Qt::NoTextInteraction); // its text has wrap points; the tooltip has the path
    error_->setStyleSheet(QStringLiteral("color: #b00020;"));
    sidecar_->setReadOnly(true);
    sidecar_->setMaximumHeight(110);
    sidecar_->setLineWrapMode(QPlainTextEdit::NoWrap);

    // In a narrow side panel (a small screen, longer Spanish labels) a long value goes under its
    // label instead of widening the panel.
    form_->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form_->setContentsMargins(0, 0, 0, 0);
    form_->addRow(fileLabel_, file_);
    form_->addRow(typeLabel_, type_);
    form_->addRow(inputLabel_, input_);
    form_->addRow(normLabel_, norm_);
    form_->addRow(thresholdLabel_, threshold_);
    form_->addRow(tileLabel_, tile_);
    form_->addRow(trainedOnLabel_, trainedOn_);
    form_->addRow(licenceLabel_, licence_);
    form_->addRow(scoresLabel_, scores_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form_);
    layout->addWidget(error_);
    layout->addWidget(sidecarHeading_);
    layout->addWidget(sidecar_);
    retranslateUi();
}

void ModelFactsWidget::setDescription(const ModelDescription& d)
{
    d_ = d;
    hasModel_ = true;
    refresh();
}

void ModelFactsWidget::clear()
{
    d_ = ModelDescription();
    hasModel_ = false;
    refresh();
}

QString ModelFactsWidget::errorText() const
{
    return error_->text();
}

void ModelFactsWidget::retranslateUi()
{
    fileLabel_->setText(tr("Model file:"));
    typeLabel_->setText(tr("Type:"));
    inputLabel_->setText(tr("Input:"));
    normLabel_->setText(tr("Normalization:"));
    thresholdLabel_->setText(tr("Threshold:"));
    tileLabel_->setText(tr("Tiles:"));
    trainedOnLabel_->setText(tr("Trained on:"));
    licenceLabel_->setText(tr("Licence:"));
    scoresLabel_->setText(tr("Held-out scores:"));
    sidecarHeading_->setText(tr("What the sidecar file says:"));
    refresh();
}

void ModelFactsWidget::refresh()
{
    const QLocale loc;
    const ModelInfo& i = d_.info;
    const bool ok = hasModel_ && d_.ok;
    // A zero-width space after each separator lets a long path wrap in a narrow side panel.
    QString shown = QDir::toNativeSeparators(d_.path);
    shown.replace(QDir::separator(), QString(QDir::separator()) + QChar(0x200B));
    file_->setText(hasModel_ ? shown : tr("No model chosen"));
    file_->setToolTip(hasModel_ ? QDir::toNativeSeparators(d_.path) : QString());
    for (QLabel* l : {type_, input_, norm_, threshold_, tile_})
        l->clear();
    if (ok) {
        const QString source =
            i.source == "torchscript" ? tr("imported TorchScript module") : tr("Fisura model");
        switch (i.config.type) {
        case ModelType::UNet:
            type_->setText(tr("Crack segmentation (U-Net), %1").arg(source));
            threshold_->setText(tr("crack probability %1").arg(loc.toString(i.threshold, 'f', 2)));
            break;
        case ModelType::Classifier:
            type_->setText(tr("Crack classifier, %1").arg(source));
            threshold_->setText(tr("crack probability %1").arg(loc.toString(i.threshold, 'f', 2)));
            break;
        case ModelType::Autoencoder:
            type_->setText(tr("Anomaly autoencoder, %1").arg(source));
            threshold_->setText(
                tr("reconstruction error %1").arg(loc.toString(i.threshold, 'g', 4)));
            break;
        case ModelType::PatchGaussian:
            type_->setText(tr("Anomaly patch statistics (PaDiM), %1").arg(source));
            threshold_->setText(
                tr("Mahalanobis distance %1").arg(loc.toString(i.threshold, 'g', 4)));
            break;
        }
        input_->setText(tr("%1 × %1 px, %n channel(s)", nullptr, i.inputChannels)
                            .arg(loc.toString(i.config.inputSize)));
        norm_->setText(tr("mean %1 · std %2").arg(numbers(i.mean), numbers(i.std)));
        const QString tile = i.tileSize > 0 ? tr("%1 px").arg(loc.toString(i.tileSize))
                                            : tr("chosen for the input size");
        const QString overlap = i.tileOverlap >= 0 ? tr("%1 px").arg(loc.toString(i.tileOverlap))
                                                   : tr("chosen for the model type");
        tile_->setText(tr("tile %1, overlap %2").arg(tile, overlap));
    }
    refreshProvenance();
    error_->setText(hasModel_ && !d_.ok
                        ? tr("This model cannot be used: %1").arg(errorMessage(d_.status))
                        : QString());
    error_->setVisible(!error_->text().isEmpty());
    sidecar_->setPlainText(d_.sidecarText);
    sidecar_->setToolTip(QDir::toNativeSeparators(d_.sidecarPath));
    sidecar_->setVisible(!d_.sidecarPath.isEmpty());
    sidecarHeading_->setVisible(!d_.sidecarPath.isEmpty());
}

/// Where the model came from, when its metadata says: rows shown only then.
void ModelFactsWidget::refreshProvenance()
{
    const ModelProvenance p = hasModel_ && d_.ok ? provenanceOf(d_.info) : ModelProvenance();
    QString trained = trainedOnText(p);
    if (!p.startedFrom.empty())
        trained = tr("fine-tuned from %1").arg(QString::fromStdString(p.startedFrom)) +
                  (trained.isEmpty() ? QString() : QStringLiteral(" · ") + trained);
    trainedOn_->setText(trained);
    licence_->setText(QString::fromStdString(p.licence.empty() ? p.startedFromLicence : p.licence));
    scores_->setText(heldOutScoresText(p));
    form_->setRowVisible(trainedOn_, !trainedOn_->text().isEmpty());
    form_->setRowVisible(licence_, !licence_->text().isEmpty());
    form_->setRowVisible(scores_, !scores_->text().isEmpty());
}

} // namespace fisura::ui

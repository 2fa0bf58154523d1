#include "analyze/modelchooser.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "analyze/modelfacts.h"
#include "common/flowlayout.h"
#include "common/modelconsent.h"
#include "common/provenancetext.h"
#include "fisura/project.h"
#include "project/projectsession.h"
#include "project/runname.h"

namespace fisura::ui
{

namespace
{
constexpr int kPathRole = Qt::UserRole;
constexpr int kRunRole = Qt::UserRole + 1;
constexpr int kThresholdRole = Qt::UserRole + 2;
constexpr int kStarterRole = Qt::UserRole + 3;
} // namespace

ModelChooser::ModelChooser(QWidget* parent)
    : QWidget(parent), label_(new QLabel(this)), starterNote_(new QLabel(this)),
      box_(new QComboBox(this)), chooseButton_(new QPushButton(this)),
      facts_(new ModelFactsWidget(this))
{
    box_->setObjectName(QStringLiteral("modelBox"));
    chooseButton_->setObjectName(QStringLiteral("chooseModelButton"));
    box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box_->setMinimumContentsLength(18);
    label_->setBuddy(box_);
    // The button goes under the model box when the side panel is narrow.
    box_->setSizePolicy(QSizePolicy::Expanding, box_->sizePolicy().verticalPolicy());
    auto* row = new FlowLayout;
    row->addWidget(label_);
    row->addWidget(box_);
    row->addWidget(chooseButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    starterNote_->setObjectName(QStringLiteral("starterNote"));
    starterNote_->setWordWrap(true);
    starterNote_->hide();
    layout->addWidget(starterNote_);
    layout->addWidget(facts_);
    connect(box_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            &ModelChooser::onCurrentChanged);
    connect(chooseButton_, &QPushButton::clicked, this, &ModelChooser::chooseFile);
    retranslateUi();
    refresh(true); // the starter model, before any project is open
}

void ModelChooser::setCompact(bool compact)
{
    auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
    QLayout* row = layout ? layout->itemAt(0)->layout() : nullptr;
    if (!row)
        return;
    row->removeWidget(chooseButton_);
    layout->removeWidget(chooseButton_);
    if (compact)
        layout->insertWidget(1, chooseButton_, 0, Qt::AlignRight);
    else
        row->addWidget(chooseButton_);
}

void ModelChooser::setProjectSession(ProjectSession* session)
{
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    if (session_) {
        // Another project: its newest finished run. New content: keep what the user chose.
        connect(session_, &ProjectSession::projectChanged, this, [this] { refresh(true); });
        connect(session_, &ProjectSession::contentChanged, this, [this] { refresh(); });
    }
    refresh(true);
}

void ModelChooser::setModelFile(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    if (indexOfPath(abs) < 0 && !files_.contains(abs))
        files_.prepend(abs);
    const int described = describes_;
    refresh();
    const int index = indexOfPath(abs);
    if (index != box_->currentIndex())
        box_->setCurrentIndex(index);
    else if (describes_ == described)
        onCurrentChanged(index); // chosen again: read it again (it may have changed, or the user
                                 // may now agree to run a TorchScript module they declined)
}

bool ModelChooser::setModelFromRun(const QString& runId)
{
    refresh();
    for (int i = 0; i < box_->count(); ++i)
        if (box_->itemData(i, kRunRole).toString() == runId) {
            box_->setCurrentIndex(i);
            return true;
        }
    return false;
}

int ModelChooser::indexOfPath(const QString& path) const
{
    for (int i = 0; i < box_->count(); ++i)
        if (box_->itemData(i, kPathRole).toString() == path)
            return i;
    return -1;
}

void ModelChooser::refresh(bool newest)
{
    const QString current = box_->currentData(kPathRole).toString();
    refreshing_ = true;
    box_->clear();
    if (session_ && session_->hasProject()) {
        std::vector<const ProjectRun*> runs;
        for (const ProjectRun& r : session_->project().runs())
            if (r.state == RunState::Finished && !r.modelPath.empty())
                runs.push_back(&r);
        std::sort(runs.begin(), runs.end(), [](const ProjectRun* a, const ProjectRun* b) {
            return a->startedAt != b->startedAt ? a->startedAt > b->startedAt : a->id > b->id;
        });
        for (const ProjectRun* r : runs) {
            const QString id = QString::fromStdString(r->id);
            const QString data = QFileInfo(QString::fromStdString(r->datasetPath)).fileName();
            const QString name = RunName::of(session_->project().runs(), *r);
            box_->addItem(data.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, data));
            const int i = box_->count() - 1;
            box_->setItemData(i, QString::fromStdString(r->modelPath), kPathRole);
            box_->setItemData(i, id, kRunRole);
            box_->setItemData(i, r->threshold, kThresholdRole);
            box_->setItemData(i, QDir::toNativeSeparators(QString::fromStdString(r->modelPath)),
                              Qt::ToolTipRole);
        }
    }
    for (const QString& f : files_) {
        if (indexOfPath(f) >= 0)
            continue;
        box_->addItem(QFileInfo(f).fileName());
        const int i = box_->count() - 1;
        box_->setItemData(i, f, kPathRole);
        box_->setItemData(i, -1.0, kThresholdRole);
        box_->setItemData(i, QDir::toNativeSeparators(f), Qt::ToolTipRole);
    }
    addStarter();
    const int keep = newest && box_->count() > 0 ? 0 : indexOfPath(current);
    box_->setCurrentIndex(keep >= 0 ? keep : (box_->count() > 0 ? 0 : -1));
    refreshing_ = false;
    const int now = box_->currentIndex();
    const QString path = box_->currentData(kPathRole).toString();
    const QString run = box_->currentData(kRunRole).toString();
    if (path != choice_.path || run != choice_.runId)
        onCurrentChanged(now);
}

void ModelChooser::addStarter()
{
    if (!starterRead_) {
        starterRead_ = true;
        starterPath_ = QString::fromStdString(findStarterModel());
        if (!starterPath_.isEmpty())
            if (auto m = Model::load(starterPath_.toStdString()))
                starterProvenance_ = provenanceOf(m->info());
    }
    if (starterPath_.isEmpty() || indexOfPath(starterPath_) >= 0)
        return;
    box_->addItem(starterModelLabel(starterProvenance_));
    const int i = box_->count() - 1;
    box_->setItemData(i, starterPath_, kPathRole);
    box_->setItemData(i, -1.0, kThresholdRole);
    box_->setItemData(i, true, kStarterRole);
    box_->setItemData(i, QDir::toNativeSeparators(starterPath_), Qt::ToolTipRole);
}

bool ModelChooser::starterChosen() const
{
    return box_->currentData(kStarterRole).toBool() && choice_.path == starterPath_;
}

void ModelChooser::chooseFile()
{
    QString path;
    if (dialog_)
        path = dialog_();
    else
        path = QFileDialog::getOpenFileName(
            this, tr("Choose a model"),
            ProjectSession::dialogFolder(
                session_,
                choice_.path.isEmpty() ? QString() : QFileInfo(choice_.path).absolutePath(),
                QStringLiteral("models")),
            tr("Models (*.fisura *.pt *.pth *.ts);;All files (*)"));
    if (!path.isEmpty())
        setModelFile(path);
}

void ModelChooser::onCurrentChanged(int index)
{
    if (refreshing_)
        return;
    choice_ = AnalyzeModelChoice();
    ++describes_;
    if (index < 0) {
        facts_->clear();
    } else {
        const QString path = box_->itemData(index, kPathRole).toString();
        ModelDescription d = describeModel(path);
        // A TorchScript module runs code from the file: only after the user agreed to it.
        if (!d.ok && d.status.code() == ErrorCode::NeedsConsent && ModelConsent::ask(this, path))
            d = describeModel(path);
        facts_->setDescription(d);
        choice_.path = d.path;
        choice_.runId = box_->itemData(index, kRunRole).toString();
        choice_.threshold = box_->itemData(index, kThresholdRole).toDouble();
        choice_.info = d.info;
        choice_.ok = d.ok;
    }
    starterNote_->setVisible(starterChosen());
    Q_EMIT modelChosen(choice_);
}

void ModelChooser::retranslateUi()
{
    label_->setText(tr("&Model:"));
    chooseButton_->setText(tr("Model file…"));
    chooseButton_->setToolTip(
        tr("A Fisura model, or a TorchScript module exported from PyTorch with its JSON "
           "sidecar (model.pt.json)"));
    box_->setPlaceholderText(tr("No trained model yet: choose a model file"));
    starterNote_->setText(
        tr("No model of this project is chosen: Fisura's starter model is used. Label a few of "
           "your images and train starting from it to make it your own."));
    if (const int i = box_->findData(true, kStarterRole); i >= 0)
        box_->setItemText(i, starterModelLabel(starterProvenance_));
    facts_->retranslateUi();
    if (session_ && session_->hasProject())
        refresh(); // run labels
}

} // namespace fisura::ui

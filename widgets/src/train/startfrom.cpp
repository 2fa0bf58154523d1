#include "train/startfrom.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

#include "common/errortext.h"
#include "common/wrappedlabel.h"
#include "fisura/starter.h"
#include "fisura/train.h"

namespace fisura::ui
{

namespace
{
constexpr int kKeyRole = Qt::UserRole; ///< "starter", "scratch" or a model file
const QString kStarter = QStringLiteral("starter");
const QString kScratch = QStringLiteral("scratch");
} // namespace

StartFromBox::StartFromBox(QWidget* parent)
    : QWidget(parent), label_(new QLabel(parent)), box_(new QComboBox(this)),
      reason_(new WrappedLabel(parent)), starterPath_(QString::fromStdString(findStarterModel()))
{
    box_->setObjectName(QStringLiteral("startFromBox"));
    reason_->setObjectName(QStringLiteral("startFromReason"));
    reason_->setWordWrap(true);
    label_->setBuddy(box_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box_);
    connect(box_, &QComboBox::currentIndexChanged, this, &StartFromBox::onChosen);
    retranslateUi();
}

void StartFromBox::setChoices(TaskKind task, const std::vector<ProjectRun>& runs)
{
    const QString current = box_->currentData(kKeyRole).toString();
    task_ = task;
    std::vector<const ProjectRun*> usable;
    for (const ProjectRun& r : runs)
        if (r.task == task && r.state == RunState::Finished && !r.modelPath.empty())
            usable.push_back(&r);
    std::sort(usable.begin(), usable.end(), [](const ProjectRun* a, const ProjectRun* b) {
        return a->startedAt != b->startedAt ? a->startedAt > b->startedAt : a->id > b->id;
    });
    runs_.clear();
    for (const ProjectRun* r : usable)
        runs_.push_back(*r);
    {
        const QSignalBlocker block(box_);
        box_->clear();
        if (task == TaskKind::Segment && !starterPath_.isEmpty())
            box_->addItem(QString(), kStarter);
        for (const ProjectRun& r : runs_) {
            box_->addItem(QString(), QString::fromStdString(r.modelPath));
            box_->setItemData(box_->count() - 1, QString::fromStdString(r.modelPath),
                              Qt::ToolTipRole);
        }
        box_->addItem(QString(), kScratch);
        retranslateUi();
        int i = current.isEmpty() ? -1 : box_->findData(current, kKeyRole);
        if (i < 0) // the default: the starter model where there is one
            i = box_->findData(task == TaskKind::Segment && !starterPath_.isEmpty() ? kStarter
                                                                                    : kScratch,
                               kKeyRole);
        box_->setCurrentIndex(i);
    }
    onChosen();
}

std::string StartFromBox::startFrom() const
{
    const QString key = box_->currentData(kKeyRole).toString();
    return key == kScratch || key.isEmpty() ? std::string() : key.toStdString();
}

bool StartFromBox::fromModel() const
{
    return !startFrom().empty() && configOk_;
}

bool StartFromBox::choose(const std::string& startFrom)
{
    const QString key = startsFromScratch(startFrom) ? kScratch : QString::fromStdString(startFrom);
    const int i = box_->findData(key, kKeyRole);
    if (i < 0)
        return false;
    box_->setCurrentIndex(i);
    return true;
}

void StartFromBox::onChosen()
{
    const QString key = box_->currentData(kKeyRole).toString();
    configOk_ = false;
    error_.clear();
    if (key != kScratch && !key.isEmpty()) {
        const QString path = key == kStarter ? starterPath_ : key;
        if (configs_.contains(path)) {
            config_ = configs_.value(path);
            configOk_ = true;
        } else if (auto m = Model::load(path.toStdString())) {
            config_ = m->info().config;
            configs_.insert(path, config_);
            configOk_ = true;
        } else {
            error_ = errorMessage(m.status());
        }
    }
    describe();
    Q_EMIT changed();
}

void StartFromBox::describe()
{
    const QString key = box_->currentData(kKeyRole).toString();
    const QLocale loc;
    if (!error_.isEmpty()) {
        reason_->setText(tr("This model cannot be read: %1").arg(error_));
    } else if (key == kStarter) {
        reason_->setText(
            tr("Fine-tunes Fisura's starter model: keeps its network (width %1, depth %2), "
               "adapts its normalisation to your images and trains %3 epochs at a lower "
               "learning rate. A handful of labelled images is enough to make it your own.")
                .arg(loc.toString(config_.width), loc.toString(config_.depth),
                     loc.toString(FineTuneDefaults::epochs)));
    } else if (key == kScratch || key.isEmpty()) {
        reason_->setText(
            task_ == TaskKind::Segment && starterPath_.isEmpty()
                ? tr("Random weights: no starter model is installed. Learning from your images "
                     "alone needs many labelled images and more epochs.")
                : tr("Random weights: the network learns from your images alone. Needs many "
                     "labelled images and more epochs."));
    } else {
        reason_->setText(tr("Continues from this run's model: keeps its network (width %1, "
                            "depth %2), adapts its normalisation to the data and trains %3 "
                            "epochs at a lower learning rate.")
                             .arg(loc.toString(config_.width), loc.toString(config_.depth),
                                  loc.toString(FineTuneDefaults::epochs)));
    }
}

void StartFromBox::retranslateUi()
{
    label_->setText(tr("Start from"));
    box_->setToolTip(tr("The weights training starts from: a model that already knows cracks "
                        "needs far fewer labelled images than random weights"));
    for (int i = 0; i < box_->count(); ++i) {
        const QString key = box_->itemData(i, kKeyRole).toString();
        if (key == kStarter) {
            box_->setItemText(i, tr("Starter model"));
        } else if (key == kScratch) {
            box_->setItemText(i, tr("Scratch (random weights)"));
        } else {
            for (const ProjectRun& r : runs_)
                if (QString::fromStdString(r.modelPath) == key) {
                    const QString data =
                        QFileInfo(QString::fromStdString(r.datasetPath)).fileName();
                    const QString id = QString::fromStdString(r.id);
                    box_->setItemText(i, data.isEmpty() ? tr("Run %1").arg(id)
                                                        : tr("Run %1 (%2)").arg(id, data));
                }
        }
    }
    describe();
}

} // namespace fisura::ui

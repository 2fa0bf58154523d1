#include "data/labelranking.h"

#include <QBrush>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

#include "analyze/modelchooser.h"
#include "common/errortext.h"
#include "common/imageconvert.h"
#include "common/jobrunner.h"
#include "common/modelconsent.h"
#include "fisura/image.h"

namespace fisura::ui
{

namespace
{

constexpr int kThumb = 40;       ///< thumbnail side in px
constexpr int kThumbCount = 200; ///< thumbnails for the first images of the ranking only
constexpr uint64_t kThumbPixels = 4ull << 20; ///< larger images get no thumbnail (too slow)

struct RankOutput {
    Result<std::vector<RankEntry>> ranking{Status(ErrorCode::Cancelled, "not run")};
    std::vector<QImage> thumbs;
};

} // namespace

LabelRankingPanel::LabelRankingPanel(QWidget* parent)
    : QWidget(parent), chooser_(new ModelChooser(this)), start_(new QPushButton(this)),
      cancel_(new QPushButton(this)), progress_(new QProgressBar(this)), eta_(new QLabel(this)),
      message_(new QLabel(this)), list_(new QTreeWidget(this)), labelOrder_(new QPushButton(this)),
      job_(new JobRunner(this))
{
    chooser_->setObjectName(QStringLiteral("rankModelChooser"));
    start_->setObjectName(QStringLiteral("rankStartButton"));
    cancel_->setObjectName(QStringLiteral("rankCancelButton"));
    progress_->setObjectName(QStringLiteral("rankProgress"));
    message_->setObjectName(QStringLiteral("rankMessage"));
    list_->setObjectName(QStringLiteral("rankList"));
    labelOrder_->setObjectName(QStringLiteral("labelInOrderButton"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    list_->setColumnCount(4);
    list_->setRootIsDecorated(false);
    list_->setUniformRowHeights(true);
    list_->setIconSize(QSize(kThumb, kThumb));
    list_->setTextElideMode(Qt::ElideMiddle); // file names differ at their end
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        list_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    auto* run = new QHBoxLayout;
    run->addWidget(start_);
    run->addWidget(progress_, 1);
    run->addWidget(eta_);
    run->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chooser_);
    layout->addLayout(run);
    layout->addWidget(message_);
    layout->addWidget(list_, 1);
    layout->addWidget(labelOrder_, 0, Qt::AlignRight);

    connect(start_, &QPushButton::clicked, this, &LabelRankingPanel::startRanking);
    connect(cancel_, &QPushButton::clicked, this, &LabelRankingPanel::cancelRanking);
    connect(labelOrder_, &QPushButton::clicked, this, &LabelRankingPanel::labelInOrder);
    connect(list_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        // From the image double-clicked on, in ranking order.
        QStringList queue = rankedImages();
        const int i = int(queue.indexOf(item->data(0, Qt::UserRole).toString()));
        if (i < 0)
            return;
        queue = queue.mid(i);
        const QString first = queue.takeFirst();
        Q_EMIT labelRequested(first, queue);
    });
    connect(chooser_, &ModelChooser::modelChosen, this, &LabelRankingPanel::updateButtons);
    connect(job_, &JobRunner::progress, this, [this](double f, const QString&, double eta) {
        if (cancelled_)
            return;
        progress_->setValue(int(std::clamp(f, 0.0, 1.0) * 1000));
        eta_->setText(formatEta(eta));
    });
    setRunning(false);
    retranslateUi();
}

LabelRankingPanel::~LabelRankingPanel() = default;

void LabelRankingPanel::setProjectSession(ProjectSession* session)
{
    chooser_->setProjectSession(session);
    updateButtons();
}

void LabelRankingPanel::setDataset(const QString& dir, const QStringList& unlabelled)
{
    const bool other = QFileInfo(dir).absoluteFilePath() != dir_;
    dir_ = dir.isEmpty() ? QString() : QFileInfo(dir).absoluteFilePath();
    unlabelled_ = unlabelled;
    if (other && !job_->isRunning()) {
        ranking_.clear();
        thumbs_.clear();
        note_ = Note::None;
        showRanking();
    }
    updateButtons();
}

bool LabelRankingPanel::isRanking() const
{
    return job_->isRunning();
}

bool LabelRankingPanel::startRanking()
{
    if (job_->isRunning())
        return false;
    failure_.clear();
    note_ = blocker();
    if (note_ == Note::None)
        note_ = Note::Ranking;
    if (note_ != Note::Ranking) {
        showNote();
        return false;
    }
    std::vector<std::string> images;
    for (const QString& i : unlabelled_)
        images.push_back(i.toStdString());
    const std::string model = chooser_->choice().path.toStdString();
    RankOptions options;
    options.infer.modelLoad = ModelConsent::optionsFor(chooser_->choice().path);
    auto out = std::make_shared<RankOutput>();
    const bool started =
        job_->start([out, model, images, options](const CancelToken& c, ProgressSink* sink) {
            out->ranking = rankByUncertainty(model, images, options, c, sink);
            if (!out->ranking)
                return out->ranking.status();
            // Small pictures for the first images, when they are cheap to decode.
            for (size_t i = 0; i < out->ranking->size() && i < size_t(kThumbCount); ++i) {
                if (c.isCancelled())
                    return Status(ErrorCode::Cancelled, "thumbnails");
                auto im = readImage((*out->ranking)[i].image, kThumbPixels);
                out->thumbs.push_back(im ? toQImage(*im).scaled(kThumb, kThumb, Qt::KeepAspectRatio,
                                                                Qt::SmoothTransformation)
                                         : QImage());
            }
            return Status::ok();
        });
    if (!started)
        return false;
    cancelled_ = false;
    ranking_.clear();
    thumbs_.clear();
    showRanking();
    setRunning(true);
    showNote();
    connect(
        job_, &JobRunner::finished, this,
        [this, out](const Status& s) {
            setRunning(false);
            if (cancelled_ || s.code() == ErrorCode::Cancelled) {
                note_ = Note::Cancelled;
                showNote();
                Q_EMIT rankingFinished(Status(ErrorCode::Cancelled, s.detail()));
                return;
            }
            if (!s) {
                showFailure(s);
                Q_EMIT rankingFinished(s);
                return;
            }
            ranking_ = std::move(*out->ranking);
            thumbs_ = std::move(out->thumbs);
            note_ = rankedImages().isEmpty() ? Note::Empty : Note::Done;
            showRanking();
            showNote();
            Q_EMIT rankingFinished(s);
        },
        Qt::SingleShotConnection);
    return true;
}

void LabelRankingPanel::cancelRanking()
{
    if (!job_->isRunning())
        return;
    // Answer at once; the job stops within half a second and its result is dropped.
    cancelled_ = true;
    job_->cancel();
    note_ = Note::Cancelled;
    progress_->hide();
    eta_->hide();
    cancel_->setEnabled(false);
    showNote();
}

void LabelRankingPanel::showFailure(const Status& s)
{
    note_ = Note::None;
    // A model that does not load is the likely cause of NotFound/Corrupt/Unsupported here.
    failure_ = tr("The images could not be ranked: %1").arg(errorMessage(s));
    showNote();
}

void LabelRankingPanel::showRanking()
{
    list_->clear();
    const QLocale loc;
    for (size_t i = 0; i < ranking_.size(); ++i) {
        const RankEntry& e = ranking_[i];
        const QString path = QString::fromStdString(e.image);
        auto* item = new QTreeWidgetItem(list_);
        item->setText(0, QFileInfo(path).fileName());
        item->setToolTip(0, QDir::toNativeSeparators(path));
        item->setData(0, Qt::UserRole, path);
        if (i < thumbs_.size() && !thumbs_[i].isNull())
            item->setIcon(0, QPixmap::fromImage(thumbs_[i]));
        if (!e.error.empty()) { // kept last by core; its detail stays untranslated
            item->setText(1, tr("cannot be read"));
            item->setToolTip(1, QString::fromStdString(e.error));
            item->setForeground(0, QBrush(Qt::gray));
            continue;
        }
        item->setText(1, loc.toString(e.uncertainty, 'f', 3));
        item->setText(2, loc.toString(e.meanEntropy, 'f', 3));
        item->setText(3, loc.toString(e.nearThreshold * 100, 'f', 1) + QStringLiteral(" %"));
        for (int c = 1; c < 4; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    }
    updateButtons();
}

QStringList LabelRankingPanel::rankedImages() const
{
    QStringList out;
    for (const RankEntry& e : ranking_)
        if (e.error.empty()) // an image the model could not read cannot be labelled either
            out << QString::fromStdString(e.image);
    return out;
}

void LabelRankingPanel::labelInOrder()
{
    QStringList queue = rankedImages();
    if (queue.isEmpty())
        return;
    const QString first = queue.takeFirst();
    Q_EMIT labelRequested(first, queue);
}

void LabelRankingPanel::setRunning(bool running)
{
    progress_->setVisible(running);
    eta_->setVisible(running);
    cancel_->setVisible(running);
    cancel_->setEnabled(running);
    if (running) {
        progress_->setValue(0);
        eta_->clear();
    }
    updateButtons();
}

void LabelRankingPanel::updateButtons()
{
    const bool running = job_->isRunning();
    const Note why = blocker();
    start_->setEnabled(!running && why == Note::None);
    // Disabled, the button says why (its tooltip and the message line).
    start_->setToolTip(running || why == Note::None
                           ? tr("Run the model over every unlabelled image and list them, the "
                                "images it is least sure about first")
                           : noteText(why));
    chooser_->setEnabled(!running);
    labelOrder_->setEnabled(!running && !rankedImages().isEmpty());
    if (note_ == Note::None)
        showNote();
}

LabelRankingPanel::Note LabelRankingPanel::blocker() const
{
    if (dir_.isEmpty())
        return Note::NoDataset;
    if (unlabelled_.isEmpty())
        return Note::NothingToRank;
    if (!chooser_->choice().ok)
        return Note::NoModel;
    return Note::None;
}

QString LabelRankingPanel::message() const
{
    return message_->text();
}

void LabelRankingPanel::retranslateUi()
{
    chooser_->retranslateUi();
    start_->setText(tr("Rank unlabelled images"));
    cancel_->setText(tr("Cancel"));
    labelOrder_->setText(tr("Label in this order"));
    list_->setHeaderLabels(
        {tr("Image"), tr("Uncertainty"), tr("Mean entropy"), tr("Near the threshold")});
    list_->headerItem()->setToolTip(
        1, tr("How unsure the model is about the image, from 0 (sure) to 1"));
    list_->headerItem()->setToolTip(
        2, tr("Mean per-pixel entropy of the crack probability (1 = a coin toss everywhere)"));
    list_->headerItem()->setToolTip(
        3, tr("Share of pixels whose probability lies close to the model's threshold"));
    showRanking(); // numbers in the language's format
    showNote();
    updateButtons(); // the button's tooltip
}

void LabelRankingPanel::showNote()
{
    // Before any ranking the line says what is missing, if anything.
    const Note note = note_ == Note::None && failure_.isEmpty() ? blocker() : note_;
    message_->setText(noteText(note));
}

QString LabelRankingPanel::noteText(Note note) const
{
    QString text;
    switch (note) {
    case Note::None:
        text = failure_.isEmpty() ? tr("Choose a model, then rank the unlabelled images: the ones "
                                       "the model is least sure about come first.")
                                  : failure_;
        break;
    case Note::NoDataset:
        text = tr("Open a segmentation dataset first.");
        break;
    case Note::NothingToRank:
        text = tr("There are no unlabelled images to rank: every image has a mask or a "
                  "proposal.");
        break;
    case Note::NoModel:
        text = tr("Choose a model that can be loaded: a finished training run of the project or "
                  "a model file.");
        break;
    case Note::Ranking:
        text = tr("Ranking %Ln unlabelled image(s)…", nullptr, int(unlabelled_.size()));
        break;
    case Note::Cancelled:
        text = tr("Ranking cancelled.");
        break;
    case Note::Done:
        text = tr("%Ln image(s) ranked, the most uncertain first. Label them in this order to "
                  "help the model most.",
                  nullptr, int(rankedImages().size()));
        if (const int failed = int(ranking_.size()) - int(rankedImages().size()); failed > 0)
            text += QLatin1Char(' ') +
                    tr("%Ln image(s) could not be read (listed last).", nullptr, failed);
        break;
    case Note::Empty:
        text = ranking_.empty()
                   ? tr("The model ranked no image: there was nothing it could read.")
                   : tr("The model could not read any of the unlabelled images (their reasons "
                        "are in the list).");
        break;
    }
    return text;
}

} // namespace fisura::ui

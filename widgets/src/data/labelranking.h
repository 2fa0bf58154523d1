// "Which images to label next": a trained model (the project's newest finished run unless the
// user chooses another) looks at the unlabelled images of a segmentation dataset, off the GUI
// thread, and lists them most uncertain first (mean entropy and the share of pixels near the
// threshold). "Label in this order" opens the first for labelling with the rest queued.
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

#include "fisura/labels.h"
#include "fisura/status.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace fisura::ui
{

class JobRunner;
class ModelChooser;
class ProjectSession;

class LabelRankingPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LabelRankingPanel(QWidget* parent = nullptr);
    ~LabelRankingPanel() override;

    /// The project whose finished runs the model chooser lists (newest first).
    void setProjectSession(ProjectSession* session);
    ModelChooser* modelChooser() const { return chooser_; }
    /// The dataset and its unlabelled images, the ones a ranking looks at. A new dataset
    /// forgets the ranking shown.
    void setDataset(const QString& dir, const QStringList& unlabelled);

    /// Rank the unlabelled images with the chosen model; false (and a message) when it cannot
    /// start. rankingFinished() follows.
    bool startRanking();
    /// Stop the ranking: the panel says so at once; the job ends within half a second.
    void cancelRanking();
    bool isRanking() const;

    /// The ranking shown, most uncertain first.
    const std::vector<RankEntry>& ranking() const { return ranking_; }
    /// The line under the buttons (what happened, what to do).
    QString message() const;
    /// The images ranked, in order, without those the model could not read.
    QStringList rankedImages() const;
    /// labelRequested(first ranked image, the rest in order).
    void labelInOrder();

    void retranslateUi();

Q_SIGNALS:
    void labelRequested(const QString& imagePath, const QStringList& queue);
    /// A ranking ended: ok, failed or cancelled (then status is Cancelled).
    void rankingFinished(const fisura::Status& status);

private:
    void showRanking();
    /// The message line for note_ (or the failure).
    void showNote();
    void showFailure(const Status& status);
    void setRunning(bool running);
    void updateButtons();

    QString dir_;
    QStringList unlabelled_;
    std::vector<RankEntry> ranking_;
    std::vector<QImage> thumbs_;
    bool cancelled_ = false;
    enum class Note { None, NoDataset, NothingToRank, NoModel, Ranking, Cancelled, Done, Empty };
    /// Why ranking cannot start now (None: it can); said beside the disabled button.
    Note blocker() const;
    QString noteText(Note note) const;
    Note note_ = Note::None; ///< what the message line says (re-said on a language change)
    QString failure_;        ///< translated, for a failed ranking

    ModelChooser* chooser_;
    QPushButton* start_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* eta_;
    QLabel* message_;
    QTreeWidget* list_;
    QPushButton* labelOrder_;
    JobRunner* job_;
};

} // namespace fisura::ui

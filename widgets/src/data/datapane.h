// The Data pane: the open project's datasets and scans, a dataset folder's images (browsed lazily
// through the file system model), a preview of an image with its crack mask, and the built-in demo
// dataset. For a segmentation dataset it shows which images are labelled, proposed or unlabelled,
// ranks the unlabelled ones by a model's uncertainty, and asks for images to be opened for
// labelling. With nothing open (the first start) it says what to do instead (WelcomePage).
#pragma once

#include <QImage>
#include <QPointer>

#include "common/pane.h"
#include "common/statusmeta.h"
#include "fisura/synth.h"

class QAction;
class QCheckBox;
class QFileSystemModel;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolBar;
class QTreeView;

namespace fisura::ui
{

class JobRunner;
class LabelRankingPanel;
class LabelStatusPanel;
class ProjectContents;
class ProjectSession;
class WelcomePage;

class DataPane : public Pane
{
    Q_OBJECT
public:
    explicit DataPane(QWidget* parent = nullptr);
    ~DataPane() override;

    QString paneId() const override { return QStringLiteral("data"); }
    QString title() const override;
    QIcon icon() const override;
    void saveState(QSettings& s) const override;
    void restoreState(QSettings& s) override;

    QString rootFolder() const { return root_; }
    /// Show `folder` in the browser (it must exist).
    void setRootFolder(const QString& folder);
    /// Decode `path` (and its mask, if any) in the background and show it.
    void previewImage(const QString& path);
    /// Write the demo dataset into `folder` in the background, then open it.
    void generateDemoData(const QString& folder,
                          const synth::DemoDatasetOptions& options = synth::DemoDatasetOptions{});
    /// Stop the demo-data job (it reports Cancelled and leaves no half-written file).
    void cancelDemoData();

    /// The open project: its datasets and scans are listed (its first dataset is browsed), and
    /// its finished runs are the ranking's models (newest first).
    void setProjectSession(ProjectSession* session);
    ProjectContents* projectContents() const { return contents_; }
    /// Shown instead of the browser while neither a project nor a folder is open.
    WelcomePage* welcomePage() const { return welcome_; }
    bool isWelcomeShown() const;
    /// The segmentation dataset whose labels are shown: `folder` itself when it has images/,
    /// else its first subfolder that has (the demo data keeps it in segmentation/); else empty.
    static QString labelDatasetFor(const QString& folder);
    QString labelDataset() const;
    LabelStatusPanel* labelPanel() const { return labels_; }
    LabelRankingPanel* rankingPanel() const { return ranking_; }

    QAction* openFolderAction() const { return openAction_; }
    QAction* demoDataAction() const { return demoAction_; }
    /// The preview as displayed (for tests and snapshots).
    QImage previewShown() const { return shown_; }
    QString previewInfo() const;
    bool isBusy() const;

public Q_SLOTS:
    /// Open `datasetDir` and show the label state of its images (every state).
    void showLabels(const QString& datasetDir);
    /// "Choose images to label next" after a run: open the run's dataset, choose its model
    /// (the run `runId` of the project, else the file `modelPath`) and rank the unlabelled
    /// images as soon as their states are known.
    void rankImagesToLabel(const QString& runId, const QString& modelPath,
                           const QString& datasetPath);

Q_SIGNALS:
    /// Open `imagePath` for labelling, then the images of `queue` in turn (the label list as
    /// filtered, or the ranking, from the chosen image on).
    void labelRequested(const QString& imagePath, const QStringList& queue);
    void previewReady();
    void demoDataReady(const QString& folder);
    void demoDataFailed(const fisura::Status& status);
    /// A scan of the project was double-clicked: open it in Inspect.
    void openScanRequested(const QString& scanPath);

protected:
    void retranslateUi() override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void chooseFolder();
    void chooseDemoFolder();
    void refreshPreview();
    void setBusy(bool busy);
    QWidget* buildLeft();
    void connectLabels();
    /// A project opened, closed or changed: browse its dataset, or say what to do without one.
    void followProject();
    void clearRootFolder();
    void updateBody();

    QString root_;
    bool rootFromProject_ = false; // the folder was the project's; closing it closes the folder
    QPointer<ProjectSession> session_;
    QToolBar* toolbar_;
    QAction* openAction_;
    QAction* demoAction_;
    QLabel* folderLabel_;
    QFileSystemModel* model_;
    QTreeView* tree_;
    QStackedWidget* body_;
    WelcomePage* welcome_;
    QSplitter* split_;
    QTabWidget* leftTabs_;
    ProjectContents* contents_;
    LabelStatusPanel* labels_;
    LabelRankingPanel* ranking_;
    bool rankWhenReady_ = false;
    QLabel* preview_;
    QLabel* info_;
    QCheckBox* showMask_;
    QProgressBar* progress_;
    QLabel* progressText_;
    QPushButton* cancel_;
    JobRunner* imageJob_;
    JobRunner* demoJob_;

    QString imagePath_;
    QString maskPath_;
    QImage image_;
    QImage overlay_;
    QImage shown_;
    double crackFraction_ = -1;
    QString lastError_;
};

} // namespace fisura::ui

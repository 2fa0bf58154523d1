// The Data pane: choose a dataset folder, browse its images (lazily, through the file system
// model), preview an image with its crack mask, and generate the built-in demo dataset.
#pragma once

#include <QImage>

#include "fisura/synth.h"
#include "common/pane.h"
#include "common/statusmeta.h"

class QAction;
class QCheckBox;
class QFileSystemModel;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QToolBar;
class QTreeView;

namespace fisura::ui
{

class JobRunner;

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

    QAction* openFolderAction() const { return openAction_; }
    QAction* demoDataAction() const { return demoAction_; }
    /// The preview as displayed (for tests and snapshots).
    QImage previewShown() const { return shown_; }
    QString previewInfo() const;
    bool isBusy() const;

Q_SIGNALS:
    void previewReady();
    void demoDataReady(const QString& folder);
    void demoDataFailed(const fisura::Status& status);

protected:
    void retranslateUi() override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void chooseFolder();
    void chooseDemoFolder();
    void refreshPreview();
    void setBusy(bool busy);

    QString root_;
    QToolBar* toolbar_;
    QAction* openAction_;
    QAction* demoAction_;
    QLabel* folderLabel_;
    QFileSystemModel* model_;
    QTreeView* tree_;
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

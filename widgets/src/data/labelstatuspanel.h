// The Data pane's label view of a segmentation dataset (<dir>/images, masks, proposals): each
// image's label state with counts, a filter by state, and "Label" to open images for labelling.
// The folders are watched; a change (a mask saved, a proposal written) scans again, off the GUI
// thread, so large folders never freeze the window.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

#include "fisura/labels.h"

class QComboBox;
class QFileSystemWatcher;
class QLabel;
class QPushButton;
class QTimer;
class QTreeView;

namespace fisura::ui
{

class JobRunner;
class LabelStatusModel;

class LabelStatusPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LabelStatusPanel(QWidget* parent = nullptr);
    ~LabelStatusPanel() override;

    /// Show the label states of the dataset in `dir` (empty: none) and watch its folders.
    void setDatasetDir(const QString& dir);
    QString datasetDir() const { return dir_; }
    /// Scan again now (also done by itself when the folders change).
    void refresh();
    bool isScanning() const;
    /// Whether the last scan succeeded (false before one, or for a folder without images/).
    bool hasStatus() const { return haveStatus_; }

    /// Show only images in `state` (nullopt: all).
    void setFilter(std::optional<LabelState> state);
    std::optional<LabelState> filter() const;

    LabelStatusModel* model() const { return model_; }
    /// The counts line ("41 labelled · 3 proposed · 12 unlabelled") or why there is none.
    QString summaryText() const;
    /// Images in `state` of the last scan, in list order.
    QStringList images(LabelState state) const;
    /// Label the image in `row` of the list: labelRequested(it, the rows after it).
    void labelRow(int row);

    void retranslateUi();

Q_SIGNALS:
    /// Open `imagePath` for labelling; `queue` is what follows it in the list as shown
    /// (filtered and in order), for stepping on.
    void labelRequested(const QString& imagePath, const QStringList& queue);
    /// The user selected an image in the list (the pane previews it).
    void imageSelected(const QString& imagePath);
    /// "Rank unlabelled images…" was pressed.
    void rankRequested();
    /// A scan ended (successfully or not); states and counts are current.
    void statusChanged();

private:
    void watchFolders();
    void showStatus();
    void updateButtons();

    QString dir_;
    bool haveStatus_ = false;
    QString error_; ///< translated, when the last scan failed
    bool rescanPending_ = false;
    LabelStatusModel* model_;
    QLabel* summary_;
    QLabel* filterLabel_;
    QComboBox* filterBox_;
    QTreeView* view_;
    QPushButton* label_;
    QPushButton* rank_;
    QFileSystemWatcher* watcher_;
    QTimer* debounce_;
    JobRunner* job_;
};

} // namespace fisura::ui

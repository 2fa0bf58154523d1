// The open project's datasets and scans, as the Data pane lists them: a dataset with its task and
// number of images, a scan with its size, whether it has a map, the structure it shows and its
// date. Paths that moved are marked. Selecting a dataset browses it; double-clicking a scan opens
// it; a scan's context menu gives it its structure and date and opens the structure's timeline.
#pragma once

#include <QDate>
#include <QHash>
#include <QPointer>
#include <QWidget>

#include "fisura/status.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace fisura::ui
{

class ProjectSession;
class SeriesTimeline;

/// The image files the Data pane lists and counts (*.tif, *.png, ...), as QDir name filters.
QStringList imageNameFilters();

class ProjectContents : public QWidget
{
    Q_OBJECT
public:
    explicit ProjectContents(QWidget* parent = nullptr);

    void setProjectSession(ProjectSession* session);
    QTreeWidget* tree() const { return tree_; }
    /// Dataset folders and scan files listed now, in order.
    QStringList datasetPaths() const;
    QStringList scanPaths() const;
    /// Select the dataset in `path` (no signal).
    void selectDataset(const QString& path);
    /// Scan `scanId` shows `structure` (empty: none) and was scanned on `date` (invalid: not
    /// stated); saved into the project at once.
    Status setScanSeries(const QString& scanId, const QString& structure, const QDate& date);
    /// The timeline of `structure` in a window of its own, measuring (the window is returned).
    SeriesTimeline* openTimeline(const QString& structure);
    void retranslateUi();

Q_SIGNALS:
    void datasetSelected(const QString& path);
    /// Double-click or Enter on a scan.
    void scanActivated(const QString& scanPath);

private:
    void fill();
    QStringList pathsOf(int kind) const;
    /// Images in a dataset folder (-1: no such folder).
    int imageCount(const QString& dataset);
    void showMenu(const QPoint& at);
    void editSeries(const QString& scanId);

    QPointer<ProjectSession> session_;
    QLabel* note_;
    QTreeWidget* tree_;
    QTreeWidgetItem* datasets_ = nullptr;
    QTreeWidgetItem* scans_ = nullptr;
    QHash<QString, int> counts_;
};

} // namespace fisura::ui

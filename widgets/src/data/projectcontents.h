// The open project's datasets and scans, as the Data pane lists them: a dataset with its task and
// number of images, a scan with its size, whether it has a map and when it was analysed. Paths
// that moved are marked. Selecting a dataset browses it; double-clicking a scan opens it.
#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace fisura::ui
{

class ProjectSession;

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

    QPointer<ProjectSession> session_;
    QLabel* note_;
    QTreeWidget* tree_;
    QTreeWidgetItem* datasets_ = nullptr;
    QTreeWidgetItem* scans_ = nullptr;
    QHash<QString, int> counts_;
};

} // namespace fisura::ui

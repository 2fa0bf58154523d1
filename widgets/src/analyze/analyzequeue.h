// The Analyze pane's queue: one row per scan with its size, pixel size, state, progress, map and
// error. The rows are plain values (ScanRow) so the controller can persist them as JSON and a
// restarted application can resume an interrupted queue.
#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QString>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVector>

#include <functional>

#include "analyze/queuefile.h"
#include "fisura/infer.h"

namespace fisura::ui
{

/// Where a row of the Analyze queue stands (not fisura::ScanState, a folder run's manifest entry).
enum class QueueRowState { Waiting, Running, Done, Failed, Cancelled };
/// Stable names for the queue file: "waiting", "running", "done", "failed", "cancelled".
QString queueRowStateName(QueueRowState s);
bool parseQueueRowState(const QString& text, QueueRowState& out);

struct ScanRow {
    QString id; ///< unique within the queue
    QString input;
    QString output; ///< where the map goes (planned while waiting, written when done)
    int width = 0;  ///< 0 when the scan could not be read when added
    int height = 0;
    double pixelSizeMm = 0.0; ///< 0 when unknown
    QueueRowState state = QueueRowState::Waiting;
    bool preparing = false; ///< running, the model is being prepared
    double fraction = 0.0;
    double megapixelsPerSecond = 0.0;
    double etaSeconds = -1.0;
    /// Why the scan failed in this session, translated when shown (so it follows a change of
    /// language); `error` is its text in the language of the moment it failed, which is what a
    /// queue restored from its file has.
    Status failure;
    QString error;
    QString modelPath;   ///< the model the map was (or will be) made with
    QString runId;       ///< the project run that trained it, if any
    int threshold = 128; ///< the model's threshold on the map's 0..255 scale
    double seconds = 0.0;
    QString statsJson; ///< toJson(InferStats) of a finished scan
    PaceForecast pace; ///< what was expected to set the pace, once the scan started
    bool hasPace = false;
};

/// Size and pixel size of a scan without decoding its pixels (probeImageFile: what the file is
/// comes from its bytes). Returns false when the file cannot be read.
bool probeScan(const QString& path, int& width, int& height, double& pixelSizeMm);

class AnalyzeQueueModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ScanColumn,
        SizeColumn,
        PixelColumn,
        StateColumn,
        ProgressColumn,
        MapColumn,
        ErrorColumn,
        ColumnCount
    };
    /// Qt::UserRole on any column: the row id; ProgressRole on the progress column: 0..1 or -1.
    static constexpr int IdRole = Qt::UserRole;
    static constexpr int ProgressRole = Qt::UserRole + 1;
    static constexpr int StateRole = Qt::UserRole + 2;

    explicit AnalyzeQueueModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    const QVector<ScanRow>& rows() const { return rows_; }
    const ScanRow& at(int row) const { return rows_.at(row); }
    int indexOf(const QString& id) const;
    const ScanRow* find(const QString& id) const;
    /// Appends a row (a fresh id when it has none); returns its id.
    QString append(ScanRow row);
    /// Change a row in place and repaint it.
    void update(const QString& id, const std::function<void(ScanRow&)>& edit);
    /// Removes the rows with these ids (running rows are kept).
    void remove(const QStringList& ids);
    /// The first waiting row, or -1.
    int firstWaiting() const;
    int count(QueueRowState state) const;

    /// The queue file's content, and back. fromFile() turns running rows into waiting ones
    /// (an interrupted queue) and returns how many rows wait.
    QJsonObject toJson() const;
    int fromFile(const QueueFile& file);
    void clear();

    /// Headers and state texts in the current language.
    void retranslate();

private:
    QString stateText(const ScanRow& r) const;
    QString progressText(const ScanRow& r) const;
    /// A finished scan's progress tooltip: its time and speed, and what held the run back (the
    /// statistics' "limited_by").
    QString finishedTip(const ScanRow& r) const;
    static QString errorText(const ScanRow& r);

    QVector<ScanRow> rows_;
    int nextId_ = 1;
};

/// Draws the progress column as a bar with its text (megapixels/s and time left).
class ScanProgressDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

/// The queue's table: every column within its width (no sideways scrolling). Size, pixel size
/// and state take what their values need; the scan, the progress bar, the map and the error share
/// the rest, paths elided in the middle (their tool tip has the whole path). It asks for enough
/// width to show the measured columns whole beside the shared ones at their narrowest.
class ScanQueueView : public QTableView
{
    Q_OBJECT
public:
    explicit ScanQueueView(AnalyzeQueueModel* model, QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;
};

} // namespace fisura::ui

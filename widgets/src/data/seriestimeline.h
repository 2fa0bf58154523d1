// A structure over time (fisura/series.h): each dated scan's crack map measured in the
// background (progress, Cancel), then three plots against the inspection date — total crack
// length, cracked area and the widest crack — and a table of the same, in the language in force.
#pragma once

#include <QWidget>

#include <array>
#include <optional>

#include "fisura/project.h"
#include "fisura/series.h"
#include "fisura/status.h"

class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace fisura::ui
{

class JobRunner;

class SeriesTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit SeriesTimeline(QWidget* parent = nullptr);
    ~SeriesTimeline() override;

    /// Measures `structure`'s dated scans of `project` (a copy: the project may change
    /// meanwhile); measured() when done. An error when one is running.
    Status measure(const Project& project, const QString& structure);
    void cancel();
    bool isRunning() const;
    const std::optional<Series>& series() const { return series_; }
    /// 0 length, 1 cracked area, 2 widest crack.
    QCustomPlot* plot(int k) const { return plots_[size_t(k)]; }
    QTableWidget* table() const { return table_; }
    QString message() const;
    void retranslateUi();

Q_SIGNALS:
    void measured(const fisura::Status& status);

protected:
    void changeEvent(QEvent* e) override;

private:
    void onFinished(Result<Series> result);
    void showSeries();
    void fillTable();

    JobRunner* runner_;
    QString structure_;
    std::optional<Series> series_;
    QLabel* title_;
    QLabel* message_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    std::array<QCustomPlot*, 3> plots_{};
    QTableWidget* table_;
};

} // namespace fisura::ui

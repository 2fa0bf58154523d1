// The training log: trainer notices (out-of-memory recovery with the new batch size, early stop,
// resume, pause, cancel), one line per epoch, and what to do when a run fails — all translated
// from the trainer's stable codes, with times in the user's locale.
#pragma once

#include <QString>
#include <QTime>
#include <QWidget>

#include <functional>
#include <vector>

#include "fisura/project.h"
#include "fisura/status.h"
#include "fisura/train.h"

class QListWidget;

namespace fisura::ui
{

class TrainLog : public QWidget
{
    Q_OBJECT
public:
    explicit TrainLog(QWidget* parent = nullptr);

    void clear();
    /// A line of fixed text (stays as it is after a language switch).
    void addLine(const QString& text);
    /// A line written by `text`, called again (with its time) after a language switch, so the
    /// log reads in the language in force.
    void addLine(std::function<QString()> text);
    void addNotice(const QString& code, const QString& message);
    void addEpoch(TaskKind task, const EpochMetrics& m, int epochs);
    /// The log of a run that is not training here, rebuilt from its record: what the trainer
    /// said before the first epoch, one line per epoch, then what it said after (no clock times:
    /// the record keeps none).
    void showRun(const ProjectRun& run, int epochs);
    int lineCount() const;
    QString line(int i) const;
    QListWidget* list() const { return list_; }

    /// One translated sentence for a trainer notice (code and English message).
    static QString noticeText(const QString& code, const QString& message);
    /// What the user can do about a failed run.
    static QString failureHint(ErrorCode code);

protected:
    void changeEvent(QEvent* e) override;

private:
    struct Entry {
        QTime time;
        std::function<QString()> text;
    };
    static QString render(const Entry& e);
    void addUntimed(std::function<QString()> text);
    static QString epochText(TaskKind task, const EpochMetrics& m, int epochs);

    QListWidget* list_;
    std::vector<Entry> entries_;
};

} // namespace fisura::ui

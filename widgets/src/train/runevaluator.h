// Evaluates a run's model on its validation images in the background (fisura::evaluateModel),
// one at a time: a newer request replaces an older one, whose late result is dropped.
#pragma once

#include <QObject>
#include <QString>

#include <memory>

#include "common/statusmeta.h"
#include "fisura/evaluate.h"
#include "fisura/project.h"

namespace fisura::ui
{

class JobRunner;

class RunEvaluator : public QObject
{
    Q_OBJECT
public:
    explicit RunEvaluator(QObject* parent = nullptr);

    /// Evaluate `run` (its model, dataset and saved split). Replaces a pending request.
    void evaluate(const ProjectRun& run);
    /// Forget the pending request (its result will not be reported).
    void cancel();
    bool isBusy() const;
    QString runId() const { return runId_; }

Q_SIGNALS:
    void reportReady(const QString& runId, const fisura::EvaluationReport& report);
    void failed(const QString& runId, const fisura::Status& status);

private:
    void launch();

    JobRunner* job_;
    QString runId_;
    std::string model_, data_, split_;
    bool pending_ = false;
    uint64_t generation_ = 0;
};

} // namespace fisura::ui

Q_DECLARE_METATYPE(fisura::EvaluationReport)

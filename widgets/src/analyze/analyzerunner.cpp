#include "analyze/analyzerunner.h"

#include "common/modelconsent.h"
#include "common/progressrelay.h"
#include "fisura/process.h"

#include <QDateTime>
#include <QFileInfo>
#include <QMetaObject>

namespace fisura::ui
{

namespace
{

/// What decides whether a prepared model can be reused: the file (and its time stamp) and every
/// option that changes the prepared engine.
std::string engineKeyOf(const AnalyzeTask& t)
{
    const InferOptions& o = t.options;
    const QFileInfo fi(t.modelPath);
    return QStringLiteral("%1|%2|%3|%4|%5|%6|%7|%8")
        .arg(fi.absoluteFilePath())
        .arg(fi.lastModified().toMSecsSinceEpoch())
        .arg(o.tileSize)
        .arg(o.overlap)
        .arg(o.batchSize)
        .arg(int(o.precision))
        .arg(int(o.window))
        .arg(o.preferCpu)
        .toStdString();
}

} // namespace

AnalyzeRunner::AnalyzeRunner(QObject* parent)
    : QObject(parent), sink_(std::make_unique<ProgressRelay>(this, [this](const Progress& p) {
          if (running_)
              Q_EMIT progress(current_, p.fraction, p.etaSeconds, p.elapsedSeconds);
      }))
{
    qRegisterMetaType<fisura::Status>();
    qRegisterMetaType<fisura::InferStats>();
}

AnalyzeRunner::~AnalyzeRunner()
{
    cancel();
    wait();
}

bool AnalyzeRunner::start(const AnalyzeTask& task)
{
    if (running_)
        return false;
    wait(); // join a finished worker
    running_ = true;
    current_ = task.rowId;
    cancel_ = CancelToken();
    sink_->reset();
    thread_ = std::thread([this, task, token = cancel_, gen = generation_.load()]() {
        Outcome out;
        try {
            out = work(task, token);
        } catch (const std::exception& e) {
            out.status = Status(ErrorCode::Internal, e.what());
        }
        releaseFreedMemory(); // the scan's tiles and batches are gone: give them back
        QMetaObject::invokeMethod(
            this,
            [this, out, gen, id = task.rowId] {
                if (gen != generation_)
                    return;
                running_ = false;
                sink_->reset();
                Q_EMIT finished(id, out.status, out.stats);
            },
            Qt::QueuedConnection);
    });
    return true;
}

AnalyzeRunner::Outcome AnalyzeRunner::work(const AnalyzeTask& task, const CancelToken& cancel)
{
    Outcome out;
    const std::string key = engineKeyOf(task);
    if (!engine_ || key != engineKey_) {
        engine_.reset();
        QMetaObject::invokeMethod(
            this,
            [this, id = task.rowId, gen = generation_.load()] {
                if (gen == generation_)
                    Q_EMIT preparing(id);
            },
            Qt::QueuedConnection);
        auto model =
            Model::load(task.modelPath.toStdString(), ModelConsent::optionsFor(task.modelPath));
        if (!model) {
            out.status = model.status();
            return out;
        }
        auto created = TiledInference::create(std::move(*model), task.options, cancel);
        if (!created) {
            out.status = created.status();
            return out;
        }
        engine_ = std::move(*created);
        engineKey_ = key;
        QMetaObject::invokeMethod(
            this,
            [this, id = task.rowId, gen = generation_.load(), policy = engine_->policy()] {
                if (gen == generation_)
                    Q_EMIT prepared(id, policy);
            },
            Qt::QueuedConnection);
    }
    if (cancel.isCancelled()) {
        out.status = Status(ErrorCode::Cancelled, "inference cancelled");
        return out;
    }
    sink_->report(Progress{0.0, -1.0, 0.0, {}});
    if (auto f = engine_->forecast(task.input.toStdString()))
        QMetaObject::invokeMethod(
            this,
            [this, id = task.rowId, gen = generation_.load(), forecast = *f] {
                if (gen == generation_)
                    Q_EMIT paced(id, forecast);
            },
            Qt::QueuedConnection);
    auto r = engine_->run(task.input.toStdString(), task.output.toStdString(), cancel, sink_.get());
    if (r)
        out.stats = std::move(*r);
    else
        out.status = r.status();
    return out;
}

void AnalyzeRunner::cancel()
{
    if (running_)
        cancel_.cancel();
}

void AnalyzeRunner::wait()
{
    if (thread_.joinable())
        thread_.join();
}

void AnalyzeRunner::abandon()
{
    cancel();
    wait();
    ++generation_;
    running_ = false;
    sink_->reset();
}

void AnalyzeRunner::releaseModel()
{
    if (running_)
        return;
    wait();
    engine_.reset();
    engineKey_.clear();
}

} // namespace fisura::ui

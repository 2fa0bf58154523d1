#include "label/labelsession.h"

#include <QDir>
#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

#include <functional>

#include "common/errortext.h"
#include "common/imageconvert.h"
#include "common/jobrunner.h"
#include "common/modelconsent.h"
#include "label/labelsource.h"

namespace fisura::ui
{

namespace
{
// The level-0 rectangle covered by the tiles an edit touched.
QRect regionOf(const LabelEdit& e, int tile)
{
    QRect r;
    for (const LabelEdit::Tile& t : e.tiles)
        r |= QRect(t.column * tile, t.row * tile, tile, tile);
    return r;
}

QString fileName(const std::string& path)
{
    return QFileInfo(QString::fromStdString(path)).fileName();
}

// One edit of the label layer on the undo stack. The edit is already applied when pushed; the
// first redo() (QUndoStack::push calls it) does nothing.
class LabelEditCommand : public QUndoCommand
{
public:
    LabelEditCommand(LabelLayer* layer, LabelEdit edit, const QString& text,
                     std::function<void(const QRect&)> changed)
        : QUndoCommand(text), layer_(layer), edit_(std::move(edit)),
          region_(regionOf(edit_, layer->tileSize())), changed_(std::move(changed))
    {
    }
    void undo() override
    {
        layer_->undo(edit_);
        changed_(region_);
    }
    void redo() override
    {
        if (applied_) {
            applied_ = false;
            changed_(region_);
            return;
        }
        layer_->redo(edit_);
        changed_(region_);
    }

private:
    LabelLayer* layer_;
    LabelEdit edit_;
    QRect region_;
    std::function<void(const QRect&)> changed_;
    bool applied_ = true;
};
} // namespace

QString labelErrorText(const QString& sentence, const Status& status)
{
    // Tool refusals carry a stable id at the start of their detail (fisura/labels.h).
    const std::string& d = status.detail();
    const auto is = [&d](const char* id) { return d.rfind(id, 0) == 0; };
    QString reason;
    if (is("fill_not_closed"))
        reason = LabelSession::tr("The region around the click reaches the edge of the image: "
                                  "close it with a line first.");
    else if (is("fill_too_large"))
        reason = LabelSession::tr("The region around the click is too large to fill: close it "
                                  "with a line nearer the click.");
    else if (is("fill_on_label"))
        reason = LabelSession::tr("The click is on a label already: fill starts on an "
                                  "unlabelled pixel.");
    else if (is("fill_outside"))
        reason = LabelSession::tr("The click is outside the image.");
    else if (is("region_too_large"))
        reason = LabelSession::tr("The region is too large to change at once: mark it region "
                                  "by region.");
    else
        reason = errorMessage(status);
    return sentence + QLatin1Char(' ') + reason;
}

Result<std::unique_ptr<LabelSession>> LabelSession::open(const QString& imagePath, QObject* parent)
{
    auto layer = LabelLayer::open(imagePath.toStdString());
    if (!layer)
        return layer.status();
    return std::unique_ptr<LabelSession>(new LabelSession(std::move(*layer), parent));
}

LabelSession::LabelSession(std::unique_ptr<LabelLayer> layer, QObject* parent)
    : QObject(parent), layer_(std::move(layer)),
      source_(std::make_shared<LabelOverlaySource>(layer_.get())), undo_(new QUndoStack(this)),
      runner_(new JobRunner(this))
{
    undo_->setObjectName(QStringLiteral("labelUndoStack"));
    connect(undo_, &QUndoStack::indexChanged, this, [this] {
        if (lastModified_ != isModified()) {
            lastModified_ = isModified();
            Q_EMIT modifiedChanged(lastModified_);
        }
    });
    connect(runner_, &JobRunner::progress, this, &LabelSession::progress);
    connect(runner_, &JobRunner::finished, this, &LabelSession::onJobFinished);
}

LabelSession::~LabelSession()
{
    // The runner's destructor cancels and waits for a job that still holds the layer; the undo
    // stack goes before the layer, silently (its clear() would report to the panel).
    delete runner_;
    QObject::disconnect(undo_, nullptr, nullptr, nullptr);
    delete undo_;
}

QString LabelSession::imagePath() const
{
    return QString::fromStdString(layer_->imagePath());
}

QString LabelSession::maskPath() const
{
    return QString::fromStdString(layer_->paths().mask);
}

bool LabelSession::isModified() const
{
    // The layer counts every edit since the last save, also one undone again; the undo stack
    // knows when the edits cancel out (back at its clean state: the file's labels or nothing).
    return layer_->modified() && !undo_->isClean();
}

bool LabelSession::isBusy() const
{
    return saving_ || proposing_;
}

void LabelSession::setBusy(bool saving, bool proposing)
{
    const bool was = isBusy();
    saving_ = saving;
    proposing_ = proposing;
    source_->setBlocked(saving_);
    if (was != isBusy())
        Q_EMIT busyChanged(isBusy());
}

bool LabelSession::apply(Result<LabelEdit> edit, const QString& text)
{
    if (isBusy())
        return false;
    if (!edit) {
        Q_EMIT failed(labelErrorText(tr("Could not apply “%1” to the labels of %2.")
                                         .arg(text, fileName(layer_->imagePath())),
                                     edit.status()));
        return false;
    }
    if (edit->empty())
        return true;
    undo_->push(new LabelEditCommand(layer_.get(), std::move(*edit), text,
                                     [this](const QRect& r) { Q_EMIT changed(r); }));
    // A redo after undo leaves the index where it was: report the state in any case.
    if (lastModified_ != isModified()) {
        lastModified_ = isModified();
        Q_EMIT modifiedChanged(lastModified_);
    }
    return true;
}

bool LabelSession::save()
{
    if (isBusy())
        return false;
    LabelLayer* layer = layer_.get();
    setBusy(true, false);
    if (!runner_->start([layer](const CancelToken&, ProgressSink* sink) -> Status {
            // A save is short and leaves the old file intact on failure: it is not cancelled.
            auto r = layer->save({}, sink);
            return r ? Status() : r.status();
        })) {
        setBusy(false, false);
        return false;
    }
    return true;
}

bool LabelSession::propose(const QString& modelPath, double threshold, const LabelRect& region)
{
    if (isBusy() || modelPath.isEmpty())
        return false;
    proposal_ = std::make_shared<Image>();
    proposalRegion_ = region.empty() ? LabelRect{0, 0, layer_->width(), layer_->height()} : region;
    modelPath_ = modelPath;
    ProposeOptions o;
    o.threshold = threshold;
    o.region = region;
    o.infer.modelLoad = ModelConsent::optionsFor(modelPath);
    const std::string model = modelPath.toStdString(), image = layer_->imagePath();
    std::shared_ptr<Image> out = proposal_;
    setBusy(false, true);
    if (!runner_->start([model, image, o, out](const CancelToken& c, ProgressSink* p) -> Status {
            auto r = proposeLabels(model, image, o, c, p);
            if (!r)
                return r.status();
            *out = std::move(*r);
            return {};
        })) {
        setBusy(false, false);
        return false;
    }
    return true;
}

void LabelSession::cancelProposal()
{
    if (proposing_)
        runner_->cancel();
}

void LabelSession::onJobFinished(const Status& status)
{
    const bool wasSaving = saving_;
    setBusy(false, false);
    const QString file = fileName(layer_->imagePath());
    if (wasSaving) {
        // Tiles the viewer skipped while the layer was busy are read again.
        Q_EMIT changed(QRect(0, 0, 1, 1));
        if (!status) {
            Q_EMIT failed(labelErrorText(tr("Could not save the labels of %1.").arg(file), status));
            return;
        }
        undo_->setClean(); // what is on disk now
        lastModified_ = isModified();
        Q_EMIT modifiedChanged(lastModified_);
        Q_EMIT saved(maskPath());
        return;
    }
    std::shared_ptr<Image> mask = std::move(proposal_);
    if (!status) {
        if (status.code() != ErrorCode::Cancelled)
            Q_EMIT failed(labelErrorText(tr("Could not propose labels for %1.").arg(file), status));
        return;
    }
    quint64 cracks = 0;
    for (uint8_t v : mask->pixels)
        cracks += v != 0;
    if (apply(layer_->applyProposal(proposalRegion_, *mask), tr("Propose labels")))
        Q_EMIT proposalApplied(cracks);
}

QImage LabelSession::readRegion(const QRect& r) const
{
    auto im = layer_->readRegion(LabelRect{r.x(), r.y(), r.width(), r.height()});
    return im ? toQImage(*im) : QImage();
}

} // namespace fisura::ui

// One image being labelled: its LabelLayer, the undo stack of its edits, and the jobs that save
// it or compute a model's proposal for it. Every change goes through the undo stack as a
// LabelEditCommand, which reports the region it changed so the viewer redraws only that.
#pragma once

#include <QObject>
#include <QRect>
#include <QString>

#include <memory>

#include "fisura/labels.h"
#include "fisura/status.h"

class QUndoStack;

namespace fisura::ui
{

class JobRunner;
class LabelOverlaySource;

class LabelSession : public QObject
{
    Q_OBJECT
public:
    /// Opens the label layer of `imagePath` (its mask, if any, beside it or in the dataset).
    static Result<std::unique_ptr<LabelSession>> open(const QString& imagePath,
                                                      QObject* parent = nullptr);
    ~LabelSession() override;

    LabelLayer* layer() const { return layer_.get(); }
    QString imagePath() const;
    QString maskPath() const;
    QUndoStack* undoStack() const { return undo_; }
    /// What the viewer draws; it reads nothing while a job owns the layer.
    std::shared_ptr<LabelOverlaySource> overlaySource() const { return source_; }
    /// Unsaved edits: not when every edit since the last save (or open) was undone again.
    bool isModified() const;
    /// A save or a proposal runs: the layer must not be edited.
    bool isBusy() const;
    bool isSaving() const { return saving_; }

    /// Applies a tool's result as one undoable command named `text`; an empty edit is dropped.
    /// A failure is reported through failed() with a sentence naming the image.
    bool apply(Result<LabelEdit> edit, const QString& text);

    /// Saves the mask off the GUI thread; saved() or failed() follows.
    bool save();
    /// Runs the model over `region` (empty: the whole image) off the GUI thread, then applies
    /// its thresholded map as one undoable edit; proposalApplied() or failed() follows.
    bool propose(const QString& modelPath, double threshold, const LabelRect& region);
    /// Stops a running proposal (a save is short and always finishes).
    void cancelProposal();

    /// The layer's pixels in `r` as a Grayscale8 image (tests, snapshots).
    QImage readRegion(const QRect& r) const;

Q_SIGNALS:
    /// Pixels changed inside `region` (an edit, its undo or redo).
    void changed(const QRect& region);
    void modifiedChanged(bool modified);
    void busyChanged(bool busy);
    void progress(double fraction, const QString& message, double etaSeconds);
    void saved(const QString& maskPath);
    void proposalApplied(quint64 crackPixels);
    /// A translated sentence naming the file.
    void failed(const QString& message);

private:
    explicit LabelSession(std::unique_ptr<LabelLayer> layer, QObject* parent);
    void onJobFinished(const Status& status);
    void setBusy(bool saving, bool proposing);

    std::unique_ptr<LabelLayer> layer_;
    std::shared_ptr<LabelOverlaySource> source_;
    QUndoStack* undo_;
    JobRunner* runner_;
    bool saving_ = false;
    bool proposing_ = false;
    bool lastModified_ = false;
    // The proposal job's result, handed from its thread to the GUI thread at finished().
    std::shared_ptr<Image> proposal_;
    LabelRect proposalRegion_;
    QString modelPath_;
};

/// `sentence` (translated, naming the file) followed by the translated reason of `status`.
QString labelErrorText(const QString& sentence, const Status& status);

} // namespace fisura::ui

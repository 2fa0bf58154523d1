// The Label section of the Inspect pane: the label tools and their shortcuts, line width (px or
// mm) and brush size, undo / redo / save, GeoJSON import and export, "Propose labels", how much of
// the label came from the model versus the user, and Next / Previous through a queue of images to
// label. It owns the LabelSession of the image open in the viewer and never drops unsaved labels
// silently: leaving an image or closing asks to save, discard or cancel.
#pragma once

#include <QMessageBox>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <functional>

#include "fisura/status.h"

class QAction;
class QActionGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace fisura::ui
{

class LabelGeoJsonBox;
class LabelProposeBox;
class LabelSession;
class LabelTool;
class ProjectSession;
class TiledViewer;

class LabelPanel : public QWidget
{
    Q_OBJECT
public:
    using Prompt = std::function<QMessageBox::StandardButton(const QString& file)>;

    explicit LabelPanel(TiledViewer* viewer, QWidget* parent = nullptr);
    ~LabelPanel() override;

    /// Starts labelling the image open in the viewer: the label layer is drawn over it and the
    /// tools take the mouse. Errors name the file (translated, also through failed()).
    Status start();
    /// Stops labelling without asking (call confirmLeave() first).
    void stop();
    bool isLabelling() const;
    LabelSession* session() const;
    LabelTool* tool() const { return tool_; }
    bool hasUnsavedLabels() const;

    /// Before another image opens: asks about unsaved labels. Save hands the labels to a save
    /// in the background and returns true; Discard returns true; Cancel returns false.
    bool confirmLeave();
    /// Before the window closes: Save saves and closes the window once saved (returns false
    /// meanwhile); Discard returns true; Cancel returns false.
    bool confirmClose();
    /// Replaces the save / discard / cancel question (tests).
    void setUnsavedPrompt(Prompt prompt) { prompt_ = std::move(prompt); }
    /// "The labels of x are being saved." while a save runs; empty otherwise.
    QString runningWork() const;

    /// Images to step through with Next / Previous; `index` is the one shown.
    void setQueue(const QStringList& queue, int index);
    QStringList queue() const { return queue_; }
    int queueIndex() const { return queueIndex_; }

    void setProjectSession(ProjectSession* session);
    /// Tool, undo, redo and save actions: the owner adds them where their shortcuts apply.
    QList<QAction*> shortcutActions() const;
    QAction* toolAction(int kind) const;
    QAction* undoAction() const { return undoAction_; }
    QAction* redoAction() const { return redoAction_; }
    QAction* saveAction() const { return saveAction_; }
    QAction* wholeImageCrackFreeAction() const { return wholeCrackFree_; }
    LabelProposeBox* proposeBox() const { return propose_; }
    LabelGeoJsonBox* geoJsonBox() const { return geojson_; }
    QLabel* statsLabel() const { return stats_; }
    QLabel* queueLabel() const { return queueLabel_; }
    QPushButton* nextButton() const { return next_; }
    QPushButton* previousButton() const { return previous_; }
    QDoubleSpinBox* lineWidthBox() const { return width_; }
    QComboBox* lineUnitBox() const { return unit_; }
    QSpinBox* brushSizeBox() const { return brush_; }

    /// "Label: 12 840 px · 71 % from the model's proposal · …" in the language in force.
    static QString provenanceText(quint64 labelled, quint64 fromProposal, quint64 userAdded,
                                  quint64 proposalErased);
    void retranslateUi();

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);
    /// Next or Previous: the owner opens `imagePath` (after confirmLeave()) and restarts.
    void queueStepRequested(const QString& imagePath, int index);
    /// runningWork() changed.
    void busyChanged(bool busy);
    void labellingChanged(bool on);
    /// The labels were saved to `maskPath`.
    void saved(const QString& imagePath, const QString& maskPath);
    /// A failure, as a translated sentence naming the file.
    void failed(const QString& message);

private:
    void buildActions();
    void buildLayout();
    void chooseTool(QAction* a);
    void connectSession();
    void updateState();
    void updateStats();
    void updateQueue();
    void applyLineWidth();
    void showLineWidth();
    void markWholeImageCrackFree();
    void saveInBackground(LabelSession* s);
    /// Leaves the viewer and hands the session over (null when none).
    LabelSession* detach();
    QMessageBox::StandardButton ask(const QString& file);
    void reportFailure(const QString& message);
    double pixelSizeMm() const;

    QPointer<TiledViewer> viewer_;
    LabelTool* tool_;
    QPointer<LabelSession> session_;
    QList<QPointer<LabelSession>> saving_; ///< handed off when leaving an image
    Prompt prompt_;
    QStringList queue_;
    int queueIndex_ = -1;
    bool closeAfterSave_ = false;
    bool updatingWidth_ = false;

    QWidget* toolbar_; ///< the tools as a grid of buttons: all visible however narrow the side
    QActionGroup* tools_;
    QList<QAction*> toolActions_;
    QAction* wholeCrackFree_;
    QAction* undoAction_;
    QAction* redoAction_;
    QAction* saveAction_;
    QLabel* fileLabel_;
    QLabel* widthLabel_;
    QDoubleSpinBox* width_;
    QComboBox* unit_;
    QLabel* brushLabel_;
    QSpinBox* brush_;
    QLabel* stats_;
    LabelProposeBox* propose_;
    LabelGeoJsonBox* geojson_;
    QLabel* queueLabel_;
    QPushButton* previous_;
    QPushButton* next_;
};

} // namespace fisura::ui

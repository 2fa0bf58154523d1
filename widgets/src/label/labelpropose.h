// "Propose labels": runs the chosen model (the project's runs or a model file, as in Analyze) on
// the visible region or the whole image off the GUI thread, with progress and Cancel, and puts
// its thresholded prediction into the label layer as one undoable edit.
#pragma once

#include <QGroupBox>
#include <QPointer>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace fisura::ui
{

class LabelSession;
class ModelChooser;
class ProjectSession;
class TiledViewer;

class LabelProposeBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit LabelProposeBox(TiledViewer* viewer, QWidget* parent = nullptr);

    void setSession(LabelSession* session);
    void setProjectSession(ProjectSession* session);
    ModelChooser* modelChooser() const { return chooser_; }
    /// 0: the visible region, 1: the whole image.
    QComboBox* regionBox() const { return region_; }
    QPushButton* proposeButton() const { return propose_; }
    QPushButton* cancelButton() const { return cancel_; }
    /// Starts the proposal; false (with a status message) when it cannot start.
    bool propose();
    void retranslateUi();

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);

private:
    void updateState();

    QPointer<TiledViewer> viewer_;
    QPointer<LabelSession> session_;
    ModelChooser* chooser_;
    QLabel* regionLabel_;
    QComboBox* region_;
    QPushButton* propose_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* progressText_;
};

} // namespace fisura::ui

// Where the Analyze pane's model comes from: the project's finished training runs (the newest is
// chosen at first), a model file (Fisura model, or TorchScript module with its sidecar), or
// Fisura's starter model when nothing else is there (and the pane says so), with the facts of
// the chosen one and the reason when it cannot be used.
#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <functional>

#include "analyze/analyzecontroller.h"
#include "fisura/starter.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace fisura::ui
{

class ModelFactsWidget;
class ProjectSession;

class ModelChooser : public QWidget
{
    Q_OBJECT
public:
    explicit ModelChooser(QWidget* parent = nullptr);

    void setProjectSession(ProjectSession* session);
    /// Use a model file (added to the list when new).
    void setModelFile(const QString& path);
    /// Use the model of a finished run of the project; false when there is none with this id.
    bool setModelFromRun(const QString& runId);
    /// For a narrow side panel: the "Choose a model file" button goes below the list.
    void setCompact(bool compact);
    /// Replace the "Choose a model file" dialog (tests): returns the chosen path or empty.
    void setModelDialog(std::function<QString()> dialog) { dialog_ = std::move(dialog); }

    const AnalyzeModelChoice& choice() const { return choice_; }
    /// The chosen model is Fisura's starter model.
    bool starterChosen() const;
    ModelFactsWidget* facts() const { return facts_; }
    void retranslateUi();

Q_SIGNALS:
    /// The chosen model changed (it may be unusable: choice.ok is false then).
    void modelChosen(const fisura::ui::AnalyzeModelChoice& choice);

private:
    /// Rebuild the list from the project's runs and the files chosen so far; keep the current
    /// model when it is still listed (unless `newest`), else choose the newest finished run.
    void refresh(bool newest = false);
    void chooseFile();
    void onCurrentChanged(int index);
    int indexOfPath(const QString& path) const;
    /// Lists the starter model last (when one is installed); its facts are read once.
    void addStarter();

    QPointer<ProjectSession> session_;
    QStringList files_;
    AnalyzeModelChoice choice_;
    std::function<QString()> dialog_;
    bool refreshing_ = false;
    int describes_ = 0; ///< onCurrentChanged calls, so a model is not read twice for one choice
    QString starterPath_;
    ModelProvenance starterProvenance_;
    bool starterRead_ = false;
    QLabel* label_;
    QLabel* starterNote_;
    QComboBox* box_;
    QPushButton* chooseButton_;
    ModelFactsWidget* facts_;
};

} // namespace fisura::ui

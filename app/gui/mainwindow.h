// The main window composes panes: navigation on the left, the current pane on the right, menus,
// a toolbar with the project commands and a status bar. It does no work itself: panes own their
// actions and state, the project session is shared by all of them, and the window only connects
// one pane's request to another ("analyze with this model", "open in Inspect").
#pragma once

#include <QMainWindow>
#include <QVector>

class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolBar;
class QToolButton;

namespace fisura::ui
{
class Pane;
class AnalyzePane;
class DataPane;
class InspectPane;
class ProjectActions;
class ProjectSession;
class SystemPane;
class TrainPane;
} // namespace fisura::ui

namespace fisura::app
{

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ui::Pane* pane(const QString& id) const;
    ui::Pane* currentPane() const;
    void showPane(const QString& id);
    const QVector<ui::Pane*>& panes() const { return panes_; }
    ui::DataPane* dataPane() const { return data_; }
    ui::TrainPane* trainPane() const { return train_; }
    ui::AnalyzePane* analyzePane() const { return analyze_; }
    ui::InspectPane* inspectPane() const { return inspect_; }
    ui::SystemPane* systemPane() const { return system_; }
    ui::ProjectSession* projectSession() const { return session_; }
    ui::ProjectActions* projectActions() const { return projectActions_; }

    /// Stop running work without asking and close once it has stopped (termination signals).
    void stopWorkAndClose();

    /// Open the Settings dialog (non-modal; tests reach it through findChild).
    void showPreferences();

protected:
    void changeEvent(QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void addPane(ui::Pane* pane);
    void connectPanes();
    void connectLabelling();
    void connectWelcome();
    void createMenus();
    void createToolBar();
    void retranslateUi();
    void showAbout();
    void saveWindowState();
    /// Panes with running work, one translated line each.
    QStringList runningWork() const;
    /// Ask what to do about running work; true = stop it and close once it has stopped.
    bool confirmStopRunningWork(const QStringList& work);

    ui::ProjectSession* session_;
    ui::ProjectActions* projectActions_;
    QListWidget* nav_;
    QStackedWidget* stack_;
    QVector<ui::Pane*> panes_;
    ui::DataPane* data_;
    ui::TrainPane* train_;
    ui::AnalyzePane* analyze_;
    ui::InspectPane* inspect_;
    ui::SystemPane* system_;
    QLabel* deviceLabel_;
    QLabel* projectLabel_;
    QProgressBar* jobProgress_;
    QToolButton* jobCancel_;
    QToolBar* toolBar_;

    QMenu* fileMenu_;
    QMenu* viewMenu_;
    QMenu* settingsMenu_;
    QMenu* helpMenu_;
    QAction* openScanAction_;
    QAction* quitAction_;
    QAction* preferencesAction_;
    QAction* aboutAction_;
    QVector<QAction*> paneActions_;
    bool closeWhenIdle_ = false;
    const ui::Pane* messageFrom_ = nullptr; ///< the pane whose message the status bar shows
};

} // namespace fisura::app

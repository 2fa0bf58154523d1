// The main window composes panes: navigation on the left, the current pane on the right, menus
// and a status bar. It does no work itself; panes own their actions and state.
#pragma once

#include <QMainWindow>
#include <QVector>

class QAction;
class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;

namespace fisura::ui
{
class Pane;
class DataPane;
class SystemPane;
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
    ui::DataPane* dataPane() const { return data_; }
    const QVector<ui::Pane*>& panes() const { return panes_; }

    /// Open the Settings dialog (non-modal; tests reach it through findChild).
    void showPreferences();

protected:
    void changeEvent(QEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void addPane(ui::Pane* pane);
    void createMenus();
    void retranslateUi();
    void showAbout();

    QListWidget* nav_;
    QStackedWidget* stack_;
    QVector<ui::Pane*> panes_;
    ui::DataPane* data_;
    ui::SystemPane* system_;
    QLabel* deviceLabel_;

    QMenu* fileMenu_;
    QMenu* viewMenu_;
    QMenu* settingsMenu_;
    QMenu* helpMenu_;
    QAction* quitAction_;
    QAction* preferencesAction_;
    QAction* aboutAction_;
    QVector<QAction*> paneActions_;
};

} // namespace fisura::app

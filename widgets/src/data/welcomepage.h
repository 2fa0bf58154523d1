// What the window says when nothing is open yet (the first start, or after closing a project):
// what Fisura is for and the ways in — the demo project, a new or existing project, a scan — as
// buttons that do it. The buttons are bound to the window's own actions (enabled when they are).
#pragma once

#include <QWidget>

#include <array>

class QAction;
class QLabel;
class QPushButton;

namespace fisura::ui
{

class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    enum Choice { DemoProject, NewProject, OpenProject, OpenScan, ChoiceCount };

    explicit WelcomePage(QWidget* parent = nullptr);
    /// The action a choice's button triggers; its enabled state follows the action's.
    void setAction(Choice choice, QAction* action);
    QPushButton* button(Choice choice) const { return buttons_[size_t(choice)]; }
    void retranslateUi();

private:
    QLabel* title_;
    QLabel* intro_;
    std::array<QPushButton*, ChoiceCount> buttons_{};
    std::array<QLabel*, ChoiceCount> notes_{};
    std::array<QAction*, ChoiceCount> actions_{};
};

} // namespace fisura::ui

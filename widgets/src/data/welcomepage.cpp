#include "data/welcomepage.h"

#include <QAction>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace fisura::ui
{

namespace
{
const char* const kButtonNames[WelcomePage::ChoiceCount] = {
    "welcomeDemoButton", "welcomeNewProjectButton", "welcomeOpenProjectButton",
    "welcomeOpenScanButton"};
} // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), intro_(new QLabel(this))
{
    setObjectName(QStringLiteral("welcomePage"));
    QFont f = title_->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    title_->setFont(f);
    intro_->setWordWrap(true);
    const QStyle::StandardPixmap icons[ChoiceCount] = {
        QStyle::SP_MediaPlay, QStyle::SP_FileDialogNewFolder, QStyle::SP_DialogOpenButton,
        QStyle::SP_FileIcon};
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(16);
    grid->setVerticalSpacing(10);
    for (int c = 0; c < ChoiceCount; ++c) {
        auto* b = new QPushButton(style()->standardIcon(icons[c]), QString(), this);
        b->setObjectName(QLatin1String(kButtonNames[c]));
        b->setMinimumHeight(36);
        b->setEnabled(false); // until its action is set
        auto* note = new QLabel(this);
        note->setWordWrap(true);
        grid->addWidget(b, c, 0);
        grid->addWidget(note, c, 1);
        buttons_[size_t(c)] = b;
        notes_[size_t(c)] = note;
        connect(b, &QPushButton::clicked, this, [this, c] {
            if (QAction* a = actions_[size_t(c)])
                a->trigger();
        });
    }
    buttons_[DemoProject]->setDefault(true);
    grid->setColumnStretch(1, 1);

    // One readable column in the middle; its labels wrap at the column's width.
    auto* column = new QWidget(this);
    column->setObjectName(QStringLiteral("welcomeColumn"));
    column->setMinimumWidth(480);
    column->setMaximumWidth(760);
    auto* cl = new QVBoxLayout(column);
    cl->addWidget(title_);
    cl->addWidget(intro_);
    cl->addSpacing(12);
    cl->addLayout(grid);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(column, 4);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2);
    retranslateUi();
}

void WelcomePage::setAction(Choice choice, QAction* action)
{
    if (QAction* old = actions_[size_t(choice)])
        disconnect(old, nullptr, this, nullptr);
    actions_[size_t(choice)] = action;
    QPushButton* b = buttons_[size_t(choice)];
    b->setEnabled(action && action->isEnabled());
    if (action)
        connect(action, &QAction::changed, this,
                [b, action] { b->setEnabled(action->isEnabled()); });
}

void WelcomePage::retranslateUi()
{
    title_->setText(tr("Welcome to Fisura"));
    intro_->setText(tr("Fisura finds cracks in images of concrete, asphalt and masonry and "
                       "measures them. Everything you do is kept in a project: its datasets, "
                       "the models you train and the scans you analyse."));
    buttons_[DemoProject]->setText(tr("Open the demo project"));
    notes_[DemoProject]->setText(tr("Start here: a small dataset with exact crack masks and a "
                                    "scan to analyse. Train a first model with Train → Start."));
    buttons_[NewProject]->setText(tr("Create a project…"));
    notes_[NewProject]->setText(tr("Choose an empty folder for your project, then add your "
                                   "images as a dataset in the Train pane."));
    buttons_[OpenProject]->setText(tr("Open a project…"));
    notes_[OpenProject]->setText(tr("Continue with a project made earlier (its folder or its "
                                    "project.json)."));
    buttons_[OpenScan]->setText(tr("Open a scan…"));
    notes_[OpenScan]->setText(tr("Look at a scan of any size in Inspect, measure distances and "
                                 "lay maps or masks over it; no project needed."));
}

} // namespace fisura::ui

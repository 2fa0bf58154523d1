#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>

#include "data/datapane.h"
#include "fisura/version.h"
#include "inspect/inspectpane.h"
#include "common/pane.h"
#include "common/settingsdialog.h"
#include "system/systempane.h"
#include "train/trainpane.h"
#include "common/usagegauge.h"

namespace fisura::app
{

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), nav_(new QListWidget(this)), stack_(new QStackedWidget(this)),
      data_(new ui::DataPane(this)), system_(new ui::SystemPane(this)),
      deviceLabel_(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    nav_->setObjectName(QStringLiteral("navigation"));
    nav_->setIconSize(QSize(24, 24));
    nav_->setFixedWidth(150);
    nav_->setFrameShape(QFrame::NoFrame);
    connect(nav_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);

    addPane(data_);
    addPane(new ui::TrainPane(this));
    addPane(new ui::PlaceholderPane(ui::PlaceholderPane::Kind::Analyze, this));
    addPane(new ui::InspectPane(this));
    addPane(system_);

    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(nav_);
    layout->addWidget(stack_, 1);
    setCentralWidget(central);

    deviceLabel_->setObjectName(QStringLiteral("deviceLabel"));
    statusBar()->addPermanentWidget(deviceLabel_);
    statusBar()->addPermanentWidget(system_->gauge());
    system_->gauge()->show();
    connect(system_, &ui::SystemPane::machineChanged, this,
            [this] { deviceLabel_->setText(system_->summary()); });

    createMenus();
    retranslateUi();

    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1100, 720);
    for (ui::Pane* p : panes_)
        p->restoreState(s);
    showPane(s.value(QStringLiteral("window/pane"), QStringLiteral("data")).toString());
    system_->refresh();
    system_->startTelemetry();
}

MainWindow::~MainWindow() = default;

void MainWindow::addPane(ui::Pane* pane)
{
    panes_.push_back(pane);
    stack_->addWidget(pane);
    auto* item = new QListWidgetItem(pane->icon(), pane->title(), nav_);
    item->setData(Qt::UserRole, pane->paneId());
    connect(pane, &ui::Pane::titleChanged, this, [item, pane] { item->setText(pane->title()); });
    connect(pane, &ui::Pane::statusMessage, this,
            [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
}

ui::Pane* MainWindow::pane(const QString& id) const
{
    for (ui::Pane* p : panes_)
        if (p->paneId() == id)
            return p;
    return nullptr;
}

ui::Pane* MainWindow::currentPane() const
{
    return panes_.value(stack_->currentIndex());
}

void MainWindow::showPane(const QString& id)
{
    const int i = panes_.indexOf(pane(id));
    nav_->setCurrentRow(i >= 0 ? i : 0);
}

void MainWindow::createMenus()
{
    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->addAction(data_->openFolderAction());
    fileMenu_->addAction(data_->demoDataAction());
    fileMenu_->addSeparator();
    quitAction_ = fileMenu_->addAction(QString(), this, &QWidget::close);
    quitAction_->setShortcut(QKeySequence::Quit);

    viewMenu_ = menuBar()->addMenu(QString());
    for (int i = 0; i < panes_.size(); ++i) {
        const QString id = panes_[i]->paneId();
        QAction* a = viewMenu_->addAction(QString(), this, [this, id] { showPane(id); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        paneActions_.push_back(a);
    }

    settingsMenu_ = menuBar()->addMenu(QString());
    preferencesAction_ = settingsMenu_->addAction(QString(), this, &MainWindow::showPreferences);
    preferencesAction_->setShortcut(QKeySequence::Preferences);
    preferencesAction_->setObjectName(QStringLiteral("preferencesAction"));

    helpMenu_ = menuBar()->addMenu(QString());
    aboutAction_ = helpMenu_->addAction(QString(), this, &MainWindow::showAbout);
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("Fisura — crack inspection workbench"));
    fileMenu_->setTitle(tr("&File"));
    viewMenu_->setTitle(tr("&View"));
    settingsMenu_->setTitle(tr("&Settings"));
    helpMenu_->setTitle(tr("&Help"));
    quitAction_->setText(tr("&Quit"));
    preferencesAction_->setText(tr("&Preferences…"));
    aboutAction_->setText(tr("&About Fisura"));
    for (int i = 0; i < panes_.size(); ++i)
        paneActions_[i]->setText(panes_[i]->title());
    deviceLabel_->setText(system_->summary());
}

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(e);
}

void MainWindow::showPreferences()
{
    auto* dlg = findChild<ui::SettingsDialog*>();
    if (!dlg) {
        dlg = new ui::SettingsDialog(this);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
    }
    dlg->show();
    dlg->raise();
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Fisura"),
        tr("<h3>Fisura %1</h3><p>Find and measure cracks in concrete, asphalt and masonry.</p>"
           "<p>LibTorch %2 · OpenCV %3 · libtiff %4 · Qt %5</p>")
            .arg(QString::fromStdString(version()), QString::fromStdString(torchVersion()),
                 QString::fromStdString(opencvVersion()), QString::fromStdString(libtiffVersion()),
                 QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    if (ui::Pane* p = currentPane())
        s.setValue(QStringLiteral("window/pane"), p->paneId());
    for (ui::Pane* p : panes_)
        p->saveState(s);
    e->accept();
}

} // namespace fisura::app

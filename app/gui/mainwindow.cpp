#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>

#include "analyze/analyzepane.h"
#include "common/errortext.h"
#include "common/pane.h"
#include "common/screenfit.h"
#include "common/settingsdialog.h"
#include "common/usagegauge.h"
#include "common/wheelguard.h"
#include "data/datapane.h"
#include "data/welcomepage.h"
#include "fisura/telemetry.h"
#include "fisura/version.h"
#include "inspect/inspectpane.h"
#include "project/projectactions.h"
#include "project/projectsession.h"
#include "system/systempane.h"
#include "train/datasetpicker.h"
#include "train/trainpane.h"
#include "train/trainsetup.h"

namespace fisura::app
{

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new ui::ProjectSession(this)),
      projectActions_(new ui::ProjectActions(session_, this)), nav_(new QListWidget(this)),
      stack_(new QStackedWidget(this)), data_(new ui::DataPane(this)),
      train_(new ui::TrainPane(this)), analyze_(new ui::AnalyzePane(this)),
      inspect_(new ui::InspectPane(this)), system_(new ui::SystemPane(this)),
      deviceLabel_(new QLabel(this)), projectLabel_(new QLabel(this)),
      jobProgress_(new QProgressBar(this)), jobCancel_(new QToolButton(this)),
      toolBar_(new QToolBar(this)), openScanAction_(new QAction(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    ui::WheelGuard::install(); // every pane and dialog: the wheel changes only focused fields
    nav_->setObjectName(QStringLiteral("navigation"));
    nav_->setIconSize(QSize(24, 24));
    nav_->setFixedWidth(150);
    nav_->setFrameShape(QFrame::NoFrame);
    connect(nav_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    // A pane's message is about that pane: it leaves the status bar with it.
    connect(stack_, &QStackedWidget::currentChanged, this, [this] {
        if (messageFrom_ && messageFrom_ != currentPane()) {
            statusBar()->clearMessage();
            messageFrom_ = nullptr;
        }
    });

    addPane(data_);
    addPane(train_);
    addPane(analyze_);
    addPane(inspect_);
    addPane(system_);

    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(nav_);
    layout->addWidget(stack_, 1);
    setCentralWidget(central);

    projectLabel_->setObjectName(QStringLiteral("projectLabel"));
    deviceLabel_->setObjectName(QStringLiteral("deviceLabel"));
    jobProgress_->setObjectName(QStringLiteral("windowJobProgress"));
    jobProgress_->setRange(0, 1000);
    jobProgress_->setMaximumWidth(180);
    jobProgress_->hide();
    statusBar()->addPermanentWidget(jobProgress_);
    // The window's own job (generating the demo project) cancels from here, at once.
    jobCancel_->setObjectName(QStringLiteral("windowJobCancel"));
    jobCancel_->hide();
    statusBar()->addPermanentWidget(jobCancel_);
    statusBar()->addPermanentWidget(projectLabel_);
    statusBar()->addPermanentWidget(deviceLabel_);
    statusBar()->addPermanentWidget(system_->gauge());
    system_->gauge()->show();

    connectPanes();
    createToolBar();
    createMenus();
    retranslateUi();

    QSettings s;
    // The first window fits the screen it opens on (a 1366 × 768 laptop included), title bar too.
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
        setGeometry(ui::initialWindowGeometry(
            QSize(1280, 800), screen()->availableGeometry().marginsRemoved(QMargins(
                                  0, style()->pixelMetric(QStyle::PM_TitleBarHeight), 0, 0))));
    for (ui::Pane* p : panes_)
        p->restoreState(s);
    showPane(s.value(QStringLiteral("window/pane"), QStringLiteral("data")).toString());
    // Reopen the last project (quietly: a project that moved is simply not reopened).
    const QStringList recent = session_->recentProjects();
    if (!recent.isEmpty() && s.value(QStringLiteral("project/reopen"), true).toBool())
        session_->openProject(recent.first());
    system_->refresh();
    system_->startTelemetry();
}

MainWindow::~MainWindow()
{
    // Panes stop their work in their destructors and record it in the project (a training run
    // becomes cancelled with its checkpoint): they go first, while the session still exists.
    const QVector<ui::Pane*> panes = panes_;
    panes_.clear();
    qDeleteAll(panes);
}

void MainWindow::addPane(ui::Pane* pane)
{
    panes_.push_back(pane);
    stack_->addWidget(pane);
    auto* item = new QListWidgetItem(pane->icon(), pane->title(), nav_);
    item->setData(Qt::UserRole, pane->paneId());
    connect(pane, &ui::Pane::titleChanged, this, [item, pane] { item->setText(pane->title()); });
    connect(pane, &ui::Pane::statusMessage, this, [this, pane](const QString& text, int ms) {
        statusBar()->showMessage(text, ms);
        messageFrom_ = pane;
    });
    connect(pane, &ui::Pane::busyChanged, this, [this](bool busy) {
        if (!busy && closeWhenIdle_ && runningWork().isEmpty())
            close();
    });
}

void MainWindow::connectPanes()
{
    connect(system_, &ui::SystemPane::machineChanged, this,
            [this] { deviceLabel_->setText(system_->summary()); });
    train_->setProjectSession(session_);
    analyze_->setProjectSession(session_);
    data_->setProjectSession(session_);
    inspect_->setProjectSession(session_);
    connectLabelling();
    connectWelcome();
    // The Train pane plots GPU and CPU use from the System pane's sampler.
    train_->setTelemetrySource([this](double lastSeconds) {
        const TelemetryHistory* h = system_->telemetryHistory();
        return h ? h->snapshot(lastSeconds) : std::vector<TelemetrySample>{};
    });
    connect(train_, &ui::TrainPane::analyzeWithModel, this, [this](const QString& model) {
        analyze_->setModelFile(model);
        showPane(QStringLiteral("analyze"));
    });
    connect(analyze_, &ui::AnalyzePane::openInInspect, this,
            [this](const QString& scan, const QString& map, int threshold) {
                showPane(QStringLiteral("inspect"));
                inspect_->openWithMap(scan, map, threshold);
            });
    connect(session_, &ui::ProjectSession::projectChanged, this, &MainWindow::retranslateUi);
    connect(projectActions_, &ui::ProjectActions::progress, this,
            [this](double f, const QString& text) {
                jobProgress_->setVisible(f < 1.0);
                jobCancel_->setVisible(f < 1.0);
                jobProgress_->setValue(int(f * 1000));
                statusBar()->showMessage(text);
            });
    connect(jobCancel_, &QToolButton::clicked, projectActions_, &ui::ProjectActions::cancelDemo);
    connect(projectActions_, &ui::ProjectActions::demoProjectReady, this,
            [this](const QString& dir) {
                statusBar()->showMessage(tr("Demo project ready."), 5000);
                // The demo scan waits in the Analyze queue: a trained model is one Run away from
                // it.
                analyze_->queueScanOnce(ui::ProjectSession::demoScanPath(dir));
            });
    connect(projectActions_, &ui::ProjectActions::demoFinished, this, [this] {
        jobProgress_->hide();
        jobCancel_->hide();
        statusBar()->clearMessage(); // "ready" or the failure follows, if anything
        if (closeWhenIdle_ && runningWork().isEmpty())
            close();
    });
    connect(projectActions_, &ui::ProjectActions::failed, this, [this](const QString& text) {
        statusBar()->showMessage(text.section(QLatin1Char('\n'), 0, 0), 10000);
    });
}

/// Labelling crosses panes: the Data pane's states and ranking and the Train pane's finished runs
/// lead to the label tools in Inspect.
void MainWindow::connectLabelling()
{
    connect(data_, &ui::DataPane::labelRequested, this,
            [this](const QString& image, const QStringList& queue) {
                showPane(QStringLiteral("inspect"));
                inspect_->startLabelling(image, queue);
            });
    connect(train_, &ui::TrainPane::chooseImagesToLabel, this,
            [this](const QString& run, const QString& model, const QString& dataset) {
                showPane(QStringLiteral("data"));
                data_->rankImagesToLabel(run, model, dataset);
            });
    connect(train_->setupPanel()->datasetPicker(), &ui::DatasetPicker::showLabelsRequested, this,
            [this](const QString& dataset) {
                showPane(QStringLiteral("data"));
                data_->showLabels(dataset);
            });
}

/// The first start (nothing open) offers the ways in: the demo project, a project, a scan.
void MainWindow::connectWelcome()
{
    openScanAction_->setObjectName(QStringLiteral("openScanInInspectAction"));
    connect(openScanAction_, &QAction::triggered, this, [this] {
        showPane(QStringLiteral("inspect"));
        inspect_->openScanAction()->trigger();
    });
    connect(data_, &ui::DataPane::openScanRequested, this, [this](const QString& scan) {
        showPane(QStringLiteral("inspect"));
        if (const Status s = inspect_->openScan(scan); !s && s.code() != ErrorCode::Cancelled)
            statusBar()->showMessage(ui::errorMessage(s).section(QLatin1Char('\n'), 0, 0), 10000);
    });
    using ui::WelcomePage;
    WelcomePage* welcome = data_->welcomePage();
    welcome->setAction(WelcomePage::DemoProject, projectActions_->demoAction());
    welcome->setAction(WelcomePage::NewProject, projectActions_->newAction());
    welcome->setAction(WelcomePage::OpenProject, projectActions_->openAction());
    welcome->setAction(WelcomePage::OpenScan, openScanAction_);
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

void MainWindow::createToolBar()
{
    toolBar_->setObjectName(QStringLiteral("mainToolBar"));
    toolBar_->setMovable(false);
    toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar_->addAction(projectActions_->newAction());
    toolBar_->addAction(projectActions_->openAction());
    toolBar_->addAction(projectActions_->demoAction());
    addToolBar(Qt::TopToolBarArea, toolBar_);
}

void MainWindow::createMenus()
{
    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->addAction(projectActions_->newAction());
    fileMenu_->addAction(projectActions_->openAction());
    fileMenu_->addMenu(projectActions_->recentMenu());
    fileMenu_->addAction(projectActions_->saveAsAction());
    fileMenu_->addAction(projectActions_->closeAction());
    fileMenu_->addSeparator();
    fileMenu_->addAction(openScanAction_);
    fileMenu_->addSeparator();
    fileMenu_->addAction(projectActions_->demoAction());
    fileMenu_->addSeparator();
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
    const QString base = tr("Fisura — crack inspection workbench");
    setWindowTitle(session_->hasProject() ? session_->projectName() + QStringLiteral(" — ") + base
                                          : base);
    projectLabel_->setText(session_->hasProject() ? tr("Project: %1").arg(session_->projectName())
                                                  : tr("No project open"));
    projectLabel_->setToolTip(QDir::toNativeSeparators(session_->projectDir()));
    toolBar_->setWindowTitle(tr("Project"));
    jobCancel_->setText(tr("Cancel"));
    jobCancel_->setToolTip(tr("Stop generating the demo project (nothing half-made is left)"));
    fileMenu_->setTitle(tr("&File"));
    viewMenu_->setTitle(tr("&View"));
    settingsMenu_->setTitle(tr("&Settings"));
    helpMenu_->setTitle(tr("&Help"));
    openScanAction_->setText(tr("Open &scan…"));
    openScanAction_->setToolTip(tr("Open a scan of any size in Inspect"));
    quitAction_->setText(tr("&Quit"));
    preferencesAction_->setText(tr("&Preferences…"));
    aboutAction_->setText(tr("&About Fisura"));
    for (int i = 0; i < panes_.size(); ++i)
        paneActions_[i]->setText(panes_[i]->title());
    deviceLabel_->setText(system_->summary());
}

void MainWindow::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange) {
        retranslateUi();
        statusBar()->clearMessage(); // a message shown before the switch is in the old language
    }
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

QStringList MainWindow::runningWork() const
{
    QStringList work;
    for (ui::Pane* p : panes_)
        if (const QString w = p->runningWork(); !w.isEmpty())
            work << w;
    if (projectActions_->isGeneratingDemo())
        work << tr("The demo project is being generated.");
    return work;
}

bool MainWindow::confirmStopRunningWork(const QStringList& work)
{
    QMessageBox box(QMessageBox::Question, tr("Quit Fisura"),
                    work.join(QLatin1Char('\n')) + QStringLiteral("\n\n") +
                        tr("Stop it and quit? What was saved stays intact: the last completed "
                           "epoch's checkpoint, the best model and finished maps."),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("confirmQuitBox"));
    QPushButton* stop = box.addButton(tr("Stop and quit"), QMessageBox::DestructiveRole);
    stop->setObjectName(QStringLiteral("stopAndQuitButton"));
    QPushButton* keep = box.addButton(tr("Keep working"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepWorkingButton"));
    box.setDefaultButton(keep);
    box.exec();
    return box.clickedButton() == stop;
}

void MainWindow::stopWorkAndClose()
{
    closeWhenIdle_ = true; // closeEvent stops the work without asking
    close();
}

void MainWindow::saveWindowState()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    if (ui::Pane* p = currentPane())
        s.setValue(QStringLiteral("window/pane"), p->paneId());
    for (ui::Pane* p : panes_)
        p->saveState(s);
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    // Unsaved edits (labels) are asked about first; a close by signal does not ask.
    if (!closeWhenIdle_)
        for (ui::Pane* p : panes_)
            if (!p->confirmClose()) {
                e->ignore();
                return;
            }
    const QStringList work = runningWork();
    if (!work.isEmpty()) {
        // Never cut a job off: ask, then stop it and close once every pane reports idle.
        if (closeWhenIdle_ || confirmStopRunningWork(work)) {
            closeWhenIdle_ = true;
            for (ui::Pane* p : panes_)
                p->stopWork();
            projectActions_->cancelDemo();
            statusBar()->showMessage(tr("Stopping… Fisura closes when the work has stopped."));
        }
        e->ignore();
        return;
    }
    saveWindowState();
    e->accept();
}

} // namespace fisura::app

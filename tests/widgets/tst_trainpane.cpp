// The Train pane end to end on tiny data (offscreen, CPU): a project made from demo data, a short
// run paused after its first epoch and resumed to the end, a second run cancelled; the files,
// the run records, the plotted series and the model are checked. Also: cancel answers within
// half a second, a start on a missing folder says why in words, the policy preview gives a
// reason for every row, and several runs overlay.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <filesystem>

#include "common/errortext.h"
#include "common/languagemanager.h"
#include "common/plotlegend.h"
#include "common/qcp.h"
#include "fisura/evaluate.h"
#include "fisura/model.h"
#include "fisura/project.h"
#include "fisura/synth.h"
#include "project/projectsession.h"
#include "project/runname.h"
#include "train/datasetpicker.h"
#include "train/policypreview.h"
#include "train/resultsview.h"
#include "train/runslist.h"
#include "train/traincontroller.h"
#include "train/trainlog.h"
#include "train/trainpane.h"
#include "train/trainplot.h"
#include "train/trainsetup.h"
#include "train/trainstatus.h"

using namespace fisura;
using fisura::ui::LanguageManager;
using namespace fisura::ui;

namespace
{

MachineInfo cpuMachine()
{
    MachineInfo m;
    m.cpuModel = "Test CPU";
    m.logicalCores = 4;
    m.totalRamBytes = 16ull << 30;
    m.availableRamBytes = 8ull << 30;
    m.cudaState = CudaState::NoDriver;
    m.cudaStatus = "no NVIDIA driver found";
    return m;
}

MachineInfo gpuMachine()
{
    MachineInfo m = cpuMachine();
    m.cudaUsable = true;
    m.torchBuiltWithCuda = true;
    m.cudaState = CudaState::Usable;
    GpuInfo g;
    g.index = 0;
    g.name = "Test GPU";
    g.computeMajor = 9;
    g.computeMinor = 0;
    g.totalMemoryBytes = 80ull << 30;
    g.freeMemoryBytes = 79ull << 30;
    g.multiprocessors = 132;
    m.gpus.push_back(g);
    return m;
}

bool exists(const std::string& path)
{
    std::error_code ec;
    return !path.empty() && std::filesystem::exists(path, ec);
}

} // namespace

class TstTrainPane : public QObject
{
    Q_OBJECT
    QTemporaryDir tmp_;
    QString data_;
    int projects_ = 0;

    /// A fresh project holding the demo segmentation data, and a pane set up for a tiny CPU run.
    void setUp(ProjectSession& session, TrainPane& pane, const QString& dataDir, int epochs)
    {
        const QString dir = tmp_.filePath(QStringLiteral("project-%1").arg(++projects_));
        QVERIFY(session.newProject(dir, QStringLiteral("Test")));
        QVERIFY(session.update(
            [&](Project& p) { p.addDataset(dataDir.toStdString(), TaskKind::Segment, "demo"); }));
        pane.setMachine(cpuMachine());
        pane.setTelemetrySource([](double) {
            TelemetrySample s; // a fake sampler: one sample, now
            s.unixMillis = QDateTime::currentMSecsSinceEpoch();
            s.systemCpuPercent = 40;
            GpuSample g;
            g.utilizationGpu = 70;
            s.gpus.push_back(g);
            return std::vector<TelemetrySample>{s};
        });
        pane.setProjectSession(&session);
        TrainSetupPanel* setup = pane.setupPanel();
        setup->setModelShape(4, 2);
        setup->setCropSize(64);
        setup->setEpochs(epochs);
        setup->setPreferCpu(true);
        setup->findChild<QSpinBox*>(QStringLiteral("batchSpin"))->setValue(4);
        setup->findChild<QSpinBox*>(QStringLiteral("loaderSpin"))->setValue(1);
        setup->findChild<QSpinBox*>(QStringLiteral("patienceSpin"))->setValue(0);
    }

    QPushButton* button(TrainPane& pane, const char* name)
    {
        return pane.findChild<QPushButton*>(QLatin1String(name));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // English as the application has it: plural forms from fisura_en.
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        QVERIFY(tmp_.isValid());
        synth::DemoDatasetOptions demo;
        demo.segmentationImages = 8;
        demo.classificationImages = 2;
        demo.patchSize = 64;
        demo.scanSize = 0;
        const QString root = tmp_.filePath(QStringLiteral("demo"));
        auto written = synth::writeDemoDataset(root.toStdString(), demo);
        QVERIFY2(written, written.status().toString().c_str());
        data_ = root + QStringLiteral("/segmentation");
    }

    void policyPreviewGivesReasons()
    {
        TrainPane pane;
        pane.setMachine(cpuMachine());
        auto rows = [&pane] {
            QMap<QString, QString> why;
            QTreeWidget* tree = pane.policyPreview()->tree();
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                why[tree->topLevelItem(i)->data(0, Qt::UserRole).toString()] =
                    tree->topLevelItem(i)->childCount() ? tree->topLevelItem(i)->child(0)->text(0)
                                                        : QString();
            return why;
        };
        for (const char* what : {"device", "precision", "batch_size", "loader_threads"}) {
            QVERIFY2(rows().contains(QLatin1String(what)), what);
            QVERIFY2(!rows().value(QLatin1String(what)).isEmpty(), what);
        }
        // On a GPU the batch is a first guess that training measures; TF32 is explained.
        pane.setMachine(gpuMachine());
        QVERIFY(!rows().value(QStringLiteral("tf32")).isEmpty());
        auto* note = pane.policyPreview()->findChild<QLabel*>(QStringLiteral("policyNote"));
        QVERIFY(note->text().contains(QStringLiteral("measures")));
        // An explicit batch is not measured.
        pane.setupPanel()->findChild<QSpinBox*>(QStringLiteral("batchSpin"))->setValue(8);
        QVERIFY(!note->text().contains(QStringLiteral("measures")));
    }

    // A data-parallel run's policy, as the pane shows it while the run goes on (TrainPane
    // retranslates its preview on a language change): the step and its all-reduce as one CUDA
    // graph, said in the user's language.
    void runPolicySaysTheDataParallelStepIsOneGraph()
    {
        PolicyPreview preview;
        ExecutionPolicy p = choosePolicy(gpuMachine(), {});
        p.choices.push_back({"data_parallel", "2", "", "dp_nccl", "2"});
        p.choices.push_back({"training_step", "cuda-graph", "", "step_graph_allreduce", ""});
        preview.setPolicy(p, false, /*fromRun=*/true);
        auto reason = [&preview](const char* what) {
            QTreeWidget* tree = preview.tree();
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                if (tree->topLevelItem(i)->data(0, Qt::UserRole).toString() == QLatin1String(what))
                    return tree->topLevelItem(i)->child(0)->text(0);
            return QString();
        };
        QVERIFY2(reason("training_step").contains(QStringLiteral("all-reduce of the gradients")),
                 qPrintable(reason("training_step")));
        const bool grab = qEnvironmentVariableIsSet("FISURA_GRAB");
        if (grab) {
            preview.resize(520, 760);
            preview.show();
            preview.grab().save(qEnvironmentVariable("FISURA_GRAB") +
                                QStringLiteral(".run.en.png"));
        }
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        preview.retranslateUi();
        QVERIFY2(reason("training_step").contains(QStringLiteral("reducción de los gradientes")),
                 qPrintable(reason("training_step")));
        if (grab)
            preview.grab().save(qEnvironmentVariable("FISURA_GRAB") +
                                QStringLiteral(".run.es.png"));
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        preview.retranslateUi();
        QVERIFY(reason("training_step").contains(QStringLiteral("all-reduce")));
    }

    // The placeholder above the curves follows the language (it stayed English before).
    void idleTextFollowsTheLanguage()
    {
        TrainPane pane;
        auto* counters = pane.findChild<QLabel*>(QStringLiteral("trainCounters"));
        QVERIFY(counters);
        const QString english = counters->text();
        QVERIFY(!english.isEmpty());
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        QTRY_VERIFY(counters->text().contains(QStringLiteral("curvas")));
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        QTRY_COMPARE(counters->text(), english);
    }

    void allGpusBoxFollowsTheMachine()
    {
        TrainPane pane;
        auto* box = pane.setupPanel()->findChild<QCheckBox*>(QStringLiteral("allGpusCheck"));
        auto* cpu = pane.setupPanel()->findChild<QCheckBox*>(QStringLiteral("cpuCheck"));
        QVERIFY(box && cpu);
        auto dataParallel = [&pane] {
            QTreeWidget* tree = pane.policyPreview()->tree();
            for (int i = 0; i < tree->topLevelItemCount(); ++i)
                if (tree->topLevelItem(i)->data(0, Qt::UserRole).toString() ==
                    QStringLiteral("data_parallel"))
                    return tree->topLevelItem(i)->child(0)->text(0);
            return QString();
        };
        // One GPU: nothing to choose, one GPU trains.
        pane.setMachine(gpuMachine());
        QVERIFY(box->isHidden());
        QCOMPARE(pane.setupPanel()->ranks(), 1);
        QVERIFY(dataParallel().isEmpty());
        // Two GPUs but a LibTorch without NCCL: they cannot train together, no box.
        MachineInfo two = gpuMachine();
        two.gpus.push_back(two.gpus.front());
        two.gpus.back().index = 1;
        two.distributedBackends = "gloo";
        pane.setMachine(two);
        QVERIFY(box->isHidden());
        QCOMPARE(pane.setupPanel()->ranks(), 1);
        // Two GPUs and NCCL: the box appears, ticked; the preview says both train together.
        two.distributedBackends = "gloo,nccl";
        pane.setMachine(two);
        QVERIFY(!box->isHidden());
        QVERIFY(box->isChecked());
        QVERIFY(box->text().contains(QStringLiteral("2")));
        QCOMPARE(pane.setupPanel()->ranks(), 2);
        QVERIFY2(dataParallel().contains(QStringLiteral("2 GPUs train together, one process each")),
                 qPrintable(dataParallel()));
        if (qEnvironmentVariableIsSet("FISURA_GRAB")) { // pictures of the pane to look at
            pane.setupPanel()->setAdvancedVisible(true);
            pane.resize(1400, 900);
            pane.show();
            pane.grab().save(qEnvironmentVariable("FISURA_GRAB") + QStringLiteral(".en.png"));
            const QString english = box->text();
            LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
            QTRY_VERIFY(box->text() != english);
            QTest::qWait(100); // the plots replot queued
            pane.grab().save(qEnvironmentVariable("FISURA_GRAB") + QStringLiteral(".es.png"));
            LanguageManager::instance().applyForSession(LanguageManager::Language::English);
            QTRY_COMPARE(box->text(), english);
        }
        // Unticked: one GPU; the processor: no GPU at all, the box is disabled.
        box->setChecked(false);
        QCOMPARE(pane.setupPanel()->ranks(), 1);
        QVERIFY(dataParallel().isEmpty());
        box->setChecked(true);
        cpu->setChecked(true);
        QVERIFY(!box->isEnabled());
        QCOMPARE(pane.setupPanel()->ranks(), 1);
        QVERIFY(dataParallel().isEmpty());
    }

    void presetsSetShapeAndFootprint()
    {
        TrainSetupPanel setup;
        setup.setSize(TrainSetupPanel::Size::Large);
        QCOMPARE(setup.options().model.width, 32);
        setup.setModelShape(4, 2);
        QCOMPARE(setup.size(), TrainSetupPanel::Size::Custom);
        setup.setModelShape(8, 3);
        QCOMPARE(setup.size(), TrainSetupPanel::Size::Small);
        auto* info = setup.findChild<QLabel*>(QStringLiteral("sizeInfo"));
        QVERIFY(info->text().contains(QStringLiteral("parameters")));
    }

    // On the processor the estimate says what the trainer will do with a batch over the step's
    // memory budget (TrainOptions::cpuMemoryMb): the parts and the memory of one.
    void processorEstimateShowsTheParts()
    {
        TrainSetupPanel setup;
        setup.setSize(TrainSetupPanel::Size::Large);
        setup.setGpuCount(0);
        auto* batch = setup.findChild<QSpinBox*>(QStringLiteral("batchSpin"));
        QVERIFY(batch);
        batch->setValue(64);
        const TrainOptions o = setup.options();
        auto fp = estimateFootprint(o.model, Precision::FP32);
        QVERIFY(fp);
        const int part = fp->partWithin(64, cpuTrainingBudgetBytes(o.cpuMemoryMb));
        QVERIFY2(part < 64 && 64 % part == 0, qPrintable(QString::number(part)));
        auto* info = setup.findChild<QLabel*>(QStringLiteral("sizeInfo"));
        const QLocale loc;
        const QString parts = QStringLiteral("%1 parts of %2").arg(64 / part).arg(part);
        QVERIFY2(info->text().contains(parts), qPrintable(info->text()));
        QVERIFY(info->text().contains(loc.formattedDataSize(qint64(fp->trainingBytes(part)))));
        // With a GPU the batch trains whole; asked to use the processor, in parts again.
        setup.setGpuCount(1);
        QVERIFY2(!info->text().contains(QStringLiteral("parts")), qPrintable(info->text()));
        setup.findChild<QCheckBox*>(QStringLiteral("cpuCheck"))->setChecked(true);
        QVERIFY2(info->text().contains(parts), qPrintable(info->text()));
        // A batch within the budget: nothing about parts.
        batch->setValue(part);
        QVERIFY2(!info->text().contains(QStringLiteral("parts")), qPrintable(info->text()));
    }

    void trainPauseResumeCancel()
    {
        ProjectSession session;
        TrainPane pane;
        setUp(session, pane, data_, 2);
        // The dataset is preselected and Start works with what is set.
        QCOMPARE(pane.setupPanel()->datasetPicker()->datasetPath(), data_);
        QCOMPARE(pane.setupPanel()->task(), TaskKind::Segment);
        QVERIFY(button(pane, "startButton")->isEnabled());
        QSignalSpy ended(&pane, &TrainPane::runFinished);
        // Notices are in project.json as they arrive, before the run ends (as fisura-cli train
        // --project records them: one RunRecorder): what is on disk when one is shown.
        QString firstNotice;
        QStringList onDiskThen;
        connect(pane.controller(), &TrainController::notice, &pane,
                [&](const QString& code, const QString& message) {
                    if (!firstNotice.isEmpty())
                        return;
                    firstNotice = code + QStringLiteral(": ") + message;
                    auto disk = Project::open(session.projectDir().toStdString());
                    const ProjectRun* r =
                        disk ? disk->findRun(pane.controller()->runId().toStdString()) : nullptr;
                    if (r)
                        for (const std::string& n : r->notices)
                            onDiskThen << QString::fromStdString(n);
                });

        // Start, and ask for a pause at once: the first epoch ends, its checkpoint stays.
        QTest::mouseClick(button(pane, "startButton"), Qt::LeftButton);
        QVERIFY(pane.isTraining());
        QVERIFY(button(pane, "pauseButton")->isEnabled());
        QTest::mouseClick(button(pane, "pauseButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        const QString id = ended.at(0).at(0).toString();
        const ProjectRun* run = session.project().findRun(id.toStdString());
        QVERIFY(run);
        QCOMPARE(run->state, RunState::Paused);
        QCOMPARE(int(run->history.size()), 1);
        QVERIFY(!firstNotice.isEmpty()); // "paused: ..." at least
        QVERIFY2(onDiskThen.contains(firstNotice), qPrintable(firstNotice));
        QVERIFY(exists(run->checkpointPath));
        QVERIFY(exists(run->modelPath));
        const int batches = pane.plot()->seriesLength(TrainPlot::TrainLoss);
        QVERIFY(batches >= 1);
        QCOMPARE(pane.plot()->seriesLength(TrainPlot::ValLoss), 1);
        QCOMPARE(pane.plot()->seriesLength(TrainPlot::Metric), 1);
        QVERIFY(pane.plot()->seriesLength(TrainPlot::Cpu) >= 1); // the fake sampler's
        QVERIFY(pane.plot()->seriesLength(TrainPlot::GpuUtil) >= 1);
        QCOMPARE(pane.plot()->seriesLength(TrainPlot::GpuReserved), 0); // no GPU allocator here

        // Resume the selected run to the end; its results follow.
        QSignalSpy shown(&pane, &TrainPane::resultsShown);
        QCOMPARE(pane.runsList()->selectedIds(), QStringList{id});
        QVERIFY(button(pane, "resumeButton")->isEnabled());
        QTest::mouseClick(button(pane, "resumeButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        run = session.project().findRun(id.toStdString());
        QCOMPARE(run->state, RunState::Finished);
        QCOMPARE(int(run->history.size()), 2);
        QCOMPARE(pane.plot()->seriesLength(TrainPlot::ValLoss), 2); // epoch 1 and epoch 2
        QVERIFY(pane.plot()->seriesLength(TrainPlot::TrainLoss) >= 1);
        QVERIFY(exists(run->modelPath));
        QVERIFY(exists(run->checkpointPath));
        auto model = Model::load(run->modelPath);
        QVERIFY2(model, model.status().toString().c_str());
        QCOMPARE(model->info().config.width, 4);
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 20000);
        QCOMPARE(shown.last().at(0).toString(), id);
        // Analyze with this model; a threshold chosen in the results goes to the model file and
        // the run record.
        QSignalSpy analyze(&pane, &TrainPane::analyzeWithModel);
        QVERIFY(button(pane, "analyzeButton")->isEnabled());
        QTest::mouseClick(button(pane, "analyzeButton"), Qt::LeftButton);
        QCOMPARE(analyze.count(), 1);
        QCOMPARE(analyze.at(0).at(0).toString(), QString::fromStdString(run->modelPath));
        Q_EMIT pane.resultsView()->thresholdChosen(0.3);
        QCOMPARE(Model::load(run->modelPath)->info().threshold, 0.3);
        QCOMPARE(session.project().findRun(id.toStdString())->threshold, 0.3);
        bool resumedLogged = false;
        for (int i = 0; i < pane.log()->lineCount(); ++i)
            resumedLogged |= pane.log()->line(i).contains(QStringLiteral("Resumed from"));
        QVERIFY(resumedLogged);

        // A second run, cancelled while it trains: the answer comes within half a second.
        pane.setupPanel()->setEpochs(500);
        QTest::mouseClick(button(pane, "startButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(pane.plot()->seriesLength(TrainPlot::TrainLoss) >= 1, 20000);
        QElapsedTimer clock;
        qint64 latency = -1;
        connect(&pane, &TrainPane::runFinished, &pane, [&] { latency = clock.elapsed(); });
        clock.start();
        QTest::mouseClick(button(pane, "cancelButton"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 3, 5000);
        QVERIFY2(latency >= 0 && latency < 500, qPrintable(QString::number(latency)));
        const QString second = ended.at(2).at(0).toString();
        QVERIFY(second != id);
        QCOMPARE(session.project().findRun(second.toStdString())->state, RunState::Cancelled);
        QCOMPARE(int(session.project().runs().size()), 2);
        QVERIFY(!pane.isTraining());

        // The record survives a reopen; two runs selected overlay their curves.
        auto reopened = Project::open(session.projectDir().toStdString());
        QVERIFY(reopened);
        QCOMPARE(reopened->findRun(id.toStdString())->state, RunState::Finished);
        QCOMPARE(int(reopened->findRun(id.toStdString())->history.size()), 2);
        pane.runsList()->select({id, second});
        QVERIFY(pane.plot()->graphCount() >= 2);
        QVERIFY(!pane.plot()->isLive());
    }

    // The status line says only what is true now: a time left while the run goes on, none while
    // it pauses or after it ended; the record's summary once it ended; Cancel ends a paused run;
    // the selected run's state, bar and log, never those of the run that ended before.
    void statusStaysHonestAndPausedRunsCancel()
    {
        ProjectSession session;
        TrainPane pane;
        setUp(session, pane, data_, 500);
        auto* counters = pane.findChild<QLabel*>(QStringLiteral("trainCounters"));
        auto* bar = pane.findChild<QProgressBar*>(QStringLiteral("trainProgress"));
        QPushButton* cancel = button(pane, "cancelButton");
        QSignalSpy ended(&pane, &TrainPane::runFinished);
        QVERIFY(pane.startTraining());
        QTRY_VERIFY_WITH_TIMEOUT(counters->text().contains(QStringLiteral("left")), 20000);
        QTest::mouseClick(button(pane, "pauseButton"), Qt::LeftButton);
        QVERIFY2(!counters->text().contains(QStringLiteral("left")), qPrintable(counters->text()));
        QVERIFY(counters->text().contains(QStringLiteral("pausing after this epoch")));
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 20000);
        const QString paused = ended.at(0).at(0).toString();
        const ProjectRun* run = session.project().findRun(paused.toStdString());
        QCOMPARE(run->state, RunState::Paused);
        const int done = int(run->history.size());
        QVERIFY2(
            counters->text().startsWith(QStringLiteral("Paused after epoch %1 of 500").arg(done)),
            qPrintable(counters->text()));
        QVERIFY(!counters->text().contains(QStringLiteral("left")));
        QCOMPARE(bar->value(), 2 * done);

        // Cancel works on the paused run: it ends as cancelled, in the file too, and resumes.
        QCOMPARE(pane.runsList()->selectedIds(), QStringList{paused});
        QVERIFY(cancel->isEnabled());
        QVERIFY(cancel->toolTip().contains(QStringLiteral("paused run")));
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(session.project().findRun(paused.toStdString())->state, RunState::Cancelled);
        QCOMPARE(
            Project::open(session.projectDir().toStdString())->findRun(paused.toStdString())->state,
            RunState::Cancelled);
        QVERIFY(counters->text().startsWith(
            QStringLiteral("Cancelled after %1 of 500 epochs").arg(done)));
        QVERIFY(!cancel->isEnabled());
        QVERIFY(button(pane, "resumeButton")->isEnabled());

        // A run that finishes: its summary and a full bar.
        pane.setupPanel()->setEpochs(1);
        QVERIFY(pane.startTraining());
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 20000);
        const QString finished = ended.at(1).at(0).toString();
        QVERIFY2(counters->text().startsWith(QStringLiteral("Finished: 1 epoch in")),
                 qPrintable(counters->text()));
        QCOMPARE(bar->value(), 1000);

        // The selection's state, bar and log.
        auto epochLines = [&pane](const QString& of) {
            int n = 0, other = 0;
            for (int i = 0; i < pane.log()->lineCount(); ++i)
                if (pane.log()->line(i).contains(QStringLiteral("Epoch ")))
                    (pane.log()->line(i).contains(of) ? n : other)++;
            return other > 0 ? -1 : n;
        };
        const bool grab = qEnvironmentVariableIsSet("FISURA_GRAB"); // pictures to look at
        if (grab) {
            pane.resize(1280, 720);
            pane.show();
            QTest::qWait(300); // the plots replot queued
            pane.grab().save(qEnvironmentVariable("FISURA_GRAB") + QStringLiteral(".finished.png"));
        }
        pane.runsList()->select({paused});
        if (grab) {
            pane.findChild<QTabWidget*>(QStringLiteral("trainTabs"))->setCurrentIndex(0);
            QTest::qWait(300);
            pane.grab().save(qEnvironmentVariable("FISURA_GRAB") +
                             QStringLiteral(".cancelled.png"));
        }
        QVERIFY(counters->text().startsWith(QStringLiteral("Cancelled after")));
        QVERIFY2(!pane.message().contains(QStringLiteral("finished")), qPrintable(pane.message()));
        QCOMPARE(bar->value(), 2 * done);
        QCOMPARE(epochLines(QStringLiteral(" of 500")), done);
        pane.runsList()->select({finished});
        QVERIFY(counters->text().startsWith(QStringLiteral("Finished")));
        QCOMPARE(bar->value(), 1000);
        QCOMPARE(epochLines(QStringLiteral("Epoch 1 of 1:")), 1);

        // Runs are named by number and start, not by the record's id.
        QTreeWidget* tree = pane.runsList()->tree();
        QStringList names;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            names << tree->topLevelItem(i)->text(RunsList::Name);
        QCOMPARE(names.size(), 2);
        QVERIFY2(names[0].startsWith(QStringLiteral("Run 2 · ")), qPrintable(names[0]));
        QVERIFY2(names[1].startsWith(QStringLiteral("Run 1 · ")), qPrintable(names[1]));
        QVERIFY(!names.join(QString()).contains(QStringLiteral("run-")));
    }

    void batchLineHasATimeLeftOnlyWhileRunning()
    {
        BatchProgress b;
        b.epoch = 2;
        b.epochs = 20;
        b.batch = 5;
        b.batches = 40;
        b.imagesPerSecond = 80;
        b.etaSeconds = 240;
        using Live = TrainStatus::Live;
        const QString running = TrainStatus::batchLine(b, Live::Running);
        QVERIFY2(running.startsWith(QStringLiteral("Epoch 3 of 20 · batch 5 of 40")),
                 qPrintable(running));
        QVERIFY(running.contains(QStringLiteral("about 4 min left")));
        QCOMPARE(TrainStatus::batchLine(b, Live::Pausing),
                 running.section(QStringLiteral(" · about"), 0, 0) +
                     QStringLiteral(" · pausing after this epoch"));
        QVERIFY(!TrainStatus::batchLine(b, Live::Cancelling).contains(QStringLiteral("left")));
        b.etaSeconds = -1; // not known yet: nothing rather than a guess
        QVERIFY(!TrainStatus::batchLine(b, Live::Running).contains(QStringLiteral("left")));
    }

    void runNamesAreReadable()
    {
        std::vector<ProjectRun> runs(3);
        runs[0].id = "run-20261127-140500";
        runs[0].startedAt = "2026-11-27T14:05:00Z";
        runs[1].id = "run-20261126-101500";
        runs[1].startedAt = "2026-11-26T10:15:00Z";
        runs[2].id = "run-x";
        runs[2].startedAt = "garbage";
        QCOMPARE(RunName::number(runs, runs[1]), 1);
        QCOMPARE(RunName::number(runs, runs[0]), 2);
        QCOMPARE(RunName::number(runs, runs[2]), 3); // a record without a valid start
        const QDateTime local = QDateTime(QDate(2026, 11, 27), QTime(14, 5), Qt::UTC).toLocalTime();
        const QString en = RunName::of(runs, runs[0]);
        QVERIFY2(en.startsWith(QStringLiteral("Run 2 · %1 ").arg(local.date().day())),
                 qPrintable(en));
        QVERIFY(en.contains(QLocale().monthName(local.date().month(), QLocale::ShortFormat)));
        QVERIFY(en.endsWith(QLocale().toString(local.time(), QLocale::ShortFormat)));
        QCOMPARE(RunName::of(runs, runs[2]), QStringLiteral("Run 3"));
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        const QString es = RunName::of(runs, runs[0]);
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        QVERIFY2(es.startsWith(QStringLiteral("Ejecución 2 · ")), qPrintable(es));
        QVERIFY(es.contains(
            QLocale(QLocale::Spanish).monthName(local.date().month(), QLocale::ShortFormat)));
    }

    // Legends sit outside the data: before a run there is no legend at all (no empty squares);
    // during one, no data point lies under a legend, not even the newest at the top right.
    void plotLegendsStayOutsideTheData()
    {
        TrainPlot plot;
        plot.resize(640, 420);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        QCustomPlot* p = plot.plot();
        QList<QCPLegend*> legends;
        for (int i = 0; i < p->plotLayout()->elementCount(); ++i)
            if (auto* l = qobject_cast<QCPLegend*>(p->plotLayout()->elementAt(i)))
                legends << l;
        QCOMPARE(legends.size(), 2);
        p->replot();
        for (QCPLegend* l : legends)
            QVERIFY(OutsideLegend::entries(l) == 0 && !l->visible());
        plot.beginLive(TaskKind::Segment);
        for (QCPLegend* l : legends)
            QCOMPARE(OutsideLegend::entries(l), 0); // named once they have data
        for (int i = 0; i < 40; ++i) {
            BatchProgress b;
            b.loss = 1.0 - i * 0.02;
            plot.addBatch(b);
        }
        EpochMetrics m;
        m.valLoss = 0.5;
        m.f1AtBest = 0.95; // near the top of the metric axis, at the newest time
        plot.addEpoch(m);
        TelemetrySample s;
        s.unixMillis = QDateTime::currentMSecsSinceEpoch() + 1000;
        s.systemCpuPercent = 97;
        plot.setTelemetry({s});
        QTRY_COMPARE(OutsideLegend::entries(legends[0]), 3); // training loss, validation loss, F1
        QTRY_COMPARE(OutsideLegend::entries(legends[1]), 1); // CPU; no GPU entries on the processor
        QVERIFY(!p->axisRects().at(1)->axis(QCPAxis::atRight)->visible()); // nor a GPU memory axis
        p->replot();
        for (QCPLegend* l : legends) {
            QVERIFY(l->visible());
            for (QCPAxisRect* r : p->axisRects())
                QVERIFY(!l->outerRect().intersects(r->rect()));
            for (int g = 0; g < p->graphCount(); ++g) {
                QCPGraph* graph = p->graph(g);
                for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                    const QPointF px(graph->keyAxis()->coordToPixel(it->key),
                                     graph->valueAxis()->coordToPixel(it->value));
                    QVERIFY(!l->outerRect().contains(px.toPoint()));
                }
            }
        }
        if (qEnvironmentVariableIsSet("FISURA_GRAB"))
            plot.grab().save(qEnvironmentVariable("FISURA_GRAB") +
                             QStringLiteral(".trainplot.png"));
    }

    void stoppingForTheWindowRecordsTheRun()
    {
        ProjectSession session;
        QString runId;
        {
            TrainPane pane;
            setUp(session, pane, data_, 500);
            QVERIFY(pane.startTraining());
            QTRY_VERIFY_WITH_TIMEOUT(pane.plot()->seriesLength(TrainPlot::TrainLoss) >= 1, 20000);
            runId = pane.controller()->runId();
            // The window asks before closing (tst_workflow); the pane says what runs and stops
            // it on request, and says when it has.
            QVERIFY(!pane.runningWork().isEmpty());
            QSignalSpy busy(&pane, &Pane::busyChanged);
            pane.stopWork();
            QTRY_VERIFY_WITH_TIMEOUT(!pane.isTraining(), 2000);
            QVERIFY(!busy.isEmpty());
            QCOMPARE(busy.last().first().toBool(), false);
            QVERIFY(pane.runningWork().isEmpty());
            QCOMPARE(session.project().findRun(runId.toStdString())->state, RunState::Cancelled);
            // A second job destroyed with its pane is cancelled and recorded too.
            QVERIFY(pane.startTraining());
            QTRY_VERIFY_WITH_TIMEOUT(pane.plot()->seriesLength(TrainPlot::TrainLoss) >= 1, 20000);
            runId = pane.controller()->runId();
        }
        const ProjectRun* run = session.project().findRun(runId.toStdString());
        QVERIFY(run);
        QCOMPARE(run->state, RunState::Cancelled);
        // Whatever was written is whole: a model that opens, or none at all.
        if (exists(run->modelPath))
            QVERIFY(Model::load(run->modelPath));
    }

    void failingStartSaysWhy()
    {
        ProjectSession session;
        TrainPane pane;
        const QString gone = tmp_.filePath(QStringLiteral("no-such-folder"));
        setUp(session, pane, gone, 1);
        QVERIFY(button(pane, "startButton")->isEnabled());
        QTest::mouseClick(button(pane, "startButton"), Qt::LeftButton);
        QVERIFY(!pane.isTraining());
        QVERIFY(pane.message().contains(errorMessage(Status(ErrorCode::NotFound, {})).trimmed()));
        QVERIFY(pane.message().contains(TrainLog::failureHint(ErrorCode::NotFound)));
        QVERIFY(session.project().runs().empty());
    }

    void failedRunSaysWhatAndWhatToDo()
    {
        // A folder without images/ and masks/: the trainer refuses it; the run is recorded as
        // failed, and the pane says what failed and what to do, now and when it is selected.
        const QString empty = tmp_.filePath(QStringLiteral("empty-dataset"));
        QVERIFY(QDir().mkpath(empty));
        ProjectSession session;
        TrainPane pane;
        setUp(session, pane, empty, 1);
        QSignalSpy ended(&pane, &TrainPane::runFinished);
        QVERIFY(pane.startTraining());
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 10000);
        const QString id = ended.at(0).at(0).toString();
        const ProjectRun* run = session.project().findRun(id.toStdString());
        QCOMPARE(run->state, RunState::Failed);
        QVERIFY(!run->errorCode.empty());
        QVERIFY(pane.message().startsWith(QStringLiteral("Training failed")));
        pane.runsList()->select({});
        pane.runsList()->select({id});
        auto* counters = pane.findChild<QLabel*>(QStringLiteral("trainCounters"));
        QVERIFY(counters->text().startsWith(QStringLiteral("This run failed")));
        QVERIFY(!button(pane, "resumeButton")->isEnabled());
    }

    void noticesAreTranslatedSentences()
    {
        const QString oom = TrainLog::noticeText(
            QStringLiteral("out_of_memory"),
            QStringLiteral("out of memory with a batch of 64; released the cache and continue "
                           "with 32"));
        QVERIFY(oom.contains(QStringLiteral("64")));
        QVERIFY(oom.contains(QStringLiteral("32")));
        QVERIFY(TrainLog::noticeText(QStringLiteral("early_stop"),
                                     QStringLiteral("no improvement for 5 epochs"))
                    .contains(QStringLiteral("5")));
        // Every notice core sends has a sentence of its own, never "code: English message";
        // starting from a model names the file, not the folder it was found in.
        const QString start = TrainLog::noticeText(
            QStringLiteral("start_from"),
            QStringLiteral("/some/where/models/starter-crack-unet.fisura: unet, width 16, depth 4 "
                           "(the architecture of the model training starts from)"));
        QCOMPARE(start, QStringLiteral("Starts from starter-crack-unet.fisura: its network is "
                                       "kept (width 16, depth 4)."));
        for (const char* code : {"batchnorm_adapted", "batch_rounded", "patch_memory", "shrinkage",
                                 "threshold_from_training", "split_reused"}) {
            const QString text =
                TrainLog::noticeText(QLatin1String(code), QStringLiteral("7 and 8 and 9"));
            QVERIFY2(!text.startsWith(QLatin1String(code)), qPrintable(text));
        }
    }

    void remembersShapeAndEpochs()
    {
        QSettings settings;
        {
            ui::TrainPane pane;
            pane.setupPanel()->setModelShape(8, 3);
            pane.setupPanel()->setEpochs(7);
            pane.saveState(settings);
        }
        ui::TrainPane again;
        again.restoreState(settings);
        const TrainOptions o = again.setupPanel()->options();
        QCOMPARE(o.model.width, 8);
        QCOMPARE(o.model.depth, 3);
        QCOMPARE(o.epochs, 7);
        QCOMPARE(again.setupPanel()->size(), ui::TrainSetupPanel::Size::Small);
        settings.remove(QStringLiteral("train"));
    }
};

QTEST_MAIN(TstTrainPane)
#include "tst_trainpane.moc"

// The Analyze pane runs a tiny untrained U-Net over small generated scans on the CPU: maps of the
// scans' size, a broken scan that fails alone, cancelling without leaving a file (an earlier map
// stays as it was), a refused TorchScript sidecar, the queue surviving a restart, and results
// recorded in a project.
#include <QtTest>

#include <cmath>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "analyze/advancedoptions.h"
#include "analyze/analyzecontroller.h"
#include "analyze/analyzepane.h"
#include "analyze/analyzequeue.h"
#include "analyze/modelchooser.h"
#include "analyze/modelfacts.h"
#include "common/languagemanager.h"
#include "fisura/image.h"
#include "fisura/model.h"
#include "fisura/project.h"
#include "fisura/synth.h"
#include "fisura/tiledimage.h"
#include "project/projectsession.h"
#include "tinymodel.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{

constexpr int kTimeout = 60000;

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Width and height of a written map, or (0, 0).
QSize mapSize(const QString& path)
{
    auto img = TiledImage::open(path.toStdString());
    return img ? QSize((*img)->info().width, (*img)->info().height) : QSize();
}

} // namespace

class TestAnalyzePane : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp_;
    QString model_;

    QString writeScan(const QString& name, int w, int h, uint64_t seed)
    {
        synth::SceneOptions o;
        o.width = w;
        o.height = h;
        o.seed = seed;
        auto scene = synth::generateScene(o);
        if (!scene)
            return {};
        TiffWriteOptions t;
        t.pixelSizeMm = 0.2;
        const QString path = QDir(tmp_.path()).filePath(name);
        return writeTiff(path.toStdString(), scene->image, t) ? path : QString();
    }

    /// A folder of its own per test, so maps written beside scans never collide.
    QString freshDir(const QString& name)
    {
        QDir(tmp_.path()).mkpath(name);
        return QDir(tmp_.path()).filePath(name);
    }

    static QString queueFile()
    {
        return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
            .filePath(QStringLiteral("analyze-queue.json"));
    }

    static void waitIdle(AnalyzePane& pane)
    {
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isRunning(), kTimeout);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(tmp_.isValid());
        model_ = writeTinyUNet(tmp_.path());
        QVERIFY(!model_.isEmpty());
    }

    void init()
    {
        QSettings().clear();
        QFile::remove(queueFile());
    }

    void badSidecarIsRefusedWithTheReason()
    {
        const QString dir = freshDir(QStringLiteral("sidecar"));
        const QString module = QDir(dir).filePath(QStringLiteral("exported.pt"));
        QFile f(module);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a TorchScript archive");
        f.close();
        QFile side(module + QStringLiteral(".json"));
        QVERIFY(side.open(QIODevice::WriteOnly));
        side.write(R"({"type": "unet", "input_size": 256, "output": "logits"})");
        side.close();

        AnalyzePane pane;
        QVERIFY(pane.addScans({writeScan(QStringLiteral("sidecar/s.tif"), 64, 64, 3)}) == 1);
        pane.setModelDialog([module] { return module; });
        QTest::mouseClick(pane.findChild<QPushButton*>(QStringLiteral("chooseModelButton")),
                          Qt::LeftButton);
        auto* facts = pane.findChild<ModelFactsWidget*>(QStringLiteral("modelFacts"));
        QVERIFY(facts->errorText().contains(QStringLiteral("cannot be used")));
        QVERIFY(facts->errorText().contains(QStringLiteral("exported.pt")));
        auto* sidecar = pane.findChild<QPlainTextEdit*>(QStringLiteral("sidecarText"));
        QVERIFY(sidecar->isVisibleTo(&pane));
        QVERIFY(sidecar->toPlainText().contains(QStringLiteral("input_size")));
        QVERIFY(!pane.controller()->model().ok);
        QVERIFY(!pane.findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
        QVERIFY(!pane.run());
    }

    void droppedFolderAddsItsScans()
    {
        const QString dir = freshDir(QStringLiteral("drop"));
        writeScan(QStringLiteral("drop/one.tif"), 96, 64, 5);
        writeScan(QStringLiteral("drop/two.tif"), 64, 96, 6);
        QImage png(80, 48, QImage::Format_RGB32);
        png.fill(Qt::gray);
        QVERIFY(png.save(QDir(dir).filePath(QStringLiteral("one.png"))));
        QFile notes(QDir(dir).filePath(QStringLiteral("notes.txt")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("not a scan");
        notes.close();

        AnalyzePane pane;
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dir)});
        QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&pane, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&pane, &drop);
        AnalyzeQueueModel* q = pane.queue();
        QCOMPARE(q->rowCount(), 3); // one.png, one.tif, two.tif; not the notes
        QCOMPARE(QFileInfo(q->at(0).input).fileName(), QStringLiteral("one.png"));
        QCOMPARE(q->at(0).width, 80);
        QCOMPARE(q->at(0).height, 48);
        QCOMPARE(q->at(1).width, 96);
        QCOMPARE(q->at(2).height, 96);
        QCOMPARE(q->at(1).state, QueueRowState::Waiting);
        QCOMPARE(q->data(q->index(1, AnalyzeQueueModel::SizeColumn), Qt::DisplayRole).toString(),
                 QStringLiteral("96 × 64 px"));
        // Without a model nothing runs yet; without a project the map goes beside the scan, and
        // two scans of one name do not share a map.
        QVERIFY(!pane.findChild<QPushButton*>(QStringLiteral("runButton"))->isEnabled());
        QCOMPARE(q->at(0).output, QDir(dir).filePath(QStringLiteral("one.probability.tif")));
        QCOMPARE(q->at(1).output, QDir(dir).filePath(QStringLiteral("one.probability-2.tif")));
        QCOMPARE(q->at(2).output, QDir(dir).filePath(QStringLiteral("two.probability.tif")));
    }

    // What a file is comes from its bytes: a PNG named .tif and a TIFF named .png are measured
    // as what they are (the pixel size comes with the TIFF); a file that is no image is not.
    void misnamedScansAreProbedByTheirBytes()
    {
        const QString dir = freshDir(QStringLiteral("misnamed"));
        const QString tiffAsPng = writeScan(QStringLiteral("misnamed/scan.png"), 96, 64, 7);
        QVERIFY(!tiffAsPng.isEmpty());
        QImage png(80, 48, QImage::Format_RGB32);
        png.fill(Qt::gray);
        const QString pngAsTif = QDir(dir).filePath(QStringLiteral("photo.tif"));
        QVERIFY(png.save(pngAsTif, "PNG"));
        QFile junk(QDir(dir).filePath(QStringLiteral("junk.tif")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(200, 'z'));
        junk.close();
        int w = 0, h = 0;
        double px = 0;
        QVERIFY(probeScan(tiffAsPng, w, h, px));
        QCOMPARE(QSize(w, h), QSize(96, 64));
        QVERIFY(std::abs(px - 0.2) < 1e-6);
        QVERIFY(probeScan(pngAsTif, w, h, px));
        QCOMPARE(QSize(w, h), QSize(80, 48));
        QCOMPARE(px, 0.0);
        QVERIFY(!probeScan(junk.fileName(), w, h, px));
        QCOMPARE(QSize(w, h), QSize(0, 0));
    }

    void queueOfThreeWithABrokenScan()
    {
        freshDir(QStringLiteral("three"));
        const QString a = writeScan(QStringLiteral("three/a.tif"), 320, 256, 11);
        const QString broken = writeScan(QStringLiteral("three/broken.tif"), 256, 256, 12);
        const QString b = writeScan(QStringLiteral("three/b.tif"), 256, 288, 13);
        QFile cut(broken);
        QVERIFY(cut.resize(cut.size() / 3)); // a truncated TIFF

        AnalyzePane pane;
        pane.setModelFile(model_);
        QCOMPARE(pane.addScans({a, broken, b}), 3);
        QSignalSpy finished(&pane, &AnalyzePane::queueFinished);
        QVERIFY(pane.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        waitIdle(pane);

        AnalyzeQueueModel* q = pane.queue();
        QCOMPARE(q->rowCount(), 3);
        QCOMPARE(q->at(0).state, QueueRowState::Done);
        QCOMPARE(q->at(1).state, QueueRowState::Failed);
        QVERIFY(!q->at(1).error.isEmpty());
        QCOMPARE(q->at(2).state, QueueRowState::Done);
        // Maps beside the scans, with the scans' width and height.
        const QString mapA = QDir(tmp_.path()).filePath(QStringLiteral("three/a.probability.tif"));
        QCOMPARE(q->at(0).output, mapA);
        QCOMPARE(mapSize(mapA), QSize(320, 256));
        QCOMPARE(mapSize(q->at(2).output), QSize(256, 288));
        QVERIFY(!QFile::exists(q->at(1).output));
        QVERIFY(q->at(0).statsJson.contains(QStringLiteral("prepare_seconds")));
        QCOMPARE(q->at(0).pixelSizeMm, 0.2);
        // The queue shows what happened.
        const QString error =
            q->data(q->index(1, AnalyzeQueueModel::ErrorColumn), Qt::DisplayRole).toString();
        QVERIFY(!error.isEmpty());
        // A finished scan's tooltip says what set the pace, from its statistics.
        const auto tip = [&] {
            return q->data(q->index(0, AnalyzeQueueModel::ProgressColumn), Qt::ToolTipRole)
                .toString();
        };
        QVERIFY2(tip().contains(QStringLiteral("set the pace")), qPrintable(tip()));
        const QString stats = q->at(0).statsJson;
        q->update(q->at(0).id,
                  [](ScanRow& r) { r.statsJson = QStringLiteral(R"({"limited_by": "input"})"); });
        QVERIFY2(tip().contains(QStringLiteral("decoding the scan")), qPrintable(tip()));
        QVERIFY(!tip().contains(QStringLiteral("Zstd")));
        // Where the map's level was lowered to keep up, the tooltip says so and what it cost.
        q->update(q->at(0).id, [](ScanRow& r) {
            r.statsJson = QStringLiteral(
                R"({"limited_by": "writer", "writer": {"bands_below_level": 23, "bands": 157,)"
                R"( "lowest_level": -2, "estimated_size_increase": 0.064}})");
        });
        QVERIFY2(tip().contains(QStringLiteral("Compressing and writing the map set the pace.\nTo "
                                               "keep up, 23 of the map's 157 bands were compressed "
                                               "at a faster Zstd level (down to -2).\nThe map is "
                                               "about 6 % larger for it.")),
                 qPrintable(tip()));
        q->update(q->at(0).id, [&](ScanRow& r) { r.statsJson = stats; });
        // Before its first tile each scan said what was expected to set its pace; a running
        // scan's tooltip says it, with both rates.
        QVERIFY(q->at(0).hasPace);
        QVERIFY(q->at(0).pace.measured);
        QVERIFY(q->at(0).pace.decodeMegapixelsPerThread > 0);
        q->update(q->at(0).id, [](ScanRow& r) {
            r.state = QueueRowState::Running;
            r.pace.limit = InferLimit::Input;
            r.pace.inputCompression = "jpeg";
            r.pace.readerThreads = 2;
            r.pace.devices = 1;
            r.pace.decodeMegapixelsPerSecond = 80;
            r.pace.networkMegapixelsPerSecond = 512.5;
        });
        QVERIFY2(tip().contains(QStringLiteral("Reading and decoding the scan (JPEG) is expected "
                                               "to set the pace: 80.0 MP/s on 2 reader thread")),
                 qPrintable(tip()));
        QVERIFY2(tip().contains(QStringLiteral("the network takes 513 MP/s on 1 device")),
                 qPrintable(tip()));
        q->update(q->at(0).id, [](ScanRow& r) { r.state = QueueRowState::Done; });

        // Open in Inspect: the selected finished scan, at the model's threshold (0.4 -> 102).
        QSignalSpy open(&pane, &AnalyzePane::openInInspect);
        auto* table = pane.findChild<QTableView*>(QStringLiteral("scanQueue"));
        table->setCurrentIndex(q->index(0, 0));
        auto* openButton = pane.findChild<QPushButton*>(QStringLiteral("openInInspectButton"));
        QVERIFY(openButton->isEnabled());
        QTest::mouseClick(openButton, Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), a);
        QCOMPARE(open.at(0).at(1).toString(), mapA);
        QCOMPARE(open.at(0).at(2).toInt(), 102);
        // A failed row does not open; a double-click on a done row does.
        table->setCurrentIndex(q->index(1, 0));
        QVERIFY(pane.openSelectedInInspect()); // falls back to the last finished scan
        QCOMPARE(open.last().at(1).toString(), q->at(2).output);
        // Advanced shows what the policy chose for the prepared model, with its reasons.
        pane.advancedOptions()->setExpanded(true);
        auto* policy = pane.findChild<QTreeWidget*>(QStringLiteral("policyTree"));
        QVERIFY(policy->topLevelItemCount() > 0);
        for (int i = 0; i < policy->topLevelItemCount(); ++i)
            QVERIFY(!policy->topLevelItem(i)->text(2).isEmpty());
        // Its last row: what the latest scan was expected to be paced by.
        const QTreeWidgetItem* pace = policy->topLevelItem(policy->topLevelItemCount() - 1);
        QCOMPARE(pace->text(0), QStringLiteral("Pace of the latest scan"));
        QVERIFY2(pace->text(2).contains(QStringLiteral("expected to set the pace")),
                 qPrintable(pace->text(2)));
        const QString grab = qEnvironmentVariable("FISURA_GRAB");
        if (!grab.isEmpty()) { // the whole pane at 1280 x 720, the pace row in view
            pane.resize(1280, 720);
            policy->scrollToBottom();
            pane.grab().save(grab + QStringLiteral(".pace.en.png"));
        }
        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        QCoreApplication::processEvents(); // the LanguageChange the translator posts
        pane.advancedOptions()->retranslateUi();
        const QTreeWidgetItem* ritmo = policy->topLevelItem(policy->topLevelItemCount() - 1);
        const QString es = ritmo->text(0) + QLatin1Char('|') + ritmo->text(2);
        // The failed scan's error follows the language too.
        const auto errorShown = [&] {
            return q->data(q->index(1, AnalyzeQueueModel::ErrorColumn), Qt::DisplayRole).toString();
        };
        const QString errorEs = errorShown();
        // The adaptive level's sentence, in Spanish.
        const QString statsBefore = q->at(0).statsJson;
        q->update(q->at(0).id, [](ScanRow& r) {
            r.statsJson = QStringLiteral(
                R"({"limited_by": "writer", "writer": {"bands_below_level": 23, "bands": 157,)"
                R"( "lowest_level": -2, "estimated_size_increase": 0.064}})");
        });
        const QString tipEs =
            q->data(q->index(0, AnalyzeQueueModel::ProgressColumn), Qt::ToolTipRole).toString();
        q->update(q->at(0).id, [&](ScanRow& r) { r.statsJson = statsBefore; });
        if (!grab.isEmpty()) {
            QLabel shown(tipEs);
            shown.setWindowFlags(Qt::ToolTip);
            shown.resize(shown.sizeHint());
            shown.grab().save(grab + QStringLiteral(".adaptive.es.png"));
        }
        if (!grab.isEmpty()) {
            policy->scrollToBottom(); // the Spanish texts are wider: a scroll bar came
            pane.grab().save(grab + QStringLiteral(".pace.es.png"));
        }
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
        QCoreApplication::processEvents(); // the LanguageChange the translator posts
        pane.advancedOptions()->retranslateUi();
        QVERIFY2(es.startsWith(QStringLiteral("Ritmo del último escaneo|Se prevé que")),
                 qPrintable(es));
        QVERIFY(!errorEs.isEmpty());
        QVERIFY2(tipEs.contains(QStringLiteral("Para no quedarse atrás, 23 de las 157 bandas del "
                                               "mapa se comprimieron con un nivel Zstd más rápido "
                                               "(hasta -2).\nPor ello el mapa ocupa alrededor de "
                                               "un 6 % más.")),
                 qPrintable(tipEs));
        QVERIFY2(errorEs != errorShown(), qPrintable(errorEs));
    }

    void cancelMidScanLeavesNoFileAndKeepsTheEarlierMap()
    {
        freshDir(QStringLiteral("cancel"));
        const QString big = writeScan(QStringLiteral("cancel/big.tif"), 1600, 1600, 21);
        const QString other = writeScan(QStringLiteral("cancel/other.tif"), 128, 128, 22);
        const QString earlier =
            QDir(tmp_.path()).filePath(QStringLiteral("cancel/big.probability.tif"));
        QFile f(earlier);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("an earlier map of this scan");
        f.close();
        const QByteArray before = readAll(earlier);

        AnalyzePane pane;
        pane.setModelFile(model_);
        InferOptions o;
        o.tileSize = 64; // many small tiles: the scan takes long enough to cancel in the middle
        o.overlap = 8;
        pane.advancedOptions()->setOptions(o);
        pane.addScans({big, other});
        AnalyzeQueueModel* q = pane.queue();
        const QString bigId = q->at(0).id;
        // Cancel as soon as the first tiles are done.
        bool cancelled = false;
        QString progressText;
        connect(q, &QAbstractItemModel::dataChanged, this, [&] {
            const ScanRow* r = q->find(bigId);
            if (!cancelled && r && r->state == QueueRowState::Running && r->fraction > 0) {
                cancelled = true;
                progressText =
                    q->data(q->index(0, AnalyzeQueueModel::ProgressColumn), Qt::DisplayRole)
                        .toString();
                pane.controller()->cancel(bigId);
            }
        });
        QSignalSpy finished(&pane, &AnalyzePane::queueFinished);
        QVERIFY(pane.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        waitIdle(pane);
        QVERIFY(cancelled);
        QVERIFY2(progressText.contains(QStringLiteral(" %")) &&
                     progressText.contains(QStringLiteral("MP/s")),
                 qPrintable(progressText));
        QCOMPARE(q->at(0).state, QueueRowState::Cancelled);
        QCOMPARE(readAll(earlier), before);            // untouched
        QCOMPARE(q->at(1).state, QueueRowState::Done); // the queue went on
        // Nothing half-written beside the scans.
        const QStringList files = QDir(QFileInfo(big).absolutePath()).entryList(QDir::Files);
        QCOMPARE(files.size(), 4);

        // Cancel all right after Run: nothing is written, every row is cancelled.
        pane.addScans({big, big});
        QVERIFY(pane.run());
        pane.cancelAll();
        waitIdle(pane);
        QCOMPARE(q->count(QueueRowState::Waiting), 0);
        QCOMPARE(q->at(2).state, QueueRowState::Cancelled);
        QCOMPARE(q->at(3).state, QueueRowState::Cancelled);
        QCOMPARE(readAll(earlier), before);
        QCOMPARE(QDir(QFileInfo(big).absolutePath()).entryList(QDir::Files).size(), 4);
    }

    void aModelThatCannotBePreparedStopsTheQueue()
    {
        freshDir(QStringLiteral("gone"));
        const QString copy = QDir(tmp_.path()).filePath(QStringLiteral("gone/model.fisura"));
        QVERIFY(QFile::copy(model_, copy));
        const QString a = writeScan(QStringLiteral("gone/a.tif"), 64, 64, 51);
        const QString b = writeScan(QStringLiteral("gone/b.tif"), 64, 64, 52);
        AnalyzePane pane;
        pane.setModelFile(copy);
        QVERIFY(pane.controller()->model().ok);
        pane.addScans({a, b});
        QVERIFY(QFile::remove(copy)); // gone before it could be prepared
        QSignalSpy finished(&pane, &AnalyzePane::queueFinished);
        QVERIFY(pane.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        AnalyzeQueueModel* q = pane.queue();
        QCOMPARE(q->at(0).state, QueueRowState::Failed);
        QCOMPARE(q->at(1).state, QueueRowState::Waiting); // not failed for the same reason
        auto* message = pane.findChild<QLabel*>(QStringLiteral("queueMessage"));
        QVERIFY(message->isVisibleTo(&pane));
        QVERIFY(message->text().contains(QStringLiteral("model.fisura")));
    }

    void interruptedQueueIsRestoredAndResumes()
    {
        freshDir(QStringLiteral("resume"));
        const QString a = writeScan(QStringLiteral("resume/a.tif"), 128, 96, 31);
        const QString b = writeScan(QStringLiteral("resume/b.tif"), 96, 128, 32);
        {
            AnalyzePane pane;
            pane.setModelFile(model_);
            QCOMPARE(pane.addScans({a, b}), 2);
        }
        // As if the application stopped while the first scan ran.
        QFile f(queueFile());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonArray rows = json.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 2);
        QJsonObject first = rows.at(0).toObject();
        first.insert(QStringLiteral("state"), QStringLiteral("running"));
        rows.replace(0, first);
        json.insert(QStringLiteral("rows"), rows);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(json).toJson());
        f.close();

        AnalyzePane pane;
        AnalyzeQueueModel* q = pane.queue();
        QCOMPARE(q->rowCount(), 2);
        QCOMPARE(q->at(0).state, QueueRowState::Waiting);
        QCOMPARE(q->at(0).input, a);
        QCOMPARE(q->at(0).width, 128);
        QCOMPARE(pane.controller()->model().path, model_); // the queue's model again
        auto* bar = pane.findChild<QWidget*>(QStringLiteral("resumeBar"));
        QVERIFY(bar->isVisibleTo(&pane));
        auto* resume = pane.findChild<QPushButton*>(QStringLiteral("resumeButton"));
        QVERIFY(resume->isEnabled());
        QSignalSpy finished(&pane, &AnalyzePane::queueFinished);
        QTest::mouseClick(resume, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        QVERIFY(!bar->isVisibleTo(&pane));
        QCOMPARE(q->count(QueueRowState::Done), 2);
        QCOMPARE(mapSize(q->at(1).output), QSize(96, 128));
    }

    void projectRunIsPreselectedAndResultsAreRecorded()
    {
        const QString dir = QDir(tmp_.path()).filePath(QStringLiteral("project"));
        ProjectSession session;
        QVERIFY(session.newProject(dir, QStringLiteral("Bridge")).isOk());
        QVERIFY(session
                    .update([this](Project& p) {
                        for (const char* id : {"run-20261126-090000", "run-20261126-100000"}) {
                            ProjectRun r;
                            r.id = id;
                            r.state = RunState::Finished;
                            r.modelPath = model_.toStdString();
                            r.startedAt = std::string("2026-11-26T") + (id + 13) + "Z";
                            p.runs().push_back(r);
                        }
                    })
                    .isOk());
        const QString scan = writeScan(QStringLiteral("bridge.tif"), 200, 160, 41);

        AnalyzePane pane;
        pane.setProjectSession(&session);
        QCOMPARE(pane.controller()->model().runId, QStringLiteral("run-20261126-100000"));
        QVERIFY(pane.controller()->model().ok);
        // Add scan (one click + one accepted dialog), Run, Open in Inspect.
        pane.setScanDialog([scan] { return QStringList{scan}; });
        QTest::mouseClick(pane.findChild<QPushButton*>(QStringLiteral("addScansButton")),
                          Qt::LeftButton);
        QSignalSpy finished(&pane, &AnalyzePane::queueFinished);
        auto* runButton = pane.findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(runButton->isEnabled());
        QTest::mouseClick(runButton, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeout);
        QSignalSpy open(&pane, &AnalyzePane::openInInspect);
        QTest::mouseClick(pane.findChild<QPushButton*>(QStringLiteral("openInInspectButton")),
                          Qt::LeftButton);
        QCOMPARE(open.count(), 1);

        // The map is in the project's maps/, named after the scan, the run and the map kind.
        const QString map =
            QDir(dir).filePath(QStringLiteral("maps/bridge.run-20261126-100000.probability.tif"));
        QCOMPARE(open.at(0).at(1).toString(), map);
        QCOMPARE(mapSize(map), QSize(200, 160));
        // And in the project record, with the stage timings.
        QCOMPARE(int(session.project().scans().size()), 1);
        const ProjectScan& s = session.project().scans().front();
        QCOMPARE(QString::fromStdString(s.input), scan);
        QCOMPARE(QString::fromStdString(s.mapPath), map);
        QCOMPARE(QString::fromStdString(s.runId), QStringLiteral("run-20261126-100000"));
        QCOMPARE(s.width, 200);
        QVERIFY(QString::fromStdString(s.statsJson).contains(QStringLiteral("input_wait_seconds")));
        auto reopened = Project::open(dir.toStdString());
        QVERIFY(reopened.isOk());
        QCOMPARE(int(reopened->scans().size()), 1);
        // The queue lives in the project folder.
        QVERIFY(QFile::exists(QDir(dir).filePath(QStringLiteral("analyze-queue.json"))));
    }

    // "Add scans…" opened in the process's working directory; it opens at the project's
    // folders (and without a project never at the working directory).
    void scanDialogsOpenAtTheProjectsFolders()
    {
        QSettings().remove(QStringLiteral("analyze/lastScanDir"));
        const QString elsewhere = freshDir(QStringLiteral("working-directory"));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(elsewhere));
        AnalyzePane bare;
        QCOMPARE(bare.scanDialogFolder(), QDir::homePath());

        const QString dir = QDir(freshDir(QStringLiteral("dialogs"))).filePath(QStringLiteral("p"));
        ProjectSession session;
        QVERIFY(session.newProject(dir, QStringLiteral("Tunnel")).isOk());
        AnalyzePane pane;
        pane.setProjectSession(&session);
        QCOMPARE(pane.scanDialogFolder(), dir);
        // A scan folder remembered from elsewhere does not lead out of the project.
        const QString outside = writeScan(QStringLiteral("outside.tif"), 64, 64, 5);
        QCOMPARE(pane.addScans({outside}), 1);
        QCOMPARE(pane.scanDialogFolder(), dir);
        // The project's own scans lead to their folder.
        QVERIFY(QDir(dir).mkpath(QStringLiteral("scans")));
        const QString inside = QDir(dir).filePath(QStringLiteral("scans/inside.tif"));
        QVERIFY(QFile::copy(outside, inside));
        QVERIFY(pane.queueScanOnce(inside));
        QCOMPARE(pane.scanDialogFolder(), QDir(dir).filePath(QStringLiteral("scans")));
        QVERIFY(QDir::setCurrent(before));
    }

    // The demo project's scan is queued once, however often the project is opened.
    void queueScanOnceAddsAScanOnce()
    {
        const QString scan = writeScan(QStringLiteral("once.tif"), 64, 64, 6);
        AnalyzePane pane;
        const int rows = pane.queue()->rowCount();
        QVERIFY(pane.queueScanOnce(scan));
        QVERIFY(!pane.queueScanOnce(scan));
        QVERIFY(!pane.queueScanOnce(QDir(tmp_.path()).filePath(QStringLiteral("missing.tif"))));
        QCOMPARE(pane.queue()->rowCount(), rows + 1);
    }
};

QTEST_MAIN(TestAnalyzePane)
#include "tst_analyzepane.moc"

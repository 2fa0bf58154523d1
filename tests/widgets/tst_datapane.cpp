#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QTreeView>
#include <QTreeWidget>

#include "common/jobrunner.h"
#include "common/languagemanager.h"
#include "data/datapane.h"
#include "data/labelstatuspanel.h"
#include "data/projectcontents.h"
#include "data/welcomepage.h"
#include "fisura/image.h"
#include "project/projectsession.h"
#include "system/systempane.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{
synth::DemoDatasetOptions tinyDemo()
{
    synth::DemoDatasetOptions o;
    o.segmentationImages = 3;
    o.classificationImages = 2;
    o.patchSize = 96;
    o.scanSize = 0;
    return o;
}
} // namespace

class TstDataPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // English as the application has it: plural forms from fisura_en.
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
    }

    void generatesDemoDataAndPreviewsWithMask()
    {
        QTemporaryDir tmp;
        DataPane pane;
        pane.resize(800, 500);
        pane.show();
        QSignalSpy ready(&pane, &DataPane::demoDataReady);
        const QString dir = tmp.filePath(QStringLiteral("demo"));
        pane.generateDemoData(dir, tinyDemo());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 20000);
        QCOMPARE(pane.rootFolder(), QFileInfo(dir).absoluteFilePath());

        QSignalSpy shown(&pane, &DataPane::previewReady);
        pane.previewImage(dir + QStringLiteral("/segmentation/images/seg_0000.tif"));
        QTRY_COMPARE(shown.count(), 1);
        const QImage withMask = pane.previewShown();
        QCOMPARE(withMask.size(), QSize(96, 96));
        QVERIFY(pane.previewInfo().contains(QStringLiteral("96 × 96")));
        QVERIFY(pane.previewInfo().contains(QStringLiteral("crack pixels")));

        // The overlay paints exactly the mask's pixels red-ish; toggling it off shows the image.
        auto mask =
            readImage((dir + QStringLiteral("/segmentation/masks/seg_0000.tif")).toStdString());
        QVERIFY(mask);
        int redOnCrack = 0, cracks = 0;
        for (int y = 0; y < 96; ++y)
            for (int x = 0; x < 96; ++x)
                if (mask->row(y)[x]) {
                    ++cracks;
                    const QColor c = withMask.pixelColor(x, y);
                    redOnCrack += c.red() > c.green() + 60;
                }
        QVERIFY(cracks > 0);
        QCOMPARE(redOnCrack, cracks);
        pane.findChild<QCheckBox*>()->setChecked(false);
        const QColor plain = pane.previewShown().pixelColor(0, 0);
        QVERIFY(std::abs(plain.red() - plain.green()) < 60);
    }

    void unreadableImageShowsATranslatedReason()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("broken.tif")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a tiff");
        f.close();
        DataPane pane;
        QSignalSpy shown(&pane, &DataPane::previewReady);
        pane.previewImage(f.fileName());
        QTRY_COMPARE(shown.count(), 1);
        QVERIFY(pane.previewShown().isNull());
        QVERIFY2(pane.previewInfo().contains(QStringLiteral("damaged")),
                 qPrintable(pane.previewInfo()));
        QVERIFY(pane.previewInfo().contains(QStringLiteral("broken.tif")));
    }

    void demoGenerationCancels()
    {
        QTemporaryDir tmp;
        DataPane pane;
        QSignalSpy failed(&pane, &DataPane::demoDataFailed);
        synth::DemoDatasetOptions o = tinyDemo();
        o.segmentationImages = 2000; // long enough to be cancelled midway
        const QString dir = tmp.filePath(QStringLiteral("demo"));
        pane.generateDemoData(dir, o);
        QVERIFY(pane.isBusy());
        QTest::qWait(50);
        QElapsedTimer t;
        t.start();
        pane.cancelDemoData();
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY2(t.elapsed() < 500, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(failed.at(0).at(0).value<Status>().code(), ErrorCode::Cancelled);
        QVERIFY(!QFile::exists(dir + QStringLiteral("/manifest.json")));
    }

    void refusesForeignFolder()
    {
        QTemporaryDir tmp;
        QFile keep(tmp.filePath(QStringLiteral("keep.txt")));
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.write("mine");
        keep.close();
        DataPane pane;
        QSignalSpy failed(&pane, &DataPane::demoDataFailed);
        pane.generateDemoData(tmp.path(), tinyDemo());
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).value<Status>().code(), ErrorCode::InvalidArgument);
        QVERIFY(pane.previewInfo().contains(QStringLiteral("not valid")));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 1);
    }

    // Nothing open (the first start): the pane says what to do, with buttons that do it, instead
    // of an empty file tree at "/".
    void welcomeWhenNothingIsOpen()
    {
        ProjectSession session;
        DataPane pane;
        pane.setProjectSession(&session);
        pane.resize(900, 600);
        pane.show();
        QVERIFY(pane.isWelcomeShown());
        QVERIFY(pane.welcomePage()->isVisible());
        QVERIFY(!pane.findChild<QTreeView*>(QStringLiteral("fileTree"))->isVisible());
        WelcomePage* w = pane.welcomePage();
        QAction demo, create, open, scan;
        w->setAction(WelcomePage::DemoProject, &demo);
        w->setAction(WelcomePage::NewProject, &create);
        w->setAction(WelcomePage::OpenProject, &open);
        w->setAction(WelcomePage::OpenScan, &scan);
        for (int c = 0; c < WelcomePage::ChoiceCount; ++c) {
            QPushButton* b = w->button(WelcomePage::Choice(c));
            QVERIFY(b->isVisible() && b->isEnabled() && !b->text().isEmpty());
        }
        QSignalSpy demoClicked(&demo, &QAction::triggered);
        QSignalSpy scanClicked(&scan, &QAction::triggered);
        QTest::mouseClick(w->button(WelcomePage::DemoProject), Qt::LeftButton);
        QTest::mouseClick(w->button(WelcomePage::OpenScan), Qt::LeftButton);
        QCOMPARE(demoClicked.count(), 1);
        QCOMPARE(scanClicked.count(), 1);
        // A button follows its action (the demo cannot start twice).
        demo.setEnabled(false);
        QVERIFY(!w->button(WelcomePage::DemoProject)->isEnabled());

        // A folder opened without a project: its files, no welcome.
        QTemporaryDir tmp;
        pane.setRootFolder(tmp.path());
        QVERIFY(!pane.isWelcomeShown());
    }

    // The open project's datasets and scans are what the pane shows ("No folder open" beside a
    // project that holds a dataset before); closing the project says what to do again.
    void showsTheProjectsDatasetsAndScans()
    {
        QTemporaryDir tmp;
        const QString demo = tmp.filePath(QStringLiteral("demo"));
        QVERIFY(synth::writeDemoDataset(demo.toStdString(), tinyDemo()));
        const QString seg = QFileInfo(demo + QStringLiteral("/segmentation")).absoluteFilePath();
        const QString scan = seg + QStringLiteral("/images/seg_0001.tif");
        ProjectSession session;
        QVERIFY(
            session.newProject(tmp.filePath(QStringLiteral("project")), QStringLiteral("Bridge")));
        QVERIFY(session.update([&](Project& p) {
            const std::string id = p.addDataset(seg.toStdString(), TaskKind::Segment, "deck");
            p.findDataset(id)->summaryJson = R"({"task":"segment","items":3})"; // as scanned
            ProjectScan s;
            s.input = scan.toStdString();
            s.width = 96;
            s.height = 96;
            s.analysedAt = utcNowIso();
            p.recordScan(s);
        }));
        DataPane pane;
        pane.resize(900, 600);
        pane.show();
        pane.setProjectSession(&session);
        QVERIFY(!pane.isWelcomeShown());
        ProjectContents* contents = pane.projectContents();
        QVERIFY(contents->isVisible()); // its tab is the one shown
        QCOMPARE(contents->datasetPaths(), QStringList{seg});
        QCOMPARE(contents->scanPaths(), QStringList{scan});
        QCOMPARE(pane.rootFolder(), seg);
        const QList<QLabel*> folder = pane.findChild<QToolBar*>()->findChildren<QLabel*>();
        bool saysNoFolder = false;
        for (QLabel* l : folder)
            saysNoFolder |= l->text() == QStringLiteral("No folder open");
        QVERIFY(!saysNoFolder);
        QTRY_VERIFY(pane.labelPanel()->hasStatus()); // the dataset's labels are known too
        QTreeWidget* tree = contents->tree();
        const auto deck =
            tree->findItems(QStringLiteral("deck"), Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(deck.size(), 1);
        QVERIFY(deck.first()->text(1).contains(QStringLiteral("segment")));
        QVERIFY2(deck.first()->text(1).contains(QStringLiteral("3 images")),
                 qPrintable(deck.first()->text(1)));
        // A scan opens in Inspect on a double-click (Enter).
        QSignalSpy open(&pane, &DataPane::openScanRequested);
        const auto scans =
            tree->findItems(QStringLiteral("seg_0001.tif"), Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(scans.size(), 1);
        QVERIFY(scans.first()->text(1).contains(QStringLiteral("96 × 96 px")));
        QVERIFY(scans.first()->text(1).contains(QStringLiteral("no map")));
        Q_EMIT tree->itemActivated(scans.first(), 0);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), scan);
        // A dataset added later is listed at once.
        QVERIFY(session.update([&](Project& p) {
            p.addDataset((demo + QStringLiteral("/classification")).toStdString(),
                         TaskKind::Classify, "patches");
        }));
        QCOMPARE(contents->datasetPaths().size(), 2);
        QCOMPARE(pane.rootFolder(), seg); // the one browsed stays
        // Closed: nothing open again.
        session.closeProject();
        QVERIFY(pane.rootFolder().isEmpty());
        QVERIFY(pane.isWelcomeShown());
    }

    void systemPaneExplainsMissingGpu()
    {
        SystemPane pane;
        MachineInfo m;
        m.cpuModel = "Test CPU";
        m.logicalCores = 2;
        m.totalRamBytes = 8ull << 30;
        m.cudaState = CudaState::NoDriver;
        m.cudaStatus = "no NVIDIA driver found";
        pane.setMachine(m);
        auto* label = pane.findChild<QLabel*>(QStringLiteral("explanation"));
        QVERIFY(label->text().contains(QStringLiteral("No usable GPU")));
        QVERIFY(label->text().contains(QStringLiteral("no NVIDIA driver")));
        QCOMPARE(pane.summary(), QStringLiteral("CPU · 2 cores"));

        GpuInfo g;
        g.name = "Test GPU 80GB";
        g.computeMajor = 9;
        g.totalMemoryBytes = 80ull << 30;
        m.gpus = {g};
        m.cudaUsable = true;
        m.cudaState = CudaState::Usable;
        pane.setMachine(m);
        QCOMPARE(pane.summary(), QStringLiteral("Test GPU 80GB"));
        auto* tree = pane.findChild<QTreeWidget*>(QStringLiteral("facts"));
        QVERIFY(!tree->findItems(QStringLiteral("Test GPU 80GB"),
                                 Qt::MatchExactly | Qt::MatchRecursive, 1)
                     .isEmpty());
        QVERIFY(!tree->findItems(QStringLiteral("9.0"), Qt::MatchExactly | Qt::MatchRecursive, 1)
                     .isEmpty());
    }
};

QTEST_MAIN(TstDataPane)
#include "tst_datapane.moc"

#include <QtTest>

#include <QCheckBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "data/datapane.h"
#include "fisura/image.h"
#include "common/jobrunner.h"
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
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

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
        QCOMPARE(pane.summary(), QStringLiteral("CPU · 2 core(s)"));

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

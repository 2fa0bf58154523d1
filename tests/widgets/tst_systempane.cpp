// The System pane's telemetry: plots, gauge and memory bar driven by given samples (offscreen),
// with axes and values checked; the no-GPU case; exports.
#include <QtTest>

#include <QAction>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "common/plotlegend.h"
#include "common/qcp.h"
#include "common/telemetryplot.h"
#include "common/usagegauge.h"
#include "fakegpu.h"
#include "system/systempane.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{

/// `n` samples one second apart; the GPU ramps its utilization 0, 1, 2, ... %.
std::vector<TelemetrySample> samples(int n, bool gpu, double start = 0)
{
    std::vector<TelemetrySample> out;
    for (int i = 0; i < n; ++i) {
        TelemetrySample s;
        s.seconds = start + i;
        s.unixMillis = 1795670000000 + i * 1000;
        s.systemCpuPercent = 25;
        s.processCpuPercent = 10;
        s.ramTotalBytes = 16ull << 30;
        s.ramUsedBytes = 4ull << 30; // 25 %
        if (gpu) {
            GpuSample g;
            g.name = "Test GPU";
            g.utilizationGpu = i % 101;
            g.memoryTotalBytes = 80ull << 30;
            g.memoryUsedBytes = 20ull << 30; // 25 %
            g.temperatureC = 60;
            g.powerW = 350;
            g.powerLimitW = 700; // 50 %
            s.gpus.push_back(g);
        }
        out.push_back(s);
    }
    return out;
}

MachineInfo cpuMachine()
{
    MachineInfo m;
    m.cpuModel = "Test CPU";
    m.logicalCores = 4;
    m.totalRamBytes = 16ull << 30;
    m.cudaState = CudaState::NoDriver;
    m.cudaStatus = "no NVIDIA driver found";
    return m;
}

} // namespace

class TstSystemPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void plotShowsWindowAndValues_data()
    {
        QTest::addColumn<double>("window");
        QTest::addColumn<int>("expectedPoints");
        QTest::newRow("1 min") << 60.0 << 61;
        QTest::newRow("5 min") << 300.0 << 200;
    }
    void plotShowsWindowAndValues()
    {
        QFETCH(double, window);
        QFETCH(int, expectedPoints);
        TelemetryPlot plot;
        plot.resize(800, 400);
        plot.setWindowSeconds(window);
        plot.setSamples(samples(200, true)); // t = 0 .. 199 s
        QCustomPlot* p = plot.plot();
        // The axis counts back from the newest sample (t = 199 s is "now").
        QCOMPARE(p->xAxis->range().upper, 0.0);
        QCOMPARE(p->xAxis->range().lower, -window);
        QCOMPARE(p->yAxis->range().lower, 0.0);
        QCOMPARE(p->yAxis->range().upper, 100.0);
        QVERIFY(plot.hasGpu());
        QCOMPARE(p->graphCount(), int(TelemetryPlot::SeriesCount));
        QCPGraph* util = p->graph(TelemetryPlot::GpuUtil);
        QCOMPARE(util->dataCount(), expectedPoints);
        QCOMPARE(util->data()->at(util->dataCount() - 1)->key, 0.0);
        QCOMPARE(util->data()->at(0)->key, -double(expectedPoints - 1));
        QCOMPARE(util->data()->at(util->dataCount() - 1)->value, double(199 % 101));
        QCOMPARE(p->graph(TelemetryPlot::GpuMemory)->data()->at(0)->value, 25.0);
        QCOMPARE(p->graph(TelemetryPlot::GpuPower)->data()->at(0)->value, 50.0);
        QCOMPARE(p->graph(TelemetryPlot::GpuTemperature)->valueAxis(), p->yAxis2);
        QCOMPARE(p->graph(TelemetryPlot::GpuTemperature)->data()->at(0)->value, 60.0);
        QCOMPARE(p->graph(TelemetryPlot::Ram)->data()->at(0)->value, 25.0);
        QCOMPARE(p->graph(TelemetryPlot::Cpu)->data()->at(0)->value, 25.0);
        QVERIFY(p->graph(TelemetryPlot::GpuUtil)->visible());
    }

    void pauseFreezesThePlot()
    {
        TelemetryPlot plot;
        plot.setSamples(samples(10, true));
        plot.setPaused(true);
        plot.setSamples(samples(20, true));
        QCOMPARE(plot.plot()->graph(TelemetryPlot::Cpu)->dataCount(), 10);
        plot.setPaused(false);
        plot.setSamples(samples(20, true));
        QCOMPARE(plot.plot()->graph(TelemetryPlot::Cpu)->dataCount(), 20);
    }

    // "Last 5 minutes" reads as clock times at round minutes (seconds for the last minute), in the
    // language's time format; it counted seconds since the sampler started before.
    void timeAxisShowsTheClock()
    {
        TelemetryPlot plot;
        plot.resize(800, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        const QLocale en(QLocale::English, QLocale::UnitedStates);
        plot.plot()->setLocale(en);
        plot.setSamples(samples(400, false)); // t = 0 .. 399 s
        plot.plot()->replot();
        const auto joined = [&] {
            const QVector<QString> l = plot.plot()->xAxis->tickVectorLabels();
            return QStringList(l.begin(), l.end()).join(QLatin1Char(','));
        };
        const QTime newest = QDateTime::fromMSecsSinceEpoch(1795670000000 + 399 * 1000).time();
        const QTime minute(newest.hour(), newest.minute());
        const QVector<QString> labels = plot.plot()->xAxis->tickVectorLabels();
        QVERIFY2(labels.size() >= 4, qPrintable(joined()));
        QVERIFY2(labels.contains(en.toString(minute, QLocale::ShortFormat)), qPrintable(joined()));
        QVERIFY2(labels.contains(en.toString(minute.addSecs(-240), QLocale::ShortFormat)),
                 qPrintable(joined()));
        for (const QString& l : labels)
            QVERIFY2(en.toTime(l, QLocale::ShortFormat).isValid(), qPrintable(l));

        // Spanish: 24-hour times; the last minute in steps of seconds.
        plot.plot()->setLocale(QLocale(QLocale::Spanish, QLocale::Spain));
        plot.setWindowSeconds(60);
        plot.plot()->replot();
        const QTime tens(newest.hour(), newest.minute(), newest.second() / 10 * 10);
        QVERIFY2(plot.plot()->xAxis->tickVectorLabels().contains(
                     tens.toString(QStringLiteral("H:mm:ss"))),
                 qPrintable(joined()));
        QVERIFY(plot.readoutAt(399).startsWith(QStringLiteral("now")));
        QVERIFY2(plot.readoutAt(387).startsWith(QStringLiteral("12 s ago")),
                 qPrintable(plot.readoutAt(387)));
    }

    // The legend sits above the data, names only the series that have data (none before the
    // first sample: no empty squares), and the GPU's axis appears with GPU figures only.
    void legendOutsideAndOnlyWithData()
    {
        TelemetryPlot plot;
        plot.resize(700, 360);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        QCustomPlot* p = plot.plot();
        p->replot();
        QCOMPARE(OutsideLegend::entries(p->legend), 0);
        QVERIFY(!p->legend->visible());
        QVERIFY(!p->yAxis2->visible());
        plot.setSamples(samples(120, false));
        p->replot();
        QCOMPARE(OutsideLegend::entries(p->legend), 2); // CPU and RAM
        QVERIFY(!p->yAxis2->visible());
        auto clear = [p] {
            QVERIFY(p->legend->visible());
            QVERIFY(!p->legend->outerRect().intersects(p->axisRect()->rect()));
            for (int g = 0; g < p->graphCount(); ++g)
                for (auto it = p->graph(g)->data()->constBegin();
                     it != p->graph(g)->data()->constEnd(); ++it)
                    QVERIFY(!p->legend->outerRect().contains(
                        QPoint(int(p->xAxis->coordToPixel(it->key)),
                               int(p->graph(g)->valueAxis()->coordToPixel(it->value)))));
        };
        clear();
        auto hot = samples(120, true);
        for (auto& s : hot)
            s.systemCpuPercent = 99; // a CPU trace along the top edge
        plot.setSamples(hot);
        p->replot();
        QCOMPARE(OutsideLegend::entries(p->legend), int(TelemetryPlot::SeriesCount));
        QVERIFY(p->yAxis2->visible());
        clear();
        if (qEnvironmentVariableIsSet("FISURA_GRAB"))
            plot.grab().save(qEnvironmentVariable("FISURA_GRAB") +
                             QStringLiteral(".telemetry.png"));
    }

    void unknownReadingsLeaveGaps()
    {
        auto s = samples(5, true);
        s[2].gpus[0].powerW = -1; // NVML could not read it
        TelemetryPlot plot;
        plot.setSamples(s);
        QCOMPARE(plot.plot()->graph(TelemetryPlot::GpuPower)->dataCount(), 4);
    }

    void hoverReadoutNamesTheNearestSample()
    {
        TelemetryPlot plot;
        plot.setSamples(samples(30, true));
        const QString r = plot.readoutAt(12.4);
        QVERIFY2(r.contains(QStringLiteral("GPU 12 %")), qPrintable(r));
        QVERIFY2(r.contains(QStringLiteral("350 W")), qPrintable(r));
        QVERIFY2(r.contains(QStringLiteral("60 °C")), qPrintable(r));
    }

    void exportsPngAndCsv()
    {
        QTemporaryDir tmp;
        TelemetryPlot plot;
        plot.resize(640, 320);
        plot.setWindowSeconds(60);
        plot.setSamples(samples(100, true));
        const QString png = tmp.filePath(QStringLiteral("plot.png"));
        QVERIFY(plot.exportPng(png, 640, 320));
        QImage img(png);
        QCOMPARE(img.size(), QSize(640, 320));
        const QString csv = tmp.filePath(QStringLiteral("samples.csv"));
        QVERIFY(plot.exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 61); // header + the visible minute (t = 39 .. 99)
        QVERIFY(lines.first().startsWith(QStringLiteral("seconds,")));
        QVERIFY(lines.last().startsWith(QStringLiteral("99.000,")));
        // An unwritable path fails cleanly.
        QVERIFY(!plot.exportCsv(tmp.filePath(QStringLiteral("no/such/dir/x.csv"))));
    }

    void paneWithoutGpuShowsCpuAndRam()
    {
        SystemPane pane;
        pane.resize(900, 700);
        pane.setMachine(cpuMachine());
        pane.showSamples(samples(50, false));
        QVERIFY(!pane.telemetryPlot()->hasGpu());
        QCustomPlot* p = pane.telemetryPlot()->plot();
        QVERIFY(!p->graph(TelemetryPlot::GpuUtil)->visible());
        QVERIFY(p->graph(TelemetryPlot::Cpu)->visible());
        QCOMPARE(p->graph(TelemetryPlot::Ram)->dataCount(), 50);
        QVERIFY(!pane.memoryBar()->isVisibleTo(&pane));
        QVERIFY(!pane.releaseGpuMemoryAction()->isEnabled());
        // Only what exists: no GPU memory bar, no (disabled, full-width) release button.
        QVERIFY(
            !pane.findChild<QPushButton*>(QStringLiteral("releaseGpuMemory"))->isVisibleTo(&pane));
        QVERIFY(!pane.telemetryPlot()->plot()->yAxis2->visible());
        if (qEnvironmentVariableIsSet("FISURA_GRAB")) {
            pane.show();
            pane.showSamples(samples(300, false));
            QTest::qWait(200);
            pane.grab().save(qEnvironmentVariable("FISURA_GRAB") + QStringLiteral(".cpu.png"));
        }
        QCOMPARE(pane.gauge()->gpuPercent(), -1.0);
        QCOMPARE(pane.gauge()->cpuPercent(), 25.0);
        // Asking anyway explains instead of failing.
        QSignalSpy msg(&pane, &Pane::statusMessage);
        pane.releaseGpuMemoryAction()->setEnabled(true);
        pane.releaseGpuMemoryAction()->trigger();
        QCOMPARE(msg.count(), 1);
        QVERIFY(msg.at(0).at(0).toString().contains(QStringLiteral("no GPU memory")));
    }

    void paneListsPolicyWithReasons()
    {
        SystemPane pane;
        pane.setMachine(testing::withFakeGpu(cpuMachine(), "Test GPU 24GB", 8, 6, 24ull << 30));
        auto* tree = pane.findChild<QTreeWidget*>(QStringLiteral("facts"));
        const auto precision =
            tree->findItems(QStringLiteral("Precision"), Qt::MatchExactly | Qt::MatchRecursive, 0);
        QCOMPARE(precision.size(), 1);
        QCOMPARE(precision.first()->text(1), QStringLiteral("bf16"));
        QVERIFY(precision.first()->text(2).contains(QStringLiteral("8.6")));
        QVERIFY(precision.first()->text(2).contains(QStringLiteral("bf16 tensor cores")));
        const auto batch =
            tree->findItems(QStringLiteral("Batch size"), Qt::MatchExactly | Qt::MatchRecursive, 0);
        QCOMPARE(batch.first()->text(1), QStringLiteral("128"));
        QVERIFY(pane.releaseGpuMemoryAction()->isEnabled());

        pane.showSamples(samples(10, true));
        QVERIFY(pane.memoryBar()->isVisibleTo(&pane));
        QVERIFY(
            pane.findChild<QPushButton*>(QStringLiteral("releaseGpuMemory"))->isVisibleTo(&pane));
        QCOMPARE(pane.memoryBar()->used(), 20ull << 30);
        QCOMPARE(pane.memoryBar()->total(), 80ull << 30);
        QCOMPARE(pane.memoryBar()->caption(), QStringLiteral("20.0 / 80.0 GiB"));
        QCOMPARE(pane.gauge()->gpuPercent(), 9.0);
        // FISURA_GRAB=<file.png> saves how the pane looks (for reviewing layout by eye).
        if (qEnvironmentVariableIsSet("FISURA_GRAB")) {
            pane.resize(1100, 800);
            pane.showSamples(samples(300, true));
            pane.grab().save(qEnvironmentVariable("FISURA_GRAB"));
        }
    }

    void liveSamplerFeedsThePlot()
    {
        SystemPane pane;
        pane.show();
        pane.setMachine(cpuMachine());
        QVERIFY(!pane.telemetryHistory()); // no sampler yet
        pane.startTelemetry(10);
        QVERIFY(pane.telemetryHistory());
        // Other panes (Train) read the same history.
        QTRY_VERIFY_WITH_TIMEOUT(pane.telemetryHistory()->snapshot(60).size() >= 2, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(
            pane.telemetryPlot()->plot()->graph(TelemetryPlot::Ram)->dataCount() >= 3, 5000);
        QVERIFY(pane.gauge()->cpuPercent() >= 0);
        pane.stopTelemetry();
    }

    // Hidden, the pane's telemetry sleeps: one sample in two seconds for the status bar's gauge
    // (and the Train pane), no copies of the history, no replots; shown again, it catches up at
    // once.
    void hiddenPaneSleeps()
    {
        SystemPane pane;
        pane.show();
        pane.setMachine(cpuMachine());
        pane.startTelemetry(4);
        QCOMPARE(pane.telemetryRate(), 4.0);
        QCPGraph* ram = pane.telemetryPlot()->plot()->graph(TelemetryPlot::Ram);
        QTRY_VERIFY_WITH_TIMEOUT(ram->dataCount() >= 2, 5000);
        pane.hide();
        QCOMPARE(pane.telemetryRate(), SystemPane::kHiddenHz);
        QCOMPARE(SystemPane::kHiddenHz, 0.5);
        const int shown = ram->dataCount();
        const uint64_t pushed = pane.telemetryHistory()->pushed();
        QTRY_VERIFY_WITH_TIMEOUT(pane.telemetryHistory()->pushed() >= pushed + 2, 10000);
        QCOMPARE(ram->dataCount(), shown); // sampled, not drawn
        QVERIFY(pane.gauge()->cpuPercent() >= 0);
        pane.show();
        QCOMPARE(pane.telemetryRate(), 4.0);
        QVERIFY(ram->dataCount() > shown); // caught up on showing
        pane.stopTelemetry();
    }
};

QTEST_MAIN(TstSystemPane)
#include "tst_systempane.moc"

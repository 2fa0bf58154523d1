#include <QtTest>

#include <thread>

#include "fisura/job.h"
#include "fisura/status.h"
#include "fisura/sysinfo.h"
#include "fisura/version.h"

using namespace fisura;

class TstCoreBasics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void statusOkAndError()
    {
        QVERIFY(Status::ok().isOk());
        Status s(ErrorCode::NotFound, "/no/such/file.tif");
        QVERIFY(!s);
        QCOMPARE(s.code(), ErrorCode::NotFound);
        QCOMPARE(QString::fromStdString(s.toString()),
                 QStringLiteral("not_found: /no/such/file.tif"));
    }

    void resultCarriesValueOrError()
    {
        Result<int> good(42);
        QVERIFY(good.isOk());
        QCOMPARE(good.value(), 42);
        Result<int> bad(ErrorCode::Corrupt, "tile 3");
        QVERIFY(!bad);
        QCOMPARE(bad.status().code(), ErrorCode::Corrupt);
        // An "error" that is ok is a bug and must not look like success.
        Result<int> misuse{Status::ok()};
        QVERIFY(!misuse);
        QCOMPARE(misuse.status().code(), ErrorCode::Internal);
    }

    void errorCodeNamesAreDistinct()
    {
        QSet<QString> names;
        for (int c = 0; c <= static_cast<int>(ErrorCode::Internal); ++c)
            names.insert(QString::fromLatin1(errorCodeName(static_cast<ErrorCode>(c))));
        QCOMPARE(names.size(), static_cast<int>(ErrorCode::Internal) + 1);
    }

    void cancelTokenIsSharedAcrossCopiesAndThreads()
    {
        CancelToken a;
        CancelToken b = a;
        QVERIFY(!b.isCancelled());
        std::thread t([a]() mutable { a.cancel(); });
        t.join();
        QVERIFY(b.isCancelled());
        b.reset();
        QVERIFY(!a.isCancelled());
    }

    void progressTrackerComputesFractionAndEta()
    {
        std::vector<Progress> seen;
        CallbackProgressSink sink([&](const Progress& p) { seen.push_back(p); });
        ProgressTracker t(&sink, 10.0, std::chrono::milliseconds(0));
        for (int i = 1; i <= 5; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            t.update(i, "step");
        }
        QCOMPARE(seen.size(), size_t(5));
        QCOMPARE(seen.back().fraction, 0.5);
        // 5 more units at ~10 ms each: ETA about 50 ms.
        QVERIFY2(seen.back().etaSeconds > 0.02 && seen.back().etaSeconds < 0.5,
                 qPrintable(QString::number(seen.back().etaSeconds)));
        t.finish("done");
        QCOMPARE(seen.back().fraction, 1.0);
        QCOMPARE(seen.back().etaSeconds, 0.0);
    }

    void progressTrackerThrottles()
    {
        int reports = 0;
        CallbackProgressSink sink([&](const Progress&) { ++reports; });
        ProgressTracker t(&sink, 1000.0, std::chrono::milliseconds(10000));
        for (int i = 1; i <= 1000; ++i)
            t.update(i);
        QCOMPARE(reports, 1); // only the first goes out inside the interval
        QCOMPARE(t.last().fraction, 1.0);
    }

    void unknownTotalHasNoFraction()
    {
        ProgressTracker t(nullptr, 0.0);
        t.update(3);
        QVERIFY(t.last().fraction < 0);
        QVERIFY(t.last().etaSeconds < 0);
    }

    void versionsAreReported()
    {
        QVERIFY(!version().empty());
        QVERIFY(QString::fromStdString(torchVersion()).contains(QLatin1Char('.')));
        QVERIFY(QString::fromStdString(libtiffVersion()).startsWith(QLatin1Char('4')));
    }

    void machineInfoIsSane()
    {
        const MachineInfo m = queryMachine();
        QVERIFY(m.logicalCores >= 1);
        QVERIFY(m.totalRamBytes > 0);
        QVERIFY(!m.cudaStatus.empty()); // always says why (not)
        QCOMPARE(m.cudaUsable, !m.gpus.empty());
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(toJson(m)));
        QVERIFY(doc.isObject());
        QCOMPARE(doc[QStringLiteral("cpu")][QStringLiteral("logical_cores")].toInt(),
                 m.logicalCores);
        QVERIFY(doc[QStringLiteral("gpus")].isArray());
    }
};

QTEST_GUILESS_MAIN(TstCoreBasics)
#include "tst_core_basics.moc"

// What held an inference run back (inferLimitOf) and what was expected to (the pace forecast's
// verdict and its policy choice): the rules on statistics made up here, no network needed. A
// real run's forecast and limit are checked in tst_infer.
#include <QtTest>

#include <string>

#include "fisura/infer.h"

using namespace fisura;

class TstInferLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A wait of a fifth of the run or more names what the device waited for; the longer wait
    // wins. A wait for room for rows is the writer's only while the writer was busy.
    void limitIsWhereTheDeviceWaited_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("inputWait");
        QTest::addColumn<double>("outputWait");
        QTest::addColumn<double>("writerBusy");
        QTest::addColumn<QString>("limit");
        QTest::newRow("busy device") << 10.0 << 1.0 << 1.5 << 6.0 << QStringLiteral("device");
        QTest::newRow("decoding") << 10.0 << 4.0 << 1.0 << 6.0 << QStringLiteral("input");
        QTest::newRow("writer") << 10.0 << 0.5 << 2.0 << 6.0 << QStringLiteral("writer");
        // Measured on a GPU (one H200, a DeepCrack-trained U-Net): the device thread waited
        // 1.43 of 3.0 s for room while the writer copied for 0.23 s: the rows were waiting for
        // their downloads, behind the network.
        QTest::newRow("rows behind the device")
            << 3.0 << 0.0 << 1.43 << 0.23 << QStringLiteral("device");
        QTest::newRow("both, input longer") << 10.0 << 3.0 << 2.5 << 6.0 << QStringLiteral("input");
        QTest::newRow("nothing timed") << 0.0 << 0.0 << 0.0 << 0.0 << QStringLiteral("device");
    }
    void limitIsWhereTheDeviceWaited()
    {
        QFETCH(double, seconds);
        QFETCH(double, inputWait);
        QFETCH(double, outputWait);
        QFETCH(double, writerBusy);
        QFETCH(QString, limit);
        InferStats st;
        st.seconds = seconds;
        st.inputWaitSeconds = inputWait;
        st.outputWaitSeconds = outputWait;
        st.writer.copySeconds = writerBusy / 2;
        st.writer.compressWaitSeconds = writerBusy / 2;
        QCOMPARE(QString::fromLatin1(inferLimitName(inferLimitOf(st))), limit);
    }

    // The pace forecast: decoding sets the pace when the readers decode fewer megapixels per
    // second than the network takes; unknown rates forecast nothing; the policy choice says so.
    void paceForecastComparesTheRates()
    {
        QCOMPARE(paceLimitOf(100, 500), InferLimit::Input);
        QCOMPARE(paceLimitOf(900, 500), InferLimit::Device);
        QCOMPARE(paceLimitOf(0, 500), InferLimit::Device);
        QCOMPARE(paceLimitOf(100, 0), InferLimit::Device);
        PaceForecast f;
        f.measured = true;
        f.limit = InferLimit::Input;
        f.inputCompression = "jpeg";
        f.readerThreads = 4;
        f.devices = 2;
        f.decodeMegapixelsPerThread = 50;
        f.decodeMegapixelsPerSecond = 200;
        f.networkMegapixelsPerSecond = 1234.5;
        PolicyChoice c = paceChoice(f);
        QCOMPARE(c.what, std::string("scan_pace"));
        QCOMPARE(c.value, std::string("input"));
        QCOMPARE(c.reasonId, std::string("pace_input"));
        QCOMPARE(c.reasonArg, std::string("jpeg"));
        QVERIFY2(c.reason.find("200 MP/s on 4 reader threads") != std::string::npos &&
                     c.reason.find("1234 MP/s on 2 devices") != std::string::npos,
                 c.reason.c_str());
        f.limit = InferLimit::Device;
        QCOMPARE(paceChoice(f).reasonId, std::string("pace_device"));
        f.measured = false;
        f.decodeMegapixelsPerThread = 0;
        f.inputCompression = "png";
        c = paceChoice(f);
        QCOMPARE(c.value, std::string("device"));
        QCOMPARE(c.reasonId, std::string("pace_unmeasured"));
        QVERIFY(c.reason.find("png file is decoded whole") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstInferLimits)
#include "tst_infer_limits.moc"

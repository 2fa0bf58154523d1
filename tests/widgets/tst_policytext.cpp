// "What Fisura will do": the loader and compute thread rows explain themselves with the numbers
// beside them and never contradict each other (a 2-core machine once read "Loader threads 1 -
// half the cores decode" next to "Compute threads 2 - all but one in eight of the cores").
#include <QtTest>

#include "common/policytext.h"
#include "fakegpu.h"
#include "fisura/policy.h"
#include "fisura/sysinfo.h"

using namespace fisura;

namespace
{

const PolicyChoice* choice(const ExecutionPolicy& p, const std::string& what)
{
    for (const auto& c : p.choices)
        if (c.what == what)
            return &c;
    return nullptr;
}

} // namespace

class TstPolicyText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void threadReasonsAgreeWithTheNumbers_data()
    {
        QTest::addColumn<int>("cores");
        QTest::addColumn<bool>("gpu");
        QTest::addColumn<bool>("infer");
        for (int cores : {2, 8, 64})
            for (bool gpu : {false, true})
                for (bool infer : {false, true})
                    QTest::addRow("%d cores, %s, %s", cores, gpu ? "GPU" : "CPU",
                                  infer ? "infer" : "train")
                        << cores << gpu << infer;
    }
    void threadReasonsAgreeWithTheNumbers()
    {
        QFETCH(int, cores);
        QFETCH(bool, gpu);
        QFETCH(bool, infer);
        MachineInfo m;
        m.logicalCores = cores;
        m.cudaStatus = "no CUDA";
        if (gpu)
            m = testing::withFakeGpu(m, "Fake GPU", 9, 0, 80ull << 30);
        PolicyRequest r;
        r.kind = infer ? JobKind::Infer : JobKind::Train;
        const ExecutionPolicy p = choosePolicy(m, r);
        const PolicyChoice* loaders = choice(p, "loader_threads");
        const PolicyChoice* compute = choice(p, "intra_op_threads");
        QVERIFY(loaders && compute);
        QCOMPARE(loaders->value, std::to_string(p.loaderThreads));
        QCOMPARE(compute->value, std::to_string(p.intraOpThreads));
        const QString why = ui::policyChoiceReason(*loaders);
        const QString computeWhy = ui::policyChoiceReason(*compute);
        const QString n = QString::number(cores);
        // Both rows speak of the same machine: the core count they quote is the real one.
        QVERIFY2(why.contains(n), qPrintable(why));
        QVERIFY2(computeWhy.contains(n), qPrintable(computeWhy));
        QVERIFY2(!computeWhy.contains(QStringLiteral("eight")), qPrintable(computeWhy));
        QVERIFY2(!why.contains(QStringLiteral("half")), qPrintable(why));
        if (gpu) {
            // With a GPU the loaders and the compute threads split the cores between them.
            QCOMPARE(p.loaderThreads + p.intraOpThreads, std::max(cores, 1 + p.loaderThreads));
            QVERIFY2(why.startsWith(QString::number(p.loaderThreads) + QStringLiteral(" of the ")),
                     qPrintable(why));
            QVERIFY2(computeWhy.contains(QString::number(p.intraOpThreads) +
                                         QStringLiteral(" of the ") + n),
                     qPrintable(computeWhy));
        } else if (p.intraOpThreads == cores) {
            // The network takes every core, so the loaders share them: no row may say the
            // loaders have cores of their own.
            QVERIFY2(computeWhy.contains(QStringLiteral("all ") + n), qPrintable(computeWhy));
            QVERIFY2(why.contains(QStringLiteral("share")), qPrintable(why));
            QVERIFY2(!computeWhy.contains(QStringLiteral("others")), qPrintable(computeWhy));
        } else {
            QVERIFY2(computeWhy.contains(QString::number(p.intraOpThreads) +
                                         QStringLiteral(" of the ") + n),
                     qPrintable(computeWhy));
        }
    }

    void oldRecordsKeepTheirSentence()
    {
        PolicyChoice c;
        c.what = "loader_threads";
        c.value = "1";
        c.reason = "half the cores decode, the rest compute";
        c.reasonId = "loaders_cpu";
        QCOMPARE(ui::policyChoiceReason(c), QString::fromStdString(c.reason));
    }

    void mapLevelSaysWhy()
    {
        // The inference's map level: its own label, value and sentence, not core's words.
        PolicyChoice c;
        c.what = "map_level";
        c.value = "adaptive";
        c.reason = "core's English";
        c.reasonId = "map_level_adaptive";
        QCOMPARE(ui::policyChoiceLabel(c.what), QStringLiteral("Map compression level"));
        QCOMPARE(ui::policyChoiceValue(c.value), QStringLiteral("adaptive"));
        QVERIFY(ui::policyChoiceReason(c).startsWith(
            QStringLiteral("compressing the map must not hold the GPUs back")));
        c.value = "fixed";
        c.reasonId = "user";
        QCOMPARE(ui::policyChoiceValue(c.value), QStringLiteral("fixed"));
        QCOMPARE(ui::policyChoiceReason(c), QStringLiteral("requested by the user"));
    }
};

QTEST_GUILESS_MAIN(TstPolicyText)
#include "tst_policytext.moc"

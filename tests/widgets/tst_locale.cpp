// Numbers and times a Spanish reader reads correctly after a live language switch: spin boxes,
// plot tick labels, the training log (its lines and their times) and the names of the layers
// Fisura adds in Inspect. Every widget here is made in English first, then the language changes.
#include <QDoubleSpinBox>
#include <QStringList>
#include <QTest>
#include <QVBoxLayout>

#include <algorithm>

#include "common/integertext.h"
#include "common/languagemanager.h"
#include "common/plotlocale.h"
#include "common/qcp.h"
#include "train/trainlog.h"

using fisura::ui::LanguageManager;

class TestLocale : public QObject
{
    Q_OBJECT

    static void language(LanguageManager::Language l)
    {
        LanguageManager::instance().applyForSession(l);
        QCoreApplication::processEvents(); // deliver the posted LanguageChange
    }

private Q_SLOTS:
    void init() { language(LanguageManager::Language::English); }
    void cleanup() { language(LanguageManager::Language::English); }

    void spinBoxFollowsSwitch_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("spanish");
        QTest::newRow("pixel size") << 0.2 << 4 << "0.2000 mm"
                                    << "0,2000 mm";
        QTest::newRow("one millimetre") << 1.0 << 3 << "1.000 mm"
                                        << "1,000 mm";
        QTest::newRow("threshold") << 0.84 << 2 << "0.84 mm"
                                   << "0,84 mm";
    }
    void spinBoxFollowsSwitch()
    {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, english);
        QFETCH(QString, spanish);
        QWidget window;
        auto* box = new QDoubleSpinBox(&window);
        (new QVBoxLayout(&window))->addWidget(box);
        box->setDecimals(decimals);
        box->setSuffix(QStringLiteral(" mm"));
        box->setValue(value);
        QCOMPARE(box->text(), english);
        language(LanguageManager::Language::Spanish);
        QTRY_COMPARE(box->text(), spanish);
        QCOMPARE(box->value(), value); // the value is kept, only its text changes
        language(LanguageManager::Language::English);
        QTRY_COMPARE(box->text(), english);
    }

    // Whole numbers grouped as each language writes them (Qt 6.4 wrote 1942577 as "1942.577" in
    // Spanish: its minimum grouping applied to the leading group).
    void integersGroupedForTheReader_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("es 4 digits") << "es_ES" << qint64(1234) << "1234";
        QTest::newRow("es 5 digits") << "es_ES" << qint64(12345) << "12.345";
        QTest::newRow("es 7 digits") << "es_ES" << qint64(1942577) << "1.942.577";
        QTest::newRow("es 10 digits") << "es_ES" << qint64(1234567890) << "1.234.567.890";
        QTest::newRow("es negative") << "es_ES" << qint64(-1942577) << "-1.942.577";
        QTest::newRow("en 7 digits") << "en_US" << qint64(1942577) << "1,942,577";
        QTest::newRow("en 4 digits") << "en_US" << qint64(1234) << "1,234";
    }
    void integersGroupedForTheReader()
    {
        QFETCH(QString, locale);
        QFETCH(qint64, value);
        QFETCH(QString, text);
        QCOMPARE(fisura::ui::integerText(value, QLocale(locale)), text);
    }

    void plotTicksFollowSwitch()
    {
        QCustomPlot plot;
        fisura::ui::followUiLocale(&plot);
        plot.xAxis->setRange(0, 1);
        plot.replot();
        const auto hasDecimal = [&](QChar sep) {
            const QVector<QString> labels = plot.xAxis->tickVectorLabels();
            return std::any_of(labels.begin(), labels.end(),
                               [&](const QString& l) { return l.contains(sep) && l.size() > 1; });
        };
        QVERIFY2(hasDecimal(QLatin1Char('.')), "English ticks have no decimal point");
        language(LanguageManager::Language::Spanish);
        QTRY_COMPARE(plot.locale().decimalPoint(), QStringLiteral(","));
        plot.replot();
        QVERIFY2(hasDecimal(QLatin1Char(',')),
                 qPrintable(QStringList(plot.xAxis->tickVectorLabels()).join(QLatin1Char(' '))));
        QVERIFY(!hasDecimal(QLatin1Char('.')));
    }

    void trainLogFollowsSwitch()
    {
        fisura::ui::TrainLog log;
        fisura::EpochMetrics m;
        m.epoch = 2;
        m.trainLoss = 0.1234;
        m.valLoss = 0.25;
        log.addEpoch(fisura::TaskKind::Segment, m, 20);
        log.addNotice(QStringLiteral("early_stop"), QStringLiteral("no improvement for 3 epochs"));
        QVERIFY2(log.line(0).contains(QStringLiteral("0.1234")), qPrintable(log.line(0)));
        language(LanguageManager::Language::Spanish);
        QTRY_VERIFY2(log.line(0).contains(QStringLiteral("0,1234")), qPrintable(log.line(0)));
        QVERIFY2(log.line(0).contains(QStringLiteral("0,2500")), qPrintable(log.line(0)));
        QVERIFY2(!log.line(0).contains(QStringLiteral("Epoch")), qPrintable(log.line(0)));
        // Spanish times have no AM/PM ("7:18", not "7:18 AM").
        for (int i = 0; i < log.lineCount(); ++i) {
            QVERIFY2(!log.line(i).contains(QStringLiteral("AM")) &&
                         !log.line(i).contains(QStringLiteral("PM")),
                     qPrintable(log.line(i)));
        }
        QVERIFY2(!log.line(1).contains(QStringLiteral("No improvement")), qPrintable(log.line(1)));
        // A line written in Spanish stays Spanish; new lines follow the language in force.
        log.addEpoch(fisura::TaskKind::Segment, m, 20);
        QVERIFY2(log.line(2).contains(QStringLiteral("0,1234")), qPrintable(log.line(2)));
    }
};

QTEST_MAIN(TestLocale)
#include "tst_locale.moc"

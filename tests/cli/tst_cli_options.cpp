// fisura-cli's engine and measurement options as its --help shows them, compared with the option
// schema (fisura/options.h): every numeric option with a flag shows the schema's "[min - max]" and
// default, every choice the schema's values. Runs the real executable (argument 1).
#include <QtTest>

#include <QProcess>
#include <QRegularExpression>

#include "fisura/options.h"

using namespace fisura;

namespace
{

QString g_cli;

struct Shown {
    QString range, defaultText, choices;
};

/// Each flag of `command --help` with what its line shows: "[a - b]", "=default", "{a,b}".
QMap<QString, Shown> helpOf(const QString& command)
{
    QProcess p;
    p.start(g_cli, {command, QStringLiteral("--help")});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    QMap<QString, Shown> flags;
    // "  --size INT:INT in [16 - 4096] px=256   Input patch ...": the flag, then what CLI11
    // shows of it up to the description (two or more spaces later, or on the next line).
    static const QRegularExpression line(
        QStringLiteral("^\\s+(?:-\\w,)?(--[\\w-]+)(?:,--[\\w-]+)*(.*)$"));
    static const QRegularExpression gap(QStringLiteral("\\s{2,}"));
    static const QRegularExpression range(QStringLiteral("\\[([^\\] ]+) - ([^\\]]+)\\]"));
    static const QRegularExpression def(QStringLiteral("=(\\S+)$"));
    static const QRegularExpression set(QStringLiteral("\\{([^}]*)\\}"));
    for (const QString& l : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        const auto m = line.match(l);
        if (!m.hasMatch())
            continue;
        const QString opts = m.captured(2).trimmed().section(gap, 0, 0);
        Shown s;
        if (const auto r = range.match(opts); r.hasMatch())
            s.range = r.captured(1) + QLatin1Char(' ') + r.captured(2);
        if (const auto d = def.match(opts); d.hasMatch())
            s.defaultText = d.captured(1);
        if (const auto c = set.match(opts); c.hasMatch())
            s.choices = c.captured(1);
        flags.insert(m.captured(1), s);
    }
    return flags;
}

bool sameNumber(const QString& text, double v)
{
    bool ok = false;
    const double x = text.toDouble(&ok);
    return ok && (x == v || std::abs(x - v) <= 1e-12 * std::abs(v));
}

} // namespace

class TstCliOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void helpShowsTheSchema_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("set");
        QTest::addColumn<QStringList>("flags"); ///< the schema's flags the command declares
        QStringList train, infer, measure, compare;
        for (const OptionDef& d : optionSchema(OptionSet::Train))
            if (!d.cli.empty() && d.key != "model.type" && d.key != "prefer_cpu")
                train << QString::fromStdString(d.cli);
        for (const OptionDef& d : optionSchema(OptionSet::Infer))
            if (!d.cli.empty() && d.key != "prefer_cpu")
                infer << QString::fromStdString(d.cli);
        for (const OptionDef& d : optionSchema(OptionSet::Measure))
            if (!d.cli.empty())
                measure << QString::fromStdString(d.cli);
        for (const OptionDef& d : optionSchema(OptionSet::Compare))
            if (!d.cli.empty())
                compare << QString::fromStdString(d.cli);
        const QStringList tileAndBatch{QStringLiteral("--tile"), QStringLiteral("--batch")};
        QTest::newRow("train") << QStringLiteral("train") << int(OptionSet::Train) << train;
        QTest::newRow("infer") << QStringLiteral("infer") << int(OptionSet::Infer) << infer;
        QTest::newRow("propose") << QStringLiteral("propose") << int(OptionSet::Infer)
                                 << tileAndBatch;
        QTest::newRow("rank") << QStringLiteral("rank") << int(OptionSet::Infer) << tileAndBatch;
        QTest::newRow("measure") << QStringLiteral("measure") << int(OptionSet::Measure) << measure;
    }

    void helpShowsTheSchema()
    {
        QFETCH(QString, command);
        QFETCH(int, set);
        QFETCH(QStringList, flags);
        const auto help = helpOf(command);
        QVERIFY2(!help.isEmpty(), qPrintable(command + QStringLiteral(" --help failed")));
        QVERIFY(flags.size() >= 2);
        for (const QString& flag : flags) {
            QVERIFY2(help.contains(flag), qPrintable(command + QLatin1Char(' ') + flag));
            const Shown s = help.value(flag);
            const OptionDef* def = nullptr;
            for (const OptionDef& d : optionSchema(OptionSet(set)))
                if (QString::fromStdString(d.cli) == flag)
                    def = &d;
            QVERIFY(def);
            const QString what = command + QLatin1Char(' ') + flag + QStringLiteral(": ");
            if (def->isNumeric()) {
                const QStringList r = s.range.split(QLatin1Char(' '));
                QVERIFY2(r.size() == 2, qPrintable(what + QStringLiteral("no range")));
                QVERIFY2(sameNumber(r[0], def->min) && sameNumber(r[1], def->max),
                         qPrintable(what + s.range));
                // The default, or the word the command takes for 0 ("auto", "all").
                QVERIFY2(sameNumber(s.defaultText, def->defaultNumber) ||
                             (def->defaultNumber == 0 && !s.defaultText.isEmpty() &&
                              s.defaultText[0].isLetter()),
                         qPrintable(what + s.defaultText));
            } else if (def->type == OptionType::Choice) {
                QStringList choices;
                for (const auto& c : def->choices)
                    choices << QString::fromStdString(c);
                QCOMPARE(s.choices, choices.join(QLatin1Char(',')));
                QCOMPARE(s.defaultText, QString::fromStdString(def->defaultText));
            }
        }
    }

    void outOfRangeIsRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("epochs") << QStringList{QStringLiteral("train"), QStringLiteral("--epochs"),
                                               QStringLiteral("100001")}
                                << QStringLiteral("--epochs: must be 1..100000 epochs");
        QTest::newRow("nan lr") << QStringList{QStringLiteral("train"), QStringLiteral("--lr"),
                                               QStringLiteral("nan")}
                                << QStringLiteral("--lr: must be a finite number");
        QTest::newRow("inf val") << QStringList{QStringLiteral("train"), QStringLiteral("--val"),
                                                QStringLiteral("inf")}
                                 << QStringLiteral("--val: must be a finite number, 0..0.9");
        QTest::newRow("batch word")
            << QStringList{QStringLiteral("train"), QStringLiteral("--batch"),
                           QStringLiteral("many")}
            << QStringLiteral("--batch: must be auto or 0..4096 images");
        QTest::newRow("overlap") << QStringList{QStringLiteral("infer"),
                                                QStringLiteral("--overlap"), QStringLiteral("-2")}
                                 << QStringLiteral("--overlap: must be -1..2048 px");
        QTest::newRow("closing") << QStringList{QStringLiteral("measure"),
                                                QStringLiteral("--closing"), QStringLiteral("33")}
                                 << QStringLiteral("--closing: must be 0..32 px");
        QTest::newRow("class limit")
            << QStringList{QStringLiteral("measure"), QStringLiteral("--class-limits"),
                           QStringLiteral("0.1"), QStringLiteral("0"), QStringLiteral("1")}
            << QStringLiteral("--class-limits: must be 0.001..10000 mm");
        QTest::newRow("tolerance")
            << QStringList{QStringLiteral("compare"), QStringLiteral("--tolerance"),
                           QStringLiteral("0.1")}
            << QStringLiteral("--tolerance: must be 0.5..1000 px");
        QTest::newRow("preset") << QStringList{QStringLiteral("measure"),
                                               QStringLiteral("--classes"),
                                               QStringLiteral("en1992-xc9")}
                                << QStringLiteral("--classes: en1992-xc9 not in");
        QTest::newRow("tiny threshold")
            << QStringList{QStringLiteral("measure"), QStringLiteral("--threshold"),
                           QStringLiteral("0.0001")}
            << QStringLiteral("must be a crack probability 0.001..1");
    }

    void outOfRangeIsRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QProcess p;
        p.start(g_cli, args);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(p.exitCode() != 0);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(message), qPrintable(err));
    }
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FISURA_CLI [test options]\n", argv[0]);
        return 2;
    }
    g_cli = QString::fromLocal8Bit(argv[1]);
    TstCliOptions t;
    QStringList rest = app.arguments();
    rest.removeAt(1);
    return QTest::qExec(&t, rest);
}

#include "tst_cli_options.moc"

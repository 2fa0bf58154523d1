// The bad-input matrix (MATRIX.md), core side: every row fails with its ErrorCode (and, for
// write failures, its stable detail id), the detail names the file, and nothing already saved
// was changed or left half-written.
#include <QtTest>

#include <QTemporaryDir>

#include "badinput_rows.h"

using namespace fisura;

class TstBadInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void row_data()
    {
        QTest::addColumn<QString>("tag");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("kind");
        for (const badinput::Row& r : badinput::rows())
            QTest::newRow(r.tag.c_str())
                << QString::fromStdString(r.tag) << int(r.code) << QString::fromStdString(r.kind);
    }

    void row()
    {
        QFETCH(QString, tag);
        QFETCH(int, code);
        QFETCH(QString, kind);
        QTemporaryDir scratch;
        const badinput::Outcome o = badinput::run(tag.toStdString(), scratch.path().toStdString());
        if (!o.skip.empty())
            QSKIP(o.skip.c_str());
        const QString what = QString::fromStdString(o.status.toString());
        QVERIFY2(o.problems.empty(), (o.problems + " | " + o.status.toString()).c_str());
        qInfo("%s", what.toUtf8().constData());
        if (ErrorCode(code) == ErrorCode::Ok) { // accepted on purpose (see MATRIX.md)
            QVERIFY2(o.status.isOk(), qPrintable(what));
            return;
        }
        QVERIFY2(!o.status.isOk(), "accepted");
        QCOMPARE(errorCodeName(o.status.code()), errorCodeName(ErrorCode(code)));
        if (!kind.isEmpty())
            QVERIFY2(what.contains(kind + QStringLiteral(": ")), qPrintable(what));
        QVERIFY2(
            o.status.detail().find(o.file) != std::string::npos,
            qPrintable(what + QStringLiteral(" does not name ") + QString::fromStdString(o.file)));
    }
};

QTEST_GUILESS_MAIN(TstBadInput)
#include "tst_badinput.moc"

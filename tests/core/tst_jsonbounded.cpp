// The JSON reader every Fisura file goes through (util::parseJson: size and depth limits) and the
// rule that writes any file name into JSON losslessly (fisura/bytetext.h).
#include <QtTest>

#include <string>

#include "fisura/bytetext.h"
#include "util/json_bounded.h"

using namespace fisura;

namespace
{

std::string nested(int depth, const std::string& inner = "0")
{
    return std::string(size_t(depth), '[') + inner + std::string(size_t(depth), ']');
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class TstJsonBounded : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("changed");
        QTest::newRow("ascii") << QByteArray("scan 1.tif") << false;
        QTest::newRow("utf-8") << QByteArray("fisura-\xc3\xb1"
                                             "and\xc3\xba.tif")
                               << false;
        QTest::newRow("latin-1 byte ff") << QByteArray("scan\xff.tif") << true;
        QTest::newRow("lone continuation") << QByteArray("\x80") << true;
        QTest::newRow("cut sequence") << QByteArray("a\xe2\x82") << true;
        QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << true;
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << true;
        QTest::newRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << true;
        // The characters that stand for bytes, written literally: escaped too, so they survive.
        QTest::newRow("literal U+EF80") << QByteArray("\xee\xbe\x80") << true;
        QTest::newRow("literal U+EFFF") << QByteArray("x\xee\xbf\xbfy") << true;
        QTest::newRow("U+EF7F is ordinary") << QByteArray("\xee\xbd\xbf") << false;
        QTest::newRow("every byte") << [] {
            QByteArray all;
            for (int b = 1; b < 256; ++b)
                all.append(char(b));
            return all;
        }() << true;
    }
    void namesRoundTrip()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, changed);
        const std::string raw = bytes.toStdString();
        const std::string text = bytesToUtf8(raw);
        QVERIFY(isUtf8(text));
        QCOMPARE(text != raw, changed);
        QCOMPARE(needsUtf8Escape(raw), changed);
        QCOMPARE(utf8ToBytes(text), raw);
        // Through JSON text and back, as every file Fisura writes does.
        const nlohmann::json j{{"path", raw}, {raw, 1}};
        const std::string dumped = util::dumpJson(j);
        QVERIFY(isUtf8(dumped));
        auto back = util::parseJson(dumped, "test");
        QVERIFY2(back, back.status().toString().c_str());
        QCOMPARE((*back)["path"].get<std::string>(), raw);
        QVERIFY(back->contains(raw));
    }

    void byteFfIsTheDocumentedCharacter()
    {
        // README "File names in JSON": byte FF is U+EFFF, written as EE BF BF.
        QCOMPARE(bytesToUtf8("a\xff"), std::string("a\xee\xbf\xbf"));
        QCOMPARE(bytesToUtf8("\x80"), std::string("\xee\xbe\x80"));
        QCOMPARE(utf8ToBytes("\xee\xbf\xbf"), std::string("\xff"));
    }

    void plainDumpWouldThrow()
    {
        // What the aborts were: nlohmann refuses invalid UTF-8 (type_error 316).
        const nlohmann::json j{{"input", "scan\xff.tif"}};
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::type_error, (void)j.dump());
        QVERIFY(isUtf8(util::dumpJson(j)));
    }

    void depthLimit_data()
    {
        QTest::addColumn<int>("depth");
        QTest::addColumn<bool>("ok");
        QTest::newRow("64 levels") << 64 << true;
        QTest::newRow("65 levels") << 65 << false;
        QTest::newRow("50,000 levels (issue 33)") << 50000 << false;
        QTest::newRow("80,000 levels (issue 33)") << 80000 << false;
    }
    void depthLimit()
    {
        QFETCH(int, depth);
        QFETCH(bool, ok);
        auto j = util::parseJson(nested(depth), "deep.json");
        QCOMPARE(bool(j), ok);
        if (!ok) {
            QCOMPARE(j.status().code(), ErrorCode::Corrupt);
            QVERIFY2(j.status().detail().find("deep.json") == 0, j.status().detail().c_str());
            QVERIFY(j.status().detail().find("deeper than 64") != std::string::npos);
        }
        // Objects count as levels too.
        std::string obj;
        for (int i = 0; i < depth; ++i)
            obj += "{\"a\":";
        obj += "1" + std::string(size_t(depth), '}');
        QCOMPARE(bool(util::parseJson(obj, "deep.json")), ok);
    }

    void sizeLimit()
    {
        util::JsonLimits limits;
        limits.maxBytes = 10;
        QVERIFY(util::parseJson("[1,2,3,4]", "x", limits));
        auto j = util::parseJson("[1,2,3,4,5]", "x.json", limits);
        QVERIFY(!j);
        QCOMPARE(j.status().code(), ErrorCode::Corrupt);
        QVERIFY(j.status().detail().find("more than the 10 allowed") != std::string::npos);
    }

    void syntaxErrorNamesFileAndPlace()
    {
        auto j = util::parseJson("{\"a\": tru}", "/p/project.json");
        QVERIFY(!j);
        QCOMPARE(j.status().code(), ErrorCode::Corrupt);
        const QString d = q(j.status().detail());
        QVERIFY2(d.startsWith(QStringLiteral("/p/project.json: not JSON (")), qPrintable(d));
        QVERIFY2(d.contains(QStringLiteral("column")), qPrintable(d));
        QVERIFY(!util::parseJson("", "e"));
        QVERIFY(!util::parseJson("[1] [2]", "two values"));
    }

    void readTextFileRefusesUnreadAboveLimit()
    {
        QTemporaryDir tmp;
        const std::string path =
            QDir(tmp.path()).filePath(QStringLiteral("big.json")).toStdString();
        {
            QFile f(q(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(2000, ' '));
        }
        auto t = util::readTextFile(path, 1000);
        QVERIFY(!t);
        QCOMPARE(t.status().code(), ErrorCode::TooLarge);
        QVERIFY(util::readTextFile(path, 2000));
        QCOMPARE(util::readTextFile(path + ".missing").status().code(), ErrorCode::NotFound);
        QCOMPARE(util::readTextFile(tmp.path().toStdString()).status().code(), ErrorCode::IoError);
    }
};

QTEST_GUILESS_MAIN(TstJsonBounded)
#include "tst_jsonbounded.moc"

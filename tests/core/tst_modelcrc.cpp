// Damaged weights are detected (issue 33): every record of a model file is checked against its
// CRC-32 before LibTorch reads it (eight NaN bytes inside a .fisura gave an all-zero map and exit
// 0), weights that are not finite numbers are refused even in an intact file, and the zip reader
// refuses the containers a hostile file could build (overlapping records, a deflate bomb).
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <zlib.h>

#include "compat/torch_compat.h"

#include "fisura/model.h"
#include "models/model_impl.h"
#include "models/zip_check.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

bool contains(const Status& st, const std::string& text)
{
    return st.detail().find(text) != std::string::npos;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

ModelConfig unet()
{
    ModelConfig c;
    c.type = ModelType::UNet;
    c.inputSize = 64;
    c.depth = 2;
    c.width = 4;
    return c;
}

/// A small U-Net whose every weight is `value`, saved at `path`.
void saveConstantModel(const std::string& path, float value)
{
    auto m = Model::create(unet());
    QVERIFY(m);
    torch::NoGradGuard g;
    for (auto& p : m->impl()->net->parameters())
        p.fill_(value);
    QVERIFY(m->save(path));
}

// ---- a zip written by hand, for the container checks ----------------------------------------

void put16(std::string& s, uint16_t v)
{
    s += char(v & 0xFF);
    s += char(v >> 8);
}
void put32(std::string& s, uint32_t v)
{
    put16(s, uint16_t(v & 0xFFFF));
    put16(s, uint16_t(v >> 16));
}

struct Record {
    std::string name, data;
    bool deflate = false;
    uint32_t claimedSize = 0; ///< 0: the real size
};

std::string rawDeflate(const std::string& data)
{
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, uLong(data.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

/// Local headers and data, central directory, end record (PKWARE APPNOTE 4.3). `sameOffset`
/// points every directory entry at the first record (overlapping records).
std::string makeZip(const std::vector<Record>& records, bool sameOffset = false)
{
    std::string body, dir;
    uint32_t firstOffset = 0;
    for (const auto& r : records) {
        const std::string packed = r.deflate ? rawDeflate(r.data) : r.data;
        const uint32_t crc =
            uint32_t(crc32(0, reinterpret_cast<const Bytef*>(r.data.data()), uInt(r.data.size())));
        const uint32_t size = r.claimedSize ? r.claimedSize : uint32_t(r.data.size());
        const uint32_t offset = sameOffset ? firstOffset : uint32_t(body.size());
        std::string h;
        put32(h, 0x04034b50);
        put16(h, 20);
        put16(h, 0);
        put16(h, r.deflate ? 8 : 0);
        put32(h, 0); // time, date
        put32(h, crc);
        put32(h, uint32_t(packed.size()));
        put32(h, size);
        put16(h, uint16_t(r.name.size()));
        put16(h, 0);
        if (!sameOffset || body.empty())
            body += h + r.name + packed;
        std::string c;
        put32(c, 0x02014b50);
        put16(c, 20);
        put16(c, 20);
        put16(c, 0);
        put16(c, r.deflate ? 8 : 0);
        put32(c, 0);
        put32(c, crc);
        put32(c, uint32_t(packed.size()));
        put32(c, size);
        put16(c, uint16_t(r.name.size()));
        put16(c, 0);
        put16(c, 0);
        put16(c, 0);
        put16(c, 0);
        put32(c, 0);
        put32(c, offset);
        dir += c + r.name;
    }
    std::string end;
    put32(end, 0x06054b50);
    put32(end, 0);
    put16(end, uint16_t(records.size()));
    put16(end, uint16_t(records.size()));
    put32(end, uint32_t(dir.size()));
    put32(end, uint32_t(body.size()));
    put16(end, 0);
    return body + dir + end;
}

Status verify(const std::string& bytes)
{
    return models::verifyZipBytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

} // namespace

class TstModelCrc : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { torch::set_num_threads(1); }

    /// issue 33: "eight NaN bytes inside a .fisura give an all-zero map with exit 0".
    void nanBytesInsideAWeightRecordAreRefused()
    {
        QTemporaryDir d;
        const std::string path = s(d.filePath(QStringLiteral("m.fisura")));
        saveConstantModel(path, 0.125f);
        QVERIFY2(Model::load(path), "the intact model loads");
        std::string bytes = readFile(path);
        float v = 0.125f;
        const std::string pattern(reinterpret_cast<const char*>(&v), 4);
        const size_t at = bytes.find(pattern + pattern + pattern);
        QVERIFY(at != std::string::npos);
        const uint32_t nan = 0x7fc00000u;
        std::memcpy(&bytes[at], &nan, 4);
        std::memcpy(&bytes[at + 4], &nan, 4);
        writeFile(path, bytes);
        auto r = Model::load(path);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), path), r.status().detail().c_str());
        QVERIFY2(contains(r.status(), "CRC-32 does not match"), r.status().detail().c_str());
        QCOMPARE(readFile(path), bytes); // loading never writes
    }

    /// Any byte of the file changed: refused, or (padding, dates, unused header fields) the very
    /// same weights and metadata load. Never other weights without a word.
    void aFlippedByteNeverLoadsOtherWeights()
    {
        QTemporaryDir d;
        const std::string path = s(d.filePath(QStringLiteral("m.fisura")));
        saveConstantModel(path, 0.5f);
        auto original = Model::load(path);
        QVERIFY(original);
        const std::string good = readFile(path);
        int refused = 0, same = 0;
        // Every 7th byte of the first local header and of the central directory at the end,
        // every 397th in between (the weights).
        std::vector<size_t> positions;
        for (size_t at = 0; at < good.size(); at += (at < 256 || at + 1024 > good.size()) ? 7 : 397)
            positions.push_back(at);
        for (size_t at : positions) {
            std::string bytes = good;
            bytes[at] = char(bytes[at] ^ 0x5A);
            writeFile(path, bytes);
            auto r = Model::load(path);
            if (!r) { // a damaged method or flags field reads as an unknown compression
                QVERIFY2(r.status().code() == ErrorCode::Corrupt ||
                             r.status().code() == ErrorCode::Unsupported,
                         r.status().toString().c_str());
                ++refused;
                continue;
            }
            QCOMPARE(r->metadataJson(), original->metadataJson());
            const auto a = original->impl()->net->named_parameters(true);
            const auto b = r->impl()->net->named_parameters(true);
            QCOMPARE(a.size(), b.size());
            for (size_t i = 0; i < a.size(); ++i)
                QVERIFY2(torch::equal(a[i].value(), b[i].value()),
                         qPrintable(QStringLiteral("byte %1 changed %2 silently")
                                        .arg(at)
                                        .arg(QString::fromStdString(a[i].key()))));
            ++same;
        }
        qInfo("%d positions refused, %d harmless (zip padding and header fields)", refused, same);
        QVERIFY(refused > same);
    }

    /// A file whose checksums are right but whose weights are NaN (a diverged run).
    void nonFiniteWeightsAreRefused_data()
    {
        QTest::addColumn<float>("value");
        QTest::newRow("nan") << std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("inf") << std::numeric_limits<float>::infinity();
        QTest::newRow("-inf") << -std::numeric_limits<float>::infinity();
    }
    void nonFiniteWeightsAreRefused()
    {
        QFETCH(float, value);
        QTemporaryDir d;
        const std::string path = s(d.filePath(QStringLiteral("m.fisura")));
        auto m = Model::create(unet());
        QVERIFY(m);
        {
            torch::NoGradGuard g;
            m->impl()->net->parameters().back().view({-1})[0].fill_(value);
        }
        QVERIFY(m->save(path));
        QVERIFY(models::verifyZipFile(path)); // intact container
        auto r = Model::load(path);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), "not finite"), r.status().detail().c_str());
        QVERIFY2(contains(r.status(), "1 of the"), r.status().detail().c_str());
    }

    void nonFiniteTorchScriptIsRefused()
    {
        QTemporaryDir d;
        const std::string path = s(d.filePath(QStringLiteral("m.pt")));
        torch::jit::Module m("FisuraNanModel");
        m.register_parameter("w", torch::full({3}, std::numeric_limits<float>::quiet_NaN()), false);
        m.define("def forward(self, x):\n    return x[:, 0:1] * self.w[0]\n");
        m.save(path);
        std::ofstream(path + ".json") << R"({"type": "unet", "input_size": 64})";
        ModelLoadOptions trusted;
        trusted.allowTorchScript = true;
        auto r = Model::load(path, trusted);
        QVERIFY(!r);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), "not finite"), r.status().detail().c_str());
    }

    void savedModelsPassTheCheck()
    {
        QTemporaryDir d;
        const std::string path = s(d.filePath(QStringLiteral("m.fisura")));
        saveConstantModel(path, 0.25f);
        QVERIFY(models::verifyZipFile(path));
        QVERIFY(models::verifyZipBytes(reinterpret_cast<const uint8_t*>(readFile(path).data()),
                                       readFile(path).size()));
    }

    void containers_data()
    {
        QTest::addColumn<QByteArray>("zip");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("says");
        const std::string text(5000, 'a');
        const auto row = [](const char* tag, const std::string& z, ErrorCode c, const char* says) {
            QTest::newRow(tag) << QByteArray::fromStdString(z) << int(c) << QString::fromUtf8(says);
        };
        row("stored", makeZip({{"a", "hello"}, {"b", "world"}}), ErrorCode::Ok, "");
        row("deflated", makeZip({{"data.pkl", text, true}}), ErrorCode::Ok, "");
        row("empty archive", makeZip({}), ErrorCode::Ok, "");
        std::string bad = makeZip({{"a", "hello"}});
        bad[30 + 1 + 2] ^= 1; // a byte of the record's data
        row("stored, flipped", bad, ErrorCode::Corrupt, "CRC-32");
        std::string badDeflate = makeZip({{"p", text, true}});
        badDeflate[30 + 1 + 3] ^= 0x40;
        row("deflated, flipped", badDeflate, ErrorCode::Corrupt, "");
        row("overlapping records", makeZip({{"a", "hello"}, {"b", "hello"}}, true),
            ErrorCode::Corrupt, "overlap");
        row("deflate bomb claim", makeZip({{"p", text, true, 2000000000u}}), ErrorCode::Corrupt,
            "claims");
        row("size lie", makeZip({{"p", text, true, 6000u}}), ErrorCode::Corrupt, "5000 bytes");
        row("not a zip", "just text", ErrorCode::Corrupt, "not a zip");
        row("empty", "", ErrorCode::Corrupt, "not a zip");
        std::string cut = makeZip({{"a", "hello"}});
        row("cut", cut.substr(0, cut.size() - 3), ErrorCode::Corrupt, "");
    }
    void containers()
    {
        QFETCH(QByteArray, zip);
        QFETCH(int, code);
        QFETCH(QString, says);
        const Status st = verify(zip.toStdString());
        QCOMPARE(int(st.code()), code);
        QVERIFY2(QString::fromStdString(st.detail()).contains(says), st.detail().c_str());
    }
};

QTEST_GUILESS_MAIN(TstModelCrc)
#include "tst_modelcrc.moc"

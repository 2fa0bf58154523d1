// Tiled inference: alignment and seams (a model whose output is its input pixel), constant
// models, classifier heatmaps, autoencoder scores, channel conversion, bounded memory,
// cancellation, TorchScript import, and the error paths.
//
// The test models are TorchScript modules written here the way PyTorch's torch.jit.save writes
// them (torch::jit::Module::define compiles the same TorchScript source), each with the JSON
// sidecar Fisura reads beside an exported model.
#include <torch/script.h>

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <fstream>

#include <nlohmann/json.hpp>

#include "fisura/infer.h"
#include "fisura/model.h"
#include "fisura/sysinfo.h"
#include "fisura/tiledimage.h"
#include "map_fixtures.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// A TorchScript module with `body` as forward(self, x), plus its sidecar.
void writeScript(const std::string& path, const std::string& body, const std::string& sidecar)
{
    torch::jit::Module m("FisuraTestModel");
    m.define("def forward(self, x):\n" + body + "\n");
    m.save(path);
    std::ofstream(path + ".json") << sidecar;
}

/// Output map = the input's first channel (a "probability" of x/255).
std::string identityUNet(const QTemporaryDir& d, int inputSize = 64)
{
    const std::string p = s(d.filePath(QStringLiteral("identity.pt")));
    writeScript(p, "    return x[:, 0:1]",
                R"({"format": "fisura-torchscript", "type": "unet", "input_size": )" +
                    std::to_string(inputSize) +
                    R"(, "output": "probabilities",
                    "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}})");
    return p;
}

/// The test's TorchScript modules are its own: consent given.
ModelLoadOptions trusted()
{
    ModelLoadOptions o;
    o.allowTorchScript = true;
    return o;
}

using mapfixtures::pattern;
using mapfixtures::readMap;

/// Rows marked "cuda" run where CUDA is usable (the `gpu` ctest label) and skip elsewhere.
bool cudaUsable()
{
    static const bool usable = queryMachine().cudaUsable;
    return usable;
}

/// An engine on the CPU, or on the first GPU when `cuda`.
std::unique_ptr<TiledInference> engine(const std::string& modelPath, InferOptions o = {},
                                       bool cuda = false)
{
    auto m = Model::load(modelPath, trusted());
    if (!m)
        qFatal("model: %s", m.status().toString().c_str());
    o.preferCpu = !cuda;
    o.gpus = cuda ? 1 : 0;
    auto e = TiledInference::create(std::move(*m), o);
    if (!e)
        qFatal("engine: %s", e.status().toString().c_str());
    return std::move(*e);
}

int countFiles(const QString& dir)
{
    return int(QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).size());
}

} // namespace

class TstInfer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tileOriginsCoverTheAxis_data()
    {
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("tile");
        QTest::addColumn<int>("overlap");
        QTest::newRow("shorter than a tile") << 50 << 64 << 8;
        QTest::newRow("exactly one tile") << 64 << 64 << 8;
        QTest::newRow("grid fits") << 64 + 56 * 3 << 64 << 8;
        QTest::newRow("last flush") << 300 << 64 << 16;
        QTest::newRow("no overlap") << 1000 << 128 << 0;
    }
    void tileOriginsCoverTheAxis()
    {
        QFETCH(int, length);
        QFETCH(int, tile);
        QFETCH(int, overlap);
        const auto o = tileOrigins(length, tile, overlap);
        QCOMPARE(o.front(), 0);
        QCOMPARE(o.back() + tile >= length, true);
        if (length >= tile)
            QCOMPARE(o.back(), length - tile);
        for (size_t i = 1; i < o.size(); ++i) {
            QVERIFY(o[i] > o[i - 1]);
            QVERIFY(o[i] - o[i - 1] <= tile - overlap); // every pixel covered, overlap kept
        }
    }

    // The map must equal the input pixel for pixel: any seam, misplaced tile, wrong weight
    // normalisation or bad edge padding would change some values. On a GPU too (the device
    // stage's upload, blending kernels and row download), in fp32.
    void identityModelReproducesInputExactly_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("overlap");
        QTest::addColumn<bool>("gaussian");
        QTest::addColumn<bool>("cuda");
        for (const bool cuda : {false, true}) {
            const char* on = cuda ? ", cuda" : "";
            QTest::addRow("cosine 300x217%s", on) << 300 << 217 << 16 << false << cuda;
            QTest::addRow("gaussian 300x217%s", on) << 300 << 217 << 16 << true << cuda;
            QTest::addRow("smaller than a tile%s", on) << 40 << 23 << 16 << false << cuda;
            QTest::addRow("one row of tiles%s", on) << 513 << 64 << 32 << false << cuda;
            QTest::addRow("no overlap%s", on) << 200 << 190 << 0 << false << cuda;
        }
    }
    void identityModelReproducesInputExactly()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, overlap);
        QFETCH(bool, gaussian);
        QFETCH(bool, cuda);
        if (cuda && !cudaUsable())
            QSKIP("no usable CUDA GPU");
        QTemporaryDir d;
        const Image in = pattern(width, height, 3);
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, in, {64, true, 0.5}).isOk());
        InferOptions o;
        o.tileSize = 64;
        o.overlap = overlap;
        o.batchSize = 3; // batches that span tile rows
        o.window = gaussian ? BlendWindow::Gaussian : BlendWindow::Cosine;
        o.output.tileSize = 64;
        if (cuda)
            o.precision = Precision::FP32; // exact by construction, as on the CPU
        auto e = engine(identityUNet(d), o, cuda);
        QCOMPARE(e->kind(), MapKind::Probability);
        const std::string outPath = s(d.filePath(QStringLiteral("map.tif")));
        auto r = e->run(inPath, outPath);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->device, std::string(cuda ? "cuda:0" : "cpu"));
        QCOMPARE(r->width, width);
        QCOMPARE(r->height, height);
        const Image out = readMap(outPath);
        QCOMPARE(out.width, width);
        QCOMPARE(out.height, height);
        QCOMPARE(out.channels, 1);
        int mismatches = 0;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                if (out.row(y)[x] != in.row(y)[size_t(x) * 3])
                    ++mismatches;
        QCOMPARE(mismatches, 0);
        // The map carries the input's pixel size and has overviews when large enough.
        auto t = TiledImage::open(outPath);
        QVERIFY(t.isOk());
        QVERIFY(std::abs((*t)->info().pixelSizeXmm - 0.5) < 1e-6);
    }

    void constantModelIsConstantAcrossSeams()
    {
        QTemporaryDir d;
        const std::string model = s(d.filePath(QStringLiteral("const.pt")));
        // logit 0.4055 -> probability 0.6 -> 153
        writeScript(model, "    return torch.zeros_like(x[:, 0:1]) + 0.4054651",
                    R"({"type": "unet", "input_size": 32})");
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, pattern(257, 190, 3), {0, true, 0}).isOk()); // striped
        InferOptions o;
        o.tileSize = 64;
        o.overlap = 24;
        auto r = engine(model, o)->run(inPath, s(d.filePath(QStringLiteral("map.tif"))));
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        const Image out = readMap(s(d.filePath(QStringLiteral("map.tif"))));
        QCOMPARE(out.width, 257);
        for (uint8_t v : out.pixels)
            QCOMPARE(int(v), 153);
    }

    void grayAndRgbaInputsAreConverted_data()
    {
        QTest::addColumn<int>("channels");
        QTest::newRow("gray") << 1;
        QTest::newRow("rgba") << 4;
    }
    void grayAndRgbaInputsAreConverted()
    {
        QFETCH(int, channels);
        QTemporaryDir d;
        const Image in = pattern(150, 99, channels);
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, in, {32, false, 0}).isOk());
        InferOptions o;
        o.tileSize = 64;
        o.overlap = 8;
        auto r = engine(identityUNet(d), o)->run(inPath, s(d.filePath(QStringLiteral("m.tif"))));
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        const Image out = readMap(s(d.filePath(QStringLiteral("m.tif"))));
        for (int y = 0; y < 99; ++y) // gray: the value; RGBA: red, alpha ignored
            for (int x = 0; x < 150; ++x)
                QCOMPARE(int(out.row(y)[x]), int(in.row(y)[size_t(x) * size_t(channels)]));
    }

    void classifierGivesPatchHeatmap()
    {
        QTemporaryDir d;
        const std::string model = s(d.filePath(QStringLiteral("cls.pt")));
        // P(cracked) = the patch's mean brightness.
        writeScript(model,
                    "    m = x.mean(dim=[1, 2, 3]).unsqueeze(1)\n"
                    "    return torch.cat([m, 1.0 - m], dim=1)",
                    R"({"type": "classifier", "input_size": 32, "output": "probabilities",
                        "class_names": ["cracked", "uncracked"],
                        "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}})");
        // Left half dark (40), right half bright (200).
        Image in = Image::make(256, 96, 3, 40);
        for (int y = 0; y < 96; ++y)
            std::fill(in.row(y) + 128 * 3, in.row(y) + 256 * 3, uint8_t(200));
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, in).isOk());
        auto e = engine(model);
        QCOMPARE(e->kind(), MapKind::Heatmap);
        QCOMPARE(e->tileSize(), 32);
        QCOMPARE(e->overlap(), 16); // a patch every half patch by default
        auto r = e->run(inPath, s(d.filePath(QStringLiteral("h.tif"))));
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        const Image out = readMap(s(d.filePath(QStringLiteral("h.tif"))));
        QCOMPARE(int(out.row(50)[10]), 40);           // dark patches: P = 40/255
        QCOMPARE(int(out.row(50)[250]), 200);         // bright ones
        QVERIFY(out.row(50)[120] < out.row(50)[136]); // a smooth step across the border
        // A classifier only takes patches of its input size.
        InferOptions bad;
        bad.tileSize = 64;
        bad.preferCpu = true;
        auto m = Model::load(model, trusted());
        QVERIFY(m.isOk());
        auto refused = TiledInference::create(std::move(*m), bad);
        QVERIFY(!refused.isOk());
        QCOMPARE(refused.status().code(), ErrorCode::InvalidArgument);
    }

    void autoencoderGivesScoreScaledToThreshold()
    {
        QTemporaryDir d;
        const std::string model = s(d.filePath(QStringLiteral("ae.pt")));
        writeScript(model, "    return torch.zeros_like(x)",
                    R"({"type": "autoencoder", "input_size": 32, "threshold": 0.25})");
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, Image::make(100, 70, 3, 102)).isOk()); // x = 0.4
        auto e = engine(model);
        QCOMPARE(e->kind(), MapKind::Score);
        auto r = e->run(inPath, s(d.filePath(QStringLiteral("s.tif"))));
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        const Image out = readMap(s(d.filePath(QStringLiteral("s.tif"))));
        // error 0.16 = 0.64 x threshold -> 128 x 0.64 = 81.9
        for (uint8_t v : out.pixels)
            QCOMPARE(int(v), 82);
    }

    void fisuraUNetRunsAndTimesNetwork()
    {
        QTemporaryDir d;
        ModelConfig c;
        c.type = ModelType::UNet;
        c.inputSize = 64;
        c.depth = 2;
        c.width = 4;
        auto m = Model::create(c);
        QVERIFY(m.isOk());
        const std::string mp = s(d.filePath(QStringLiteral("u.fmodel")));
        QVERIFY(m->save(mp).isOk());
        auto loaded = Model::load(mp);
        QVERIFY(loaded.isOk());
        QCOMPARE(loaded->info().tileSize, 0);
        QCOMPARE(loaded->info().source, std::string("fisura"));
        InferOptions o;
        o.preferCpu = true;
        auto e = TiledInference::create(std::move(*loaded), o);
        QVERIFY2(e.isOk(), e.status().toString().c_str());
        QCOMPARE((*e)->tileSize(), 512); // U-Nets get large tiles by default
        QCOMPARE((*e)->overlap(), 64);
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, pattern(700, 300, 3), {128, true, 0}).isOk());
        auto r = (*e)->run(inPath, s(d.filePath(QStringLiteral("p.tif"))));
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(r->tiles, int64_t(2));
        QCOMPARE(r->device, std::string("cpu"));
        QVERIFY(r->megapixelsPerSecond > 0);
        auto net = (*e)->timeNetworkOnly(r->tiles);
        QVERIFY(net.isOk());
        QVERIFY(*net > 0);
        // The same engine serves several scans.
        QVERIFY((*e)->run(inPath, s(d.filePath(QStringLiteral("p2.tif")))).isOk());
        QCOMPARE(readMap(s(d.filePath(QStringLiteral("p2.tif")))).pixels,
                 readMap(s(d.filePath(QStringLiteral("p.tif")))).pixels);
        // The statistics say what held the run back, in words a script can match.
        const std::string limit = inferLimitName(inferLimitOf(*r));
        QVERIFY(limit == "device" || limit == "input" || limit == "writer");
        QVERIFY(toJson(*r).find("\"limited_by\": \"" + limit + "\"") != std::string::npos);
        // What was expected to set the pace, said before the run: both rates measured.
        QVERIFY(r->forecast.measured);
        QCOMPARE(r->forecast.inputCompression, std::string("deflate"));
        QVERIFY(r->forecast.decodeMegapixelsPerThread > 0);
        QVERIFY(r->forecast.networkMegapixelsPerSecond > 0);
        QCOMPARE(r->forecast.devices, 1);
        QVERIFY(r->forecast.readerThreads >= 1);
        QVERIFY(toJson(*r).find("\"forecast\": {") != std::string::npos);
        auto f = (*e)->forecast(inPath);
        QVERIFY2(f.isOk(), f.status().toString().c_str());
        QVERIFY(f->measured);
        QCOMPARE(f->limit,
                 paceLimitOf(f->decodeMegapixelsPerSecond, f->networkMegapixelsPerSecond));
        // The run that follows the forecast of its scan takes it rather than sampling again.
        auto again = (*e)->run(inPath, s(d.filePath(QStringLiteral("p3.tif"))));
        QVERIFY2(again.isOk(), again.status().toString().c_str());
        QCOMPARE(again->forecast.decodeMegapixelsPerThread, f->decodeMegapixelsPerThread);
        // A PNG is decoded whole before its tiles: no blocks to sample, no forecast (and
        // forecast() reads only its first bytes: a PNG signature is all this file has).
        const std::string png = s(d.filePath(QStringLiteral("in.png")));
        std::ofstream(png, std::ios::binary) << "\x89PNG\r\n\x1a\n and no image";
        auto fp = (*e)->forecast(png);
        QVERIFY2(fp.isOk(), fp.status().toString().c_str());
        QVERIFY(!fp->measured);
        QCOMPARE(fp->inputCompression, std::string("png"));
    }

    // Host memory of the pipeline depends on width, tile and batch, not on the height.
    void memoryIsBoundedIndependentOfHeight()
    {
        QTemporaryDir d;
        const std::string model = identityUNet(d);
        InferOptions o;
        o.tileSize = 64;
        o.overlap = 8;
        o.batchSize = 4;
        o.prefetchBatches = 2;
        o.readerThreads = 1;
        auto e = engine(model, o);
        uint64_t peaks[2] = {0, 0};
        const int heights[2] = {512, 8192};
        for (int i = 0; i < 2; ++i) {
            const std::string inPath = s(d.filePath(QStringLiteral("tall%1.tif").arg(i)));
            QVERIFY(writeTiff(inPath, pattern(256, heights[i], 3), {64, false, 0}).isOk());
            auto r = e->run(inPath, s(d.filePath(QStringLiteral("tall%1.map.tif").arg(i))));
            QVERIFY2(r.isOk(), r.status().toString().c_str());
            peaks[i] = r->peakPipelineBytes;
        }
        // Bound: input batches (the prefetch, one being handed to the device), finished rows
        // (6 queued, 1 being written, 1 being made; chunks of at most 64 rows), the band (tile
        // rows of int64 fixed-point sums since the blending became exact).
        const uint64_t batchBytes = 4ull * 64 * 64 * 3, rowsBytes = 64ull * 256;
        const uint64_t bound = (2 + 1) * batchBytes + 8 * rowsBytes + 64ull * 256 * 8;
        // The bound does not grow with the height; the tall scan is over 15x larger than it.
        for (uint64_t p : peaks) {
            QVERIFY(p > 0);
            QVERIFY2(p <= bound, (std::to_string(p) + " > " + std::to_string(bound)).c_str());
        }
        QVERIFY(bound * 15 < 8192ull * 256 * 3);
    }

    // The run says what it cost the CPU: the process's and the readers' CPU time, which a
    // reader's wall time can only exceed, and the writer's compression.
    void runReportsItsCpuTime()
    {
        QTemporaryDir d;
        const std::string model = identityUNet(d);
        InferOptions o;
        o.tileSize = 64;
        o.overlap = 8;
        o.readerThreads = 2;
        auto e = engine(model, o);
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, pattern(512, 1024, 3), {64, false, 0}).isOk());
        auto r = e->run(inPath, s(d.filePath(QStringLiteral("in.map.tif"))));
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QVERIFY(r->hostThreads >= 1);
        QVERIFY(r->readCpuSeconds > 0.0);
        QVERIFY(r->readCpuSeconds <= r->readSeconds + 0.01);
        QVERIFY(r->cpuSeconds >= r->readCpuSeconds);
        QVERIFY(r->writer.compressCpuSeconds > 0.0);
        QVERIFY(r->cpuSeconds >= r->writer.compressCpuSeconds);
        const auto j = nlohmann::json::parse(toJson(*r));
        QCOMPARE(j.at("read_cpu_seconds").get<double>(), r->readCpuSeconds);
        QCOMPARE(j.at("cpu_seconds").get<double>(), r->cpuSeconds);
        QCOMPARE(j.at("host_threads").get<int>(), r->hostThreads);
        QCOMPARE(j.at("writer").at("compress_cpu_seconds").get<double>(),
                 r->writer.compressCpuSeconds);
    }

    void cancelAnswersPromptlyAndLeavesNothing()
    {
        QTemporaryDir d;
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, pattern(2048, 2048, 3), {256, false, 0}).isOk());
        QDir().mkpath(d.filePath(QStringLiteral("out")));
        const QString outDir = d.filePath(QStringLiteral("out"));
        const std::string outPath = s(outDir + QStringLiteral("/map.tif"));
        { // an older map at the output path stays as it was
            std::ofstream(outPath) << "previous map";
        }
        InferOptions o;
        o.tileSize = 32;
        o.overlap = 8;
        o.batchSize = 2;
        auto e = engine(identityUNet(d, 32), o);
        CancelToken cancel;
        std::atomic<bool> fired{false};
        std::chrono::steady_clock::time_point cancelledAt;
        CallbackProgressSink sink([&](const Progress& p) {
            if (p.fraction > 0.05 && !fired.exchange(true)) {
                cancelledAt = std::chrono::steady_clock::now();
                cancel.cancel();
            }
        });
        auto r = e->run(inPath, outPath, cancel, &sink);
        const double latency =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - cancelledAt).count();
        QVERIFY(fired.load());
        QVERIFY(!r.isOk());
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        QVERIFY2(latency < 0.5, std::to_string(latency).c_str());
        QCOMPARE(countFiles(outDir), 1); // no temporary or partial files
        std::ifstream in(outPath);
        std::string text;
        std::getline(in, text);
        QCOMPARE(text, std::string("previous map"));
    }

    void errorsAreValues()
    {
        QTemporaryDir d;
        const std::string model = identityUNet(d);
        const std::string inPath = s(d.filePath(QStringLiteral("in.tif")));
        QVERIFY(writeTiff(inPath, pattern(100, 100, 3)).isOk());
        InferOptions o;
        o.tileSize = 64;
        auto e = engine(model, o);

        auto missing = e->run(s(d.filePath(QStringLiteral("nope.tif"))),
                              s(d.filePath(QStringLiteral("x.tif"))));
        QCOMPARE(missing.status().code(), ErrorCode::NotFound);
        QCOMPARE(e->forecast(s(d.filePath(QStringLiteral("nope.tif")))).status().code(),
                 ErrorCode::NotFound);

        auto self = e->run(inPath, inPath);
        QCOMPARE(self.status().code(), ErrorCode::InvalidArgument);

        auto noDir = e->run(inPath, s(d.filePath(QStringLiteral("no/such/dir/x.tif"))));
        QVERIFY(!noDir.isOk());
        QCOMPARE(noDir.status().code(), ErrorCode::IoError);

        // A truncated input fails with the file named, and leaves no map.
        QFile::copy(d.filePath(QStringLiteral("in.tif")), d.filePath(QStringLiteral("cut.tif")));
        QFile cut(d.filePath(QStringLiteral("cut.tif")));
        QVERIFY(cut.open(QIODevice::ReadWrite));
        QVERIFY(cut.resize(cut.size() / 2));
        cut.close();
        const std::string cutMap = s(d.filePath(QStringLiteral("cut.map.tif")));
        auto broken = e->run(s(d.filePath(QStringLiteral("cut.tif"))), cutMap);
        QVERIFY(!broken.isOk());
        QVERIFY(broken.status().detail().find("cut.tif") != std::string::npos);
        QVERIFY(!QFile::exists(QString::fromStdString(cutMap)));

        // Options out of range.
        auto tryCreate = [&](int tile, int overlap) {
            auto m = Model::load(model, trusted());
            InferOptions bad;
            bad.preferCpu = true;
            bad.tileSize = tile;
            bad.overlap = overlap;
            return TiledInference::create(std::move(*m), bad).status().code();
        };
        QCOMPARE(tryCreate(64, 40), ErrorCode::InvalidArgument); // overlap > tile / 2
        QCOMPARE(tryCreate(8, 0), ErrorCode::InvalidArgument);   // tile too small

        // A Fisura U-Net needs tiles that are a multiple of its stride.
        ModelConfig c;
        c.inputSize = 64;
        c.depth = 3;
        c.width = 4;
        auto u = Model::create(c);
        InferOptions odd;
        odd.preferCpu = true;
        odd.tileSize = 100;
        QCOMPARE(TiledInference::create(std::move(*u), odd).status().code(),
                 ErrorCode::InvalidArgument);
    }

    void torchScriptSidecarRules()
    {
        QTemporaryDir d;
        const std::string p = s(d.filePath(QStringLiteral("m.pt")));
        torch::jit::Module m("Bare");
        m.define("def forward(self, x):\n    return x\n");
        m.save(p);
        // No sidecar: refused, and the message says what is missing.
        auto none = Model::load(p);
        QCOMPARE(none.status().code(), ErrorCode::Corrupt);
        QVERIFY(none.status().detail().find("sidecar") != std::string::npos);
        // `m.json` beside `m.pt` is found too.
        std::ofstream(s(d.filePath(QStringLiteral("m.json"))))
            << R"({"type": "unet", "input_size": 64, "tile": 256, "overlap": 32})";
        // A valid sidecar: still refused until the user agrees to run the module's code.
        QCOMPARE(Model::load(p).status().code(), ErrorCode::NeedsConsent);
        auto ok = Model::load(p, trusted());
        QVERIFY2(ok.isOk(), ok.status().toString().c_str());
        QVERIFY(ok->isTorchScript());
        QCOMPARE(ok->info().tileSize, 256);
        QCOMPARE(ok->info().tileOverlap, 32);
        QCOMPARE(ok->info().source, std::string("torchscript"));
        QCOMPARE(ok->save(s(d.filePath(QStringLiteral("copy.fmodel")))).code(),
                 ErrorCode::Unsupported);
        // Bad sidecars.
        auto withSidecar = [&](const std::string& json) {
            std::ofstream(p + ".json") << json;
            return Model::load(p).status().code();
        };
        QCOMPARE(withSidecar(R"({"type": "transformer", "input_size": 64})"),
                 ErrorCode::Unsupported);
        QCOMPARE(withSidecar(R"({"type": "unet"})"), ErrorCode::Corrupt);
        QCOMPARE(withSidecar("not json"), ErrorCode::Corrupt);
        QCOMPARE(withSidecar(R"({"type": "unet", "input_size": 64, "input_channels": 2})"),
                 ErrorCode::Unsupported);
        QCOMPARE(withSidecar(R"({"type": "unet", "input_size": 64,
                                 "normalization": {"mean": [0], "std": [1]}})"),
                 ErrorCode::InvalidArgument);
        // Not a model at all.
        std::ofstream(s(d.filePath(QStringLiteral("junk.pt")))) << "junk";
        std::ofstream(s(d.filePath(QStringLiteral("junk.pt.json"))))
            << R"({"type": "unet", "input_size": 64})";
        QCOMPARE(Model::load(s(d.filePath(QStringLiteral("junk.pt")))).status().code(),
                 ErrorCode::Corrupt);
        QCOMPARE(Model::load(s(d.filePath(QStringLiteral("absent.pt")))).status().code(),
                 ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TstInfer)
#include "tst_infer.moc"

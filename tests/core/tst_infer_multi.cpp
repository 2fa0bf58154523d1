// Tiled inference over several devices, on the CPU: the column bands a scan is split into, the
// GPUs chosen, and the split run (the processor acting as 2 or 3 devices through
// testing::splitCpuInference) against the one-device map: the same pixels, and with the ZSTD
// level fixed the same bytes; cancellation, a failing
// band, and folders of scans spread over the devices. Where two or more GPUs are usable (the
// `gpu` label), the same comparison over real GPUs.
#include <torch/script.h>

#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <atomic>
#include <fstream>
#include <mutex>
#include <set>

#include "fisura/infer.h"
#include "fisura/model.h"
#include "fisura/sysinfo.h"
#include "fisura/testing.h"
#include "infer/device_stage.h"
#include "infer/multi_device.h"
#include "infer/scan_source.h"
#include "map_fixtures.h"

using namespace fisura;
using mapfixtures::pattern;
using mapfixtures::readMap;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// A small Fisura U-Net with random weights: varied output, so a tile missing or added in
/// another order at a seam would change some bytes.
Model unet(uint64_t seed = 7)
{
    ModelConfig c;
    c.type = ModelType::UNet;
    c.inputSize = 64;
    c.depth = 2;
    c.width = 4;
    auto m = Model::create(c, seed);
    if (!m)
        qFatal("model: %s", m.status().toString().c_str());
    return std::move(*m);
}

/// A TorchScript "U-Net" whose probability depends on the whole tile (its pixel against the
/// tile's mean): neighbouring tiles disagree where they overlap, so the blend decides the bytes.
Model contrastModel(const QTemporaryDir& d)
{
    const std::string p = s(d.filePath(QStringLiteral("contrast.pt")));
    torch::jit::Module m("FisuraTestModel");
    m.define("def forward(self, x):\n"
             "    g = x[:, 0:1]\n"
             "    return torch.sigmoid(6.0 * (g - g.mean(dim=[2, 3], keepdim=True)))\n");
    m.save(p);
    std::ofstream(p + ".json") << R"({"format": "fisura-torchscript", "type": "unet",
        "input_size": 64, "output": "probabilities",
        "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}})";
    ModelLoadOptions o;
    o.allowTorchScript = true;
    auto loaded = Model::load(p, o);
    if (!loaded)
        qFatal("model: %s", loaded.status().toString().c_str());
    return std::move(*loaded);
}

/// An engine on the CPU acting as `bands` devices.
std::unique_ptr<TiledInference> engine(int bands, int overlap, int batch = 3,
                                       BlendWindow window = BlendWindow::Cosine,
                                       Model model = unet(), bool fixedLevel = false)
{
    testing::splitCpuInference(bands);
    InferOptions o;
    o.preferCpu = true;
    o.tileSize = 64;
    o.overlap = overlap;
    o.batchSize = batch;
    o.window = window;
    o.readerThreads = 2;
    o.intraOpThreads = 1;
    o.output.tileSize = 64;
    o.output.adaptiveLevel = !fixedLevel;
    auto e = TiledInference::create(std::move(model), o);
    testing::splitCpuInference(1);
    if (!e)
        qFatal("engine: %s", e.status().toString().c_str());
    return std::move(*e);
}

std::string writeScan(const QTemporaryDir& d, const QString& name, int w, int h)
{
    const std::string p = s(d.filePath(name));
    if (!writeTiff(p, pattern(w, h, 3), {64, true, 0}).isOk())
        qFatal("cannot write %s", p.c_str());
    return p;
}

int countFiles(const QString& dir)
{
    return int(QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot).size());
}

/// Cancels its token at the first progress report.
class CancelAtFirstReport : public ProgressSink
{
public:
    explicit CancelAtFirstReport(CancelToken t) : token_(std::move(t)) {}
    void report(const Progress&) override { token_.cancel(); }

private:
    CancelToken token_;
};

} // namespace

class TstInferMulti : public QObject
{
    Q_OBJECT

    // The grid of the current data row (columnBandsCoverTheirColumns_data) and its bands.
    static std::pair<fisura::detail::TileGrid, std::vector<fisura::detail::TileGrid>> fetchedBands()
    {
        QFETCH(int, width);
        QFETCH(int, tile);
        QFETCH(int, overlap);
        QFETCH(int, bands);
        auto grid = fisura::detail::TileGrid::make(width, 150, tile, overlap);
        auto split = fisura::detail::columnBands(grid, bands);
        return {std::move(grid), std::move(split)};
    }

private Q_SLOTS:
    // A tile read straight into the batch and padded in place equals the tile placed through an
    // image (OpenCV's replicated border), for tiles clipped on the right, at the bottom or both.
    void tileReadIntoTheBatchEqualsPlacedTile()
    {
        for (int channels : {1, 3}) {
            fisura::detail::ScanSource src;
            Image flat = Image::make(300, 200, channels);
            for (size_t i = 0; i < flat.pixels.size(); ++i)
                flat.pixels[i] = uint8_t(i * 7 + i / 300);
            src.flat = std::make_shared<const Image>(std::move(flat));
            src.width = 300;
            src.height = 200;
            src.channels = channels;
            const int tile = 64;
            for (const auto& r : std::vector<std::array<int, 4>>{
                     {0, 0, 64, 64}, {260, 10, 40, 64}, {5, 170, 64, 30}, {280, 190, 20, 10}}) {
                std::vector<uint8_t> direct(size_t(tile) * tile * channels, 1),
                    placed(direct.size(), 2);
                QVERIFY(src.readTile(r[0], r[1], r[2], r[3], tile, channels, direct.data()));
                auto px = src.region(r[0], r[1], r[2], r[3]);
                QVERIFY(px);
                fisura::detail::placeTile(*px, tile, channels, placed.data());
                QVERIFY2(direct == placed, qPrintable(QString::number(r[0])));
            }
        }
    }

    // Every band's pixels get every tile that reaches them, in raster order; the bands' columns
    // tile the map.
    void columnBandsCoverTheirColumns_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("tile");
        QTest::addColumn<int>("overlap");
        QTest::addColumn<int>("bands");
        QTest::newRow("2 bands") << 1000 << 64 << 16 << 2;
        QTest::newRow("3 bands, last tile flush") << 1000 << 64 << 8 << 3;
        QTest::newRow("overlap 0") << 640 << 64 << 0 << 3;
        QTest::newRow("1-tile-wide bands") << 150 << 64 << 16 << 3;
        QTest::newRow("narrower than the bands") << 100 << 64 << 16 << 4;
        QTest::newRow("one tile") << 50 << 64 << 16 << 2;
        QTest::newRow("half-tile overlap") << 777 << 64 << 32 << 4;
    }
    void columnBandsCoverTheirColumns()
    {
        const auto [grid, split] = fetchedBands();
        QFETCH(int, width);
        QFETCH(int, bands);
        QFETCH(int, overlap);
        QCOMPARE(int(split.size()), std::min<int>(bands, int(grid.xs.size())));
        QCOMPARE(split.front().x0, 0);
        QCOMPARE(split.back().x1, width);
        for (size_t k = 0; k < split.size(); ++k) {
            const auto& b = split[k];
            QVERIFY(b.x1 > b.x0);
            if (k > 0)
                QCOMPARE(b.x0, split[k - 1].x1);
            // The grid's tiles reaching the band's columns, in the grid's (raster) order.
            std::vector<size_t> want;
            for (size_t i = 0; i < grid.tiles.size(); ++i) {
                const auto& t = grid.tiles[i];
                if (t.x < b.x1 && t.x + t.w > b.x0)
                    want.push_back(i);
            }
            QCOMPARE(b.tiles.size(), want.size());
            for (size_t j = 0; j < want.size(); ++j) {
                QCOMPARE(b.tiles[j].x, grid.tiles[want[j]].x);
                QCOMPARE(b.tiles[j].y, grid.tiles[want[j]].y);
            }
            int last = 0;
            for (const auto& t : b.tiles)
                last = std::max(last, t.col);
            QCOMPARE(b.lastCol, last);
            QCOMPARE(b.xs, grid.xs);              // global windows and sums
            if (overlap == 0 && split.size() > 1) // no tile computed twice
                for (const auto& t : b.tiles)
                    QVERIFY(t.x >= b.x0 && t.x + t.w <= b.x1);
        }
    }

    // A split run's batch completes at most one row of tiles of any band: no more tiles than
    // the narrowest band has tile columns, and never more than the engine's batch.
    void splitBatchFitsTheNarrowestBand_data() { columnBandsCoverTheirColumns_data(); }
    void splitBatchFitsTheNarrowestBand()
    {
        const auto [grid, split] = fetchedBands();
        int narrowest = int(grid.xs.size());
        for (const auto& b : split) {
            std::set<int> cols;
            for (const auto& t : b.tiles)
                cols.insert(t.col);
            narrowest = std::min(narrowest, int(cols.size()));
        }
        QVERIFY(narrowest >= 1);
        QCOMPARE(fisura::detail::splitBatchOf(split, 1000), narrowest);
        QCOMPARE(fisura::detail::splitBatchOf(split, narrowest + 1), narrowest);
        QCOMPARE(fisura::detail::splitBatchOf(split, narrowest), narrowest);
        QCOMPARE(fisura::detail::splitBatchOf(split, 1), 1);
        QCOMPARE(fisura::detail::splitBatchOf({grid}, 1000), int(grid.xs.size()));
    }

    // Each band may queue two rows of tiles' worth of row chunks, never fewer than one
    // device's queue.
    void splitRowQueueHoldsTwoTileRows()
    {
        using fisura::detail::splitRowQueue;
        QCOMPARE(splitRowQueue(512), size_t(16)); // 64-row chunks
        QCOMPARE(splitRowQueue(1024), size_t(32));
        QCOMPARE(splitRowQueue(500), size_t(16)); // a partial chunk counts
        QCOMPARE(splitRowQueue(64), fisura::detail::kMaxOutQueue);
    }

    void gpusOfTheFirstModelAreChosen()
    {
        auto gpu = [](int i, const char* name) {
            GpuInfo g;
            g.index = i;
            g.name = name;
            g.computeMajor = 9;
            return g;
        };
        const std::vector<GpuInfo> four{gpu(0, "H100"), gpu(1, "H100"), gpu(2, "H100"),
                                        gpu(3, "H100")};
        auto all = fisura::detail::chooseGpus(four, 0);
        QCOMPARE(all.indices, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(all.value, std::string("0,1,2,3"));
        QCOMPARE(all.reasonId, std::string("gpus_all"));
        QCOMPARE(all.reasonArg, std::string("4"));
        auto two = fisura::detail::chooseGpus(four, 2);
        QCOMPARE(two.indices, (std::vector<int>{0, 1}));
        QCOMPARE(two.reasonId, std::string("user"));
        QCOMPARE(fisura::detail::chooseGpus(four, 1).reasonId, std::string("gpus_one"));
        auto more = fisura::detail::chooseGpus(four, 8);
        QCOMPARE(more.indices.size(), size_t(4));
        QCOMPARE(more.reasonId, std::string("gpus_fewer"));
        auto mixed = fisura::detail::chooseGpus({gpu(1, "H100"), gpu(0, "A10"), gpu(2, "H100")}, 0);
        QCOMPARE(mixed.indices, (std::vector<int>{1, 2}));
        QCOMPARE(mixed.reasonId, std::string("gpus_same_model"));
        QCOMPARE(mixed.reasonArg, std::string("H100"));
        QCOMPARE(fisura::detail::chooseGpus({gpu(0, "H100")}, 0).reasonId,
                 std::string("gpus_single"));
    }

    // The split map is the one-device map, byte for byte.
    void splitMapIsTheSingleDeviceMap_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("overlap");
        QTest::addColumn<int>("bands");
        QTest::addColumn<bool>("gaussian");
        QTest::addColumn<bool>("fisuraUNet");
        QTest::newRow("2 bands") << 300 << 170 << 16 << 2 << false << false;
        QTest::newRow("3 bands, gaussian") << 300 << 170 << 16 << 3 << true << false;
        QTest::newRow("overlap 0") << 256 << 100 << 0 << 2 << false << false;
        QTest::newRow("1-tile-wide bands") << 150 << 130 << 16 << 3 << false << false;
        QTest::newRow("narrower than 3 tiles") << 100 << 90 << 16 << 3 << false << false;
        QTest::newRow("half-tile overlap") << 231 << 97 << 32 << 3 << false << false;
        QTest::newRow("Fisura U-Net, 2 bands") << 300 << 170 << 16 << 2 << false << true;
        QTest::newRow("Fisura U-Net, 3 bands") << 231 << 97 << 32 << 3 << true << true;
    }
    void splitMapIsTheSingleDeviceMap()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(int, overlap);
        QFETCH(int, bands);
        QFETCH(bool, gaussian);
        QFETCH(bool, fisuraUNet);
        QTemporaryDir d;
        const std::string in = writeScan(d, QStringLiteral("in.tif"), width, height);
        const auto window = gaussian ? BlendWindow::Gaussian : BlendWindow::Cosine;
        const std::string one = s(d.filePath(QStringLiteral("one.tif")));
        const std::string many = s(d.filePath(QStringLiteral("many.tif")));
        auto model = [&] { return fisuraUNet ? unet() : contrastModel(d); };
        auto single = engine(1, overlap, 3, window, model());
        auto r1 = single->run(in, one);
        QVERIFY2(r1.isOk(), r1.status().toString().c_str());
        auto e = engine(bands, overlap, 3, window, model());
        QCOMPARE(e->deviceCount(), bands);
        auto rn = e->run(in, many);
        QVERIFY2(rn.isOk(), rn.status().toString().c_str());
        const auto cols = fisura::detail::TileGrid::make(width, height, 64, overlap).xs.size();
        QCOMPARE(rn->devices.size(), std::min<size_t>(size_t(bands), cols));
        QCOMPARE(r1->devices, std::vector<std::string>{"cpu"});
        QCOMPARE(rn->tiles, r1->tiles);
        QVERIFY(rn->tilesComputed >= rn->tiles);
        QCOMPARE(rn->graphBatches, int64_t(0)); // the CPU runs networks op by op
        QVERIFY(toJson(*rn).find("\"graph_batches\": 0") != std::string::npos);
        const Image a = readMap(one), b = readMap(many);
        QCOMPARE(b.width, width);
        QCOMPARE(b.height, height);
        QVERIFY(a.pixels == b.pixels);
        if (!fisuraUNet) // varied, so that a seam would show
            QVERIFY(std::set<uint8_t>(a.pixels.begin(), a.pixels.end()).size() > 30);
        // The files too, what a script compares (cmp), with the ZSTD level fixed: the adaptive
        // level follows the timing (a busy machine lowers it), so only the pixels are the same.
        const std::string oneFixed = s(d.filePath(QStringLiteral("one-fixed.tif")));
        const std::string manyFixed = s(d.filePath(QStringLiteral("many-fixed.tif")));
        QVERIFY(engine(1, overlap, 3, window, model(), true)->run(in, oneFixed).isOk());
        QVERIFY(engine(bands, overlap, 3, window, model(), true)->run(in, manyFixed).isOk());
        std::ifstream fa(oneFixed, std::ios::binary), fb(manyFixed, std::ios::binary);
        const std::string ba((std::istreambuf_iterator<char>(fa)), {});
        const std::string bb((std::istreambuf_iterator<char>(fb)), {});
        QVERIFY(!ba.empty());
        QVERIFY(ba == bb);
        QVERIFY(readMap(oneFixed).pixels == a.pixels);

        // In memory too (proposals, ranking).
        auto m1 = single->runImage(pattern(width, height, 3));
        auto mn = e->runImage(pattern(width, height, 3));
        QVERIFY(m1.isOk() && mn.isOk());
        QVERIFY(m1->pixels == mn->pixels);
        QVERIFY(m1->pixels == a.pixels);
    }

    void policySaysWhichDevices()
    {
        auto e = engine(2, 16);
        const auto& choices = e->policy().choices;
        auto it = std::find_if(choices.begin(), choices.end(),
                               [](const PolicyChoice& c) { return c.what == "gpus"; });
        QVERIFY(it != choices.end());
        QCOMPARE(it->reasonId, std::string("gpus_cpu_bands"));
        QCOMPARE(it->reasonArg, std::string("2"));
        QCOMPARE(engine(1, 16)->deviceCount(), 1);
        auto bad = e->runOn(2, "in.tif", "out.tif");
        QCOMPARE(bad.status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(e->runOn(-1, "in.tif", "out.tif").status().code(), ErrorCode::InvalidArgument);
    }

    void cancelDuringASplitRunLeavesNothing()
    {
        QTemporaryDir d;
        const std::string in = writeScan(d, QStringLiteral("in.tif"), 400, 300);
        auto e = engine(3, 16, 1);
        CancelToken cancel;
        CancelAtFirstReport sink(cancel);
        auto r = e->run(in, s(d.filePath(QStringLiteral("map.tif"))), cancel, &sink);
        QVERIFY(!r.isOk());
        QCOMPARE(r.status().code(), ErrorCode::Cancelled);
        QCOMPARE(countFiles(d.path()), 1); // the input alone
    }

    void aFailingBandStopsAllAndIsReportedOnce()
    {
        QTemporaryDir d;
        const std::string in = writeScan(d, QStringLiteral("in.tif"), 400, 300);
        auto e = engine(3, 16, 1);
        testing::failSplitBand(1);
        auto r = e->run(in, s(d.filePath(QStringLiteral("map.tif"))));
        testing::failSplitBand(-1);
        QVERIFY(!r.isOk());
        QCOMPARE(r.status().code(), ErrorCode::DeviceError);
        const std::string detail = r.status().detail();
        QVERIFY2(detail.find("column band 1 failed") != std::string::npos, detail.c_str());
        QCOMPARE(detail.find("column band 1 failed", detail.find("column band 1 failed") + 1),
                 std::string::npos);
        QCOMPARE(countFiles(d.path()), 1);
        // The engine still works afterwards.
        auto again = e->run(in, s(d.filePath(QStringLiteral("map.tif"))));
        QVERIFY2(again.isOk(), again.status().toString().c_str());
    }

    // A folder: the large scan split over the devices, the small ones one per device; every map
    // as one device writes it, every scan reported once.
    void folderScansSpreadOverDevices()
    {
        QTemporaryDir d;
        std::vector<ScanJob> jobs;
        const int sizes[][2] = {{90, 80}, {700, 400}, {120, 64}, {64, 200}, {100, 100}};
        for (int i = 0; i < 5; ++i) {
            const QString n = QStringLiteral("scan%1").arg(i);
            jobs.push_back({writeScan(d, n + QStringLiteral(".tif"), sizes[i][0], sizes[i][1]),
                            s(d.filePath(n + QStringLiteral(".map.tif")))});
        }
        auto e = engine(2, 16, 2);
        QVERIFY(e->splitPays(700, 400));
        QVERIFY(!e->splitPays(120, 64));
        std::vector<int> calls(jobs.size(), 0);
        std::vector<size_t> devicesUsed(jobs.size(), 0);
        Status st = runScans(*e, jobs, [&](size_t i, const Result<InferStats>& r) {
            ++calls[i];
            if (r.isOk())
                devicesUsed[i] = r->devices.size();
        });
        QVERIFY2(st.isOk(), st.toString().c_str());
        for (size_t i = 0; i < jobs.size(); ++i) {
            QCOMPARE(calls[i], 1);
            QCOMPARE(devicesUsed[i], size_t(i == 1 ? 2 : 1));
        }
        auto single = engine(1, 16, 2);
        for (size_t i = 0; i < jobs.size(); ++i) {
            const std::string ref = s(d.filePath(QStringLiteral("ref.tif")));
            QVERIFY(single->run(jobs[i].input, ref).isOk());
            QVERIFY2(readMap(ref).pixels == readMap(jobs[i].output).pixels, jobs[i].input.c_str());
        }

        // A cancelled folder run stops; scans that ended are reported, the rest not.
        CancelToken cancel;
        cancel.cancel();
        int reported = 0;
        st = runScans(
            *e, jobs, [&](size_t, const Result<InferStats>&) { ++reported; }, cancel);
        QCOMPARE(st.code(), ErrorCode::Cancelled);
        QCOMPARE(reported, 0);
    }

    // Real GPUs (the `gpu` label; two or more usable): the split map is the one-GPU map byte for
    // byte, for a Fisura U-Net (cuDNN, Fisura's kernels, CUDA graphs, the policy's precision)
    // and for the model whose overlaps disagree. With a batch wider than the bands, the split
    // run uses a smaller batch, captured as a graph of its own; cuDNN may then round a tile's
    // sums differently, so its map may differ by one grey level in a few pixels (README).
    void splitOverGpusIsTheOneGpuMap_data()
    {
        QTest::addColumn<bool>("fisuraUNet");
        QTest::addColumn<int>("batch");
        QTest::newRow("Fisura U-Net") << true << 3;
        QTest::newRow("contrast model") << false << 3;
        QTest::newRow("Fisura U-Net, band batch") << true << 12;
    }
    void splitOverGpusIsTheOneGpuMap()
    {
        QFETCH(bool, fisuraUNet);
        QFETCH(int, batch);
        const MachineInfo machine = queryMachine();
        if (!machine.cudaUsable || machine.gpus.size() < 2)
            QSKIP("needs two usable CUDA GPUs");
        QTemporaryDir d;
        const std::string in = writeScan(d, QStringLiteral("in.tif"), 700, 400);
        auto onGpus = [&](int gpus) {
            InferOptions o;
            o.gpus = gpus;
            o.tileSize = 64;
            o.overlap = 16;
            o.batchSize = batch;
            o.output.tileSize = 64;
            auto e = TiledInference::create(fisuraUNet ? unet() : contrastModel(d), o);
            if (!e)
                qFatal("engine: %s", e.status().toString().c_str());
            return std::move(*e);
        };
        auto one = onGpus(1), all = onGpus(0);
        QCOMPARE(one->deviceCount(), 1);
        if (all->deviceCount() < 2)
            QSKIP("fewer than two GPUs of the first GPU's model");
        const std::string a = s(d.filePath(QStringLiteral("one.tif")));
        const std::string b = s(d.filePath(QStringLiteral("all.tif")));
        auto r1 = one->run(in, a);
        QVERIFY2(r1.isOk(), r1.status().toString().c_str());
        auto rn = all->run(in, b);
        QVERIFY2(rn.isOk(), rn.status().toString().c_str());
        QCOMPARE(r1->devices, std::vector<std::string>{"cuda:0"});
        QCOMPARE(rn->devices.size(), size_t(all->deviceCount()));
        QCOMPARE(rn->tiles, r1->tiles);
        const Image ma = readMap(a), mb = readMap(b);
        QCOMPARE(mb.width, 700);
        QVERIFY(std::set<uint8_t>(ma.pixels.begin(), ma.pixels.end()).size() > 1);
        QCOMPARE(r1->batchSize, batch);
        if (batch == 3) {
            QCOMPARE(rn->batchSize, 3); // bands of 7 tile columns or more
            QCOMPARE(rn->bandGraphSeconds, 0.0);
            QVERIFY(ma.pixels == mb.pixels);
            return;
        }
        QVERIFY2(rn->batchSize < batch, std::to_string(rn->batchSize).c_str());
        // Half the batch was captured when the engine was made; narrower bands capture theirs.
        if (rn->batchSize == (batch + 1) / 2)
            QCOMPARE(rn->bandGraphSeconds, 0.0);
        else
            QVERIFY(rn->bandGraphSeconds > 0);
        QCOMPARE(rn->graphBatches * rn->batchSize >= rn->tilesComputed, true); // all as graphs
        size_t differ = 0;
        for (size_t i = 0; i < ma.pixels.size(); ++i) {
            QVERIFY(std::abs(int(ma.pixels[i]) - int(mb.pixels[i])) <= 1);
            differ += ma.pixels[i] != mb.pixels[i];
        }
        QVERIFY2(differ * 1000 <= ma.pixels.size(), std::to_string(differ).c_str());
        // A second run reuses the band graphs.
        auto again = all->run(in, b);
        QVERIFY2(again.isOk(), again.status().toString().c_str());
        QCOMPARE(again->bandGraphSeconds, 0.0);
        QCOMPARE(again->batchSize, rn->batchSize);
    }
};

QTEST_GUILESS_MAIN(TstInferMulti)
#include "tst_infer_multi.moc"

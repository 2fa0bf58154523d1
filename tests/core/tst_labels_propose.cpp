// Labelling with a model: proposals equal `infer` + threshold on the same region, the folder
// job (failures listed, the rest continue, cancellation), thresholds per map kind, and the
// uncertainty ranking on a constructed case with a known order.
//
// The model is a TorchScript U-Net whose map is its input's first channel (as in tst_infer),
// so the map of an image is known in advance.
#include <torch/script.h>

#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "fisura/infer.h"
#include "fisura/labels.h"
#include "fisura/threshold.h"
#include "fisura/tiledimage.h"

using namespace fisura;
namespace fs = std::filesystem;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

std::string identityUNet(const QTemporaryDir& d, double threshold = 0.5)
{
    const std::string p = s(d.filePath(QStringLiteral("identity.pt")));
    torch::jit::Module m("FisuraTestModel");
    m.define("def forward(self, x):\n    return x[:, 0:1]\n");
    m.save(p);
    std::ofstream(p + ".json")
        << R"({"format": "fisura-torchscript", "type": "unet", "input_size": 64,
              "output": "probabilities", "threshold": )"
        << threshold << R"(, "normalization": {"mean": [0, 0, 0], "std": [1, 1, 1]}})";
    return p;
}

Image ramp(int w, int h)
{
    Image im = Image::make(w, h, 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                im.row(y)[x * 3 + c] = uint8_t((x * 7 + y * 3 + (x * y) % 11) % 256);
    return im;
}

InferOptions cpu()
{
    InferOptions o;
    o.preferCpu = true;
    o.tileSize = 64;
    o.overlap = 16;
    o.modelLoad.allowTorchScript = true; // the test's own module
    return o;
}

} // namespace

class TestLabelsPropose : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void proposalEqualsInferAndThreshold()
    {
        QTemporaryDir dir;
        const std::string model = identityUNet(dir, 0.4);
        const std::string img = s(dir.filePath(QStringLiteral("wall.tif")));
        QVERIFY(writeTiff(img, ramp(150, 110)).isOk());
        const LabelRect region{20, 10, 100, 90};
        // `infer` on the region cropped to a file, then the threshold.
        auto full = readImage(img);
        QVERIFY(full.isOk());
        Image crop = Image::make(region.width, region.height, 3);
        for (int y = 0; y < region.height; ++y)
            std::copy_n(full->row(region.y + y) + region.x * 3, crop.stride(), crop.row(y));
        const std::string cropPath = s(dir.filePath(QStringLiteral("crop.tif")));
        QVERIFY(writeTiff(cropPath, crop).isOk());
        auto model0 = Model::load(model, cpu().modelLoad);
        QVERIFY(model0.isOk());
        auto ti = TiledInference::create(std::move(*model0), cpu());
        QVERIFY(ti.isOk());
        const std::string mapPath = s(dir.filePath(QStringLiteral("map.tif")));
        QVERIFY((*ti)->run(cropPath, mapPath).isOk());
        auto mapImg = TiledImage::open(mapPath);
        QVERIFY(mapImg.isOk());
        auto map = (*mapImg)->readLevel(0);
        QVERIFY(map.isOk());
        // runImage gives the same map as run() over a file.
        auto inMemory = (*ti)->runImage(crop);
        QVERIFY(inMemory.isOk());
        QCOMPARE(inMemory->pixels, map->pixels);

        ProposeOptions po;
        po.region = region;
        po.infer = cpu();
        auto prop = proposeLabels(model, img, po);
        QVERIFY2(prop.isOk(), prop.status().toString().c_str());
        QCOMPARE(prop->width, region.width);
        const int thr = modelMapByteThreshold(MapKind::Probability, 0.4);
        QCOMPARE(thr, 102);
        int cracks = 0;
        for (size_t i = 0; i < map->pixels.size(); ++i) {
            QCOMPARE(prop->pixels[i], map->pixels[i] >= thr ? uint8_t(255) : uint8_t(0));
            cracks += prop->pixels[i] != 0;
        }
        QVERIFY(cracks > 0 && cracks < int(map->pixels.size()));
        // A given threshold overrides the model's.
        po.threshold = 0.9;
        auto strict = proposeLabels(model, img, po);
        QVERIFY(strict.isOk());
        for (size_t i = 0; i < map->pixels.size(); ++i)
            QCOMPARE(strict->pixels[i], map->pixels[i] >= 230 ? uint8_t(255) : uint8_t(0));
        // Into a layer as a proposal.
        auto layer = LabelLayer::open(img);
        QVERIFY(layer.isOk());
        QVERIFY((*layer)->applyProposal(region, *prop).isOk());
        QCOMPARE((*layer)->provenance().fromProposal, uint64_t(cracks));
        // Errors.
        po.region = {140, 100, 20, 20};
        QCOMPARE(proposeLabels(model, img, po).status().code(), ErrorCode::InvalidArgument);
        ProposeOptions trusted;
        trusted.infer = cpu();
        QCOMPARE(proposeLabels(model, "/nonexistent.tif", trusted).status().code(),
                 ErrorCode::NotFound);
        QVERIFY(!proposeLabels("/nonexistent.pt", img, {}).isOk());
    }

    // A given threshold is a crack probability on the map's own 0..1 scale, the same ceil rule
    // as everywhere (t = 0.201 is byte 52, as in Inspect): crack where byte/255 >= t.
    void givenThresholdIsTheMapsProbability()
    {
        QTemporaryDir dir;
        const std::string model = identityUNet(dir, 0.4);
        const std::string img = s(dir.filePath(QStringLiteral("wall.tif")));
        Image gray = Image::make(4, 1, 3);
        const uint8_t values[4] = {51, 52, 127, 128};
        for (int x = 0; x < 4; ++x)
            for (int c = 0; c < 3; ++c)
                gray.row(0)[x * 3 + c] = values[x];
        QVERIFY(writeTiff(img, gray).isOk());
        ProposeOptions po;
        po.infer = cpu();
        po.infer.tileSize = 16;
        po.infer.overlap = 0;
        for (const auto& [t, expected] :
             std::vector<std::pair<double, std::vector<uint8_t>>>{{0.2, {255, 255, 255, 255}},
                                                                  {0.201, {0, 255, 255, 255}},
                                                                  {0.5, {0, 0, 0, 255}},
                                                                  {1.0, {0, 0, 0, 0}}}) {
            po.threshold = t;
            auto prop = proposeLabels(model, img, po);
            QVERIFY2(prop, prop.status().toString().c_str());
            QCOMPARE(prop->pixels, expected);
        }
        po.threshold = 1.5; // not a probability
        QCOMPARE(proposeLabels(model, img, po).status().code(), ErrorCode::InvalidArgument);
        po.threshold = std::nan("");
        QCOMPARE(
            proposeFolder(model, img, s(dir.filePath(QStringLiteral("out"))), po).status().code(),
            ErrorCode::InvalidArgument);
    }

    // The image is read by what its bytes say: a TIFF named .png proposes like the TIFF.
    void misnamedImageProposesAlike()
    {
        QTemporaryDir dir;
        const std::string model = identityUNet(dir, 0.4);
        const std::string tif = s(dir.filePath(QStringLiteral("wall.tif")));
        const std::string png = s(dir.filePath(QStringLiteral("wall-tiff.png")));
        QVERIFY(writeTiff(tif, ramp(96, 64)).isOk());
        QVERIFY(writeTiff(png, ramp(96, 64)).isOk());
        ProposeOptions po;
        po.infer = cpu();
        po.region = {8, 8, 64, 48};
        auto a = proposeLabels(model, tif, po);
        auto b = proposeLabels(model, png, po);
        QVERIFY2(a && b, (a ? b : a).status().toString().c_str());
        QCOMPARE(a->pixels, b->pixels);
    }

    void folderListsFailuresAndContinues()
    {
        QTemporaryDir dir;
        const std::string model = identityUNet(dir);
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("in")));
        QVERIFY(writeTiff(s(dir.filePath(QStringLiteral("in/a.tif"))), ramp(70, 50)).isOk());
        std::ofstream(s(dir.filePath(QStringLiteral("in/b.tif")))) << "not a tiff";
        QVERIFY(writeTiff(s(dir.filePath(QStringLiteral("in/c.tif"))), ramp(40, 90)).isOk());
        ProposeOptions po;
        po.infer = cpu();
        const std::string out = s(dir.filePath(QStringLiteral("out")));
        std::vector<double> fractions;
        CallbackProgressSink sink([&](const Progress& p) { fractions.push_back(p.fraction); });
        auto r = proposeFolder(model, s(dir.filePath(QStringLiteral("in"))), out, po, {}, &sink);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(int(r->written.size()), 2);
        QCOMPARE(int(r->failures.size()), 1);
        QVERIFY(r->failures[0].image.find("b.tif") != std::string::npos);
        auto a = readImage(out + "/a.tif");
        QVERIFY(a.isOk());
        QCOMPARE(a->width, 70);
        QVERIFY(!fractions.empty() && fractions.back() == 1.0);
        // Cancelled before anything: Cancelled, no file.
        CancelToken c;
        c.cancel();
        const std::string out2 = s(dir.filePath(QStringLiteral("out2")));
        QCOMPARE(proposeFolder(model, s(dir.filePath(QStringLiteral("in"))), out2, po, c)
                     .status()
                     .code(),
                 ErrorCode::Cancelled);
        QVERIFY(!fs::exists(out2 + "/a.tif"));
    }

    void rankingOrder()
    {
        QTemporaryDir dir;
        const std::string model = identityUNet(dir);
        auto write = [&](const char* name, uint8_t left, uint8_t right) {
            Image im = Image::make(64, 64, 3);
            for (int y = 0; y < 64; ++y)
                for (int x = 0; x < 64; ++x)
                    for (int c = 0; c < 3; ++c)
                        im.row(y)[x * 3 + c] = x < 32 ? left : right;
            const std::string p = s(dir.filePath(QString::fromLatin1(name)));
            if (!writeTiff(p, im).isOk())
                qFatal("cannot write %s", name);
            return p;
        };
        // p = 128/255 everywhere: entropy ~1, all near the threshold -> most uncertain.
        const std::string unsure = write("unsure.tif", 128, 128);
        const std::string half = write("half.tif", 128, 0);       // half unsure, half certain
        const std::string bright = write("bright.tif", 200, 200); // p 0.78: entropy, not near
        const std::string sure = write("sure.tif", 0, 0);         // certain
        RankOptions ro;
        ro.infer = cpu();
        auto r = rankByUncertainty(model, {sure, bright, unsure, half, "/nonexistent.tif"}, ro);
        QVERIFY2(r.isOk(), r.status().toString().c_str());
        QCOMPARE(int(r->size()), 5);
        QCOMPARE((*r)[0].image, unsure);
        QCOMPARE((*r)[1].image, half);
        QCOMPARE((*r)[2].image, bright);
        QCOMPARE((*r)[3].image, sure);
        QVERIFY(!(*r)[4].error.empty());
        QVERIFY(qAbs((*r)[0].nearThreshold - 1.0) < 1e-9);
        QVERIFY(qAbs((*r)[1].nearThreshold - 0.5) < 0.05);
        QCOMPARE((*r)[3].meanEntropy, 0.0);
        QVERIFY((*r)[0].uncertainty > (*r)[1].uncertainty);
        // The map statistics alone.
        Image m = Image::make(10, 10, 1, 255);
        QCOMPARE(uncertaintyOfMap(m, 0.5, 0.1).uncertainty, 0.0);
        std::fill(m.pixels.begin(), m.pixels.begin() + 50, uint8_t(128));
        QVERIFY(qAbs(uncertaintyOfMap(m, 0.5, 0.1).nearThreshold - 0.5) < 1e-9);
        CancelToken c;
        c.cancel();
        QCOMPARE(rankByUncertainty(model, {sure}, ro, c).status().code(), ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestLabelsPropose)
#include "tst_labels_propose.moc"

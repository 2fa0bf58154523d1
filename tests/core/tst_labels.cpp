// Label layer: exact tool geometry against a brute-force reference, eraser, fill (closed, open,
// on a label), crack-free regions, undo/redo round trips, save and reopen (pixels, resolution,
// provenance), a 40000 x 40000 scan where a save costs only the edited tiles, PNG masks edited in
// place, label paths and the labelled/proposed/unlabelled status of a dataset.
#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <random>

#include <tiffio.h>

#include "fisura/labels.h"
#include "labels/label_raster.h"

#ifdef FISURA_HAVE_IMGCODECS
#include <opencv2/imgcodecs.hpp>
#endif

using namespace fisura;
namespace fs = std::filesystem;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

/// Reference: pixel centres within r (+ the rasteriser's tolerance) of any segment.
Image bruteForce(int w, int h, const std::vector<LabelPoint>& pts, double r)
{
    Image im = Image::make(w, h, 1);
    const double rr = (r + labels::kEdgeEpsilon) * (r + labels::kEdgeEpsilon);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            double best = 1e300;
            const size_t n = pts.size() == 1 ? 1 : pts.size() - 1;
            for (size_t i = 0; i < n; ++i)
                best = std::min(
                    best, labels::distanceSquaredToSegment(x + 0.5, y + 0.5, pts[i],
                                                           pts.size() == 1 ? pts[i] : pts[i + 1]));
            if (best <= rr)
                im.row(y)[x] = 255;
        }
    return im;
}

std::unique_ptr<LabelLayer> openLayer(const std::string& image, int tile = 16)
{
    LabelLayerOptions o;
    o.tileSize = tile;
    auto l = LabelLayer::open(image, o);
    if (!l)
        qWarning("%s", l.status().toString().c_str());
    return l ? std::move(*l) : nullptr;
}

Image all(const LabelLayer& l)
{
    return *l.readRegion({0, 0, l.width(), l.height()});
}

int count(const Image& im)
{
    return int(std::count_if(im.pixels.begin(), im.pixels.end(), [](uint8_t v) { return v; }));
}

/// Tags of a tiled 8-bit gray Deflate TIFF of w x h.
void setGrayTiledTags(TIFF* t, int w, int h, int tile)
{
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, uint32_t(w));
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, uint32_t(h));
    TIFFSetField(t, TIFFTAG_TILEWIDTH, uint32_t(tile));
    TIFFSetField(t, TIFFTAG_TILELENGTH, uint32_t(tile));
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, uint16_t(1));
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
}

/// A tiled 8-bit gray TIFF of w x h whose every tile is the same Deflate-compressed zero tile
/// (written raw, so even 40000 x 40000 costs a few MB and a fraction of a second).
void writeZeroTiledTiff(const std::string& path, int w, int h, int tile, double pixelMm)
{
    const std::string one = path + ".one.tif";
    {
        TIFF* t = TIFFOpen(one.c_str(), "w");
        setGrayTiledTags(t, tile, tile, tile);
        std::vector<uint8_t> z(size_t(tile) * tile, 0);
        TIFFWriteEncodedTile(t, 0, z.data(), tmsize_t(z.size()));
        TIFFClose(t);
    }
    std::vector<uint8_t> raw;
    {
        TIFF* t = TIFFOpen(one.c_str(), "r");
        raw.resize(size_t(TIFFGetStrileByteCount(t, 0)));
        TIFFReadRawTile(t, 0, raw.data(), tmsize_t(raw.size()));
        TIFFClose(t);
    }
    fs::remove(one);
    TIFF* t = TIFFOpen(path.c_str(), "w8");
    setGrayTiledTags(t, w, h, tile);
    if (pixelMm > 0) {
        TIFFSetField(t, TIFFTAG_RESOLUTIONUNIT, RESUNIT_CENTIMETER);
        TIFFSetField(t, TIFFTAG_XRESOLUTION, float(10.0 / pixelMm));
        TIFFSetField(t, TIFFTAG_YRESOLUTION, float(10.0 / pixelMm));
    }
    const uint32_t n = TIFFNumberOfTiles(t);
    for (uint32_t i = 0; i < n; ++i)
        TIFFWriteRawTile(t, i, raw.data(), tmsize_t(raw.size()));
    TIFFClose(t);
}

} // namespace

class TestLabels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rasterMatchesBruteForce()
    {
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> pos(-5.0, 70.0);
        for (double width : {0.5, 1.0, 1.7, 2.0, 3.0, 6.5, 11.0}) {
            for (int trial = 0; trial < 12; ++trial) {
                std::vector<LabelPoint> pts;
                const int n = 1 + trial % 4;
                for (int i = 0; i < n; ++i)
                    pts.push_back({pos(rng), pos(rng)});
                if (trial == 0) // axis-aligned and exact 45 degrees
                    pts = {{10, 10}, {50, 10}, {50, 50}, {10, 10}};
                Image ref = bruteForce(64, 60, pts, width / 2);
                Image got = Image::make(64, 60, 1);
                labels::rasterStroke(pts, width / 2, 64, 60, [&](int y, int x0, int x1) {
                    for (int x = x0; x <= x1; ++x)
                        got.row(y)[x] = 255;
                });
                QVERIFY2(got.pixels == ref.pixels,
                         qPrintable(QStringLiteral("width %1 trial %2").arg(width).arg(trial)));
            }
        }
    }

    void polylineBrushEraser()
    {
        QTemporaryDir dir;
        const std::string img = s(dir.filePath(QStringLiteral("wall.tif")));
        QVERIFY(writeTiff(img, Image::make(97, 83, 3, 100)).isOk());
        auto l = openLayer(img);
        QVERIFY(l);
        QCOMPARE(l->width(), 97);
        QCOMPARE(l->state(), LabelState::Unlabelled);
        const std::vector<LabelPoint> pts{{3.2, 4.1}, {90.7, 40.3}, {20.5, 78.9}};
        auto e = l->polyline(pts, 4.0);
        QVERIFY(e.isOk());
        QCOMPARE(all(*l).pixels, bruteForce(97, 83, pts, 2.0).pixels);
        QCOMPARE(l->provenance().userAdded, uint64_t(count(all(*l))));
        QCOMPARE(l->state(), LabelState::Labelled);
        // Eraser: the erased disc is exactly 0, the rest untouched.
        const Image before = all(*l);
        auto er = l->brush({{50, 25}}, 9.0, true);
        QVERIFY(er.isOk());
        const Image disc = bruteForce(97, 83, {{50, 25}}, 4.5);
        const Image after = all(*l);
        for (size_t i = 0; i < after.pixels.size(); ++i)
            QCOMPARE(after.pixels[i], disc.pixels[i] ? uint8_t(0) : before.pixels[i]);
        QCOMPARE(l->provenance().labelled, uint64_t(count(after)));
        // Errors are values.
        QCOMPARE(l->polyline({}, 3).status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(l->polyline(pts, 0).status().code(), ErrorCode::InvalidArgument);
        // An edit that changes nothing is empty.
        auto none = l->brush({{-50, -50}}, 3, false);
        QVERIFY(none.isOk() && none->empty());
    }

    void fillClosedOpenAndOnLabel()
    {
        QTemporaryDir dir;
        const std::string img = s(dir.filePath(QStringLiteral("f.tif")));
        QVERIFY(writeTiff(img, Image::make(60, 50, 1, 0)).isOk());
        auto l = openLayer(img);
        QVERIFY(l);
        QVERIFY(l->polyline({{10, 10}, {40, 10}, {40, 40}, {10, 40}, {10, 10}}, 1.0).isOk());
        const Image ring = all(*l);
        auto f = l->fill({25, 25});
        QVERIFY2(f.isOk(), f.status().toString().c_str());
        // Inside: every 0-pixel 4-connected to the seed; outside untouched.
        const Image filled = all(*l);
        for (int y = 0; y < 50; ++y)
            for (int x = 0; x < 60; ++x) {
                const bool inside = x > 10 && x < 39 && y > 10 && y < 39;
                if (inside)
                    QCOMPARE(int(filled.row(y)[x]), 255);
                else
                    QCOMPARE(filled.row(y)[x], ring.row(y)[x]);
            }
        auto open = l->fill({5, 5});
        QCOMPARE(open.status().code(), ErrorCode::InvalidArgument);
        QVERIFY(open.status().detail().rfind("fill_not_closed:", 0) == 0);
        QCOMPARE(l->fill({25, 25}).status().code(), ErrorCode::InvalidArgument); // on a label
        QCOMPARE(l->fill({-1, 5}).status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(all(*l).pixels, filled.pixels); // refused fills change nothing
        // Crack-free region and whole image.
        QVERIFY(l->setRegion({0, 0, 30, 30}, 0).isOk());
        const Image cleared = all(*l);
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 30; ++x)
                QCOMPARE(int(cleared.row(y)[x]), 0);
        QVERIFY(l->setRegion({-10, -10, 1000, 1000}, 0).isOk());
        QCOMPARE(count(all(*l)), 0);
        QCOMPARE(l->provenance().labelled, uint64_t(0));

        // A closed region wider than the fill window is refused as too large.
        const std::string wide = s(dir.filePath(QStringLiteral("wide.tif")));
        QVERIFY(writeTiff(wide, Image::make(5000, 40, 1)).isOk());
        auto w = openLayer(wide, 256);
        QVERIFY(w);
        QVERIFY(w->polyline({{2, 2}, {4997, 2}, {4997, 37}, {2, 37}, {2, 2}}, 1).isOk());
        auto big = w->fill({2500, 20});
        QCOMPARE(big.status().code(), ErrorCode::InvalidArgument);
        QVERIFY(big.status().detail().rfind("fill_too_large:", 0) == 0);
        QVERIFY(w->fill({4998.5, 20}).status().detail().rfind("fill_not_closed:", 0) == 0);
    }

    void undoRedoRoundTrip()
    {
        QTemporaryDir dir;
        const std::string img = s(dir.filePath(QStringLiteral("u.tif")));
        QVERIFY(writeTiff(img, Image::make(120, 90, 1, 0)).isOk());
        auto l = openLayer(img);
        QVERIFY(l);
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> px(0, 120), py(0, 90), wd(1, 9);
        std::vector<LabelEdit> stack;
        std::vector<Image> states{all(*l)};
        std::vector<LabelProvenance> provs{l->provenance()};
        for (int i = 0; i < 30; ++i) {
            Result<LabelEdit> e = Status(ErrorCode::Internal, "");
            switch (i % 4) {
            case 0:
                e = l->polyline({{px(rng), py(rng)}, {px(rng), py(rng)}}, wd(rng));
                break;
            case 1:
                e = l->brush({{px(rng), py(rng)}, {px(rng), py(rng)}}, wd(rng), true);
                break;
            case 2:
                e = l->setRegion({int(px(rng)), int(py(rng)), 20, 15}, 0);
                break;
            default: {
                Image m = Image::make(30, 20, 1);
                for (auto& v : m.pixels)
                    v = rng() % 3 == 0 ? 255 : 0;
                e = l->applyProposal({int(px(rng)) % 90, int(py(rng)) % 70, 30, 20}, m);
            }
            }
            QVERIFY(e.isOk());
            stack.push_back(*e);
            states.push_back(all(*l));
            provs.push_back(l->provenance());
        }
        // Undo everything, redo everything, then undo half: each state identical.
        for (int i = int(stack.size()) - 1; i >= 0; --i) {
            l->undo(stack[size_t(i)]);
            QCOMPARE(all(*l).pixels, states[size_t(i)].pixels);
            QCOMPARE(l->provenance().labelled, provs[size_t(i)].labelled);
        }
        for (size_t i = 0; i < stack.size(); ++i) {
            l->redo(stack[i]);
            QCOMPARE(all(*l).pixels, states[i + 1].pixels);
            QCOMPARE(l->provenance().fromProposal, provs[i + 1].fromProposal);
        }
        for (size_t i = stack.size(); i-- > 15;)
            l->undo(stack[i]);
        QCOMPARE(all(*l).pixels, states[15].pixels);
        // Provenance adds up, and an edit holds only its tiles.
        const LabelProvenance p = l->provenance();
        QCOMPARE(p.labelled, uint64_t(count(all(*l))));
        QCOMPARE(p.labelled, p.fromProposal + p.userAdded);
        auto small = l->polyline({{2, 2}, {5, 3}}, 1);
        QVERIFY(small.isOk());
        QCOMPARE(int(small->tiles.size()), 1);
    }

    void replaceRegionCountsAsUser()
    {
        QTemporaryDir dir;
        const std::string img = s(dir.filePath(QStringLiteral("scan.tif")));
        QVERIFY(writeTiff(img, Image::make(40, 30, 1, 80)).isOk());
        auto l = openLayer(img);
        QVERIFY(l);
        QVERIFY(l->polyline({{2.5, 2.5}, {30.5, 2.5}}, 1).isOk()); // replaced by the import
        Image m = Image::make(40, 30, 1);
        std::fill_n(m.row(10) + 5, 10, uint8_t(255));
        auto e = l->replaceRegion({0, 0, 40, 30}, m);
        QVERIFY(e.isOk());
        QCOMPARE(all(*l).pixels, m.pixels);
        QCOMPARE(l->provenance().labelled, uint64_t(10));
        QCOMPARE(l->provenance().userAdded, uint64_t(10));
        QCOMPARE(l->provenance().fromProposal, uint64_t(0));
        l->undo(*e);
        QCOMPARE(all(*l).row(2)[10], uint8_t(255));
        QCOMPARE(all(*l).row(10)[10], uint8_t(0));
    }

    void saveAndReopen()
    {
        QTemporaryDir dir;
        const std::string img = s(dir.filePath(QStringLiteral("scan.tif")));
        TiffWriteOptions wo;
        wo.pixelSizeMm = 0.05;
        QVERIFY(writeTiff(img, Image::make(70, 45, 3, 80), wo).isOk());
        auto l = openLayer(img);
        QVERIFY(l);
        QVERIFY(qAbs(l->pixelSizeXmm() - 0.05) < 1e-6);
        Image prop = Image::make(20, 10, 1, 255);
        QVERIFY(l->applyProposal({5, 5, 20, 10}, prop).isOk());
        QVERIFY(l->brush({{10, 10}}, 3, true).isOk());
        QVERIFY(l->polyline({{40, 30}, {65, 40}}, 2.5).isOk());
        const Image before = all(*l);
        const LabelProvenance p = l->provenance();
        QCOMPARE(p.fromProposal + p.proposalErased, uint64_t(200));
        QVERIFY(p.userAdded > 0);
        // A stale proposal file is removed by accepting the label.
        const LabelPaths paths = l->paths();
        QCOMPARE(paths.mask, s(dir.filePath(QStringLiteral("scan.mask.tif"))));
        std::ofstream(paths.proposal) << "x";
        auto saved = l->save();
        QVERIFY2(saved.isOk(), saved.status().toString().c_str());
        QVERIFY(!l->modified());
        QVERIFY(!fs::exists(paths.proposal));
        QCOMPARE(labelStateFor(img), LabelState::Labelled);

        auto r = openLayer(img);
        QVERIFY(r);
        QCOMPARE(all(*r).pixels, before.pixels);
        QCOMPARE(r->provenance().fromProposal, p.fromProposal);
        QCOMPARE(r->provenance().userAdded, p.userAdded);
        QCOMPARE(r->provenance().proposalErased, p.proposalErased);
        // The mask itself: same size, 0/255, the image's resolution.
        auto tiled = TiledImage::open(paths.mask);
        QVERIFY(tiled.isOk());
        QCOMPARE((*tiled)->info().width, 70);
        QVERIFY(qAbs((*tiled)->info().pixelSizeXmm - 0.05) < 1e-6);
        auto m = readImage(paths.mask);
        QVERIFY(m.isOk());
        QCOMPARE(m->pixels, before.pixels);
        // Cancelled save leaves the old file.
        QVERIFY(r->setRegion({0, 0, 70, 45}, 0).isOk());
        CancelToken c;
        c.cancel();
        QCOMPARE(r->save(c).status().code(), ErrorCode::Cancelled);
        QCOMPARE(readImage(paths.mask)->pixels, before.pixels);
        QCOMPARE(fs::directory_iterator(s(dir.path()))->path().string().find(".part"),
                 std::string::npos);
    }

    void largeScanSavesOnlyEditedTiles()
    {
        QTemporaryDir dir;
        const int W = 40000, H = 40000, T = 256;
        const std::string img = s(dir.filePath(QStringLiteral("big.tif")));
        writeZeroTiledTiff(img, W, H, T, 0.1);
        const std::string mask = s(dir.filePath(QStringLiteral("big.mask.tif")));
        writeZeroTiledTiff(mask, W, H, T, 0.1);
        LabelLayerOptions o;
        o.tileSize = T;
        o.memoryBudget = 4ull << 20;
        auto opened = LabelLayer::open(img, o);
        QVERIFY2(opened.isOk(), opened.status().toString().c_str());
        auto& l = *opened;
        QCOMPARE(l->width(), W);
        QVERIFY(l->polyline({{10, 10}, {200, 100}}, 5).isOk());           // tile (0, 0)
        QVERIFY(l->polyline({{30010, 30010}, {30100, 30050}}, 3).isOk()); // one tile
        auto region = l->readRegion({29900, 29900, 300, 300});
        QVERIFY(region.isOk());
        QVERIFY(count(*region) > 0);
        QVERIFY(l->residentBytes() <= 16ull * T * T);
        const uint64_t nTiles = uint64_t((W + T - 1) / T) * uint64_t((H + T - 1) / T);
        auto saved = l->save();
        QVERIFY2(saved.isOk(), saved.status().toString().c_str());
        QCOMPARE(saved->tilesEncoded, 2);
        QCOMPARE(uint64_t(saved->tilesCopied), nTiles - 2);
        QVERIFY(saved->bytesWritten < 8ull << 20); // raw: 1.6 GB
        QVERIFY(saved->bytesWritten < uint64_t(W) * H / 100);
        QVERIFY(l->residentBytes() <= 16ull * T * T);
        auto again = LabelLayer::open(img, o);
        QVERIFY(again.isOk());
        QCOMPARE((*again)->readRegion({29900, 29900, 300, 300})->pixels, region->pixels);
        QVERIFY(count(*(*again)->readRegion({0, 0, 256, 256})) > 0);
        // A long diagonal stroke costs its tiles, not its bounding box.
        auto diag = (*again)->polyline({{0, 0}, {39999, 39999}}, 2);
        QVERIFY(diag.isOk());
        QVERIFY(diag->tiles.size() < 3 * 157);
        QVERIFY(diag->bytes() < 3ull * 157 * 2 * T * T);
        // Crack-free over the whole scan would pin every tile: refused, nothing changed.
        auto whole = (*again)->setRegion({0, 0, W, H}, 0);
        QCOMPARE(whole.status().code(), ErrorCode::OutOfMemory);
        QVERIFY(whole.status().detail().rfind("region_too_large:", 0) == 0);
        QVERIFY((*again)->setRegion({0, 0, 512, 512}, 0).isOk());
    }

    void pngMaskEditedInPlace()
    {
#ifndef FISURA_HAVE_IMGCODECS
        QSKIP("this build has no PNG codec");
#else
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("images")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("masks")));
        const std::string img = s(dir.filePath(QStringLiteral("images/a.tif")));
        QVERIFY(writeTiff(img, Image::make(40, 30, 3, 90)).isOk());
        QCOMPARE(labelPathsFor(img).mask, s(dir.filePath(QStringLiteral("masks/a.tif"))));
        // An existing PNG mask as the shared datasets have, crack value 1 (non-zero = crack).
        const std::string png = s(dir.filePath(QStringLiteral("masks/a.png")));
        cv::Mat m(30, 40, CV_8UC1, cv::Scalar(0));
        m.row(15).setTo(1);
        QVERIFY(cv::imwrite(png, m));
        QCOMPARE(labelPathsFor(img).mask, png);
        auto l = openLayer(img);
        QVERIFY(l);
        QCOMPARE(count(all(*l)), 40);
        QCOMPARE(l->provenance().userAdded, uint64_t(40));
        QVERIFY(l->polyline({{5, 5}, {30, 5}}, 1).isOk());
        auto saved = l->save();
        QVERIFY2(saved.isOk(), saved.status().toString().c_str());
        QCOMPARE(saved->path, png);
        QVERIFY(!fs::exists(s(dir.filePath(QStringLiteral("masks/a.tif")))));
        cv::Mat back = cv::imread(png, cv::IMREAD_UNCHANGED);
        QCOMPARE(back.type(), CV_8UC1);
        QVERIFY(std::equal(back.datastart, back.dataend, all(*l).pixels.begin()));
#endif
    }

    void statusOfDataset()
    {
        QTemporaryDir dir;
        QDir d(dir.path());
        QVERIFY(d.mkpath(QStringLiteral("images")));
        QVERIFY(d.mkpath(QStringLiteral("masks")));
        QVERIFY(d.mkpath(QStringLiteral("proposals")));
        for (const char* n : {"a", "b", "c"})
            QVERIFY(
                writeTiff(s(dir.filePath(QStringLiteral("images/%1.tif").arg(QLatin1String(n)))),
                          Image::make(8, 8, 1))
                    .isOk());
        QVERIFY(
            writeTiff(s(dir.filePath(QStringLiteral("masks/a.tif"))), Image::make(8, 8, 1)).isOk());
        QVERIFY(writeTiff(s(dir.filePath(QStringLiteral("proposals/b.tif"))), Image::make(8, 8, 1))
                    .isOk());
        auto st = labelStatus(s(dir.path()));
        QVERIFY(st.isOk());
        QCOMPARE(int(st->size()), 3);
        QCOMPARE((*st)[0].state, LabelState::Labelled);
        QCOMPARE((*st)[1].state, LabelState::Proposed);
        QCOMPARE((*st)[1].proposal, s(dir.filePath(QStringLiteral("proposals/b.tif"))));
        QCOMPARE((*st)[2].state, LabelState::Unlabelled);
        QCOMPARE(std::string(labelStateName((*st)[1].state)), std::string("proposed"));
        QCOMPARE(labelStatus(s(dir.filePath(QStringLiteral("none")))).status().code(),
                 ErrorCode::NotFound);
        // Outside a dataset.
        QCOMPARE(labelPathsFor("/x/y/scan.tiff").mask, std::string("/x/y/scan.mask.tif"));
        QCOMPARE(labelPathsFor("/x/y/scan.tiff").proposal, std::string("/x/y/scan.proposal.tif"));
    }

    void errors()
    {
        QCOMPARE(LabelLayer::open("/nonexistent/x.tif").status().code(), ErrorCode::NotFound);
        QTemporaryDir dir;
        const std::string img = s(dir.filePath(QStringLiteral("e.tif")));
        QVERIFY(writeTiff(img, Image::make(20, 20, 1)).isOk());
        QVERIFY(writeTiff(s(dir.filePath(QStringLiteral("e.mask.tif"))), Image::make(21, 20, 1))
                    .isOk());
        QCOMPARE(LabelLayer::open(img).status().code(), ErrorCode::Corrupt);
        fs::remove(s(dir.filePath(QStringLiteral("e.mask.tif"))));
        LabelLayerOptions bad;
        bad.tileSize = 10;
        QCOMPARE(LabelLayer::open(img, bad).status().code(), ErrorCode::InvalidArgument);
        auto l = openLayer(img);
        QVERIFY(l);
        QCOMPARE(l->readRegion({15, 15, 10, 10}).status().code(), ErrorCode::InvalidArgument);
        QCOMPARE(l->applyProposal({0, 0, 5, 5}, Image::make(4, 5, 1)).status().code(),
                 ErrorCode::InvalidArgument);
        auto ov = l->overview(5);
        QVERIFY(ov.isOk());
        QCOMPARE(ov->width, 5);
        QVERIFY(l->polyline({{10.5, 10.5}}, 1).isOk()); // a single pixel
        QCOMPARE(count(*l->overview(5)), 1);            // max-pooled: still visible
    }
};

QTEST_GUILESS_MAIN(TestLabels)
#include "tst_labels.moc"

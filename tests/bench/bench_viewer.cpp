// Viewer benchmark (offscreen): first complete frame on a 40k x 40k pyramidal tiled TIFF, a
// scripted pan/zoom path (frame times with a warm cache, memory against the cache budgets), and
// the same for a flat striped TIFF (time to the first usable frame, overview build time).
//
// usage: bench_viewer [work-dir] [side] [pyramid|striped]   (defaults: /tmp/fisura-bench 40000,
// both)
// The input files are generated once into work-dir and reused.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <vector>

#include "fisura/tilecache.h"
#include "fisura/tiledwriter.h"
#include "synthetic_scan.h"
#include "viewer/tiledviewer.h"

using namespace fisura;
using fisura::ui::TiledViewer;
using fisura::ui::ViewerStats;

namespace
{
constexpr int kViewW = 1280, kViewH = 800;
constexpr size_t kCoreBudget = 256u << 20;
constexpr qint64 kPixmapBudget = 256ll << 20;

bool writePyramid(const QString& path, int side)
{
    TiledWriteOptions o;
    o.tileSize = 256;
    o.compressionLevel = 1;
    o.pixelSizeXmm = o.pixelSizeYmm = 0.2;
    std::string why;
    if (!bench::writeSyntheticScan(path.toStdString(), side, side, 3, o, &why)) {
        std::fprintf(stderr, "%s\n", why.c_str());
        return false;
    }
    return true;
}

template <class T> void put(std::ofstream& f, T v)
{
    f.write(reinterpret_cast<const char*>(&v), sizeof v);
}

// A flat, striped, uncompressed 8-bit grey TIFF as many scanners write it (no pyramid).
bool writeStriped(const QString& path, int side)
{
    const int rps = 16;
    const uint32_t strips = uint32_t((side + rps - 1) / rps);
    const uint64_t data = uint64_t(side) * side;
    if (data + 8 + strips * 8 + 512 > 0xFFFFFFFFull)
        return false;
    const QString tmp = path + QStringLiteral(".part");
    std::ofstream f(tmp.toStdString(), std::ios::binary);
    f.write("II", 2);
    put<uint16_t>(f, 42);
    const uint32_t offsetsAt = uint32_t(8 + data), countsAt = offsetsAt + strips * 4;
    const uint32_t resAt = countsAt + strips * 4, ifdAt = resAt + 16;
    put<uint32_t>(f, ifdAt);
    const auto noise = bench::noiseTable();
    Image band = Image::make(side, rps, 1);
    for (int y = 0; y < side; y += rps) {
        const int h = std::min(rps, side - y);
        if (h != band.height)
            band = Image::make(side, h, 1);
        bench::fillRows(band, y, 1, noise);
        f.write(reinterpret_cast<const char*>(band.pixels.data()),
                std::streamsize(band.pixels.size()));
    }
    for (uint32_t i = 0; i < strips; ++i)
        put<uint32_t>(f, uint32_t(8 + uint64_t(i) * rps * side));
    for (uint32_t i = 0; i < strips; ++i)
        put<uint32_t>(f, uint32_t(std::min<uint64_t>(rps, side - uint64_t(i) * rps) * side));
    for (int i = 0; i < 2; ++i) { // 50 pixels per centimetre = 0.2 mm
        put<uint32_t>(f, 50);
        put<uint32_t>(f, 1);
    }
    struct Entry {
        uint16_t tag, type;
        uint32_t count, value;
    };
    const Entry e[] = {{256, 4, 1, uint32_t(side)},
                       {257, 4, 1, uint32_t(side)},
                       {258, 3, 1, 8},
                       {259, 3, 1, 1},
                       {262, 3, 1, 1},
                       {273, 4, strips, offsetsAt},
                       {277, 3, 1, 1},
                       {278, 4, 1, uint32_t(rps)},
                       {279, 4, strips, countsAt},
                       {282, 5, 1, resAt},
                       {283, 5, 1, resAt + 8},
                       {296, 3, 1, 3}};
    put<uint16_t>(f, uint16_t(std::size(e)));
    for (const Entry& x : e) {
        put<uint16_t>(f, x.tag);
        put<uint16_t>(f, x.type);
        put<uint32_t>(f, x.count);
        put<uint32_t>(f, x.value);
    }
    put<uint32_t>(f, 0);
    f.close();
    if (!f)
        return false;
    QFile::remove(path);
    return QFile::rename(tmp, path);
}

bool waitComplete(TiledViewer& v, int timeoutMs)
{
    if (v.frameComplete())
        return true;
    QEventLoop loop;
    QObject::connect(&v, &TiledViewer::frameCompleted, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return v.frameComplete();
}

// CPU time of the GUI thread: what a frame costs, whatever else the machine is doing.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

long rssMb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong() / 1024;
    return -1;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * (v.size() - 1) + 0.5))];
}

struct PathResult {
    std::vector<double> coldMs, warmMs, warmCpuMs;
    int warmIncomplete = 0;
    size_t maxCoreBytes = 0;
    qint64 maxPixmapBytes = 0;
    long maxRss = 0;
};

// Zoom in at the centre, pan right and down at 1:1, zoom out: each step is one frame.
std::vector<std::pair<double, QPointF>> scriptedPath(const TiledViewer& v, QPointF centre,
                                                     double startZoom)
{
    std::vector<std::pair<double, QPointF>> steps;
    double z = startZoom;
    while (z < 1.0) {
        z = std::min(1.0, z * 1.25);
        steps.push_back({z, centre});
    }
    QPointF c = centre;
    for (int i = 0; i < 40; ++i) {
        c += QPointF(i < 30 ? 150 : 0, i < 30 ? 0 : 150);
        steps.push_back({1.0, c});
    }
    while (z > startZoom * 1.01) {
        z = std::max(startZoom, z / 1.25);
        steps.push_back({z, c});
    }
    Q_UNUSED(v);
    return steps;
}

PathResult runPath(TiledViewer& v, const std::vector<std::pair<double, QPointF>>& steps)
{
    PathResult r;
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& [z, c] : steps) {
            QElapsedTimer t;
            t.start();
            const double cpu0 = threadCpuMs();
            v.showAt(c, z);
            if (pass == 0)
                waitComplete(v, 20000);
            v.repaint();
            const double ms = t.nsecsElapsed() / 1e6;
            (pass == 0 ? r.coldMs : r.warmMs).push_back(ms);
            if (pass == 1)
                r.warmCpuMs.push_back(threadCpuMs() - cpu0);
            QCoreApplication::processEvents();
            if (pass == 1 && !v.frameComplete())
                ++r.warmIncomplete;
            r.maxCoreBytes = std::max(r.maxCoreBytes, v.tileCache()->stats().bytes);
            r.maxPixmapBytes = std::max(r.maxPixmapBytes, v.stats().pixmapBytes);
            r.maxRss = std::max(r.maxRss, rssMb());
        }
    return r;
}

void printPath(const char* name, const PathResult& r)
{
    std::printf("%s: %zu steps; cold complete frame p50 %.1f ms p95 %.1f ms; warm frame wall p50 "
                "%.2f ms p95 %.2f ms max %.2f ms, GUI-thread CPU p50 %.2f ms p95 %.2f ms (%d warm "
                "frames incomplete); core cache max %.0f MiB (budget %zu), pixmaps max %.0f MiB "
                "(budget %lld), RSS max %ld MiB\n",
                name, r.warmMs.size(), percentile(r.coldMs, 0.5), percentile(r.coldMs, 0.95),
                percentile(r.warmMs, 0.5), percentile(r.warmMs, 0.95), percentile(r.warmMs, 1.0),
                percentile(r.warmCpuMs, 0.5), percentile(r.warmCpuMs, 0.95), r.warmIncomplete,
                r.maxCoreBytes / 1048576.0, kCoreBudget >> 20, r.maxPixmapBytes / 1048576.0,
                kPixmapBudget >> 20, r.maxRss);
}
} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString dir =
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp/fisura-bench");
    const int side = argc > 2 ? std::atoi(argv[2]) : 40000;
    const QString only = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();
    QDir().mkpath(dir);
    const QString pyramid = QDir(dir).filePath(QStringLiteral("pyramid_%1.tif").arg(side));
    const QString striped = QDir(dir).filePath(QStringLiteral("striped_%1.tif").arg(side));
    QElapsedTimer t;
    if (!QFile::exists(pyramid)) {
        t.start();
        if (!writePyramid(pyramid, side))
            return 1;
        std::printf("generated %s (%d x %d RGB, zstd, 256-px tiles) in %.1f s, %.0f MiB\n",
                    qPrintable(pyramid), side, side, t.elapsed() / 1000.0,
                    QFileInfo(pyramid).size() / 1048576.0);
    }
    if (!QFile::exists(striped)) {
        t.start();
        if (!writeStriped(striped, side))
            return 1;
        std::printf("generated %s (%d x %d grey, uncompressed, 16-row strips) in %.1f s\n",
                    qPrintable(striped), side, side, t.elapsed() / 1000.0);
    }
    std::fflush(stdout);

    if (only.isEmpty() || only == QLatin1String("pyramid")) {
        auto cache = std::make_shared<TileCache>(kCoreBudget);
        TiledViewer v(nullptr, cache);
        v.setPixmapBudget(kPixmapBudget);
        v.resize(kViewW, kViewH);
        v.show();
        t.start();
        if (Status s = v.openImage(pyramid); !s) {
            std::fprintf(stderr, "open: %s\n", s.detail().c_str());
            return 1;
        }
        const double openMs = t.nsecsElapsed() / 1e6;
        const bool ok = waitComplete(v, 30000);
        v.repaint();
        std::printf("pyramid %dx%d, %d levels: open %.1f ms, first complete frame (fit, level %d) "
                    "%.1f ms%s\n",
                    side, side, v.levelCount(), openMs, v.currentLevel(), t.nsecsElapsed() / 1e6,
                    ok ? "" : " (INCOMPLETE)");
        const auto steps = scriptedPath(v, QPointF(side / 2.0, side / 2.0), v.zoom());
        printPath("pyramid pan/zoom", runPath(v, steps));
        const ViewerStats st = v.stats();
        std::printf("pyramid requests: %llu requested, %llu decoded, %llu stale dropped, %llu late "
                    "dropped\n",
                    (unsigned long long)st.requested, (unsigned long long)st.decoded,
                    (unsigned long long)st.droppedStale, (unsigned long long)st.droppedLate);
        std::fflush(stdout);
    }
    if (only.isEmpty() || only == QLatin1String("striped")) {
        auto cache = std::make_shared<TileCache>(kCoreBudget);
        TiledViewer v(nullptr, cache);
        v.setPixmapBudget(kPixmapBudget);
        QTemporaryDir ovCache;
        v.setOverviewCacheDir(ovCache.path());
        v.resize(kViewW, kViewH);
        v.show();
        QElapsedTimer ov;
        bool built = false;
        QObject::connect(&v, &TiledViewer::overviewBuilt, [&] { built = true; });
        t.start();
        ov.start();
        if (Status s = v.openImage(striped); !s) {
            std::fprintf(stderr, "open: %s\n", s.detail().c_str());
            return 1;
        }
        const double openMs = t.nsecsElapsed() / 1e6;
        const bool ok = waitComplete(v, 30000);
        v.repaint();
        std::printf(
            "striped %dx%d: open %.1f ms, first usable frame (1:1 at the centre) %.1f ms%s\n", side,
            side, openMs, t.nsecsElapsed() / 1e6, ok ? "" : " (INCOMPLETE)");
        std::fflush(stdout);
        std::vector<std::pair<double, QPointF>> steps;
        QPointF c(side / 2.0, side / 2.0);
        for (int i = 0; i < 60; ++i) {
            c += QPointF(i % 20 < 10 ? 120 : -120, i < 30 ? 40 : -40);
            steps.push_back({1.0, c});
        }
        printPath("striped pan at 1:1", runPath(v, steps));
        while (!built && ov.elapsed() < 600000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
        std::printf("striped overview built in the background in %.1f s (from open)\n",
                    ov.elapsed() / 1000.0);
        t.start();
        v.fitToWindow();
        v.repaint();
        std::printf("striped fit view from the overview: %.1f ms\n", t.nsecsElapsed() / 1e6);
        TiledViewer again(nullptr, cache);
        again.setOverviewCacheDir(ovCache.path());
        again.resize(kViewW, kViewH);
        t.start();
        again.openImage(striped);
        std::printf("striped reopened: overview from cache file %s in %.1f ms\n",
                    again.overviewReady() ? "ready" : "NOT ready", t.nsecsElapsed() / 1e6);
    }
    return 0;
}

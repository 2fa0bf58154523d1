// Inspections over time (fisura/series.h): scans of one structure with dates, out of order and
// one undated, measured into a timeline oldest first; the structure and date survive saving,
// reopening and analysing again; a hand-edited date that is none is dropped; the errors.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>

#include "fisura/image.h"
#include "fisura/project.h"
#include "fisura/series.h"

using namespace fisura;

namespace
{

constexpr double kPixelMm = 0.1;

/// A 300 x 200 mask with one horizontal crack `length` px long and `width` px wide.
std::string writeMap(const QTemporaryDir& dir, const QString& name, int length, int width)
{
    Image m = Image::make(300, 200, 1);
    for (int y = 100; y < 100 + width; ++y)
        for (int x = 20; x < 20 + length; ++x)
            m.row(y)[x] = 255;
    const std::string path = dir.filePath(name).toStdString();
    TiffWriteOptions o;
    o.pixelSizeMm = kPixelMm;
    if (!writeTiff(path, m, o))
        return {};
    return path;
}

ProjectScan scan(const std::string& input, const std::string& map, const std::string& structure,
                 const std::string& date)
{
    ProjectScan s;
    s.input = input;
    s.mapPath = map;
    s.modelPath = "/models/m.fisura";
    s.structure = structure;
    s.inspectedOn = date;
    return s;
}

} // namespace

class TstSeries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dates()
    {
        QVERIFY(isIsoDate("2024-02-29"));
        QVERIFY(!isIsoDate("2023-02-29"));
        QVERIFY(!isIsoDate("2024-13-01"));
        QVERIFY(!isIsoDate("2024-1-01"));
        QVERIFY(!isIsoDate("24-01-01xx"));
        QVERIFY(!isIsoDate(""));
    }

    void timelineOldestFirst()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "deck");
        QVERIFY(p);
        // Recorded out of order: 2026 (longest, widest), 2024, 2025; one undated; another bridge.
        const std::string m26 = writeMap(dir, QStringLiteral("m26.tif"), 240, 5);
        const std::string m24 = writeMap(dir, QStringLiteral("m24.tif"), 100, 2);
        const std::string m25 = writeMap(dir, QStringLiteral("m25.tif"), 160, 3);
        QVERIFY(!m26.empty() && !m24.empty() && !m25.empty());
        p->recordScan(scan("/scans/b12_2026.tif", m26, "Bridge 12", "2026-05-10"));
        const std::string id24 =
            p->recordScan(scan("/scans/b12_2024.tif", m24, "Bridge 12", "2024-04-30"));
        p->recordScan(scan("/scans/b12_2025.tif", m25, "Bridge 12", "2025-05-04"));
        const std::string undated = p->recordScan(scan("/scans/b12_old.tif", m24, "Bridge 12", ""));
        p->recordScan(scan("/scans/b7.tif", m24, "Bridge 7", "2025-01-01"));
        QCOMPARE(projectStructures(*p), (std::vector<std::string>{"Bridge 12", "Bridge 7"}));

        auto s = measureSeries(*p, "Bridge 12");
        QVERIFY2(s, s.status().toString().c_str());
        QCOMPARE(int(s->points.size()), 3);
        QCOMPARE(QString::fromStdString(s->points[0].inspectedOn), QStringLiteral("2024-04-30"));
        QCOMPARE(QString::fromStdString(s->points[2].inspectedOn), QStringLiteral("2026-05-10"));
        QCOMPARE(s->points[0].scanId, id24);
        for (size_t i = 1; i < s->points.size(); ++i) {
            QVERIFY(s->points[i].lengthMm > s->points[i - 1].lengthMm);
            QVERIFY(s->points[i].areaMm2 > s->points[i - 1].areaMm2);
            QVERIFY(s->points[i].widestMm > s->points[i - 1].widestMm);
        }
        // 240 px at 0.1 mm: about 24 mm; 5 px wide: about 0.5 mm.
        QVERIFY2(std::abs(s->points[2].lengthMm - 24) < 1.5,
                 qPrintable(QString::number(s->points[2].lengthMm)));
        QVERIFY2(std::abs(s->points[2].widestMm - 0.5) < 0.15,
                 qPrintable(QString::number(s->points[2].widestMm)));
        QCOMPARE(int(s->skipped.size()), 1);
        QCOMPARE(QString::fromStdString(s->skipped[0]),
                 QString::fromStdString(undated + ": no date"));
        const std::string json = toJson(*s);
        QVERIFY(json.find("\"inspected_on\": \"2025-05-04\"") != std::string::npos);
        const std::string csv = seriesCsv(*s);
        QVERIFY(csv.rfind("inspected_on,scan_id,", 0) == 0);
        QCOMPARE(int(std::count(csv.begin(), csv.end(), '\n')), 4);
    }

    void keptWhenSavedAndAnalysedAgain()
    {
        QTemporaryDir dir;
        const std::string pdir = dir.filePath(QStringLiteral("p")).toStdString();
        auto p = Project::create(pdir, "deck");
        QVERIFY(p);
        const std::string map = writeMap(dir, QStringLiteral("m.tif"), 100, 2);
        const std::string id = p->recordScan(scan("/scans/a.tif", map, "Tunnel A", "2025-03-01"));
        // Analysed again (same scan, same model): still the same inspection.
        QCOMPARE(p->recordScan(scan("/scans/a.tif", map, "", "")), id);
        QVERIFY(p->save());
        auto back = Project::open(pdir);
        QVERIFY(back);
        const ProjectScan* s = back->findScan(id);
        QVERIFY(s);
        QCOMPARE(QString::fromStdString(s->structure), QStringLiteral("Tunnel A"));
        QCOMPARE(QString::fromStdString(s->inspectedOn), QStringLiteral("2025-03-01"));
    }

    void errors()
    {
        QTemporaryDir dir;
        auto p = Project::create(dir.filePath(QStringLiteral("p")).toStdString(), "deck");
        QVERIFY(p);
        QCOMPARE(measureSeries(*p, "Bridge 1").status().code(), ErrorCode::NotFound);
        p->recordScan(scan("/scans/a.tif", "", "Bridge 1", "2025-01-01"));  // no map
        p->recordScan(scan("/scans/b.tif", "/maps/b.tif", "Bridge 1", "")); // no date
        QCOMPARE(measureSeries(*p, "Bridge 1").status().code(), ErrorCode::InvalidArgument);
        // A map that is gone: the error names the scan.
        p->recordScan(scan("/scans/c.tif", "/maps/gone.tif", "Bridge 1", "2025-02-01"));
        const Status s = measureSeries(*p, "Bridge 1").status();
        QCOMPARE(s.code(), ErrorCode::NotFound);
        QVERIFY2(QString::fromStdString(s.detail()).contains(QStringLiteral("(2025-02-01)")),
                 s.detail().c_str());
        // Cancelled.
        const std::string map = writeMap(dir, QStringLiteral("m.tif"), 100, 2);
        auto q = Project::create(dir.filePath(QStringLiteral("q")).toStdString(), "q");
        q->recordScan(scan("/scans/d.tif", map, "B", "2025-01-01"));
        CancelToken cancel;
        cancel.cancel();
        QCOMPARE(measureSeries(*q, "B", {}, cancel).status().code(), ErrorCode::Cancelled);
    }

    void handEditedDateDropped()
    {
        QTemporaryDir dir;
        const std::string pdir = dir.filePath(QStringLiteral("p")).toStdString();
        auto p = Project::create(pdir, "deck");
        QVERIFY(p);
        const std::string id =
            p->recordScan(scan("/scans/a.tif", "/maps/a.tif", "X", "2025-03-01"));
        QVERIFY(p->save());
        QFile f(QString::fromStdString(p->file()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        text.replace("2025-03-01", "next spring");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        auto back = Project::open(pdir);
        QVERIFY(back);
        QVERIFY(back->findScan(id)->inspectedOn.empty());
        QCOMPARE(QString::fromStdString(back->findScan(id)->structure), QStringLiteral("X"));
    }
};

QTEST_GUILESS_MAIN(TstSeries)
#include "tst_series.moc"

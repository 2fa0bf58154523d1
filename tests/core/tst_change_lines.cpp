// The centre lines a crack change is drawn by: a new crack's along its drawn middle, a grown
// crack's grown part beyond the earlier crack, a gone crack's from the earlier map, and every
// change's lines bounded in points however long its cracks are.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include <opencv2/imgproc.hpp>

#include "change/change_lines.h"
#include "drawn_cracks.h"
#include "fisura/change.h"
#include "image_mat.h"

using namespace fisura;
using fisura::change_detail::Lines;
using fisura::testing_mat::toImage;

namespace
{
constexpr int kW = 600, kH = 400;

/// Distance of p from the segment a-b.
double toSegment(const CentrePoint& p, cv::Point2d a, cv::Point2d b)
{
    const cv::Point2d d = b - a, q(p.x - a.x, p.y - a.y);
    const double t = std::clamp(q.dot(d) / d.dot(d), 0.0, 1.0);
    return cv::norm(q - t * d);
}

size_t pointsOf(const Lines& lines)
{
    size_t n = 0;
    for (const auto& l : lines)
        n += l.size();
    return n;
}

const CrackChange* ofKind(const ChangeResult& r, ChangeKind k)
{
    for (const auto& c : r.changes)
        if (c.kind == k)
            return &c;
    return nullptr;
}
} // namespace

class TestChangeLines : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linesOfEachKind();
    void boundedInPoints();
    void farStretches();
};

void TestChangeLines::linesOfEachKind()
{
    QTemporaryDir dir;
    cv::Mat before = cv::Mat::zeros(kH, kW, CV_8UC1), after = before.clone();
    const cv::Point2d grownA(50, 100), grownB(250, 100), grownEnd(420, 100);
    const cv::Point2d goneA(60, 320), goneB(220, 300), newA(320, 200), newB(520, 330);
    test::bar(before, grownA, grownB, 3);
    test::bar(before, goneA, goneB, 3);
    test::bar(after, grownA, grownEnd, 3);
    test::bar(after, newA, newB, 3);
    const auto b = dir.filePath(QStringLiteral("b.tif")).toStdString(),
               a = dir.filePath(QStringLiteral("a.tif")).toStdString();
    QVERIFY(writeTiff(b, toImage(before)).isOk());
    QVERIFY(writeTiff(a, toImage(after)).isOk());
    AlignResult al;
    al.beforeWidth = al.afterWidth = kW;
    al.beforeHeight = al.afterHeight = kH;
    auto r = compareCrackMaps(b, a, al, {});
    QVERIFY2(r.isOk(), r.status().toString().c_str());

    const CrackChange* n = ofKind(*r, ChangeKind::New);
    QVERIFY(n);
    QVERIFY(!n->lines.empty() && n->grownLines.empty());
    double reach = 0; // how far along the drawn crack the line goes
    for (const auto& l : n->lines)
        for (const auto& p : l) {
            QVERIFY2(toSegment(p, newA, newB) < 2.5, qPrintable(QString::number(p.x)));
            reach = std::max(reach, p.x);
        }
    QVERIFY(reach > newB.x - 8);

    const CrackChange* g = ofKind(*r, ChangeKind::Grown);
    QVERIFY(g);
    QVERIFY(!g->lines.empty() && !g->grownLines.empty());
    double grownFrom = 1e9, grownTo = 0, lineFrom = 1e9;
    for (const auto& l : g->grownLines)
        for (const auto& p : l)
            grownFrom = std::min(grownFrom, p.x), grownTo = std::max(grownTo, p.x);
    for (const auto& l : g->lines)
        for (const auto& p : l)
            lineFrom = std::min(lineFrom, p.x);
    // The grown part starts within the tolerance (6 px) past the earlier end, the whole line at
    // the earlier start.
    QVERIFY2(grownFrom > grownB.x && grownFrom < grownB.x + 12,
             qPrintable(QString::number(grownFrom)));
    QVERIFY(grownTo > grownEnd.x - 8);
    QVERIFY(lineFrom < grownA.x + 8);

    const CrackChange* gone = ofKind(*r, ChangeKind::Gone);
    QVERIFY(gone);
    QVERIFY(!gone->lines.empty());
    for (const auto& l : gone->lines)
        for (const auto& p : l)
            QVERIFY(toSegment(p, goneA, goneB) < 2.5);

    // The JSON export carries both lines of each change, as [x, y] before-scan pixels.
    const QJsonArray changes = QJsonDocument::fromJson(QByteArray::fromStdString(changeJson(*r)))
                                   .object()
                                   .value(QStringLiteral("changes"))
                                   .toArray();
    QCOMPARE(changes.size(), qsizetype(r->changes.size()));
    for (qsizetype i = 0; i < changes.size(); ++i) {
        const CrackChange& c = r->changes[size_t(i)];
        const QJsonObject o = changes[i].toObject();
        for (const auto& [key, lines] :
             {std::pair("lines", &c.lines), std::pair("grown_lines", &c.grownLines)}) {
            const QJsonArray js = o.value(QLatin1String(key)).toArray();
            QCOMPARE(js.size(), qsizetype(lines->size()));
            for (qsizetype k = 0; k < js.size(); ++k) {
                const QJsonArray pts = js[k].toArray();
                QCOMPARE(pts.size(), qsizetype((*lines)[size_t(k)].size()));
                const CentrePoint& last = (*lines)[size_t(k)].back();
                QVERIFY(std::abs(pts.last().toArray()[0].toDouble() - last.x) <= 0.005);
                QVERIFY(std::abs(pts.last().toArray()[1].toDouble() - last.y) <= 0.005);
            }
        }
    }
}

void TestChangeLines::boundedInPoints()
{
    // One long winding line: every n-th vertex and both ends.
    Lines one(1);
    for (int i = 0; i < 40000; ++i)
        one[0].push_back({double(i), 100 + 50 * std::sin(i / 7.0), 2});
    const CentrePoint first = one[0].front(), last = one[0].back();
    change_detail::boundLines(one, kMaxChangeLinePoints);
    QVERIFY(pointsOf(one) <= kMaxChangeLinePoints);
    QVERIFY(pointsOf(one) > kMaxChangeLinePoints / 2);
    QCOMPARE(one[0].front().x, first.x);
    QCOMPARE(one[0].back().x, last.x);
    // Many short lines: the longest ones stay, two points each at least.
    Lines many;
    for (int i = 0; i < 2000; ++i)
        many.push_back(std::vector<CentrePoint>(size_t(2 + i % 5), CentrePoint{double(i), 0, 1}));
    change_detail::boundLines(many, kMaxChangeLinePoints);
    QVERIFY(pointsOf(many) <= kMaxChangeLinePoints);
    for (const auto& l : many)
        QVERIFY(l.size() >= 2);
    // Lines within the bound are left alone.
    Lines small{{{0, 0, 1}, {1, 1, 1}, {2, 2, 1}}};
    change_detail::boundLines(small, kMaxChangeLinePoints);
    QCOMPARE(pointsOf(small), size_t(3));
}

void TestChangeLines::farStretches()
{
    const Lines line{{{0, 0, 1}, {100, 0, 1}}};
    // Near x < 30 and 60 <= x < 70: far stretches 30..59 and 70..100.
    const Lines far = change_detail::farStretches(
        line, [](double x, double) { return x < 30 || (x >= 60 && x < 70); });
    QCOMPARE(far.size(), size_t(2));
    QCOMPARE(far[0].front().x, 30.0);
    QCOMPARE(far[0].back().x, 59.0);
    QCOMPARE(far[1].front().x, 70.0);
    QCOMPARE(far[1].back().x, 100.0);
    QVERIFY(change_detail::farStretches(line, [](double, double) { return true; }).empty());
}

QTEST_GUILESS_MAIN(TestChangeLines)
#include "tst_change_lines.moc"

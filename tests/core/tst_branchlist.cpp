// BranchList: a measurement's branches packed in memory up to a budget, then in an unlinked
// temporary file; every value comes back as it went in, copies keep their own order, and a
// temporary folder that cannot be written is an error value with the list unchanged.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdlib>
#include <string>

#include "fisura/measure.h"

using namespace fisura;

namespace
{

// A branch whose every field depends on `k`, with k % 7 vertices and k % 3 segments, and values
// that no float or int would keep.
CrackBranch branchOf(int k)
{
    CrackBranch b;
    b.id = k + 1;
    b.crackId = k / 5 + 1;
    b.lengthPx = 10.0 / 3.0 + k;
    b.lengthMm = k % 2 ? -1.0 : 0.1 * k;
    b.width = {1.0 / 7 + k, 2.5, 3.25 + k, -1, 0.125 * k, std::nextafter(1.0, 2.0)};
    b.orientationDeg = std::fmod(17.3 * k, 180.0);
    b.box = {k, 2 * k, 3 + k, 4 + k};
    b.centroidX = k + 0.3;
    b.centroidY = 1e9 + k;
    b.widthClass = k % 4 - 1;
    b.exceedsLimit = k % 3 == 0;
    for (int v = 0; v < k % 7; ++v)
        b.centreLine.push_back({v + 0.5 + 1e-9 * k, 40000.5 - v, std::sqrt(2.0) * v});
    for (int s = 0; s < k % 3; ++s) {
        BranchSegment seg;
        seg.id = 100 * k + s;
        seg.firstVertex = s;
        seg.lastVertex = s + 1;
        seg.lengthPx = std::cbrt(double(k + s));
        seg.lengthMm = -1;
        seg.width = {double(s), 1.5, 2.5, -1, -1, -1};
        seg.widthClass = s;
        seg.exceedsLimit = s == 1;
        b.segments.push_back(seg);
    }
    return b;
}

void compareBranch(const CrackBranch& a, const CrackBranch& b)
{
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.crackId, b.crackId);
    QCOMPARE(a.lengthPx, b.lengthPx);
    QCOMPARE(a.lengthMm, b.lengthMm);
    QCOMPARE(a.width.meanPx, b.width.meanPx);
    QCOMPARE(a.width.medianPx, b.width.medianPx);
    QCOMPARE(a.width.maxPx, b.width.maxPx);
    QCOMPARE(a.width.meanMm, b.width.meanMm);
    QCOMPARE(a.width.medianMm, b.width.medianMm);
    QCOMPARE(a.width.maxMm, b.width.maxMm);
    QCOMPARE(a.orientationDeg, b.orientationDeg);
    QCOMPARE(a.box.x, b.box.x);
    QCOMPARE(a.box.y, b.box.y);
    QCOMPARE(a.box.width, b.box.width);
    QCOMPARE(a.box.height, b.box.height);
    QCOMPARE(a.centroidX, b.centroidX);
    QCOMPARE(a.centroidY, b.centroidY);
    QCOMPARE(a.widthClass, b.widthClass);
    QCOMPARE(a.exceedsLimit, b.exceedsLimit);
    QCOMPARE(a.centreLine.size(), b.centreLine.size());
    for (size_t i = 0; i < a.centreLine.size(); ++i) {
        QCOMPARE(a.centreLine[i].x, b.centreLine[i].x);
        QCOMPARE(a.centreLine[i].y, b.centreLine[i].y);
        QCOMPARE(a.centreLine[i].widthPx, b.centreLine[i].widthPx);
    }
    QCOMPARE(a.segments.size(), b.segments.size());
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const BranchSegment &s = a.segments[i], &t = b.segments[i];
        QCOMPARE(s.id, t.id);
        QCOMPARE(s.firstVertex, t.firstVertex);
        QCOMPARE(s.lastVertex, t.lastVertex);
        QCOMPARE(s.lengthPx, t.lengthPx);
        QCOMPARE(s.lengthMm, t.lengthMm);
        QCOMPARE(s.width.meanPx, t.width.meanPx);
        QCOMPARE(s.width.maxMm, t.width.maxMm);
        QCOMPARE(s.widthClass, t.widthClass);
        QCOMPARE(s.exceedsLimit, t.exceedsLimit);
    }
}

// Sets TMPDIR for its lifetime.
class TmpDir
{
public:
    explicit TmpDir(const QString& dir)
    {
        if (const char* old = std::getenv("TMPDIR")) {
            old_ = old;
            had_ = true;
        }
        qputenv("TMPDIR", dir.toLocal8Bit());
    }
    ~TmpDir()
    {
        if (had_)
            qputenv("TMPDIR", old_.c_str());
        else
            qunsetenv("TMPDIR");
    }

private:
    std::string old_;
    bool had_ = false;
};

} // namespace

class TestBranchList : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameValuesBack_data();
    void sameValuesBack();
    void copiesKeepTheirOwnOrder();
    void unwritableTemporaryFolder();
};

void TestBranchList::sameValuesBack_data()
{
    QTest::addColumn<qulonglong>("budget");
    QTest::addColumn<bool>("inFile");
    QTest::addRow("all in memory") << qulonglong(BranchList::kDefaultMemoryBytes) << false;
    QTest::addRow("memory and file") << qulonglong(2000) << true;
    QTest::addRow("all in the file") << qulonglong(0) << true;
}

void TestBranchList::sameValuesBack()
{
    QFETCH(qulonglong, budget);
    QFETCH(bool, inFile);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const TmpDir tmp(dir.path());
    BranchList list{size_t(budget)};
    const int n = 3000; // about 1.2 MB of records: the iterator reads more than one window
    for (int k = 0; k < n; ++k)
        QVERIFY(list.push_back(branchOf(k)));
    QCOMPARE(list.size(), size_t(n));
    QCOMPARE(list.fileBytes() > 0, inFile);
    // The file is unlinked at once: nothing shows in the temporary folder.
    QVERIFY(QDir(dir.path())
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot)
                .isEmpty());
    int k = 0;
    for (const CrackBranch& b : list) {
        compareBranch(b, branchOf(k++));
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(k, n);
    for (int i : {n - 1, 0, 1234, 7})
        compareBranch(list[size_t(i)], branchOf(i));
    list.clear();
    QVERIFY(list.empty());
    QCOMPARE(list.fileBytes(), uint64_t(0));
    QVERIFY(list.begin() == list.end());
}

void TestBranchList::copiesKeepTheirOwnOrder()
{
    BranchList a{1000}; // a few records in memory, the rest in the file
    for (int k = 0; k < 50; ++k)
        QVERIFY(a.push_back(branchOf(k)));
    BranchList b = a;
    for (int k = 50; k < 60; ++k) {
        QVERIFY(a.push_back(branchOf(k)));
        QVERIFY(b.push_back(branchOf(1000 + k)));
    }
    QCOMPARE(a.size(), size_t(60));
    QCOMPARE(b.size(), size_t(60));
    for (int k = 0; k < 60; ++k) {
        compareBranch(a[size_t(k)], branchOf(k));
        compareBranch(b[size_t(k)], branchOf(k < 50 ? k : 1000 + k));
    }
    BranchList moved = std::move(b);
    QCOMPARE(moved.size(), size_t(60));
    compareBranch(moved[59], branchOf(1059));
}

void TestBranchList::unwritableTemporaryFolder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const TmpDir tmp(dir.filePath(QStringLiteral("no-such-folder")));
    BranchList list{0};
    const Status s = list.push_back(branchOf(3));
    QCOMPARE(s.code(), ErrorCode::IoError);
    QVERIFY2(QString::fromStdString(s.detail()).contains(QStringLiteral("no-such-folder")),
             s.detail().c_str());
    QVERIFY(list.empty());

    // Within its memory budget a list needs no file.
    BranchList small{1 << 20};
    QVERIFY(small.push_back(branchOf(3)));
    compareBranch(small[0], branchOf(3));

    // And a measurement that needs one says why it cannot go on.
    MeasureOptions o;
    o.branchMemoryMb = 0;
    Image map = Image::make(64, 64, 1);
    for (int y = 30; y < 33; ++y)
        for (int x = 8; x < 56; ++x)
            map.row(y)[x] = 255;
    auto r = measureCracks(map, o);
    QVERIFY(!r);
    QCOMPARE(r.status().code(), ErrorCode::IoError);
}

QTEST_GUILESS_MAIN(TestBranchList)
#include "tst_branchlist.moc"

// The report of changes between two inspections (inspect/changereport.h): a comparison made by
// hand with one change of each kind, read as HTML in English and Spanish (words, signed
// changes in mm with the locale's decimal separator, the date in the title), the overview with
// each change's box in its kind's colour, and the PDF with its errors.
#include <QtTest>

#include <QFile>
#include <QTemporaryDir>

#include <memory>

#include "common/languagemanager.h"
#include "fisura/image.h"
#include "inspect/changereport.h"

using namespace fisura;
using fisura::ui::ChangeReport;
using fisura::ui::ChangeReportInput;
using Language = fisura::ui::LanguageManager::Language;

namespace
{

CrackChange change(ChangeKind kind, double lengthPx, double gainPx, double widthPx, PixelBox box)
{
    CrackChange c;
    c.kind = kind;
    c.afterLengthPx = kind == ChangeKind::Gone ? 0 : lengthPx;
    c.beforeLengthPx = kind == ChangeKind::New ? 0 : lengthPx - gainPx;
    c.lengthGainPx = gainPx;
    c.lengthGainMm = gainPx * 0.1;
    c.widthChangePx = widthPx;
    c.widthChangeMm = widthPx * 0.1;
    c.afterMaxWidthPx = 6;
    c.afterMaxWidthMm = 0.6;
    c.widthClass = 2;
    c.box = box;
    return c;
}

/// 400 x 300 px at 0.1 mm: a new crack, one that grew by 36 px and widened by 1.5 px, one
/// unchanged, one no longer seen.
std::shared_ptr<ChangeResult> comparison()
{
    auto r = std::make_shared<ChangeResult>();
    AlignResult& a = r->alignment;
    a.matches = 500;
    a.inliers = 480;
    a.windows = 9;
    a.refined = 9;
    a.rmsPx = 0.25;
    a.overlap = 0.97;
    a.scale = 1.04;
    a.rotationDeg = 5;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            a.regions.push_back(
                {x, y, {x * 133, y * 100, 133, 100}, 1, x == 2 && y == 2 ? -1 : 0.2});
    for (MeasureResult* m : {&r->before, &r->after}) {
        m->width = 400;
        m->height = 300;
        m->pixelSizeMm = 0.1;
    }
    r->before.mapPath = "/inspections/2025/deck_map.tif";
    r->changes = {change(ChangeKind::New, 120, 120, 0, {40, 40, 100, 8}),
                  change(ChangeKind::Grown, 150, 36, 1.5, {200, 50, 150, 10}),
                  change(ChangeKind::Unchanged, 90, 0, 0, {40, 200, 90, 6}),
                  change(ChangeKind::Gone, 80, -80, 0, {250, 220, 80, 6})};
    const int kinds[] = {0, 1, 2, 3};
    for (size_t i = 0; i < r->changes.size(); ++i) {
        auto& t = r->totals[size_t(kinds[i])];
        ++t.count;
        t.lengthPx += r->changes[i].afterLengthPx + r->changes[i].beforeLengthPx;
        t.lengthMm = t.lengthPx * 0.1;
    }
    r->byWidthClass.assign(4, {});
    r->byWidthClass[2] = {1, 1, 1, 1, 0};
    r->widestIndex = 1;
    return r;
}

ChangeReportInput input()
{
    ChangeReportInput in;
    in.result = comparison();
    in.beforeScan = QStringLiteral("/inspections/2025/deck.tif");
    in.afterScan = QStringLiteral("/inspections/2026/deck.tif");
    in.beforeDate = QDate(2025, 5, 4);
    in.afterDate = QDate(2026, 5, 10);
    return in;
}

} // namespace

class TstChangeReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { ui::LanguageManager::instance().applyForSession(Language::English); }
    void cleanup() { ui::LanguageManager::instance().applyForSession(Language::English); }

    void englishReport()
    {
        const QString h = ChangeReport::html(input());
        QVERIFY(h.contains(QStringLiteral("Changes since Sunday, May 4, 2025")));
        for (const char* word : {"New", "Grown", "Unchanged", "Gone", "similarity"})
            QVERIFY2(h.contains(QLatin1String(word)), word);
        QVERIFY(h.contains(QStringLiteral("+3.6 mm")));  // length gained
        QVERIFY(h.contains(QStringLiteral("+0.15 mm"))); // width change
        QVERIFY(h.contains(QStringLiteral("480 of 500")));
        QVERIFY(h.contains(QStringLiteral("0.25 px")));
        QVERIFY(h.contains(QStringLiteral("deck_map.tif")));
        // The widest crack: the second change, grown.
        QVERIFY(h.contains(QStringLiteral("no. 2, 0.6 mm wide (Grown)")));
    }

    void correctionField()
    {
        ChangeReportInput in = input();
        QVERIFY(!ChangeReport::html(in).contains(QStringLiteral("Correction field"))); // off
        auto r = comparison();
        r->alignment.field.rmsBeforePx = 0.2;
        r->alignment.field.rmsAfterPx = 0.3;
        in.result = r;
        QVERIFY(ChangeReport::html(in).contains(QStringLiteral("not needed")));
        r->alignment.field.used = true;
        r->alignment.field.maxPx = 5.04;
        r->alignment.field.rmsBeforePx = 3.5;
        r->alignment.field.rmsAfterPx = 0.61;
        const QString h = ChangeReport::html(in);
        QVERIFY2(h.contains(QStringLiteral("largest correction 5.0 px")) &&
                     h.contains(QStringLiteral("3.50 px without it, 0.61 px with it")),
                 qPrintable(h));
        ui::LanguageManager::instance().applyForSession(Language::Spanish);
        const QString es = ChangeReport::html(in);
        QVERIFY2(es.contains(QStringLiteral("Campo de corrección")) &&
                     es.contains(QStringLiteral("5,0 px")),
                 qPrintable(es));
    }

    void spanishReport()
    {
        ui::LanguageManager::instance().applyForSession(Language::Spanish);
        const QString h = ChangeReport::html(input());
        QVERIFY2(h.contains(QStringLiteral("Cambios desde el domingo, 4 de mayo de 2025")),
                 qPrintable(h.left(600)));
        for (const char* word : {"Nueva", "Crecida", "Sin cambios", "Desaparecida"})
            QVERIFY2(h.contains(QString::fromUtf8(word)), word);
        QVERIFY(h.contains(QStringLiteral("+3,6 mm")));
        QVERIFY(h.contains(QStringLiteral("+0,15 mm")));
        QVERIFY(h.contains(QStringLiteral("0,25 px")));
        QVERIFY(!h.contains(QStringLiteral("Changes since")));
    }

    void overviewColoursEachChange()
    {
        QTemporaryDir dir;
        const QString scan = dir.filePath(QStringLiteral("deck.tif"));
        QVERIFY(writeTiff(scan.toStdString(), Image::make(400, 300, 3, 128)).isOk());
        const auto r = comparison();
        auto picture = ChangeReport::overviewPicture(scan, *r, 400);
        QVERIFY2(picture, picture.status().toString().c_str());
        QCOMPARE(picture->width(), 400);
        // The new crack's box (40, 40, 100 x 8, drawn 2 px outside) in vermillion; the grey
        // scan elsewhere.
        const auto c = changeKindColour(ChangeKind::New);
        const QColor edge = picture->pixelColor(90, 38);
        QVERIFY2(std::abs(edge.red() - c[0]) < 40 && std::abs(edge.green() - c[1]) < 40 &&
                     std::abs(edge.blue() - c[2]) < 40,
                 qPrintable(edge.name()));
        QCOMPARE(picture->pixelColor(10, 290), QColor(128, 128, 128));
        QCOMPARE(ChangeReport::overviewPicture(dir.filePath(QStringLiteral("none.tif")), *r)
                     .status()
                     .code(),
                 ErrorCode::NotFound);
    }

    void pdfAndErrors()
    {
        QTemporaryDir dir;
        ChangeReportInput in = input();
        const QString pdf = dir.filePath(QStringLiteral("changes.pdf"));
        QVERIFY(ChangeReport::writePdf(pdf, in).isOk());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5).startsWith("%PDF-"));
        const QString bad = dir.filePath(QStringLiteral("missing/folder/c.pdf"));
        QCOMPARE(ChangeReport::writePdf(bad, in).code(), ErrorCode::IoError);
        QVERIFY(!QFile::exists(bad));
        in.result.reset();
        QCOMPARE(ChangeReport::writePdf(pdf, in).code(), ErrorCode::InvalidArgument);
        // Without dates the title says so, in words.
        in = input();
        in.beforeDate = {};
        QVERIFY(ChangeReport::html(in).contains(
            QStringLiteral("Changes since the earlier inspection")));
    }
};

QTEST_MAIN(TstChangeReport)
#include "tst_changereport.moc"

// The PDF inspection report as a reader gets it, in Spanish and English: numbers in the
// language's notation, every table inside the page, the model that made the map named, PNG
// maps reported like TIFF ones, no orphan last page. The PDF is read back with poppler's
// pdftotext when it is installed; those checks are skipped without it.
#include <QDir>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <random>

#include "common/errortext.h"
#include "common/languagemanager.h"
#include "fisura/project.h"
#include "fisura/version.h"
#include "inspect/report.h"

using fisura::ui::LanguageManager;
using fisura::ui::MeasureReport;

namespace
{

// A PNG crack mask: `n` white strokes of several widths on black.
QString writeMask(const QString& path, int n)
{
    QImage im(1200, 900, QImage::Format_Grayscale8);
    im.fill(0);
    QPainter p(&im);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> x(20, 1180), y(20, 880), w(2, 7);
    for (int i = 0; i < n; ++i) {
        p.setPen(QPen(Qt::white, w(rng), Qt::SolidLine, Qt::RoundCap));
        const QPoint a(x(rng), y(rng));
        p.drawLine(a, a + QPoint(x(rng) / 8 - 70, y(rng) / 8 - 55));
    }
    p.end();
    return im.save(path) ? path : QString();
}

// pdftotext's words with their boxes, per page: (page width, [xMin, xMax, text]).
struct Word {
    double xMin, xMax;
    QString text;
};
struct Page {
    double width = 0;
    QList<Word> words;
};

QList<Page> pdfWords(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-bbox"), pdf, QStringLiteral("-")});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    const QString html = QString::fromUtf8(p.readAllStandardOutput());
    QList<Page> pages;
    static const QRegularExpression tag(
        QStringLiteral("<page width=\"([0-9.]+)\"|<word xMin=\"([0-9.]+)\" yMin=\"[0-9.]+\" "
                       "xMax=\"([0-9.]+)\" yMax=\"[0-9.]+\">([^<]*)</word>"));
    for (auto it = tag.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        if (!m.captured(1).isEmpty())
            pages.append(Page{m.captured(1).toDouble(), {}});
        else if (!pages.isEmpty())
            pages.last().words.append(
                {m.captured(2).toDouble(), m.captured(3).toDouble(), m.captured(4)});
    }
    return pages;
}

QString pdfText(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QString text =
        p.waitForFinished(60000) ? QString::fromUtf8(p.readAllStandardOutput()) : QString();
    // The PDF's text shaping may set "fi" and "fl" as ligatures; read them as letters.
    return text.replace(QChar(0xFB01), QStringLiteral("fi"))
        .replace(QChar(0xFB02), QStringLiteral("fl"));
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;

    static void language(const QString& code)
    {
        LanguageManager::instance().applyForSession(code == QStringLiteral("es")
                                                        ? LanguageManager::Language::Spanish
                                                        : LanguageManager::Language::English);
    }

    // Measures `mask` at 0.2 mm a pixel and writes the report in the language in force.
    QString report(const QString& mask, const QString& name, const QString& model = {},
                   const std::string& preset = "default")
    {
        fisura::MeasureOptions o;
        o.pixelSizeMm = 0.2;
        o.classes = fisura::widthClassPreset(preset)->classes;
        auto r = fisura::measureCracks(mask.toStdString(), o);
        if (!r)
            return QStringLiteral("measure: ") + fisura::ui::errorMessage(r.status());
        fisura::ui::ReportInput in;
        in.result = std::make_shared<const fisura::MeasureResult>(std::move(*r));
        in.modelName = model;
        auto picture = MeasureReport::overviewPicture(QString(), *in.result);
        if (!picture)
            return QStringLiteral("picture: ") + fisura::ui::errorMessage(picture.status());
        in.overview = *picture;
        MeasureReport::renderPlots(in);
        const QString pdf = dir_.filePath(name);
        if (const fisura::Status s = MeasureReport::writePdf(pdf, in); !s)
            return QStringLiteral("pdf: ") + fisura::ui::errorMessage(s);
        return pdf;
    }

private Q_SLOTS:
    void init() { language(QStringLiteral("en")); }
    void cleanupTestCase() { language(QStringLiteral("en")); }

    // A PNG map (measure accepts it) makes a report: the overview is read from the PNG.
    void pngMapMakesReport()
    {
        const QString mask = writeMask(dir_.filePath(QStringLiteral("few.png")), 6);
        QVERIFY(!mask.isEmpty());
        const QString pdf = report(mask, QStringLiteral("few.pdf"));
        QVERIFY2(pdf.endsWith(QStringLiteral(".pdf")), qPrintable(pdf));
        QVERIFY(QFileInfo(pdf).size() > 10000);
    }

    void readsRight_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("pixelSize");
        QTest::addColumn<QString>("positionHeader");
        QTest::newRow("es") << "es"
                            << "0,2 mm"
                            << "Posición";
        QTest::newRow("en") << "en"
                            << "0.2 mm"
                            << "Position";
    }
    void readsRight()
    {
        QFETCH(QString, lang);
        QFETCH(QString, pixelSize);
        QFETCH(QString, positionHeader);
        language(lang);
        const QString mask = writeMask(dir_.filePath(QStringLiteral("many.png")), 70);
        const QString pdf = report(mask, lang + QStringLiteral(".pdf"), QStringLiteral("m.fisura"));
        QVERIFY2(pdf.endsWith(QStringLiteral(".pdf")), qPrintable(pdf));
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        QString text = pdfText(pdf);
        QVERIFY2(text.contains(pixelSize), qPrintable(text.left(2000)));
        QVERIFY2(text.contains(positionHeader), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("m.fisura")), "the model is not named");
        if (lang == QStringLiteral("es")) {
            text.remove(QString::fromStdString(fisura::version()));
            const auto dot = QRegularExpression(QStringLiteral("\\d\\.\\d")).match(text);
            QVERIFY2(!dot.hasMatch(),
                     qPrintable(text.mid(std::max(0, int(dot.capturedStart()) - 80), 160)));
            QVERIFY(!text.contains(QStringLiteral(" AM")) && !text.contains(QStringLiteral(" PM")));
        }
        const QList<Page> pages = pdfWords(pdf);
        QVERIFY(pages.size() >= 2);
        for (int i = 0; i < pages.size(); ++i)
            for (const Word& w : pages[i].words)
                QVERIFY2(w.xMin >= 0 && w.xMax <= pages[i].width,
                         qPrintable(QStringLiteral("page %1: \"%2\" ends at %3 of %4")
                                        .arg(i + 1)
                                        .arg(w.text)
                                        .arg(w.xMax)
                                        .arg(pages[i].width)));
        // No orphan last page: more than a caption and a few lines.
        QVERIFY2(
            pages.last().words.size() > 40,
            qPrintable(QStringLiteral("last page has %1 words").arg(pages.last().words.size())));
    }

    // A standard in force: the report names it with its tolerable width in the language's
    // notation and marks the cracks over it in the crack table, as many as core flagged.
    void standardInForce_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("standard");
        QTest::addColumn<QString>("flag");
        QTest::newRow("en") << "en"
                            << "EN 1992-1-1, Table 7.1N: tolerable 0.40 mm"
                            << "OVER";
        QTest::newRow("es") << "es"
                            << "EN 1992-1-1, tabla 7.1N: anchura tolerable 0,40 mm"
                            << "SUPERA";
    }
    void standardInForce()
    {
        QFETCH(QString, lang);
        QFETCH(QString, standard);
        QFETCH(QString, flag);
        language(lang);
        const QString mask = writeMask(dir_.filePath(QStringLiteral("std.png")), 20);
        const QString pdf =
            report(mask, QStringLiteral("std-") + lang + QStringLiteral(".pdf"), {}, "en1992-xc1");
        QVERIFY2(pdf.endsWith(QStringLiteral(".pdf")), qPrintable(pdf));
        fisura::MeasureOptions o;
        o.pixelSizeMm = 0.2;
        o.classes = fisura::widthClassPreset("en1992-xc1")->classes;
        const auto r = fisura::measureCracks(mask.toStdString(), o);
        QVERIFY(r.isOk());
        QVERIFY(r->flaggedCracks > 0 && r->flaggedCracks < int(r->cracks.size()));
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        const QString text = pdfText(pdf).simplified();
        QVERIFY2(text.contains(standard), qPrintable(text.left(3000)));
        // The flag in each flagged row, and once in the line that explains it.
        const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(flag));
        QCOMPARE(int(text.count(word)), r->flaggedCracks + 1);
        // Without a standard there is nothing to flag.
        const QString plain = pdfText(report(mask, QStringLiteral("plain.pdf")));
        QVERIFY(!plain.isEmpty());
        QVERIFY(!plain.contains(flag) && !plain.contains(QStringLiteral("7.1N")));
    }

    // The model is read from the project that made the map.
    void modelFromProject()
    {
        const QString root = dir_.filePath(QStringLiteral("proj"));
        auto project = fisura::Project::create(root.toStdString(), "p");
        QVERIFY(project);
        const QString map = QDir(QString::fromStdString(project->mapsDir()))
                                .filePath(QStringLiteral("scan.probability.png"));
        QVERIFY(!writeMask(map, 3).isEmpty());
        fisura::ProjectScan s;
        s.id = "s1";
        s.input = dir_.filePath(QStringLiteral("scan.tif")).toStdString();
        s.mapPath = map.toStdString();
        s.modelPath = project->modelsDir() + "/run-1.fisura";
        project->scans().push_back(s);
        QVERIFY(project->save());
        QCOMPARE(MeasureReport::modelFor(map), QStringLiteral("run-1.fisura"));
        // A map that no record names.
        const QString other = writeMask(dir_.filePath(QStringLiteral("other.png")), 3);
        QCOMPARE(MeasureReport::modelFor(other), QString());
        QCOMPARE(MeasureReport::modelFor(dir_.filePath(QStringLiteral("missing.png"))), QString());
    }
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"

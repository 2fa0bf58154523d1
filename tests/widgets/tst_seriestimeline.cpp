// A structure over time in the Data pane (data/projectcontents.h, data/seriestimeline.h): scans
// given their structure and date are listed with them and saved; the timeline measures the dated
// maps in the background and plots them oldest first, with a table in the locale's numbers;
// a structure whose scans have no dates says what to do; cancelling says so.
#include <QtTest>

#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "common/languagemanager.h"
#include "common/qcp.h"
#include "data/projectcontents.h"
#include "data/seriestimeline.h"
#include "fisura/image.h"
#include "fisura/project.h"
#include "project/projectsession.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{

/// A 300 x 200 mask at 0.1 mm with one crack `length` px long and `width` px wide.
QString writeMap(const QTemporaryDir& dir, const QString& name, int length, int width)
{
    Image m = Image::make(300, 200, 1);
    for (int y = 100; y < 100 + width; ++y)
        for (int x = 20; x < 20 + length; ++x)
            m.row(y)[x] = 255;
    TiffWriteOptions o;
    o.pixelSizeMm = 0.1;
    const QString path = dir.filePath(name);
    return writeTiff(path.toStdString(), m, o) ? path : QString();
}

} // namespace

class TstSeriesTimeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanup()
    {
        LanguageManager::instance().applyForSession(LanguageManager::Language::English);
    }

    void datesListedSavedAndPlotted()
    {
        QTemporaryDir tmp;
        ProjectSession session;
        QVERIFY(session.newProject(tmp.filePath(QStringLiteral("project")), QStringLiteral("B")));
        const QString m1 = writeMap(tmp, QStringLiteral("m1.tif"), 100, 2);
        const QString m2 = writeMap(tmp, QStringLiteral("m2.tif"), 200, 4);
        std::string id1, id2;
        QVERIFY(session.update([&](Project& p) {
            ProjectScan s;
            s.input = tmp.filePath(QStringLiteral("scan2025.tif")).toStdString();
            s.mapPath = m2.toStdString(); // the later, longer crack recorded first
            id2 = p.recordScan(s);
            s.input = tmp.filePath(QStringLiteral("scan2024.tif")).toStdString();
            s.mapPath = m1.toStdString();
            id1 = p.recordScan(s);
        }));
        ProjectContents contents;
        contents.setProjectSession(&session);
        QVERIFY(contents.setScanSeries(QString::fromStdString(id2), QStringLiteral("Bridge 12"),
                                       QDate(2025, 5, 4)));
        QVERIFY(contents.setScanSeries(QString::fromStdString(id1), QStringLiteral(" Bridge 12 "),
                                       QDate(2024, 4, 30)));
        QCOMPARE(contents.setScanSeries(QStringLiteral("scan-99"), QStringLiteral("X"), {}).code(),
                 ErrorCode::NotFound);
        // Saved: the project file says so.
        auto back = Project::open(session.project().dir());
        QVERIFY(back);
        QCOMPARE(QString::fromStdString(back->findScan(id1)->structure),
                 QStringLiteral("Bridge 12"));
        QCOMPARE(QString::fromStdString(back->findScan(id1)->inspectedOn),
                 QStringLiteral("2024-04-30"));
        // Listed with the scan.
        const auto items = contents.tree()->findItems(QStringLiteral("Bridge 12"),
                                                      Qt::MatchContains | Qt::MatchRecursive, 1);
        QCOMPARE(items.size(), 2);

        LanguageManager::instance().applyForSession(LanguageManager::Language::Spanish);
        SeriesTimeline* view = contents.openTimeline(QStringLiteral("Bridge 12"));
        QVERIFY(view);
        QSignalSpy done(view, &SeriesTimeline::measured);
        QVERIFY(done.wait(10000));
        QVERIFY2(done.at(0).at(0).value<Status>().isOk(), qPrintable(view->message()));
        QCOMPARE(int(view->series()->points.size()), 2);
        QCOMPARE(QString::fromStdString(view->series()->points[0].scanId),
                 QString::fromStdString(id1));
        QCPGraph* length = view->plot(0)->graph(0);
        QCOMPARE(length->dataCount(), 2);
        QVERIFY(length->data()->at(0)->key < length->data()->at(1)->key);     // oldest first
        QVERIFY(length->data()->at(0)->value < length->data()->at(1)->value); // it grew
        QCOMPARE(view->table()->rowCount(), 2);
        // 200 px at 0.1 mm, in Spanish: "20,0" (give or take the corner correction).
        QVERIFY2(view->table()->item(1, 2)->text().contains(QLatin1Char(',')),
                 qPrintable(view->table()->item(1, 2)->text()));
        QVERIFY(view->plot(0)->yAxis->label().contains(QStringLiteral("longitud"),
                                                       Qt::CaseInsensitive));
        if (qEnvironmentVariableIsSet("FISURA_KEEP_SHOTS")) // to look at it
            view->grab().save(qEnvironmentVariable("FISURA_KEEP_SHOTS") +
                              QStringLiteral("/timeline-es.png"));
        view->close();
    }

    void undatedAndCancelled()
    {
        QTemporaryDir tmp;
        ProjectSession session;
        QVERIFY(session.newProject(tmp.filePath(QStringLiteral("project")), QStringLiteral("B")));
        const QString m = writeMap(tmp, QStringLiteral("m.tif"), 100, 2);
        QVERIFY(session.update([&](Project& p) {
            ProjectScan s;
            s.input = tmp.filePath(QStringLiteral("scan.tif")).toStdString();
            s.mapPath = m.toStdString();
            s.structure = "Tunnel";
            p.recordScan(s);
        }));
        SeriesTimeline view;
        QSignalSpy done(&view, &SeriesTimeline::measured);
        QVERIFY(view.measure(session.project(), QStringLiteral("Tunnel")));
        QVERIFY(done.wait(10000));
        QCOMPARE(done.at(0).at(0).value<Status>().code(), ErrorCode::InvalidArgument);
        QVERIFY2(view.message().contains(QStringLiteral("date")), qPrintable(view.message()));
        QVERIFY(!view.series());

        QVERIFY(session.update([&](Project& p) { p.scans()[0].inspectedOn = "2025-01-01"; }));
        QVERIFY(view.measure(session.project(), QStringLiteral("Tunnel")));
        view.cancel();
        QVERIFY(done.wait(10000));
        const Status s = done.at(1).at(0).value<Status>();
        // Cancelled, unless the one small map was measured before the cancel arrived.
        QVERIFY(s.code() == ErrorCode::Cancelled || s.isOk());
        if (!s)
            QCOMPARE(view.message(), SeriesTimeline::tr("Cancelled."));
    }
};

QTEST_MAIN(TstSeriesTimeline)
#include "tst_seriestimeline.moc"

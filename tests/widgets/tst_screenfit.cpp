// The main window fits the screens analysts have: at 1280 × 720 and 1024 × 700, in English and
// after a live switch to Spanish, every pane shows its labels, buttons, tabs and table columns
// whole (fitcheck.h says what "whole" means). The panes are walked with a project open, a
// finished run, an analysed scan and its map in Inspect, so tables have values. Screenshots of
// each pane at both sizes go to screenfit-shots/ beside the test, to be looked at.
#include <QtTest>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <unistd.h>

#include "analyze/analyzepane.h"
#include "common/languagemanager.h"
#include "common/screenfit.h"
#include "demoproject.h"
#include "fitcheck.h"
#include "inspect/inspectpane.h"
#include "mainwindow.h"
#include "project/projectsession.h"
#include "system/systempane.h"
#include "train/trainpane.h"

using namespace fisura;
using fisura::ui::LanguageManager;

class TstScreenFit : public QObject
{
    Q_OBJECT
    QTemporaryDir tmp_;
    QString project_;
    app::MainWindow* w_ = nullptr;

    /// The window's size, and which pane asks for more when it is larger than wanted.
    QString sizeProblem(const QSize& size)
    {
        if (w_->size() == size)
            return {};
        QString text = QStringLiteral("window is %1x%2, not %3x%4 (its minimum is %5x%6)")
                           .arg(w_->width())
                           .arg(w_->height())
                           .arg(size.width())
                           .arg(size.height())
                           .arg(w_->minimumSizeHint().width())
                           .arg(w_->minimumSizeHint().height());
        for (ui::Pane* p : w_->panes())
            text += QStringLiteral("; %1 needs %2x%3")
                        .arg(p->paneId())
                        .arg(p->minimumSizeHint().width())
                        .arg(p->minimumSizeHint().height());
        return text;
    }

    QStringList walk(const QSize& size, const QString& language, bool shots)
    {
        QStringList bad;
        for (ui::Pane* p : w_->panes()) {
            w_->showPane(p->paneId());
            // Layouts settle on posted events; the window is laid out before it is looked at.
            QTest::qWait(50);
            QStringList lines = fitcheck::problems(w_);
            // The scan queue and the runs show every column without scrolling sideways.
            for (const char* view : {"scanQueue", "runsTree"})
                if (auto* v = p->findChild<QAbstractItemView*>(QString::fromLatin1(view)))
                    lines << fitcheck::sidewaysScroll(v);
            for (const QString& line : lines)
                bad << QStringLiteral("%1 %2 %3x%4: %5")
                           .arg(language, p->paneId())
                           .arg(size.width())
                           .arg(size.height())
                           .arg(line);
            if (shots) {
                QDir().mkpath(QStringLiteral("screenfit-shots"));
                w_->grab().save(QStringLiteral("screenfit-shots/%1-%2-%3x%4.png")
                                    .arg(p->paneId(), language)
                                    .arg(size.width())
                                    .arg(size.height()));
            }
        }
        bad.removeDuplicates();
        return bad;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // The shipped starter model: Train explains it in the longest of its texts.
        qputenv("FISURA_MODELS", FISURA_SOURCE_DIR "/resources/models");
        QSettings().clear();
        QSettings().setValue(QStringLiteral("project/reopen"), false);
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
        project_ = tmp_.filePath(QStringLiteral("demo"));
        QVERIFY(demoproject::make(project_, 384, true));

        w_ = new app::MainWindow;
        w_->resize(1280, 720);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_));
        QSignalSpy shown(w_->trainPane(), &ui::TrainPane::resultsShown);
        QVERIFY(w_->projectSession()->openProject(project_));
        QTRY_VERIFY_WITH_TIMEOUT(w_->systemPane()->hasMachine(), 20000);
        w_->showPane(QStringLiteral("train"));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, 30000);
        // An analysed scan: the queue has values, Inspect has a map and its layers.
        w_->showPane(QStringLiteral("analyze"));
        const QString scan = QDir(project_).filePath(QStringLiteral("data/scan/demo_scan.tif"));
        w_->analyzePane()->addScans({scan});
        QSignalSpy done(w_->analyzePane(), &ui::AnalyzePane::queueFinished);
        QVERIFY(w_->analyzePane()->run());
        QTRY_VERIFY_WITH_TIMEOUT(done.count() > 0, 60000);
        QVERIFY(w_->analyzePane()->openSelectedInInspect());
        QTRY_VERIFY_WITH_TIMEOUT(w_->inspectPane()->comparison() != nullptr, 30000);
    }

    void cleanupTestCase()
    {
        delete w_;
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
    }

    void everyPaneFits_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("spanish");
        QTest::newRow("1280x720 en") << QSize(1280, 720) << false;
        QTest::newRow("1024x700 en") << QSize(1024, 700) << false;
        QTest::newRow("1280x720 es") << QSize(1280, 720) << true;
        QTest::newRow("1024x700 es") << QSize(1024, 700) << true;
    }

    void everyPaneFits()
    {
        QFETCH(QSize, size);
        QFETCH(bool, spanish);
        // A live switch, as a person does it in Preferences.
        LanguageManager::instance().setLanguage(spanish ? LanguageManager::Language::Spanish
                                                        : LanguageManager::Language::English);
        const QString language = spanish ? QStringLiteral("es") : QStringLiteral("en");
        QTest::qWait(20); // the new texts' layouts settle first
        w_->resize(size);
        QCoreApplication::sendPostedEvents();
        const QString tooLarge = sizeProblem(size);
        QVERIFY2(tooLarge.isEmpty(), qPrintable(tooLarge));
        const QStringList bad = walk(size, language, true);
        if (!bad.isEmpty())
            qWarning().noquote() << "Cut off or elided:\n  " << bad.join(QStringLiteral("\n  "));
        QVERIFY2(bad.isEmpty(), qPrintable(QString::number(bad.size()) +
                                           QStringLiteral(" problems, first: ") + bad.value(0)));
    }

    // The check itself finds a cut-off button and a squeezed column (it can fail).
    void checkFindsClipping()
    {
        QWidget box;
        auto* b = new QPushButton(QStringLiteral("Añadir carpeta de imágenes…"), &box);
        b->setGeometry(0, 0, 40, 30);
        box.resize(200, 100);
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));
        QCOMPARE(fitcheck::problems(&box).size(), 1);
        b->setGeometry(0, 0, fitcheck::pushButtonNeeds(b), 30);
        QVERIFY(fitcheck::problems(&box).isEmpty());
        b->move(180, 0); // now the box cuts it off
        QCOMPARE(fitcheck::problems(&box).size(), 1);
    }

    // The first window never exceeds the screen it opens on.
    void firstWindowFitsTheScreen_data()
    {
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QSize>("preferred");
        QTest::newRow("laptop 1366x768") << QRect(0, 0, 1366, 738) << QSize(1400, 860);
        QTest::newRow("projector") << QRect(0, 27, 1280, 773) << QSize(1400, 860);
        QTest::newRow("small") << QRect(100, 0, 1024, 700) << QSize(1400, 860);
        QTest::newRow("large") << QRect(0, 0, 2560, 1400) << QSize(1400, 860);
    }

    void firstWindowFitsTheScreen()
    {
        QFETCH(QRect, available);
        QFETCH(QSize, preferred);
        const QRect r = ui::initialWindowGeometry(preferred, available);
        QVERIFY2(available.contains(r), qPrintable(QStringLiteral("%1,%2 %3x%4")
                                                       .arg(r.x())
                                                       .arg(r.y())
                                                       .arg(r.width())
                                                       .arg(r.height())));
        QVERIFY(r.width() <= preferred.width() && r.height() <= preferred.height());
        // Centred, and as large as asked where the screen allows.
        QCOMPARE(r.center().x(), available.center().x());
        QCOMPARE(r.width(), std::min(preferred.width(), available.width()));
    }

    void firstMainWindowIsWithinTheScreen()
    {
        QSettings().remove(QStringLiteral("window/geometry"));
        app::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QRect avail = w.screen()->availableGeometry();
        QCOMPARE(avail.size(), QSize(1366, 768));
        QVERIFY2(w.frameGeometry().width() <= avail.width() &&
                     w.frameGeometry().height() <= avail.height(),
                 qPrintable(QStringLiteral("%1x%2 on a %3x%4 screen")
                                .arg(w.frameGeometry().width())
                                .arg(w.frameGeometry().height())
                                .arg(avail.width())
                                .arg(avail.height())));
    }
};

// The offscreen platform's own screen is 800 × 600; the test runs on a 1366 × 768 laptop screen
// (the platform's configfile option, Qt ≥ 6.2), the most common one analysts have.
int main(int argc, char** argv)
{
    const QString config =
        QDir::temp().filePath(QStringLiteral("fisura-screenfit-%1.json").arg(getpid()));
    {
        QFile f(config);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        f.write(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366,
                    "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    }
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    QFile::remove(config);
    TstScreenFit t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}
#include "tst_screenfit.moc"

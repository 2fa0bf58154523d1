// The bad-input matrix (MATRIX.md), what the user sees: for every row the message names the file
// and says what to do, in English and in Spanish. Plus the settings-file rows: a damaged settings
// file is moved aside, defaults are used and the user is told; values of the wrong type fall back
// to the defaults and the main window still starts.
#include <QtTest>

#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "badinput_rows.h"
#include "common/errortext.h"
#include "common/languagemanager.h"
#include "common/preference.h"
#include "common/settingscheck.h"
#include "mainwindow.h"

using namespace fisura;
using fisura::ui::LanguageManager;

class TstBadInputText : public QObject
{
    Q_OBJECT

    static void language(LanguageManager::Language l)
    {
        LanguageManager::instance().applyForSession(l);
    }

    /// Message and advice of `s` in one language.
    static QPair<QString, QString> texts(const Status& s, LanguageManager::Language l)
    {
        language(l);
        return {ui::errorMessage(s), ui::errorAdvice(s)};
    }

    static void writeSettingsFile(const QByteArray& bytes)
    {
        const QString file = QSettings().fileName();
        QDir().mkpath(QFileInfo(file).path());
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QSettings().sync();
    }

    void cleanup() { language(LanguageManager::Language::English); }

    void row_data()
    {
        QTest::addColumn<QString>("tag");
        for (const badinput::Row& r : badinput::rows())
            QTest::newRow(r.tag.c_str()) << QString::fromStdString(r.tag);
    }

    void row()
    {
        QFETCH(QString, tag);
        QTemporaryDir scratch;
        const badinput::Outcome o = badinput::run(tag.toStdString(), scratch.path().toStdString());
        if (!o.skip.empty())
            QSKIP(o.skip.c_str());
        if (o.status.isOk()) // accepted on purpose (see MATRIX.md): no message
            return;
        const QString file = QString::fromStdString(o.file);
        const auto [en, enAdvice] = texts(o.status, LanguageManager::Language::English);
        const auto [es, esAdvice] = texts(o.status, LanguageManager::Language::Spanish);
        QVERIFY2(en.contains(file), qPrintable(en));
        QVERIFY2(es.contains(file), qPrintable(es));
        if (o.status.code() == ErrorCode::Cancelled) // the user asked for it: nothing to advise
            return;
        QVERIFY2(!enAdvice.isEmpty() && en.contains(enAdvice), qPrintable(en));
        QVERIFY2(!esAdvice.isEmpty() && es.contains(esAdvice), qPrintable(es));
        QVERIFY2(esAdvice != enAdvice, qPrintable(QStringLiteral("not translated: ") + enAdvice));
        QVERIFY2(es.section(QLatin1Char('\n'), 0, 0) != en.section(QLatin1Char('\n'), 0, 0),
                 qPrintable(QStringLiteral("not translated: ") + en));
    }

    /// settings/corrupt and settings/unreadable: moved aside, defaults, the user is told.
    void damagedSettings_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("folder");
        QByteArray garbage("[ui]\nlanguage=1\n\0\x01\xff\xfe\x80garbage[[[\n", 30);
        QTest::newRow("settings/corrupt") << garbage << false;
        QTest::newRow("settings/unreadable") << QByteArray() << true;
    }

    void damagedSettings()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, folder);
        const QString file = QSettings().fileName();
        QFile::remove(file);
        QDir(file + QStringLiteral(".damaged")).removeRecursively();
        QFile::remove(file + QStringLiteral(".damaged"));
        if (folder)
            QVERIFY(QDir().mkpath(file)); // a folder where the file should be
        else
            writeSettingsFile(bytes);
        const ui::SettingsCheck check = ui::checkSettingsFile();
        QVERIFY(check.damaged);
        QCOMPARE(check.file, file);
        QCOMPARE(check.keptAs, file + QStringLiteral(".damaged"));
        QVERIFY(QFileInfo::exists(check.keptAs));
        QVERIFY(!QFileInfo::exists(file));
        // Defaults now, and settings can be saved again.
        const ui::Preference<int> pref(QStringLiteral("ui/language"), 0);
        QCOMPARE(pref.value(), 0);
        pref.setValue(2);
        QSettings().sync();
        QCOMPARE(pref.value(), 2);
        QVERIFY(QFileInfo(file).isFile());
        QCOMPARE(QSettings(file, QSettings::IniFormat).value(QStringLiteral("ui/language")).toInt(),
                 2);
        language(LanguageManager::Language::English);
        const QString en = ui::settingsCheckMessage(check);
        language(LanguageManager::Language::Spanish);
        const QString es = ui::settingsCheckMessage(check);
        for (const QString& text : {en, es}) {
            QVERIFY2(text.contains(file), qPrintable(text));
            QVERIFY2(text.contains(check.keptAs), qPrintable(text));
        }
        QVERIFY2(en != es, qPrintable(en));
        QSettings().clear();
    }

    /// settings/empty: an empty file is valid; nothing to report.
    void emptySettings()
    {
        writeSettingsFile({});
        const ui::SettingsCheck check = ui::checkSettingsFile();
        QVERIFY(!check.damaged);
        QVERIFY(ui::settingsCheckMessage(check).isEmpty());
    }

    /// settings/wrong-type: every key the main window saves, set to values of the wrong type:
    /// defaults are used and the window starts, shows and closes.
    void wrongTypeSettings()
    {
        QSettings().clear();
        QSettings().setValue(QStringLiteral("project/reopen"), false);
        {
            app::MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.close();
        }
        QSettings s;
        const QStringList keys = s.allKeys();
        QVERIFY(keys.size() > 3);
        const QVariant junk[] = {QStringLiteral("\x01junk"), QStringLiteral("-99999999999"),
                                 QByteArray("\xff\x00\x7f", 3), QVariant(QStringList{})};
        int i = 0;
        for (const QString& key : keys)
            s.setValue(key, junk[i++ % 4]);
        s.setValue(QStringLiteral("project/reopen"), false);
        s.sync();
        const ui::Preference<int> lang(QStringLiteral("ui/language"), 0);
        s.setValue(QStringLiteral("ui/language"), QStringLiteral("klingon"));
        QCOMPARE(lang.value(), 0);
        QVERIFY(!ui::checkSettingsFile().damaged); // valid INI, odd values: the file stays
        app::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.close();
        QSettings().clear();
    }
};

QTEST_MAIN(TstBadInputText)
#include "tst_badinput_text.moc"

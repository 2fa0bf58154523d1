// A TorchScript module chosen in the GUI brings up a plain warning that it runs code from the
// file; Cancel loads nothing, "Run code from this file" loads it, and the consent holds for the
// rest of the session for that exact file only (a changed file asks again).
#include <QtTest>

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include "analyze/modelchooser.h"
#include "analyze/modelfacts.h"
#include "common/modelconsent.h"

using namespace fisura;
using namespace fisura::ui;

class TestModelConsent : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp_;
    QString module_;
    int dialogs_ = 0;
    QString dialogText_;

    /// Answers the next consent dialog with the button named `button`, when it shows.
    void answerWith(const QString& button)
    {
        auto* timer = new QTimer(this);
        timer->setInterval(10);
        connect(timer, &QTimer::timeout, this, [this, timer, button] {
            QMessageBox* box = nullptr;
            for (QWidget* w : QApplication::topLevelWidgets())
                if (w->isVisible() && w->objectName() == QStringLiteral("torchScriptConsent"))
                    box = qobject_cast<QMessageBox*>(w);
            if (!box)
                return;
            ++dialogs_;
            dialogText_ = box->text() + QLatin1Char('\n') + box->informativeText();
            if (qEnvironmentVariableIsSet("FISURA_GRAB")) // a picture of the dialog to look at
                box->grab().save(qEnvironmentVariable("FISURA_GRAB"));
            timer->stop();
            timer->deleteLater();
            box->findChild<QPushButton*>(button)->click();
        });
        timer->start();
    }

    void choose(ModelChooser& chooser)
    {
        QTest::mouseClick(chooser.findChild<QPushButton*>(QStringLiteral("chooseModelButton")),
                          Qt::LeftButton);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        module_ = tmp_.filePath(QStringLiteral("exported.pt"));
        QVERIFY(QFile::copy(QStringLiteral(FISURA_TEST_DATA "/identity_unet.pt"), module_));
        QVERIFY(QFile::copy(QStringLiteral(FISURA_TEST_DATA "/identity_unet.pt.json"),
                            module_ + QStringLiteral(".json")));
        QFile::setPermissions(module_, QFile::ReadOwner | QFile::WriteOwner);
    }

    void init() { ModelConsent::forgetAll(); }

    void cancelLoadsNothingAndRunLoads()
    {
        ModelChooser chooser;
        chooser.setModelDialog([this] { return module_; });
        dialogs_ = 0;
        answerWith(QStringLiteral("cancelButton"));
        choose(chooser);
        QCOMPARE(dialogs_, 1);
        QVERIFY(dialogText_.contains(QStringLiteral("TorchScript")));
        QVERIFY(dialogText_.contains(QStringLiteral("runs code stored in the file")));
        QVERIFY(dialogText_.contains(QStringLiteral("someone you trust")));
        QVERIFY(!chooser.choice().ok);
        QCOMPARE(chooser.facts()->description().status.code(), ErrorCode::NeedsConsent);
        QVERIFY(chooser.facts()->errorText().contains(QStringLiteral("did not allow")));
        QVERIFY(!ModelConsent::granted(module_));

        // Chosen again: asked again; this time the user agrees and the module loads.
        answerWith(QStringLiteral("runCodeButton"));
        choose(chooser);
        QCOMPARE(dialogs_, 2);
        QVERIFY(chooser.choice().ok);
        QCOMPARE(chooser.choice().info.source, std::string("torchscript"));
        QCOMPARE(chooser.choice().info.config.inputSize, 64);
        QVERIFY(ModelConsent::granted(module_));
        QVERIFY(ModelConsent::optionsFor(module_).allowTorchScript);

        // For the rest of the session, that file loads without asking.
        ModelChooser other;
        other.setModelDialog([this] { return module_; });
        choose(other);
        QCOMPARE(dialogs_, 2);
        QVERIFY(other.choice().ok);
    }

    void consentIsForThatExactFile()
    {
        ModelConsent::grant(module_);
        QVERIFY(ModelConsent::granted(module_));
        // Another file with the same content is another file.
        const QString copy = tmp_.filePath(QStringLiteral("copy.pt"));
        QVERIFY(QFile::copy(module_, copy));
        QVERIFY(!ModelConsent::granted(copy));
        QVERIFY(!ModelConsent::optionsFor(copy).allowTorchScript);
        // The same path, changed since: asked again.
        QFile f(module_);
        QVERIFY(f.open(QIODevice::Append));
        f.write("\n");
        f.close();
        QVERIFY(!ModelConsent::granted(module_));
        QVERIFY(!ModelConsent::granted(tmp_.filePath(QStringLiteral("absent.pt"))));
    }
};

QTEST_MAIN(TestModelConsent)
#include "tst_modelconsent.moc"

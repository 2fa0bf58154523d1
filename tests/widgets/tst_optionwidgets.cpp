// The GUI's option fields take range, default, unit and tooltip from the option schema: the
// Train setup panel, the Analyze pane's advanced options and Inspect's measurement panel, built
// offscreen, compared with fisura/options.h; every option a widget shows has a translated text.
#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QStandardPaths>

#include "analyze/advancedoptions.h"
#include "common/languagemanager.h"
#include "common/optiontexts.h"
#include "fisura/options.h"
#include "inspect/measurepanel.h"
#include "train/trainsetup.h"
#include "viewer/tiledviewer.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{

std::string keyOf(const QWidget* w)
{
    return w->property("optionKey").toString().toStdString();
}

OptionSet setOf(const QWidget* w)
{
    return OptionSet(w->property("optionSet").toInt());
}

/// Every spin box below `root` shows a schema option with its range and default.
void compareSpinBoxes(QWidget* root)
{
    const auto spins = root->findChildren<QAbstractSpinBox*>();
    QVERIFY(!spins.isEmpty());
    for (QAbstractSpinBox* w : spins) {
        const std::string key = keyOf(w);
        QVERIFY2(!key.empty(), qPrintable(w->objectName() + QStringLiteral(" has no option")));
        const OptionDef& d = optionDef(setOf(w), key);
        QVERIFY2(d.key == key, key.c_str());
        const QString what = w->objectName() + QLatin1Char(' ') + QString::fromStdString(key);
        if (auto* s = qobject_cast<QSpinBox*>(w)) {
            QVERIFY2(s->minimum() == d.min && s->maximum() == d.max, qPrintable(what));
            QVERIFY2(s->value() == d.defaultNumber, qPrintable(what));
            QCOMPARE(s->suffix(), optionUnitSuffix(d.unit));
        } else if (auto* s = qobject_cast<QDoubleSpinBox*>(w)) {
            QVERIFY2(qFuzzyCompare(s->minimum(), d.min) && qFuzzyCompare(s->maximum(), d.max),
                     qPrintable(what));
            const QVariant index = w->property("optionIndex"); // one value of a list
            const double expected =
                index.isValid() ? d.defaultNumbers.at(size_t(index.toInt())) : d.defaultNumber;
            QVERIFY2(qFuzzyCompare(1 + s->value(), 1 + expected), qPrintable(what));
            QCOMPARE(s->suffix(), optionUnitSuffix(d.unit));
        } else {
            QFAIL(qPrintable(what + QStringLiteral(": an unexpected spin box")));
        }
    }
}

/// Every option widget below `root` has its translated tooltip (and the table a text for it).
QStringList optionTooltips(QWidget* root)
{
    QStringList tips;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const std::string key = keyOf(w);
        if (key.empty())
            continue;
        const QString help = optionHelp(setOf(w), key);
        if (help.isEmpty() || w->toolTip() != help)
            return {QStringLiteral("no text: ") + QString::fromStdString(key)};
        tips << help;
    }
    return tips;
}

} // namespace

class TstOptionWidgets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void trainSetupFollowsTheSchema_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("key");
        const char* rows[][2] = {
            {"epochsSpin", "epochs"},
            {"featureDimSpin", "model.feature_dim"},
            {"batchSpin", "batch_size"},
            {"learningRateSpin", "learning_rate"},
            {"valFractionSpin", "val_fraction"},
            {"patienceSpin", "patience"},
            {"loaderSpin", "loader_threads"},
            {"threadsSpin", "intra_op_threads"},
            {"seedSpin", "seed"},
            {"cropSpin", "model.input_size"},
            {"widthSpin", "model.width"},
            {"depthSpin", "model.depth"},
            {"precisionBox", "precision"},
            {"scheduleBox", "schedule"},
            {"cpuCheck", "prefer_cpu"},
            {"augmentCheck", "augment"},
            {"patchFeaturesBox", "model.patch_features"},
            {"perPositionCheck", "model.pooled_positions"},
        };
        for (const auto& r : rows)
            QTest::newRow(r[0]) << QString::fromLatin1(r[0]) << QString::fromLatin1(r[1]);
    }

    void trainSetupFollowsTheSchema()
    {
        QFETCH(QString, name);
        QFETCH(QString, key);
        TrainSetupPanel setup;
        auto* w = setup.findChild<QWidget*>(name);
        QVERIFY2(w, qPrintable(name));
        QCOMPARE(QString::fromStdString(keyOf(w)), key);
        QCOMPARE(setOf(w), OptionSet::Train);
        compareSpinBoxes(&setup);
        // The epochs the user sees are the engine's default, and the panel's options valid.
        QCOMPARE(setup.options().epochs, TrainOptions().epochs);
        QVERIFY(validate(setup.options()));
    }

    void advancedOptionsFollowTheSchema_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("key");
        const char* rows[][2] = {{"tileSpin", "tile_size"},     {"overlapSpin", "overlap"},
                                 {"batchSpin", "batch_size"},   {"threadsSpin", "intra_op_threads"},
                                 {"precisionBox", "precision"}, {"windowBox", "window"}};
        for (const auto& r : rows)
            QTest::newRow(r[0]) << QString::fromLatin1(r[0]) << QString::fromLatin1(r[1]);
    }

    void advancedOptionsFollowTheSchema()
    {
        QFETCH(QString, name);
        QFETCH(QString, key);
        AdvancedOptionsWidget advanced;
        auto* w = advanced.findChild<QWidget*>(name);
        QVERIFY2(w, qPrintable(name));
        QCOMPARE(QString::fromStdString(keyOf(w)), key);
        QCOMPARE(setOf(w), OptionSet::Infer);
        compareSpinBoxes(&advanced);
        QCOMPARE(advanced.findChild<QSpinBox*>(QStringLiteral("tileSpin"))->suffix(),
                 QStringLiteral(" px"));
        QVERIFY(validate(advanced.options()));
    }

    void measurePanelFollowsTheSchema()
    {
        TiledViewer viewer;
        MeasurePanel panel(&viewer);
        compareSpinBoxes(&panel);
        int limits = 0;
        for (auto* box : panel.findChildren<QDoubleSpinBox*>()) {
            QCOMPARE(setOf(box), OptionSet::Measure);
            limits += keyOf(box) == "classes.upper_limits_mm";
        }
        QCOMPARE(limits, 3);
        QCOMPARE(panel.findChild<QDoubleSpinBox*>(QStringLiteral("measurePixelSize"))->suffix(),
                 QStringLiteral(" mm"));
        // The options the panel hands to core are in the schema's ranges.
        QVERIFY(validate(panel.options()));
    }

    void everyOptionWidgetHasATranslatedText()
    {
        TrainSetupPanel setup;
        AdvancedOptionsWidget advanced;
        TiledViewer viewer;
        MeasurePanel measure(&viewer);
        const QStringList english =
            optionTooltips(&setup) + optionTooltips(&advanced) + optionTooltips(&measure);
        QVERIFY2(english.size() >= 20, qPrintable(english.join(QLatin1Char('\n'))));
        for (const QString& t : english)
            QVERIFY2(!t.startsWith(QStringLiteral("no text: ")), qPrintable(t));

        LanguageManager::instance().setLanguage(LanguageManager::Language::Spanish);
        setup.retranslateUi();
        advanced.retranslateUi();
        measure.retranslateUi();
        const QStringList spanish =
            optionTooltips(&setup) + optionTooltips(&advanced) + optionTooltips(&measure);
        LanguageManager::instance().setLanguage(LanguageManager::Language::English);
        QCOMPARE(spanish.size(), english.size());
        for (int i = 0; i < english.size(); ++i)
            QVERIFY2(spanish[i] != english[i], qPrintable(english[i]));
        QCOMPARE(advanced.findChild<QSpinBox*>(QStringLiteral("tileSpin"))->suffix(),
                 QStringLiteral(" px"));
    }
};

QTEST_MAIN(TstOptionWidgets)
#include "tst_optionwidgets.moc"

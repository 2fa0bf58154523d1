// The Train pane's results view fed with hand-built run records and evaluation reports: the best
// epoch's table, the precision-recall plot and its threshold, the confusion matrix, the error
// histogram and the gallery order.
#include <QtTest>

#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTableWidget>

#include "common/qcp.h"
#include "train/galleryview.h"
#include "train/resultsview.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{

GallerySample sample(int item, double quality, int size = 8)
{
    GallerySample s;
    s.item = item;
    s.image = "/data/images/img" + std::to_string(item) + ".png";
    s.mask = "/data/masks/img" + std::to_string(item) + ".png";
    s.size = size;
    s.rgb.assign(size_t(size) * size * 3, 120);
    s.truth.assign(size_t(size) * size, 0);
    s.prediction.assign(size_t(size) * size, 0);
    for (int i = 0; i < size; ++i) { // a diagonal crack, predicted a little off
        s.truth[size_t(i) * size + i] = 255;
        s.prediction[size_t(i) * size + std::min(size - 1, i + 1)] = 230;
    }
    s.quality = quality;
    return s;
}

EvaluationReport segmentationReport(int points = 21)
{
    EvaluationReport r;
    r.task = TaskKind::Segment;
    r.items = 12;
    r.threshold = 0.35;
    for (int k = 0; k < points; ++k) {
        PrPoint p;
        p.threshold = double(k) / (points - 1);
        p.recall = 1.0 - p.threshold;
        p.precision = 0.2 + 0.8 * p.threshold;
        p.f1 = 2 * p.precision * p.recall / std::max(1e-9, p.precision + p.recall);
        p.iou = p.f1 / (2 - p.f1);
        r.prCurve.push_back(p);
    }
    for (int i = 0; i < 3; ++i) {
        r.best.push_back(sample(i, 0.9 - 0.1 * i));
        r.worst.push_back(sample(10 + i, 0.1 + 0.1 * i));
    }
    return r;
}

EvaluationReport classificationReport()
{
    EvaluationReport r;
    r.task = TaskKind::Classify;
    r.items = 20;
    r.classes = {"cracked", "uncracked"};
    r.confusion = {{7, 3}, {1, 9}};
    for (int i = 0; i < 2; ++i) {
        GallerySample b = sample(i, 0.95 - 0.05 * i);
        b.truth.clear();
        b.prediction.clear();
        b.trueLabel = b.predictedLabel = i;
        r.best.push_back(b);
        GallerySample w = sample(5 + i, 0.05 + 0.05 * i);
        w.truth.clear();
        w.prediction.clear();
        w.trueLabel = 0;
        w.predictedLabel = 1;
        r.worst.push_back(w);
    }
    return r;
}

EvaluationReport anomalyReport()
{
    EvaluationReport r;
    r.task = TaskKind::Anomaly;
    r.items = 10;
    r.threshold = 0.0045;
    r.errors = {0.001, 0.0012, 0.002, 0.0021, 0.0025, 0.003, 0.0031, 0.004, 0.005, 0.006};
    r.histogramEdges = {0.001, 0.002, 0.003, 0.004, 0.005, 0.006};
    r.histogram = {2, 3, 2, 1, 2};
    GallerySample b = sample(0, -0.001);
    b.truth.clear();
    b.value = 0.001;
    r.best.push_back(b);
    GallerySample w = sample(9, -0.006);
    w.truth.clear();
    w.value = 0.006;
    r.worst.push_back(w);
    return r;
}

ProjectRun segmentationRun()
{
    ProjectRun run;
    run.task = TaskKind::Segment;
    run.bestEpoch = 1;
    for (int e = 0; e < 3; ++e) {
        EpochMetrics m;
        m.epoch = e;
        m.trainLoss = 1.0 - 0.1 * e;
        m.valLoss = 0.9 - 0.05 * e;
        m.iou = 0.4 + 0.1 * e;
        m.segF1 = 0.5 + 0.1 * e;
        m.bestThreshold = 0.3 + 0.1 * e;
        m.f1AtBest = 0.55 + 0.1 * e;
        m.score = e == 1 ? 10 : 1; // epoch 1 is the best
        m.seconds = 12.5;
        run.history.push_back(m);
    }
    return run;
}

/// Row of `table` whose first column reads `name`, or -1.
int rowOf(QTableWidget* table, const QString& name)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == name)
            return r;
    return -1;
}

} // namespace

class TstResultsView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void metricsTableShowsTheBestEpoch()
    {
        TrainResultsView v;
        v.setRun(segmentationRun());
        auto* table = v.findChild<QTableWidget*>(QStringLiteral("metricsTable"));
        QVERIFY(table);
        const int epochRow = rowOf(table, QStringLiteral("Best epoch"));
        QVERIFY(epochRow >= 0);
        QCOMPARE(table->item(epochRow, 1)->text(), QLocale().toString(2.0, 'f', 0));
        const int iouRow = rowOf(table, QStringLiteral("IoU at 0.5"));
        QVERIFY(iouRow >= 0);
        QCOMPARE(table->item(iouRow, 1)->data(Qt::UserRole).toDouble(), 0.5);
        QCOMPARE(table->item(iouRow, 1)->text(), QLocale().toString(0.5, 'f', 4));
        // Classification and anomaly fields (-1) are not listed; unset segmentation ones neither.
        QCOMPARE(rowOf(table, QStringLiteral("Accuracy")), -1);
        QCOMPARE(rowOf(table, QStringLiteral("Mean error")), -1);
        QCOMPARE(rowOf(table, QStringLiteral("Recall at 0.5")), -1);
        // Without bestEpoch the highest score wins.
        ProjectRun run = segmentationRun();
        run.bestEpoch = -1;
        run.history[2].score = 20;
        v.setRun(run);
        QCOMPARE(table->item(rowOf(table, QStringLiteral("Best epoch")), 1)->text(),
                 QLocale().toString(3.0, 'f', 0));
        v.clear();
        QCOMPARE(table->rowCount(), 0);
    }

    void precisionRecallCurveAndThreshold()
    {
        TrainResultsView v;
        v.resize(900, 700);
        const EvaluationReport r = segmentationReport(21);
        v.setReport(r);
        auto* plot = v.findChild<QCustomPlot*>(QStringLiteral("prPlot"));
        QVERIFY(plot);
        auto* curve = qobject_cast<QCPCurve*>(plot->plottable(0));
        QVERIFY(curve);
        QCOMPARE(curve->data()->size(), 21);
        auto* stack = v.findChild<QStackedWidget*>(QStringLiteral("resultsCharts"));
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(plot));
        QCOMPARE(v.threshold(), 0.35);
        // The marker sits on the curve at the model's threshold (recall 0.65, precision 0.48).
        QCOMPARE(plot->graph(0)->data()->size(), 1);
        QVERIFY(qAbs(plot->graph(0)->data()->at(0)->key - 0.65) < 1e-9);
        QVERIFY(qAbs(plot->graph(0)->data()->at(0)->value - 0.48) < 1e-9);

        QSignalSpy spy(&v, &TrainResultsView::thresholdChosen);
        auto* spin = v.findChild<QDoubleSpinBox*>(QStringLiteral("thresholdSpin"));
        QVERIFY(spin);
        QCOMPARE(spin->value(), 0.35);
        spin->setValue(0.6);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toDouble(), 0.6);
        QCOMPARE(v.threshold(), 0.6);
        QVERIFY(qAbs(plot->graph(0)->data()->at(0)->key - 0.4) < 1e-9);
        auto* slider = v.findChild<QSlider*>(QStringLiteral("thresholdSlider"));
        QCOMPARE(slider->value(), 60);
        slider->setValue(20); // keyboard or a click on the groove: final at once
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toDouble(), 0.2);
        QCOMPARE(spin->value(), 0.2);
        auto* readout = v.findChild<QLabel*>(QStringLiteral("thresholdReadout"));
        QVERIFY(readout->text().contains(QLocale().toString(0.8, 'f', 3))); // recall at 0.2

        // Programmatic moves do not emit.
        v.setThreshold(0.5);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(v.threshold(), 0.5);
        QCOMPARE(slider->value(), 50);
    }

    void galleryHasBothRowsInOrder()
    {
        TrainResultsView v;
        const EvaluationReport r = segmentationReport();
        v.setReport(r);
        v.resize(1400, 800);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto* gallery = v.findChild<TrainGalleryView*>(QStringLiteral("gallery"));
        QVERIFY(gallery);
        const auto best = gallery->findChildren<QWidget*>(QStringLiteral("bestThumbnail"));
        const auto worst = gallery->findChildren<QWidget*>(QStringLiteral("worstThumbnail"));
        QCOMPARE(best.size(), 3);
        QCOMPARE(worst.size(), 3);
        auto ordered = [](QList<QWidget*> list) {
            std::sort(list.begin(), list.end(),
                      [](QWidget* a, QWidget* b) { return a->x() < b->x(); });
            QList<int> items;
            for (QWidget* w : list)
                items << w->property("item").toInt();
            return items;
        };
        QCOMPARE(ordered(best), (QList<int>{0, 1, 2}));
        QCOMPARE(ordered(worst), (QList<int>{10, 11, 12}));
        QVERIFY(best.front()->toolTip().contains(QStringLiteral("img")));
        auto* pic = best.front()->findChild<QLabel*>(QStringLiteral("thumbnailPicture"));
        QVERIFY(pic);
        QCOMPARE(pic->pixmap().height(), TrainGalleryView::kPanel);
        QVERIFY(pic->pixmap().width() > TrainGalleryView::kPanel); // prediction and truth
    }

    void galleryPictureShowsPredictionAndTruth()
    {
        const GallerySample s = sample(0, 0.5, 8);
        const QImage im = galleryPicture(s, TaskKind::Segment, 0.5);
        QCOMPARE(im.height(), 8);
        QVERIFY(im.width() > 16);
        // Predicted crack (red overlay) left at (1, 0); truth (green) right at (0, 0).
        QVERIFY(qRed(im.pixel(1, 0)) > qGreen(im.pixel(1, 0)));
        QCOMPARE(im.pixel(0, 0), qRgb(120, 120, 120));
        const int right = im.width() - 8;
        QVERIFY(qGreen(im.pixel(right, 0)) > qRed(im.pixel(right, 0)));
        // Above the prediction's probability nothing is drawn.
        const QImage high = galleryPicture(s, TaskKind::Segment, 0.95);
        QCOMPARE(high.pixel(1, 0), qRgb(120, 120, 120));
    }

    void confusionMatrixShowsCounts()
    {
        TrainResultsView v;
        v.setReport(classificationReport());
        auto* m = v.findChild<QTableWidget*>(QStringLiteral("confusionMatrix"));
        QVERIFY(m);
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->columnCount(), 2);
        QCOMPARE(m->horizontalHeaderItem(0)->text(), QStringLiteral("cracked"));
        QCOMPARE(m->verticalHeaderItem(1)->text(), QStringLiteral("uncracked"));
        const qlonglong expected[2][2] = {{7, 3}, {1, 9}};
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) {
                QCOMPARE(m->item(r, c)->data(Qt::UserRole).toLongLong(), expected[r][c]);
                QVERIFY(m->item(r, c)->text().startsWith(QLocale().toString(expected[r][c])));
            }
        QVERIFY(m->item(0, 1)->text().contains(QLocale().toString(30.0, 'f', 1))); // 3 of 10
        QCOMPARE(v.threshold(), -1.0);
        auto* gallery = v.findChild<TrainGalleryView*>(QStringLiteral("gallery"));
        const auto worst = gallery->findChildren<QWidget*>(QStringLiteral("worstThumbnail"));
        QCOMPARE(worst.size(), 2);
        auto* caption = worst.front()->findChild<QLabel*>(QStringLiteral("thumbnailCaption"));
        QVERIFY(caption->text().contains(QStringLiteral("uncracked")));
    }

    void histogramAndThresholdLine()
    {
        TrainResultsView v;
        const EvaluationReport r = anomalyReport();
        v.setReport(r);
        auto* plot = v.findChild<QCustomPlot*>(QStringLiteral("errorHistogram"));
        QVERIFY(plot);
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 5);
        double sum = 0;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            sum += it->value;
        QCOMPARE(sum, 10.0);
        auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(0));
        QVERIFY(line);
        QCOMPARE(line->point1->coords().x(), 0.0045);
        QCOMPARE(v.threshold(), 0.0045);
        QSignalSpy spy(&v, &TrainResultsView::thresholdChosen);
        auto* spin = v.findChild<QDoubleSpinBox*>(QStringLiteral("thresholdSpin"));
        spin->setValue(0.0035);
        QCOMPARE(spy.count(), 1);
        QVERIFY(qAbs(spy.at(0).at(0).toDouble() - 0.0035) < 1e-12);
        QVERIFY(qAbs(line->point1->coords().x() - 0.0035) < 1e-12);
        auto* readout = v.findChild<QLabel*>(QStringLiteral("thresholdReadout"));
        QVERIFY(readout->text().contains(QLocale().toString(3))); // 0.004, 0.005, 0.006
    }

    void busyAndRetranslate()
    {
        TrainResultsView v;
        v.setBusy(QStringLiteral("Evaluating…"));
        auto* busy = v.findChild<QLabel*>(QStringLiteral("resultsBusy"));
        QVERIFY(!busy->isHidden());
        v.setReport(segmentationReport());
        QVERIFY(busy->isHidden());
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(&v, &change);
        QCOMPARE(v.threshold(), 0.35);
    }
};

QTEST_MAIN(TstResultsView)
#include "tst_resultsview.moc"

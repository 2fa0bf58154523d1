// Label states in the Data pane, "which images to label next" and the Train pane's view of them:
// a dataset with masks for some images, a proposal for one and nothing for the rest shows the
// right states and counts, follows new mask files, filters, asks for the right labelling queue;
// a tiny trained U-Net ranks only the unlabelled images, most uncertain first, and stops on
// Cancel; the dataset picker says which images training uses.
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeView>

#include <filesystem>

#include "analyze/modelchooser.h"
#include "common/statusmeta.h"
#include "data/datapane.h"
#include "data/labelranking.h"
#include "data/labelstatusmodel.h"
#include "data/labelstatuspanel.h"
#include "demoproject.h"
#include "fisura/image.h"
#include "fisura/labels.h"
#include "project/projectsession.h"
#include "train/datasetpicker.h"
#include "train/trainpane.h"

using namespace fisura;
using namespace fisura::ui;

class TstDataLabels : public QObject
{
    Q_OBJECT
    QTemporaryDir tmp_;
    QString project_; ///< demo project with one finished run of a tiny U-Net
    QString data_;    ///< 8 images: 3 labelled, 1 proposed, 4 unlabelled
    QString model_;
    QString runId_;

    QString image(int i) const
    {
        return data_ + QStringLiteral("/images/seg_%1.tif").arg(i, 4, 10, QLatin1Char('0'));
    }
    static void writeMask(const QString& path)
    {
        Image m = Image::make(64, 64, 1, 0);
        for (int x = 0; x < 64; ++x)
            m.row(32)[x] = 255;
        QVERIFY(writeTiff(path.toStdString(), m));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        project_ = tmp_.filePath(QStringLiteral("demo"));
        QVERIFY(demoproject::make(project_, 0, true));
        auto p = Project::open(project_.toStdString());
        QVERIFY(p);
        QCOMPARE(p->runs().size(), size_t(1));
        model_ = QString::fromStdString(p->runs().front().modelPath);
        runId_ = QString::fromStdString(p->runs().front().id);
        QVERIFY(QFileInfo::exists(model_));

        // A copy of the demo images: masks for 0-2, a proposal for 3, nothing for 4-7.
        data_ = tmp_.filePath(QStringLiteral("labels"));
        const QString seg = project_ + QStringLiteral("/data/segmentation");
        QVERIFY(QDir().mkpath(data_ + QStringLiteral("/images")));
        QVERIFY(QDir().mkpath(data_ + QStringLiteral("/masks")));
        QVERIFY(QDir().mkpath(data_ + QStringLiteral("/proposals")));
        const QStringList names =
            QDir(seg + QStringLiteral("/images")).entryList(QDir::Files, QDir::Name);
        QCOMPARE(names.size(), 8);
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(names[i], QFileInfo(image(i)).fileName());
            QVERIFY(QFile::copy(seg + QStringLiteral("/images/") + names[i], image(i)));
            if (i < 3)
                QVERIFY(QFile::copy(seg + QStringLiteral("/masks/") + names[i],
                                    data_ + QStringLiteral("/masks/") + names[i]));
        }
        writeMask(data_ + QStringLiteral("/proposals/seg_0003.tif"));
    }

    void showsStatesAndCounts()
    {
        LabelStatusPanel panel;
        QSignalSpy changed(&panel, &LabelStatusPanel::statusChanged);
        panel.setDatasetDir(data_);
        QTRY_VERIFY(changed.count() > 0 && !panel.isScanning());
        QVERIFY(panel.hasStatus());
        QCOMPARE(panel.summaryText(), QStringLiteral("3 labelled · 1 proposed · 4 unlabelled"));
        const LabelStatusModel* m = panel.model();
        QCOMPARE(m->rowCount(), 8);
        const LabelState expected[8] = {LabelState::Labelled,   LabelState::Labelled,
                                        LabelState::Labelled,   LabelState::Proposed,
                                        LabelState::Unlabelled, LabelState::Unlabelled,
                                        LabelState::Unlabelled, LabelState::Unlabelled};
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(m->imageAt(r), QFileInfo(image(r)).absoluteFilePath());
            QCOMPARE(LabelState(m->index(r, 0).data(LabelStatusModel::StateRole).toInt()),
                     expected[r]);
            QCOMPARE(m->index(r, LabelStatusModel::StateColumn).data().toString(),
                     LabelStatusModel::stateText(expected[r]));
        }
        QCOMPARE(panel.images(LabelState::Unlabelled).size(), 4);
    }

    void newMaskFileUpdatesTheState()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("ds"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/images")));
        QVERIFY(QFile::copy(image(4), dir + QStringLiteral("/images/a.tif")));
        QVERIFY(QFile::copy(image(5), dir + QStringLiteral("/images/b.tif")));
        DataPane pane;
        pane.setRootFolder(dir);
        LabelStatusPanel* panel = pane.labelPanel();
        QCOMPARE(pane.labelDataset(), QFileInfo(dir).absoluteFilePath());
        QTRY_COMPARE(panel->summaryText(),
                     QStringLiteral("0 labelled · 0 proposed · 2 unlabelled"));
        // masks/ does not exist yet: creating it and saving a mask is noticed.
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/masks")));
        writeMask(dir + QStringLiteral("/masks/a.tif"));
        QTRY_COMPARE(panel->summaryText(),
                     QStringLiteral("1 labelled · 0 proposed · 1 unlabelled"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/proposals")));
        writeMask(dir + QStringLiteral("/proposals/b.tif"));
        QTRY_COMPARE(panel->summaryText(),
                     QStringLiteral("1 labelled · 1 proposed · 0 unlabelled"));
        QVERIFY(QFile::remove(dir + QStringLiteral("/masks/a.tif")));
        QTRY_COMPARE(panel->summaryText(),
                     QStringLiteral("0 labelled · 1 proposed · 1 unlabelled"));
    }

    void filtersByState()
    {
        LabelStatusPanel panel;
        panel.setDatasetDir(data_);
        QTRY_VERIFY(panel.hasStatus() && !panel.isScanning());
        auto* box = panel.findChild<QComboBox*>(QStringLiteral("labelFilter"));
        QVERIFY(box);
        box->setCurrentIndex(box->findData(int(LabelState::Unlabelled)));
        QCOMPARE(panel.filter(), std::optional<LabelState>(LabelState::Unlabelled));
        QCOMPARE(panel.model()->rowCount(), 4);
        QCOMPARE(panel.model()->imageAt(0), QFileInfo(image(4)).absoluteFilePath());
        panel.setFilter(LabelState::Proposed);
        QCOMPARE(panel.model()->rowCount(), 1);
        QCOMPARE(panel.model()->imageAt(0), QFileInfo(image(3)).absoluteFilePath());
        panel.setFilter(LabelState::Labelled);
        QCOMPARE(panel.model()->rowCount(), 3);
        panel.setFilter(std::nullopt);
        QCOMPARE(panel.model()->rowCount(), 8);
        // The summary counts every image whatever the filter.
        QCOMPARE(panel.summaryText(), QStringLiteral("3 labelled · 1 proposed · 4 unlabelled"));
    }

    void labelRequestCarriesTheQueue()
    {
        DataPane pane;
        QSignalSpy asked(&pane, &DataPane::labelRequested);
        pane.setRootFolder(data_);
        LabelStatusPanel* panel = pane.labelPanel();
        QTRY_VERIFY(panel->hasStatus() && !panel->isScanning());
        panel->setFilter(LabelState::Unlabelled);
        auto* view = panel->findChild<QTreeView*>(QStringLiteral("labelList"));
        view->setCurrentIndex(panel->model()->index(1, 0));
        panel->findChild<QPushButton*>(QStringLiteral("labelButton"))->click();
        QCOMPARE(asked.count(), 1);
        const auto abs = [](const QString& p) { return QFileInfo(p).absoluteFilePath(); };
        QCOMPARE(asked.at(0).at(0).toString(), abs(image(5)));
        QCOMPARE(asked.at(0).at(1).toStringList(), (QStringList{abs(image(6)), abs(image(7))}));
        // Double-click on a row: that image, then the rest of the list as shown.
        panel->setFilter(std::nullopt);
        Q_EMIT view->doubleClicked(panel->model()->index(6, 0));
        QCOMPARE(asked.count(), 2);
        QCOMPARE(asked.at(1).at(0).toString(), abs(image(6)));
        QCOMPARE(asked.at(1).at(1).toStringList(), QStringList{abs(image(7))});
    }

    void folderWithoutImagesSaysWhy()
    {
        QTemporaryDir tmp;
        LabelStatusPanel panel;
        QSignalSpy changed(&panel, &LabelStatusPanel::statusChanged);
        panel.setDatasetDir(tmp.path());
        QTRY_VERIFY(changed.count() > 0);
        QVERIFY(!panel.hasStatus());
        QVERIFY(panel.summaryText().contains(QStringLiteral("no images/ subfolder")));
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("rankButton"))->isEnabled());
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("labelButton"))->isEnabled());
    }

    void ranksOnlyUnlabelledMostUncertainFirst()
    {
        DataPane pane;
        pane.setRootFolder(data_);
        LabelRankingPanel* ranking = pane.rankingPanel();
        ranking->modelChooser()->setModelFile(model_);
        QVERIFY(ranking->modelChooser()->choice().ok);
        QTRY_VERIFY(pane.labelPanel()->hasStatus() && !pane.labelPanel()->isScanning());
        QSignalSpy done(ranking, &LabelRankingPanel::rankingFinished);
        QVERIFY(ranking->startRanking());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QVERIFY2(done.at(0).at(0).value<Status>().isOk(),
                 qPrintable(QString::fromStdString(done.at(0).at(0).value<Status>().toString())));
        const auto& r = ranking->ranking();
        QCOMPARE(r.size(), size_t(4));
        QSet<QString> ranked;
        for (size_t i = 0; i < r.size(); ++i) {
            ranked.insert(QString::fromStdString(r[i].image));
            if (i > 0)
                QVERIFY(r[i - 1].uncertainty >= r[i].uncertainty);
        }
        QSet<QString> unlabelled;
        for (int i = 4; i < 8; ++i)
            unlabelled.insert(QFileInfo(image(i)).absoluteFilePath());
        QCOMPARE(ranked, unlabelled);
        QVERIFY(ranking->message().startsWith(QStringLiteral("4 image"))); // plural in fisura_en

        QSignalSpy asked(&pane, &DataPane::labelRequested);
        ranking->findChild<QPushButton*>(QStringLiteral("labelInOrderButton"))->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).toString(), QString::fromStdString(r[0].image));
        QCOMPARE(
            asked.at(0).at(1).toStringList(),
            (QStringList{QString::fromStdString(r[1].image), QString::fromStdString(r[2].image),
                         QString::fromStdString(r[3].image)}));
    }

    void unreadableImageIsListedLast()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("ds"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/images")));
        QVERIFY(QFile::copy(image(4), dir + QStringLiteral("/images/a.tif")));
        QVERIFY(QFile::copy(image(5), dir + QStringLiteral("/images/b.tif")));
        QFile broken(dir + QStringLiteral("/images/0broken.tif")); // sorts first
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("this is not a tiff");
        broken.close();
        DataPane pane;
        pane.setRootFolder(dir);
        LabelRankingPanel* ranking = pane.rankingPanel();
        ranking->modelChooser()->setModelFile(model_);
        QTRY_COMPARE(pane.labelPanel()->summaryText(),
                     QStringLiteral("0 labelled · 0 proposed · 3 unlabelled"));
        QSignalSpy done(ranking, &LabelRankingPanel::rankingFinished);
        QVERIFY(ranking->startRanking());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QVERIFY(done.at(0).at(0).value<Status>().isOk());
        QCOMPARE(ranking->ranking().size(), size_t(3));
        QVERIFY(QString::fromStdString(ranking->ranking().back().image)
                    .endsWith(QStringLiteral("0broken.tif")));
        QVERIFY(!ranking->ranking().back().error.empty());
        QCOMPARE(ranking->rankedImages().size(), 2);
        QVERIFY(ranking->message().contains(QStringLiteral("could not be read")));
        QSignalSpy asked(&pane, &DataPane::labelRequested);
        ranking->labelInOrder();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(1).toStringList().size(), 1); // the broken image is not queued
    }

    void cancelAnswersAtOnce()
    {
        DataPane pane;
        pane.setRootFolder(data_);
        LabelRankingPanel* ranking = pane.rankingPanel();
        ranking->modelChooser()->setModelFile(model_);
        QTRY_VERIFY(pane.labelPanel()->hasStatus() && !pane.labelPanel()->isScanning());
        QSignalSpy done(ranking, &LabelRankingPanel::rankingFinished);
        QVERIFY(ranking->startRanking());
        ranking->findChild<QPushButton*>(QStringLiteral("rankCancelButton"))->click();
        QCOMPARE(ranking->message(), QStringLiteral("Ranking cancelled."));
        QTRY_COMPARE(done.count(), 1); // within QTRY's 5 s (the job answers in half a second)
        QCOMPARE(done.at(0).at(0).value<Status>().code(), ErrorCode::Cancelled);
        QVERIFY(!ranking->isRanking());
        QVERIFY(ranking->ranking().empty());
        QCOMPARE(ranking->message(), QStringLiteral("Ranking cancelled."));
    }

    void badModelAndNothingToRankAreSaid()
    {
        QTemporaryDir tmp;
        DataPane pane;
        LabelRankingPanel* ranking = pane.rankingPanel();
        // A disabled "Rank unlabelled images" says why, beside it and on the button.
        auto* start = ranking->findChild<QPushButton*>(QStringLiteral("rankStartButton"));
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains(QStringLiteral("segmentation dataset")),
                 qPrintable(start->toolTip()));
        QCOMPARE(ranking->message(), start->toolTip());
        pane.setRootFolder(data_);
        QTRY_VERIFY(pane.labelPanel()->hasStatus() && !pane.labelPanel()->isScanning());
        QFile bogus(tmp.filePath(QStringLiteral("broken.fisura")));
        QVERIFY(bogus.open(QIODevice::WriteOnly));
        bogus.write("not a model");
        bogus.close();
        ranking->modelChooser()->setModelFile(bogus.fileName());
        QVERIFY(!ranking->modelChooser()->choice().ok);
        QVERIFY(!start->isEnabled());
        QVERIFY(start->toolTip().contains(QStringLiteral("model that can be loaded")));
        QVERIFY(!ranking->startRanking());
        QVERIFY(ranking->message().contains(QStringLiteral("model that can be loaded")));

        // A dataset whose images are all labelled: nothing to rank.
        const QString all = tmp.filePath(QStringLiteral("all"));
        QVERIFY(QDir().mkpath(all + QStringLiteral("/images")));
        QVERIFY(QDir().mkpath(all + QStringLiteral("/masks")));
        QVERIFY(QFile::copy(image(0), all + QStringLiteral("/images/a.tif")));
        writeMask(all + QStringLiteral("/masks/a.tif"));
        pane.setRootFolder(all);
        QTRY_COMPARE(pane.labelPanel()->summaryText(),
                     QStringLiteral("1 labelled · 0 proposed · 0 unlabelled"));
        ranking->modelChooser()->setModelFile(model_);
        QVERIFY(!start->isEnabled());
        QVERIFY(start->toolTip().contains(QStringLiteral("no unlabelled images")));
        QVERIFY(!ranking->startRanking());
        QVERIFY(ranking->message().contains(QStringLiteral("no unlabelled images")));
    }

    void rankingFromTheTrainPane()
    {
        ProjectSession session;
        TrainPane train;
        QSignalSpy shown(&train, &TrainPane::resultsShown);
        train.setProjectSession(&session);
        QVERIFY(session.openProject(project_)); // shows the newest run and its results
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > 0, 30000);
        auto* button = train.findChild<QPushButton*>(QStringLiteral("labelNextButton"));
        QVERIFY(button);
        QVERIFY(!button->isHidden());
        QSignalSpy asked(&train, &TrainPane::chooseImagesToLabel);
        button->click();
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).toString(), runId_);
        QCOMPARE(asked.at(0).at(1).toString(), model_);
        const QString dataset = asked.at(0).at(2).toString();
        QVERIFY(dataset.endsWith(QStringLiteral("segmentation")));

        // The Data pane, as the main window connects it: the run's model ranks the unlabelled
        // images of a dataset as soon as their states are known.
        DataPane pane;
        pane.setProjectSession(&session);
        QSignalSpy done(pane.rankingPanel(), &LabelRankingPanel::rankingFinished);
        pane.rankImagesToLabel(runId_, model_, data_);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QCOMPARE(pane.rankingPanel()->ranking().size(), size_t(4));
        QCOMPARE(pane.rankingPanel()->modelChooser()->choice().runId, runId_);
    }

    void pickerSaysWhichImagesTrainingUses()
    {
        DatasetPicker picker;
        ProjectDataset d;
        d.id = "ds-1";
        d.name = "labels";
        d.path = data_.toStdString();
        d.task = TaskKind::Segment;
        picker.setDatasets({d});
        QSignalSpy scanned(&picker, &DatasetPicker::scanned);
        picker.rescan(TaskKind::Segment);
        QTRY_COMPARE_WITH_TIMEOUT(scanned.count(), 1, 20000);
        // "image(s)" reads "images" once the English plural forms are loaded.
        const QString sentence = picker.labelSummary();
        QVERIFY2(sentence.startsWith(QStringLiteral("3 labelled image")), qPrintable(sentence));
        QVERIFY(sentence.endsWith(QStringLiteral("used for training (1 proposed and 4 "
                                                 "unlabelled are not).")));
        auto* label = picker.findChild<QLabel*>(QStringLiteral("datasetLabelStates"));
        QVERIFY(label && !label->isHidden());
        QSignalSpy link(&picker, &DatasetPicker::showLabelsRequested);
        Q_EMIT label->linkActivated(QStringLiteral("labels"));
        QCOMPARE(link.count(), 1);
        QCOMPARE(link.at(0).at(0).toString(), data_);
        // Proposed and unlabelled images are counted there, not listed as problems.
        QVERIFY(picker.findChild<QListWidget*>(QStringLiteral("datasetProblems"))->isHidden());
        QCOMPARE(picker.findChild<QLabel*>(QStringLiteral("datasetSummary"))->text(),
                 QStringLiteral("3 image(s) with masks"));

        // The Data pane opens that dataset's labels, every state shown.
        DataPane pane;
        pane.showLabels(data_);
        QCOMPARE(pane.labelDataset(), QFileInfo(data_).absoluteFilePath());
        QTRY_COMPARE(pane.labelPanel()->summaryText(),
                     QStringLiteral("3 labelled · 1 proposed · 4 unlabelled"));

        // Other tasks say nothing about labels.
        picker.rescan(TaskKind::Anomaly);
        QTRY_COMPARE_WITH_TIMEOUT(scanned.count(), 2, 20000);
        QVERIFY(picker.labelSummary().isEmpty());
        QVERIFY(label->isHidden());
    }
};

QTEST_MAIN(TstDataLabels)
#include "tst_datalabels.moc"

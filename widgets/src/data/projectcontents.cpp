#include "data/projectcontents.h"

#include <QCheckBox>
#include <QCompleter>
#include <QDateEdit>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "data/seriestimeline.h"
#include "fisura/series.h"
#include "project/projectsession.h"
#include "train/runslist.h"

namespace fisura::ui
{

namespace
{
enum Kind { DatasetItem = 1, ScanItem = 2 };
constexpr int kKindRole = Qt::UserRole;
constexpr int kPathRole = Qt::UserRole + 1;
constexpr int kIdRole = Qt::UserRole + 2;

QString when(const std::string& iso)
{
    const QDateTime t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : QString();
}
} // namespace

QStringList imageNameFilters()
{
    return {QStringLiteral("*.tif"), QStringLiteral("*.tiff"), QStringLiteral("*.png"),
            QStringLiteral("*.jpg"), QStringLiteral("*.jpeg"), QStringLiteral("*.bmp")};
}

ProjectContents::ProjectContents(QWidget* parent)
    : QWidget(parent), note_(new QLabel(this)), tree_(new QTreeWidget(this))
{
    tree_->setObjectName(QStringLiteral("projectContents"));
    note_->setObjectName(QStringLiteral("projectContentsNote"));
    note_->setWordWrap(true);
    tree_->setColumnCount(2);
    tree_->setRootIsDecorated(false);
    tree_->setUniformRowHeights(true);
    tree_->setTextElideMode(Qt::ElideMiddle); // file names differ at their end
    tree_->header()->setStretchLastSection(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) {
        if (it && it->data(0, kKindRole).toInt() == DatasetItem)
            Q_EMIT datasetSelected(it->data(0, kPathRole).toString());
    });
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree_, &QTreeWidget::customContextMenuRequested, this, &ProjectContents::showMenu);
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) {
        if (it && it->data(0, kKindRole).toInt() == ScanItem)
            Q_EMIT scanActivated(it->data(0, kPathRole).toString());
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(note_);
    layout->addWidget(tree_, 1);
    retranslateUi();
}

void ProjectContents::setProjectSession(ProjectSession* session)
{
    if (session_)
        disconnect(session_, nullptr, this, nullptr);
    session_ = session;
    if (session) {
        connect(session, &ProjectSession::projectChanged, this, &ProjectContents::fill);
        connect(session, &ProjectSession::contentChanged, this, &ProjectContents::fill);
    }
    fill();
}

void ProjectContents::retranslateUi()
{
    tree_->setHeaderLabels({tr("Name"), tr("Details")});
    fill();
}

void ProjectContents::fill()
{
    const QString keep =
        tree_->currentItem() ? tree_->currentItem()->data(0, kPathRole).toString() : QString();
    const QSignalBlocker quiet(tree_);
    tree_->clear();
    datasets_ = scans_ = nullptr;
    if (!session_ || !session_->hasProject()) {
        note_->setText(tr("No project is open."));
        return;
    }
    const Project& p = session_->project();
    const QLocale loc;
    QFont bold = tree_->font();
    bold.setBold(true);
    auto heading = [&](const QString& text) {
        auto* it = new QTreeWidgetItem(tree_, {text});
        it->setFlags(Qt::ItemIsEnabled);
        it->setFont(0, bold);
        it->setFirstColumnSpanned(true);
        return it;
    };
    auto missing = [](QTreeWidgetItem* it) {
        it->setForeground(0, QPalette().brush(QPalette::Disabled, QPalette::Text));
        it->setForeground(1, QPalette().brush(QPalette::Disabled, QPalette::Text));
    };
    datasets_ = heading(tr("Datasets (%1)").arg(loc.toString(qint64(p.datasets().size()))));
    for (const ProjectDataset& d : p.datasets()) {
        const QString path = QString::fromStdString(d.path);
        const QJsonObject summary =
            QJsonDocument::fromJson(QByteArray::fromStdString(d.summaryJson)).object();
        QString details = RunsList::taskText(d.task);
        const int images = summary.contains(QStringLiteral("items"))
                               ? summary.value(QStringLiteral("items")).toInt()
                               : imageCount(path);
        if (images >= 0)
            details += QStringLiteral(" · ") + tr("%n image(s)", nullptr, images);
        const bool there = QFileInfo(path).isDir();
        if (!there)
            details += QStringLiteral(" · ") + tr("folder not found");
        auto* it = new QTreeWidgetItem(datasets_, {QString::fromStdString(d.name), details});
        it->setData(0, kKindRole, DatasetItem);
        it->setData(0, kPathRole, path);
        it->setToolTip(0, QDir::toNativeSeparators(path));
        if (!there) {
            missing(it);
            it->setFlags(Qt::ItemIsEnabled); // nothing to browse
        }
    }
    scans_ = heading(tr("Scans (%1)").arg(loc.toString(qint64(p.scans().size()))));
    for (const ProjectScan& s : p.scans()) {
        const QString path = QString::fromStdString(s.input);
        QStringList details;
        if (s.width > 0 && s.height > 0)
            details << tr("%1 × %2 px").arg(loc.toString(s.width), loc.toString(s.height));
        const bool map = !s.mapPath.empty() && QFileInfo::exists(QString::fromStdString(s.mapPath));
        details << (map ? tr("crack map") : tr("no map"));
        if (!s.truthPath.empty())
            details << tr("ground truth");
        if (!s.structure.empty()) {
            const QDate d = QDate::fromString(QString::fromStdString(s.inspectedOn), Qt::ISODate);
            details << (d.isValid() ? tr("%1, %2").arg(QString::fromStdString(s.structure),
                                                       loc.toString(d, QLocale::ShortFormat))
                                    : tr("%1, no date").arg(QString::fromStdString(s.structure)));
        }
        const bool there = QFileInfo::exists(path);
        if (!there)
            details << tr("file not found");
        auto* it = new QTreeWidgetItem(
            scans_, {QFileInfo(path).fileName(), details.join(QStringLiteral(" · "))});
        it->setData(0, kKindRole, ScanItem);
        it->setData(0, kPathRole, path);
        it->setData(0, kIdRole, QString::fromStdString(s.id));
        QString tip = QDir::toNativeSeparators(path);
        if (map)
            tip += QLatin1Char('\n') +
                   tr("Map: %1").arg(QDir::toNativeSeparators(QString::fromStdString(s.mapPath)));
        it->setToolTip(0, tip);
        // The date is in the tooltip: in the column it cut the details short at 1280 px.
        QString detailTip = there ? tr("Double-click to open the scan in Inspect; right-click "
                                       "for its structure, date and timeline")
                                  : tip;
        if (const QString t = when(s.analysedAt); !t.isEmpty())
            detailTip += QLatin1Char('\n') + tr("analysed %1").arg(t);
        it->setToolTip(1, detailTip);
        if (!there) {
            missing(it);
            it->setFlags(Qt::ItemIsEnabled);
        }
    }
    tree_->expandAll();
    tree_->resizeColumnToContents(0);
    note_->setText(p.datasets().empty() && p.scans().empty()
                       ? tr("This project has no datasets or scans yet: add a dataset in the "
                            "Train pane, scans in the Analyze pane.")
                       : tr("Select a dataset to browse its images; double-click a scan to open "
                            "it in Inspect."));
    if (!keep.isEmpty())
        selectDataset(keep);
}

int ProjectContents::imageCount(const QString& dataset)
{
    // The project records no count until the dataset was scanned: count the images of images/
    // (segmentation) or of the class folders, once per folder (the list refills every epoch).
    if (auto it = counts_.constFind(dataset); it != counts_.constEnd())
        return *it;
    const QDir d(dataset);
    int n = -1;
    if (d.exists()) {
        const QStringList folders = d.exists(QStringLiteral("images"))
                                        ? QStringList{QStringLiteral("images")}
                                        : d.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        n = 0;
        for (const QString& f : folders)
            n += int(QDir(d.filePath(f)).entryList(imageNameFilters(), QDir::Files).size());
    }
    counts_.insert(dataset, n);
    return n;
}

QStringList ProjectContents::pathsOf(int kind) const
{
    QStringList out;
    QTreeWidgetItem* parent = kind == DatasetItem ? datasets_ : scans_;
    for (int i = 0; parent && i < parent->childCount(); ++i)
        out << parent->child(i)->data(0, kPathRole).toString();
    return out;
}

QStringList ProjectContents::datasetPaths() const
{
    return pathsOf(DatasetItem);
}

QStringList ProjectContents::scanPaths() const
{
    return pathsOf(ScanItem);
}

void ProjectContents::selectDataset(const QString& path)
{
    const QSignalBlocker quiet(tree_);
    const QString want = QFileInfo(path).absoluteFilePath();
    for (int i = 0; datasets_ && i < datasets_->childCount(); ++i)
        if (QFileInfo(datasets_->child(i)->data(0, kPathRole).toString()).absoluteFilePath() ==
            want) {
            tree_->setCurrentItem(datasets_->child(i));
            return;
        }
}

Status ProjectContents::setScanSeries(const QString& scanId, const QString& structure,
                                      const QDate& date)
{
    if (!session_ || !session_->hasProject())
        return Status(ErrorCode::InvalidArgument, "no project is open");
    const std::string id = scanId.toStdString();
    const auto& scans = session_->project().scans();
    if (std::none_of(scans.begin(), scans.end(), [&](const ProjectScan& s) { return s.id == id; }))
        return Status(ErrorCode::NotFound, "no scan " + id);
    return session_->update([&](Project& p) {
        if (ProjectScan* s = p.findScan(id)) {
            s->structure = structure.trimmed().toStdString();
            s->inspectedOn =
                date.isValid() ? date.toString(Qt::ISODate).toStdString() : std::string();
        }
    });
}

SeriesTimeline* ProjectContents::openTimeline(const QString& structure)
{
    if (!session_ || !session_->hasProject())
        return nullptr;
    auto* view = new SeriesTimeline;
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->setWindowTitle(tr("Timeline of %1").arg(structure));
    view->resize(720, 820);
    view->measure(session_->project(), structure);
    view->show();
    return view;
}

void ProjectContents::showMenu(const QPoint& at)
{
    QTreeWidgetItem* it = tree_->itemAt(at);
    if (!it || it->data(0, kKindRole).toInt() != ScanItem || !session_ || !session_->hasProject())
        return;
    const QString id = it->data(0, kIdRole).toString();
    QMenu menu(this);
    menu.addAction(tr("Structure and date…"), this, [this, id] { editSeries(id); });
    for (const ProjectScan& s : session_->project().scans())
        if (s.id == id.toStdString() && !s.structure.empty()) {
            const QString structure = QString::fromStdString(s.structure);
            menu.addAction(tr("Timeline of %1…").arg(structure), this,
                           [this, structure] { openTimeline(structure); });
        }
    menu.exec(tree_->viewport()->mapToGlobal(at));
}

void ProjectContents::editSeries(const QString& scanId)
{
    const Project& p = session_->project();
    const ProjectScan* scan = nullptr;
    for (const ProjectScan& s : p.scans())
        if (s.id == scanId.toStdString())
            scan = &s;
    if (!scan)
        return;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Structure and date"));
    auto* structure = new QLineEdit(QString::fromStdString(scan->structure), &dialog);
    QStringList known;
    for (const std::string& n : projectStructures(p))
        known << QString::fromStdString(n);
    structure->setCompleter(new QCompleter(known, structure));
    structure->setPlaceholderText(tr("e.g. Bridge 12, soffit"));
    auto* dated = new QCheckBox(tr("Scanned on"), &dialog);
    auto* date = new QDateEdit(&dialog);
    date->setCalendarPopup(true);
    const QDate was = QDate::fromString(QString::fromStdString(scan->inspectedOn), Qt::ISODate);
    date->setDate(was.isValid() ? was : QDate::currentDate());
    dated->setChecked(was.isValid());
    date->setEnabled(was.isValid());
    connect(dated, &QCheckBox::toggled, date, &QDateEdit::setEnabled);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("Structure"), structure);
    form->addRow(dated, date);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted)
        setScanSeries(scanId, structure->text(), dated->isChecked() ? date->date() : QDate());
}

} // namespace fisura::ui

#include "train/policypreview.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "common/policytext.h"

namespace fisura::ui
{

namespace
{
/// The reasons span their row and wrap, but a tree measures a spanned row at its first column's
/// width: their heights are set here for the width they really have, again on each resize.
class ReasonHeights : public QObject
{
public:
    explicit ReasonHeights(QTreeWidget* tree) : QObject(tree), tree_(tree)
    {
        setObjectName(QStringLiteral("reasonHeights"));
        tree->viewport()->installEventFilter(this);
    }
    void fit()
    {
        const int width = tree_->viewport()->width() - tree_->indentation() - 12;
        if (width <= 0)
            return;
        const QFontMetrics fm = tree_->fontMetrics();
        for (int i = 0; i < tree_->topLevelItemCount(); ++i)
            for (int k = 0; k < tree_->topLevelItem(i)->childCount(); ++k) {
                QTreeWidgetItem* reason = tree_->topLevelItem(i)->child(k);
                const int h =
                    fm.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, reason->text(0))
                        .height() +
                    6;
                if (reason->sizeHint(0).height() != h)
                    reason->setSizeHint(0, QSize(0, h));
            }
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override
    {
        if (e->type() == QEvent::Resize)
            fit();
        return QObject::eventFilter(o, e);
    }

private:
    QTreeWidget* tree_;
};
} // namespace

PolicyPreview::PolicyPreview(QWidget* parent)
    : QWidget(parent), heading_(new QLabel(this)), tree_(new QTreeWidget(this)),
      note_(new QLabel(this))
{
    tree_->setObjectName(QStringLiteral("policyTree"));
    note_->setObjectName(QStringLiteral("policyNote"));
    tree_->setColumnCount(2);
    tree_->setRootIsDecorated(false);
    tree_->setIndentation(12);
    tree_->setWordWrap(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    note_->setWordWrap(true);
    new ReasonHeights(tree_);
    QFont f = heading_->font();
    f.setBold(true);
    heading_->setFont(f);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(heading_);
    layout->addWidget(tree_, 1);
    layout->addWidget(note_);
    retranslateUi();
}

void PolicyPreview::setPolicy(const ExecutionPolicy& policy, bool batchAutomatic, bool fromRun)
{
    policy_ = policy;
    have_ = true;
    batchAutomatic_ = batchAutomatic;
    fromRun_ = fromRun;
    rebuild();
}

void PolicyPreview::setDetecting()
{
    have_ = false;
    rebuild();
}

void PolicyPreview::retranslateUi()
{
    heading_->setText(tr("What Fisura will do"));
    tree_->setHeaderLabels({tr("Setting"), tr("Choice")});
    rebuild();
}

void PolicyPreview::rebuild()
{
    tree_->clear();
    note_->clear();
    if (!have_) {
        note_->setText(tr("Looking at this computer…"));
        return;
    }
    // Setting and choice on one line, the reason on the next (it reads in a narrow panel).
    QColor grey = palette().color(QPalette::Text);
    grey.setAlphaF(0.65f);
    for (const PolicyChoice& c : policy_.choices) {
        auto* it = new QTreeWidgetItem(tree_);
        it->setData(0, Qt::UserRole, QString::fromStdString(c.what));
        it->setText(0, policyChoiceLabel(c.what));
        it->setText(1, policyChoiceValue(c.value));
        const QString why = policyChoiceReason(c);
        it->setData(1, Qt::UserRole, why);
        it->setToolTip(0, why);
        it->setToolTip(1, why);
        auto* reason = new QTreeWidgetItem(it);
        reason->setText(0, why);
        reason->setForeground(0, grey);
        reason->setFlags(Qt::ItemIsEnabled);
        reason->setFirstColumnSpanned(true);
    }
    tree_->expandAll();
    static_cast<ReasonHeights*>(tree_->findChild<QObject*>(QStringLiteral("reasonHeights")))->fit();
    // Column 0 fits the setting names, not the reasons spanning the row below them.
    int width = tree_->fontMetrics().horizontalAdvance(tree_->headerItem()->text(0));
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        width = std::max(width,
                         tree_->fontMetrics().horizontalAdvance(tree_->topLevelItem(i)->text(0)));
    tree_->setColumnWidth(0, width + 2 * tree_->indentation() + 12);
    const QLocale loc;
    if (fromRun_ && policy_.batchSizeMeasured)
        note_->setText(
            tr("Measured on this GPU: batches of %1 images.").arg(loc.toString(policy_.batchSize)));
    else if (!fromRun_ && policy_.useCuda && batchAutomatic_)
        note_->setText(tr("The batch size is a first guess: when training starts, Fisura measures "
                          "the fastest batch that fits on the GPU."));
    else if (!policy_.useCuda)
        note_->setText(tr("Training runs on the processor: slower than a GPU, same results."));
    note_->setVisible(!note_->text().isEmpty());
}

} // namespace fisura::ui

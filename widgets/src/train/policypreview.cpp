#include "train/policypreview.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "common/policytext.h"

namespace fisura::ui
{

PolicyPreview::PolicyPreview(QWidget* parent)
    : QWidget(parent), heading_(new QLabel(this)), tree_(new QTreeWidget(this)),
      note_(new QLabel(this))
{
    tree_->setObjectName(QStringLiteral("policyTree"));
    note_->setObjectName(QStringLiteral("policyNote"));
    tree_->setColumnCount(3);
    tree_->setRootIsDecorated(false);
    tree_->setWordWrap(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    note_->setWordWrap(true);
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
    tree_->setHeaderLabels({tr("Setting"), tr("Choice"), tr("Why")});
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
    for (const PolicyChoice& c : policy_.choices) {
        auto* it = new QTreeWidgetItem(tree_);
        it->setData(0, Qt::UserRole, QString::fromStdString(c.what));
        it->setText(0, policyChoiceLabel(c.what));
        it->setText(1, policyChoiceValue(c.value));
        it->setText(2, policyChoiceReason(c));
        it->setToolTip(2, it->text(2));
    }
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

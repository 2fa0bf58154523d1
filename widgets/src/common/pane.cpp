#include "common/pane.h"

#include <QEvent>
#include <QLabel>
#include <QStyle>
#include <QVBoxLayout>

namespace fisura::ui
{

void Pane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange) {
        retranslateUi();
        Q_EMIT titleChanged();
    }
    QWidget::changeEvent(e);
}

PlaceholderPane::PlaceholderPane(Kind kind, QWidget* parent)
    : Pane(parent), kind_(kind), heading_(new QLabel(this)), body_(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    QFont f = heading_->font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    f.setBold(true);
    heading_->setFont(f);
    body_->setWordWrap(true);
    layout->addStretch(1);
    layout->addWidget(heading_, 0, Qt::AlignHCenter);
    layout->addWidget(body_, 0, Qt::AlignHCenter);
    layout->addStretch(2);
    retranslateUi();
}

QString PlaceholderPane::paneId() const
{
    switch (kind_) {
    case Kind::Train:
        return QStringLiteral("train");
    case Kind::Analyze:
        return QStringLiteral("analyze");
    }
    return {};
}

QString PlaceholderPane::title() const
{
    switch (kind_) {
    case Kind::Train:
        return tr("Train");
    case Kind::Analyze:
        return tr("Analyze");
    }
    return {};
}

QIcon PlaceholderPane::icon() const
{
    switch (kind_) {
    case Kind::Train:
        return style()->standardIcon(QStyle::SP_MediaPlay);
    case Kind::Analyze:
        return style()->standardIcon(QStyle::SP_FileDialogContentsView);
    }
    return {};
}

void PlaceholderPane::retranslateUi()
{
    heading_->setText(title());
    switch (kind_) {
    case Kind::Train:
        body_->setText(tr("Train crack classifiers, segmentation networks and anomaly models on "
                          "your images, with live curves. Not available in this version yet."));
        break;
    case Kind::Analyze:
        body_->setText(tr("Run a trained model tile by tile over large scans and measure the "
                          "cracks it finds. Not available in this version yet."));
        break;
    }
}

} // namespace fisura::ui

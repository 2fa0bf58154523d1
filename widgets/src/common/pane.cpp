#include "common/pane.h"

#include <QComboBox>
#include <QEvent>

namespace fisura::ui
{

namespace
{
/// A combo measures its entries once, when first shown: after a switch to a longer language
/// ("Últimos 5 minutos") it would cut them. Combos that elide by design (a minimum contents
/// length, for file paths) keep their width.
void fitCombosToTexts(QWidget* root)
{
    for (QComboBox* c : root->findChildren<QComboBox*>())
        if (c->minimumContentsLength() == 0 &&
            c->sizeAdjustPolicy() == QComboBox::AdjustToContentsOnFirstShow)
            c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
}
} // namespace

void Pane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange) {
        retranslateUi();
        fitCombosToTexts(this);
        Q_EMIT titleChanged();
    }
    QWidget::changeEvent(e);
}

} // namespace fisura::ui

#include "common/pane.h"

#include <QEvent>

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

} // namespace fisura::ui

// A word-wrapped label that asks its layout for the height of all its lines at the width it has.
// A plain wrapped QLabel's minimum is one line: where space is short (a 700 px high window) a
// layout gives it that, and the rest of its lines push what is below it out of sight.
#pragma once

#include <QLabel>

namespace fisura::ui
{

class WrappedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit WrappedLabel(QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int linesHeight_ = -1; ///< heightForWidth() at the last width seen
};

} // namespace fisura::ui

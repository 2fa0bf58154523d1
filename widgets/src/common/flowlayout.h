// A row of widgets that wraps onto more lines when its width runs out (after the Flow Layout
// example in Qt's documentation), so a row of buttons or side-by-side panels never forces the
// window wider than a small screen: on a wide window it is one line like a QHBoxLayout, on a
// narrow one the items continue below.
#pragma once

#include <QLayout>
#include <QList>

namespace fisura::ui
{

class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget* parent = nullptr);
    ~FlowLayout() override;

    /// Items added after this point sit at the right end when everything fits on one line (as
    /// after a QHBoxLayout stretch); once the row wraps, every line starts at the left.
    void addStretch();

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;

    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    struct Line {
        QList<QLayoutItem*> items;
        int height = 0;
    };
    QList<Line> lines(int width) const;
    int gap(Qt::Orientation o) const;
    void placeLine(const Line& line, const QRect& r, int y, int height, bool oneLine) const;

    QList<QLayoutItem*> items_;
    int stretchAt_ = -1; ///< index of the first item after the stretch, or -1
};

} // namespace fisura::ui

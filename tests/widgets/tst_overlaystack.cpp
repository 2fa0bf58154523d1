// The viewer's overlay stack, alone and on a viewer: drawing order, moves, visibility, the solo
// layer, the two sides of a swipe divider, and decorations drawn on top in the order made.
#include <QtTest>

#include <QPainter>

#include <memory>

#include "fisura/image.h"
#include "fisura/tiledwriter.h"
#include "viewer/editablelayer.h"
#include "viewer/overlaystack.h"
#include "viewer/tiledviewer.h"

using namespace fisura;
using namespace fisura::ui;

namespace
{
std::unique_ptr<ViewSource> layer(const QString& name, bool visible = true)
{
    auto s = std::make_unique<ViewSource>();
    s->name = name;
    s->overlay = true;
    OverlayStyle st;
    st.visible = visible;
    s->colours.setStyle(st);
    return s;
}

QStringList names(const OverlayStack& stack)
{
    QStringList out;
    for (const OverlayStack::Draw& d : stack.drawOrder(QRect(0, 0, 400, 300)))
        out << stack.at(d.layer).name;
    return out;
}

void addAbc(OverlayStack& s)
{
    s.append(layer(QStringLiteral("a")));
    s.append(layer(QStringLiteral("b")));
    s.append(layer(QStringLiteral("c")));
}

QStringList list(std::initializer_list<const char*> items)
{
    QStringList out;
    for (const char* i : items)
        out << QString::fromLatin1(i);
    return out;
}

// Fills the view with one colour (a stand-in for the ruler or crack outlines).
class Fill : public ViewerDecoration
{
public:
    Fill(TiledViewer* v, QColor c) : ViewerDecoration(v), colour_(c) {}
    void paint(QPainter& p) override { p.fillRect(QRect(0, 0, 50, 50), colour_); }

private:
    QColor colour_;
};

// A label layer whose every pixel is 255.
class Full : public EditableOverlaySource
{
public:
    QSize size() const override { return {256, 256}; }
    QImage readRegion(const QRect& r) const override
    {
        QImage im(r.size(), QImage::Format_Grayscale8);
        im.fill(255);
        return im;
    }
    QImage overview(int maxSide) const override
    {
        return readRegion(QRect(0, 0, maxSide, maxSide));
    }
};
} // namespace

class TstOverlayStack : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsBottomToTopInTheUsersOrder()
    {
        OverlayStack s;
        addAbc(s);
        QCOMPARE(names(s), list({"a", "b", "c"}));
        QVERIFY(s.move(0, 2));
        QCOMPARE(names(s), list({"b", "c", "a"}));
        QVERIFY(s.move(2, 0));
        QCOMPARE(names(s), list({"a", "b", "c"}));
        auto b = s.take(1);
        QVERIFY(b);
        QCOMPARE(b->name, QStringLiteral("b"));
        QCOMPARE(names(s), list({"a", "c"}));
    }

    void refusesBadIndexes_data()
    {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("negative") << -1 << 0;
        QTest::newRow("past the top") << 0 << 3;
        QTest::newRow("same place") << 1 << 1;
    }

    void refusesBadIndexes()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        OverlayStack s;
        addAbc(s);
        QVERIFY(!s.move(from, to));
        QCOMPARE(names(s), list({"a", "b", "c"}));
        QVERIFY(!s.take(from < 0 ? from : 3));
        QCOMPARE(s.count(), 3);
        QVERIFY(!s.isShown(3));
        QCOMPARE(s.style(-1).threshold, OverlayStyle().threshold);
    }

    void hiddenLayersAreNotDrawn()
    {
        OverlayStack s;
        addAbc(s);
        OverlayStyle st = s.style(1);
        const quint64 stamp = s.at(1).colours.stamp();
        st.threshold = 40;
        QVERIFY(!s.setStyle(1, st));               // still shown: the same tiles are wanted
        QVERIFY(s.at(1).colours.stamp() != stamp); // a new colour table
        st.visible = false;
        QVERIFY(s.setStyle(1, st)); // hidden: tiles wanted change
        QVERIFY(!s.isShown(1));
        QCOMPARE(names(s), list({"a", "c"}));
        st.visible = true;
        QVERIFY(s.setStyle(1, st));
        QCOMPARE(names(s), list({"a", "b", "c"}));
    }

    void soloLayerAlone_data()
    {
        QTest::addColumn<int>("solo");
        QTest::addColumn<QStringList>("drawn");
        QTest::newRow("none") << -1 << list({"a", "b", "c"});
        QTest::newRow("middle") << 1 << list({"b"});
        QTest::newRow("hidden") << 2 << QStringList{};
        QTest::newRow("gone") << 5 << QStringList{};
    }

    void soloLayerAlone()
    {
        QFETCH(int, solo);
        QFETCH(QStringList, drawn);
        OverlayStack s;
        addAbc(s);
        OverlayStyle hidden = s.style(2);
        hidden.visible = false;
        s.setStyle(2, hidden);
        s.setSolo(solo);
        QStringList expect = drawn;
        if (solo < 0)
            expect.removeAll(QStringLiteral("c"));
        QCOMPARE(names(s), expect);
    }

    void swipeSplitsTheView()
    {
        OverlayStack s;
        addAbc(s);
        s.setSwipe(true, 0, 2);
        s.setSwipePosition(0.25);
        const QRect view(0, 0, 400, 300);
        const auto order = s.drawOrder(view);
        QCOMPARE(int(order.size()), 3);
        QCOMPARE(order[0].clip, QRect(QPoint(0, 0), QPoint(99, 299)));    // a: left of it
        QCOMPARE(order[1].clip, view);                                    // b: everywhere
        QCOMPARE(order[2].clip, QRect(QPoint(100, 0), QPoint(399, 299))); // c: right of it
        s.setSwipePosition(7.0);
        QCOMPARE(s.swipePosition(), 1.0);
        s.setSwipe(false, 0, 2);
        for (const OverlayStack::Draw& d : s.drawOrder(view))
            QCOMPARE(d.clip, view);
    }

    void clearKeepsDecorations()
    {
        TiledViewer v;
        OverlayStack s;
        addAbc(s);
        s.setEditable(std::make_unique<EditableLayer>(std::make_shared<Full>(), OverlayStyle()));
        Fill f(&v, Qt::red);
        s.addDecoration(&f);
        s.clear();
        QCOMPARE(s.count(), 0);
        QVERIFY(!s.editable());
        QCOMPARE(int(s.decorations().size()), 1);
    }

    void decorationsDrawOnTopInTheOrderMade()
    {
        QTemporaryDir dir;
        const QString scan = dir.filePath(QStringLiteral("grey.tif"));
        Image im = Image::make(256, 256, 3);
        std::fill(im.pixels.begin(), im.pixels.end(), uint8_t(128));
        QVERIFY(writeTiff(scan.toStdString(), im).isOk());
        TiledViewer v;
        v.resize(300, 200);
        v.show();
        QVERIFY(v.openImage(scan).isOk());
        v.showAt(QPointF(128, 128), 4.0); // the scan and its label layer fill the view
        OverlayStyle blue;
        blue.colorMap = ColorMap::Blue;
        blue.opacity = 1.0;
        v.setEditableOverlay(std::make_shared<Full>(), blue);
        QTRY_VERIFY(v.frameComplete());
        QCOMPARE(v.snapshot().pixelColor(20, 20), QColor(40, 120, 255)); // label layer on top
        auto* red = new Fill(&v, Qt::red);
        auto* green = new Fill(&v, Qt::green);
        QCOMPARE(v.snapshot().pixelColor(20, 20), QColor(Qt::green)); // made last, drawn last
        delete green;
        QCOMPARE(v.snapshot().pixelColor(20, 20), QColor(Qt::red));
        delete red;
        QCOMPARE(v.snapshot().pixelColor(20, 20), QColor(40, 120, 255));
    }
};

QTEST_MAIN(TstOverlayStack)
#include "tst_overlaystack.moc"

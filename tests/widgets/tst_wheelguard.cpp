// Nothing changes by accident: over an unfocused spin box, combo box or slider inside a scrolling
// panel the mouse wheel scrolls the panel and leaves the value alone; once the field has the
// focus the wheel changes it. One application-wide guard does it (WheelGuard).
#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QVBoxLayout>

#include "common/wheelguard.h"

using namespace fisura::ui;

namespace
{

/// A tall panel in a scroll area with one control of `kind` in its middle.
struct Panel {
    QScrollArea area;
    QLineEdit* other = nullptr; // where the focus is meanwhile
    QWidget* control = nullptr;

    explicit Panel(const QString& kind)
    {
        auto* inner = new QWidget;
        auto* layout = new QVBoxLayout(inner);
        other = new QLineEdit;
        layout->addWidget(other);
        layout->addSpacing(400);
        if (kind == QLatin1String("spin")) {
            auto* spin = new QDoubleSpinBox;
            spin->setRange(0.01, 10);
            spin->setValue(0.2);
            spin->setSingleStep(0.01);
            control = spin;
        } else if (kind == QLatin1String("combo")) {
            auto* combo = new QComboBox;
            combo->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
            combo->setCurrentIndex(1);
            control = combo;
        } else {
            auto* slider = new QSlider(Qt::Horizontal);
            slider->setRange(0, 255);
            slider->setValue(128);
            control = slider;
        }
        layout->addWidget(control);
        layout->addSpacing(1200);
        area.setWidget(inner);
        area.resize(300, 300);
        area.show();
        area.ensureWidgetVisible(control); // the control under the pointer, the panel mid-way
    }
    QString value() const
    {
        if (auto* s = qobject_cast<QDoubleSpinBox*>(control))
            return QString::number(s->value());
        if (auto* c = qobject_cast<QComboBox*>(control))
            return QString::number(c->currentIndex());
        return QString::number(qobject_cast<QSlider*>(control)->value());
    }
    /// One notch of the wheel (downwards) over the control. Sent to the field itself: Qt passes
    /// a synthesized wheel event on to no parent (a real one reaches the spin box after its line
    /// edit ignored it).
    void wheel()
    {
        QWidget* target = control;
        const QPointF local(target->width() / 2.0, target->height() / 2.0);
        QWheelEvent e(local, target->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &e);
    }
};

} // namespace

class TstWheelGuard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!WheelGuard::isInstalled());
        WheelGuard::install();
        WheelGuard::install(); // once is enough; a second call adds nothing
        QVERIFY(WheelGuard::isInstalled());
    }

    void wheelScrollsPastUnfocusedFields_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("spin box") << QStringLiteral("spin");
        QTest::newRow("combo box") << QStringLiteral("combo");
        QTest::newRow("slider") << QStringLiteral("slider");
    }
    void wheelScrollsPastUnfocusedFields()
    {
        QFETCH(QString, kind);
        Panel p(kind);
        QVERIFY(QTest::qWaitForWindowExposed(&p.area));
        // The wheel alone does not focus the field.
        QCOMPARE(p.control->focusPolicy(), Qt::StrongFocus);
        p.area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&p.area));
        p.other->setFocus();
        p.area.ensureWidgetVisible(p.control);
        const QString before = p.value();
        const int scrolled = p.area.verticalScrollBar()->value();
        QVERIFY(scrolled > 0 && scrolled < p.area.verticalScrollBar()->maximum());
        QVERIFY(!p.control->hasFocus());
        p.wheel();
        QCOMPARE(p.value(), before);                             // nothing changed...
        QVERIFY(p.area.verticalScrollBar()->value() > scrolled); // ...the panel scrolled on

        // Clicked into (focused), the field takes the wheel.
        p.control->setFocus(Qt::MouseFocusReason);
        QTRY_VERIFY(p.control->hasFocus());
        const int after = p.area.verticalScrollBar()->value();
        p.wheel();
        QVERIFY2(p.value() != before, qPrintable(p.value()));
        QCOMPARE(p.area.verticalScrollBar()->value(), after);
    }

    void scrollBarsStillTakeTheWheel()
    {
        QScrollBar bar(Qt::Vertical);
        QVERIFY(!WheelGuard::guards(&bar));
        QSlider slider;
        QVERIFY(WheelGuard::guards(&slider));
        QVERIFY(!WheelGuard::guards(nullptr));
    }
};

QTEST_MAIN(TstWheelGuard)
#include "tst_wheelguard.moc"

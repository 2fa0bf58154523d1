// Walks the widgets a person sees and collects their texts, to check them against the
// translation catalogue: after switching to Spanish, no visible text may still be an English
// source string that has a Spanish translation.
#pragma once

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTabBar>
#include <QTextDocument>
#include <QToolButton>
#include <QWidget>
#include <QXmlStreamReader>

namespace uiwalk
{

struct Seen {
    QString text;
    QString where; ///< class and objectName of the widget that shows it
};

/// Source strings of the catalogue whose translation differs from the source.
inline QSet<QString> translatedSources(const QString& tsPath)
{
    QSet<QString> out;
    QFile f(tsPath);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            const QString tr = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            // Plural forms come as <numerusform> children; any differing text counts.
            if (!tr.trimmed().isEmpty() && tr != source && source.trimmed().size() > 1)
                out.insert(source);
        }
    }
    return out;
}

inline QString describe(const QObject* o)
{
    return QString::fromLatin1(o->metaObject()->className()) + QLatin1Char('#') + o->objectName();
}

inline void addText(QList<Seen>& out, const QString& text, const QObject* o)
{
    if (!text.trimmed().isEmpty())
        out.push_back({text, describe(o)});
}

inline void addActions(QList<Seen>& out, const QList<QAction*>& actions, const QObject* owner)
{
    for (QAction* a : actions) {
        if (!a->isVisible())
            continue;
        addText(out, a->text(), owner);
        addText(out, a->toolTip(), owner);
        if (a->menu())
            addActions(out, a->menu()->actions(), a->menu());
    }
}

inline void addModel(QList<Seen>& out, const QAbstractItemView* view)
{
    const QAbstractItemModel* m = view->model();
    if (!m)
        return;
    for (int c = 0; c < m->columnCount(); ++c)
        addText(out, m->headerData(c, Qt::Horizontal).toString(), view);
    const int rows = std::min(m->rowCount(), 200);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < m->columnCount(); ++c) {
            const QModelIndex i = m->index(r, c);
            addText(out, m->data(i, Qt::DisplayRole).toString(), view);
            addText(out, m->data(i, Qt::ToolTipRole).toString(), view);
        }
}

/// Every text of `root` and its visible descendants (labels, buttons, group titles, combo
/// items, tabs, placeholders, tool tips, item views' headers and cells, menus and actions).
inline QList<Seen> visibleTexts(QWidget* root)
{
    QList<Seen> out;
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* w : widgets) {
        if (!w->isVisibleTo(root->window()) && w != root)
            continue;
        addText(out, w->toolTip(), w);
        if (w->isWindow())
            addText(out, w->windowTitle(), w);
        if (auto* l = qobject_cast<QLabel*>(w)) {
            QString t = l->text();
            if (Qt::mightBeRichText(t)) {
                QTextDocument doc;
                doc.setHtml(t);
                t = doc.toPlainText();
            }
            addText(out, t, w);
        } else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
            addText(out, b->text(), w);
        } else if (auto* g = qobject_cast<QGroupBox*>(w)) {
            addText(out, g->title(), w);
        } else if (auto* c = qobject_cast<QComboBox*>(w)) {
            for (int i = 0; i < c->count(); ++i)
                addText(out, c->itemText(i), w);
        } else if (auto* tb = qobject_cast<QTabBar*>(w)) {
            for (int i = 0; i < tb->count(); ++i)
                addText(out, tb->tabText(i), w);
        } else if (auto* e = qobject_cast<QLineEdit*>(w)) {
            addText(out, e->placeholderText(), w);
        } else if (auto* v = qobject_cast<QAbstractItemView*>(w)) {
            addModel(out, v);
        } else if (auto* mb = qobject_cast<QMenuBar*>(w)) {
            addActions(out, mb->actions(), mb);
        }
        if (!qobject_cast<QMenuBar*>(w) && !qobject_cast<QMenu*>(w) &&
            !qobject_cast<QToolButton*>(w))
            addActions(out, w->actions(), w);
    }
    return out;
}

/// The visible texts that are still English although the catalogue translates them.
inline QStringList untranslated(QWidget* root, const QSet<QString>& sources)
{
    QStringList bad;
    for (const Seen& s : visibleTexts(root))
        for (const QString& line : s.text.split(QLatin1Char('\n')))
            if (sources.contains(line) || sources.contains(s.text)) {
                bad << QStringLiteral("%1: \"%2\"").arg(s.where, s.text);
                break;
            }
    bad.removeDuplicates();
    return bad;
}

} // namespace uiwalk

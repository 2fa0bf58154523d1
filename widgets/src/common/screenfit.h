// Layout rules that keep Fisura usable on small screens (1024 × 700 and up): the first window
// sized to the screen it opens on, splitters that remember where a person left them, and side
// panels that scroll instead of forcing the window wider or taller.
#pragma once

#include <QRect>
#include <QSize>
#include <QString>

class QAction;
class QScrollArea;
class QSettings;
class QTabWidget;
class QToolButton;
class QWidget;

namespace fisura::ui
{

/// Where a window that would like `preferred` opens on a screen whose free area is `available`:
/// never larger than that area, centred in it.
QRect initialWindowGeometry(QSize preferred, const QRect& available);

/// Saves the sizes of every named QSplitter under `root` as `group`/<splitter name>.
void saveSplitters(QSettings& s, const QWidget* root, const QString& group);
/// Restores what saveSplitters() wrote; splitters without a saved state keep their sizes.
void restoreSplitters(QSettings& s, QWidget* root, const QString& group);

/// Tabs show their whole titles: no scroll arrows that hide a tab, no elided titles. The tab
/// widget asks for the width its titles need in the language shown.
void showWholeTabs(QTabWidget* tabs);

/// A vertically scrolling frame around a side panel, as wide as the panel needs (plus its
/// scroll bar) so nothing inside is cut off horizontally, and as low as the window allows.
QScrollArea* scrollingPanel(QWidget* panel, QWidget* parent);

/// A text-only button for `action` that takes the width it is given, so a narrow side panel
/// wraps or shortens its row instead of growing wider.
QToolButton* narrowTextButton(QAction* action, QWidget* parent);

} // namespace fisura::ui

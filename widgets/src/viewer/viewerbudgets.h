// The viewer's memory budgets, in one place (README "Memory and CPU" states them). Each cache
// holds at most its budget; only what the view shows now may take it over, so a view always
// completes (viewtilecache.h). Inspect's two viewers share one block cache.
#pragma once

#include <QtGlobal>

namespace fisura::ui
{

/// Decoded blocks of the open files (fisura::TileCache), shared by the viewers of a pane.
constexpr qint64 kViewerBlockCacheBytes = 128ll << 20;
/// Each viewer's tiles ready to draw (QPixmap of the scan, values and colours of overlays).
constexpr qint64 kViewerPixmapBudgetBytes = 256ll << 20;
/// The label layer's drawn tiles (EditableLayer); its edits are held by fisura::LabelLayer
/// within LabelLayerOptions::memoryBudget.
constexpr qint64 kEditableTileCacheBytes = 96ll << 20;

} // namespace fisura::ui

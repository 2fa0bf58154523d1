// What the PDF reports (the measurement report, the report of changes between two dates) share:
// the style sheet, small HTML helpers with numbers in the locale in force, and the writer that
// lays the HTML out on A4 pages, choosing the first layout that leaves no orphan last page.
#pragma once

#include <QImage>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

#include "fisura/status.h"

namespace fisura::ui
{

QString esc(const QString& s);
/// A key / value row of a plain two-column table.
QString row(const QString& key, const QString& value);
/// `v` with `decimals` places, in QLocale()'s format.
QString num(double v, int decimals);
/// The reports' style sheet (QTextDocument's CSS subset).
QString reportStyle();

/// Writes the PDF atomically (A4, 300 dpi, QTextDocument's 2 cm margins and page numbers) with
/// the images as resources (name, picture). Takes `html(layout)` for layout 0, 1, ... up to
/// `layouts` - 1, the first whose last page is not nearly empty (else the last). IoError when the
/// file cannot be written.
Status writeHtmlPdf(const QString& path, const QString& title,
                    const std::vector<std::pair<QString, QImage>>& images, int layouts,
                    const std::function<QString(int)>& html);

} // namespace fisura::ui

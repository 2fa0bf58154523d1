#include "inspect/changereport.h"

#include <QColor>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>

#include "common/thresholdtext.h"
#include "fisura/version.h"
#include "inspect/compare/changetext.h"
#include "inspect/measuretext.h"
#include "inspect/report.h"
#include "inspect/reportstyle.h"

namespace fisura::ui
{

namespace
{

QString swatch(ChangeKind k)
{
    return QStringLiteral("<span style='color:%1'>■</span> ").arg(ChangeText::kindColour(k).name());
}

/// Lengths and widths in mm when the pixel size is known, else in px.
struct Units {
    double px = 0; ///< mm per pixel, 0 when unknown
    QString length(double lengthPx) const
    {
        return px > 0 ? ChangeReport::tr("%1 mm").arg(num(lengthPx * px, 1))
                      : ChangeReport::tr("%1 px").arg(num(lengthPx, 1));
    }
    /// A change, with its sign ("+12.5 mm"), as Inspect's comparison writes it.
    QString change(double valuePx, int decimals) const
    {
        return ChangeText::signedLength(valuePx, px, decimals);
    }
};

Units unitsOf(const ChangeResult& r)
{
    return {r.before.pixelSizeMm > 0 ? r.before.pixelSizeMm : r.after.pixelSizeMm};
}

} // namespace

Result<QImage> ChangeReport::overviewPicture(const QString& beforeScan, const ChangeResult& r,
                                             int maxSide, const CancelToken& cancel)
{
    auto scan = MeasureReport::scanPicture(beforeScan, maxSide, cancel);
    if (!scan)
        return scan.status();
    QImage base = scan->convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QPainter p(&base);
    p.setRenderHint(QPainter::Antialiasing);
    const double s = double(base.width()) / std::max(1, r.before.width);
    QFont f = p.font();
    f.setPixelSize(std::max(10, base.width() / 70));
    f.setBold(true);
    p.setFont(f);
    const bool numbers = r.changes.size() <= 80;
    // Unchanged first, so that what changed is drawn over it.
    for (ChangeKind k : {ChangeKind::Unchanged, ChangeKind::Outside, ChangeKind::Gone,
                         ChangeKind::Grown, ChangeKind::New})
        for (size_t i = 0; i < r.changes.size(); ++i) {
            const CrackChange& c = r.changes[i];
            if (c.kind != k)
                continue;
            const QRectF box(c.box.x * s - 2, c.box.y * s - 2, c.box.width * s + 4,
                             c.box.height * s + 4);
            p.setPen(QPen(ChangeText::kindColour(k), std::max(1.5, base.width() / 500.0)));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box);
            if (!numbers || k == ChangeKind::Unchanged)
                continue;
            const QString label = QString::number(i + 1);
            const QRectF tag(
                box.topLeft() - QPointF(0, f.pixelSize() + 4),
                QSizeF(QFontMetricsF(f).horizontalAdvance(label) + 6, f.pixelSize() + 4));
            p.fillRect(tag, QColor(255, 255, 255, 210));
            p.setPen(Qt::black);
            p.drawText(tag, Qt::AlignCenter, label);
        }
    p.end();
    return base;
}

QString ChangeReport::html(const ChangeReportInput& in, int layout)
{
    const ChangeResult& r = *in.result;
    const QLocale l;
    const QString since =
        in.beforeDate.isValid()
            ? tr("Changes since %1").arg(l.toString(in.beforeDate, QLocale::LongFormat))
            : tr("Changes since the earlier inspection");
    QString h = QStringLiteral("<html><head><style>%1</style></head><body>").arg(reportStyle());
    h += QStringLiteral("<h1>%1</h1>").arg(esc(since));
    const QString date = l.toString(in.date.date(), QLocale::LongFormat) + QStringLiteral(", ") +
                         l.toString(in.date.time(), QLocale::ShortFormat);
    h += QStringLiteral("<p class='sub'>%1</p>")
             .arg(esc(tr("%1 → %2 · %3")
                          .arg(QFileInfo(in.beforeScan).fileName(),
                               QFileInfo(in.afterScan).fileName(), date)));
    h += QStringLiteral("<h2>%1</h2><table>").arg(esc(tr("The two inspections")));
    const auto dateText = [&l](const QDate& d) {
        return d.isValid() ? l.toString(d, QLocale::LongFormat) : tr("not stated");
    };
    h += row(tr("Earlier scan"),
             tr("%1 (%2)").arg(QFileInfo(in.beforeScan).fileName(), dateText(in.beforeDate)));
    h += row(tr("Later scan"),
             tr("%1 (%2)").arg(QFileInfo(in.afterScan).fileName(), dateText(in.afterDate)));
    h += row(tr("Earlier crack map"),
             QFileInfo(QString::fromStdString(r.before.mapPath)).fileName());
    h += row(tr("Compared on"), tr("the earlier scan's grid, %1 × %2 px")
                                    .arg(l.toString(r.before.width), l.toString(r.before.height)));
    h += row(tr("Report date"), date);
    h += QStringLiteral("</table>");
    h += alignment(r);
    if (!in.overview.isNull()) {
        const double aspect = double(in.overview.height()) / std::max(1, in.overview.width());
        const int w = int(std::min(620.0, 480.0 / std::max(aspect, 1e-3)));
        h += QStringLiteral("<h2>%1</h2><p align='center'><img src='fisura:overview' "
                            "width='%2'></p><p class='caption'>%3</p>")
                 .arg(esc(tr("Overview")))
                 .arg(w)
                 .arg(esc(tr("The earlier scan; each change's box in the colour of its kind, "
                             "with its number in the table of changes.")));
    }
    h += totals(r);
    h += settings(r);
    h += changeTable(r, layout);
    return h + QStringLiteral("</body></html>");
}

QString ChangeReport::alignment(const ChangeResult& r)
{
    const AlignResult& a = r.alignment;
    const QLocale l;
    QString h = QStringLiteral("<h2>%1</h2><table>").arg(esc(tr("Alignment")));
    h += row(tr("Model"), QString::fromLatin1(alignModelName(a.model)));
    h += row(tr("Scale and rotation"),
             tr("%1 · %2°").arg(l.toString(a.scale, 'f', 4), num(a.rotationDeg, 2)));
    h += row(
        tr("Feature matches"),
        tr("%1 of %2 consistent with the model").arg(l.toString(a.inliers), l.toString(a.matches)));
    h += row(tr("Refinement windows"),
             tr("%1 of %2 matched").arg(l.toString(a.refined), l.toString(a.windows)));
    h += row(tr("Residual"), tr("%1 px (root mean square)").arg(num(a.rmsPx, 2)));
    if (a.field.used)
        h += row(tr("Correction field"),
                 tr("used (the surface was not planar): largest correction %1 px, window "
                    "residual %2 px without it, %3 px with it")
                     .arg(num(a.field.maxPx, 1), num(a.field.rmsBeforePx, 2),
                          num(a.field.rmsAfterPx, 2)));
    else if (a.field.rmsBeforePx >= 0)
        h += row(tr("Correction field"), tr("not needed: the model alone fits the windows"));
    h += row(tr("Overlap"), tr("%1 % of the earlier scan").arg(num(a.overlap * 100, 1)));
    h += QStringLiteral("</table>");
    if (a.regions.empty())
        return h;
    // The residual per region, laid out as the regions lie on the scan.
    int columns = 0, rows = 0;
    for (const RegionResidual& g : a.regions) {
        columns = std::max(columns, g.column + 1);
        rows = std::max(rows, g.row + 1);
    }
    h += QStringLiteral("<p>%1</p><table class='grid'>").arg(esc(tr("Residual per region (px):")));
    for (int y = 0; y < rows; ++y) {
        h += QStringLiteral("<tr>");
        for (int x = 0; x < columns; ++x) {
            QString cell = QStringLiteral("—");
            for (const RegionResidual& g : a.regions)
                if (g.column == x && g.row == y && g.rmsPx >= 0)
                    cell = num(g.rmsPx, 2);
            h += QStringLiteral("<td class='n'>%1</td>").arg(cell);
        }
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</table>");
}

QString ChangeReport::totals(const ChangeResult& r)
{
    const QLocale l;
    const Units u = unitsOf(r);
    QString h = QStringLiteral("<h2>%1</h2>").arg(esc(tr("What changed")));
    h += QStringLiteral("<table class='grid'><thead><tr><th>%1</th><th>%2</th><th>%3</th></tr>"
                        "</thead>")
             .arg(esc(tr("Change")), esc(tr("Cracks")), esc(tr("Length")));
    for (int k = 0; k < 5; ++k) {
        const ChangeTotals& t = r.totals[size_t(k)];
        h += QStringLiteral("<tr><td>%1%2</td><td class='n'>%3</td><td class='n'>%4</td></tr>")
                 .arg(swatch(ChangeKind(k)), esc(ChangeText::kindName(ChangeKind(k))),
                      l.toString(t.count), esc(u.length(t.lengthPx)));
    }
    h += QStringLiteral("</table>");
    if (r.widestIndex >= 0) {
        const CrackChange& w = r.changes[size_t(r.widestIndex)];
        h += QStringLiteral("<table>");
        h += row(tr("Widest crack"),
                 tr("no. %1, %2 wide (%3), width change %4")
                     .arg(l.toString(r.widestIndex + 1), u.length(w.afterMaxWidthPx),
                          ChangeText::kindName(w.kind), u.change(w.widthChangePx, 2)));
        h += QStringLiteral("</table>");
    }
    const auto& classes = r.before.options.classes;
    if (r.byWidthClass.empty())
        return h;
    h += QStringLiteral("<p>%1</p><table class='grid'><thead><tr><th>%2</th>")
             .arg(esc(tr("Changes per width class:")), esc(tr("Class")));
    for (int k = 0; k < 5; ++k)
        h += QStringLiteral("<th>%1</th>").arg(esc(ChangeText::kindName(ChangeKind(k))));
    h += QStringLiteral("</tr></thead>");
    for (size_t c = 0; c < r.byWidthClass.size(); ++c) {
        h += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2</td>")
                 .arg(MeasureText::classColour(classes, int(c)).name(),
                      esc(MeasureText::className(classes, int(c))));
        for (int k = 0; k < 5; ++k)
            h += QStringLiteral("<td class='n'>%1</td>")
                     .arg(l.toString(r.byWidthClass[c][size_t(k)]));
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</table>");
}

QString ChangeReport::changeTable(const ChangeResult& r, int layout)
{
    const QLocale l;
    const Units u = unitsOf(r);
    QString h =
        QStringLiteral("<h2%1>%2</h2>")
            .arg(layout == 1 ? QStringLiteral(" style='page-break-before: always'") : QString(),
                 esc(tr("Changes")));
    h += QStringLiteral("<table class='grid' width='100%'><thead><tr>");
    for (const QString& c :
         {tr("No."), tr("Change"), tr("Length"), tr("Length gained"), tr("Width change"),
          tr("Max. width"), tr("Class"), tr("Position (px)")})
        h += QStringLiteral("<th>%1</th>").arg(esc(c));
    h += QStringLiteral("</tr></thead>");
    const auto& classes = r.before.options.classes;
    const int n = std::min<int>(int(r.changes.size()), kMaxRows);
    for (int i = 0; i < n; ++i) {
        const CrackChange& c = r.changes[size_t(i)];
        const bool earlier = c.kind == ChangeKind::Gone || c.kind == ChangeKind::Outside;
        const QString cls = c.widthClass >= 0 ? esc(MeasureText::className(classes, c.widthClass))
                                              : QStringLiteral("—");
        h += QStringLiteral("<tr><td class='n'>%1</td><td>%2%3</td><td class='n'>%4</td>"
                            "<td class='n'>%5</td><td class='n'>%6</td><td class='n'>%7</td>"
                            "<td>%8</td><td class='n'>%9</td></tr>")
                 .arg(l.toString(i + 1), swatch(c.kind), esc(ChangeText::kindName(c.kind)),
                      esc(u.length(earlier ? c.beforeLengthPx : c.afterLengthPx)),
                      esc(u.change(c.lengthGainPx, 1)), esc(u.change(c.widthChangePx, 2)),
                      esc(u.length(c.afterMaxWidthPx)), cls,
                      QStringLiteral("%1, %2").arg(l.toString(c.box.x), l.toString(c.box.y)));
    }
    h += QStringLiteral("</table>");
    if (int(r.changes.size()) > n)
        h += QStringLiteral("<p class='caption'>%1</p>")
                 .arg(esc(tr("The %1 first of %2 changes; the CSV export lists them all.")
                              .arg(l.toString(n), l.toString(qulonglong(r.changes.size())))));
    if (r.changes.empty())
        h += QStringLiteral("<p>%1</p>").arg(esc(tr("Neither map has cracks at this threshold.")));
    return h;
}

QString ChangeReport::settings(const ChangeResult& r)
{
    const MeasureOptions& o = r.before.options;
    const QLocale l;
    QString h = QStringLiteral("<h2>%1</h2><table>").arg(esc(tr("Settings used")));
    h += row(tr("Threshold"), tr("crack probability %1").arg(probabilityText(o.threshold, l)));
    const double px = unitsOf(r).px;
    h += row(tr("Pixel size"), px > 0 ? tr("%1 mm").arg(l.toString(px, 'g', 4))
                                      : tr("unknown: lengths and widths in pixels"));
    h += row(tr("Width classes"), MeasureText::presetName(o.classes.preset));
    h += row(tr("Software"), QStringLiteral("Fisura %1").arg(QString::fromStdString(version())));
    return h + QStringLiteral("</table>");
}

Status ChangeReport::writePdf(const QString& path, const ChangeReportInput& in)
{
    if (!in.result)
        return Status(ErrorCode::InvalidArgument, "no comparison to report");
    return writeHtmlPdf(path, tr("Changes between two inspections"),
                        {{QStringLiteral("fisura:overview"), in.overview}}, 2,
                        [&in](int layout) { return html(in, layout); });
}

} // namespace fisura::ui

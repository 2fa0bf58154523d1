#include "inspect/report.h"

#include <QFileInfo>
#include <QLocale>

#include <algorithm>
#include <memory>

#include "common/thresholdtext.h"
#include "fisura/version.h"
#include "inspect/measureplots.h"
#include "inspect/measuretext.h"
#include "inspect/reportstyle.h"

namespace fisura::ui
{

void MeasureReport::renderPlots(ReportInput& in)
{
    MeasurePlots plots;
    plots.setResult(in.result);
    in.histogram = plots.histogramImage(QSize(520, 330));
    in.classPlot = plots.classImage(QSize(420, 330));
}

QString MeasureReport::html(const ReportInput& in, int layout)
{
    const MeasureResult& r = *in.result;
    const QLocale l;
    const bool mm = r.pixelSizeMm > 0;
    const auto len = [&](double px, double m) { return MeasureText::length(px, m); };
    const QString date = l.toString(in.date.date(), QLocale::LongFormat) + QStringLiteral(", ") +
                         l.toString(in.date.time(), QLocale::ShortFormat);
    QString h = QStringLiteral("<html><head><style>%1</style></head><body>").arg(reportStyle());
    h += QStringLiteral("<h1>%1</h1>").arg(esc(tr("Crack inspection report")));
    const QString file =
        QFileInfo(in.scanPath.isEmpty() ? QString::fromStdString(r.mapPath) : in.scanPath)
            .fileName();
    h += QStringLiteral("<p class='sub'>%1</p>").arg(esc(tr("%1 · %2").arg(file, date)));

    // Facts: scan, map, model, pixel size.
    h += QStringLiteral("<h2>%1</h2><table>").arg(esc(tr("Scan and model")));
    if (!in.scanPath.isEmpty())
        h += row(tr("Scan"), QFileInfo(in.scanPath).fileName());
    h += row(tr("Crack map"), QFileInfo(QString::fromStdString(r.mapPath)).fileName());
    h += row(tr("Size"), tr("%1 × %2 px").arg(l.toString(r.width), l.toString(r.height)));
    const QString source = r.pixelSizeSource == "option" ? tr("entered by the user")
                           : r.pixelSizeSource == "map"  ? tr("from the map's resolution tags")
                           : r.pixelSizeSource == "scan" ? tr("from the scan's resolution tags")
                                                         : QString();
    h += row(tr("Pixel size"), mm ? tr("%1 mm (%2)").arg(l.toString(r.pixelSizeMm, 'g', 4), source)
                                  : tr("unknown: lengths and widths in pixels, no width classes"));
    if (mm)
        h += row(tr("Scanned area"), tr("%1 × %2 m")
                                         .arg(num(r.width * r.pixelSizeMm / 1000.0, 2),
                                              num(r.height * r.pixelSizeMm / 1000.0, 2)));
    h += row(tr("Model"), in.modelName.isEmpty() ? tr("not recorded") : in.modelName);
    h += row(tr("Threshold"),
             tr("crack probability %1").arg(probabilityText(r.options.threshold, l)));
    h += row(tr("Report date"), date);
    h += QStringLiteral("</table>");

    if (!in.overview.isNull()) {
        h += QStringLiteral("<h2>%1</h2>").arg(esc(tr("Overview")));
        // At most the text width (about 640 layout px) and about half the page high.
        const double aspect = double(in.overview.height()) / std::max(1, in.overview.width());
        const int w = int(std::min(620.0, 520.0 / std::max(aspect, 1e-3)));
        h += QStringLiteral("<p align='center'><img src='fisura:overview' width='%1'></p>").arg(w);
        h += QStringLiteral("<p class='caption'>%1</p>")
                 .arg(esc(tr("Crack pixels in red; each crack's box in the colour of its width "
                             "class, with its number in the table.")));
    }

    // Totals.
    h += QStringLiteral("<h2 style='page-break-before: always'>%1</h2><table>")
             .arg(esc(tr("Totals")));
    const MeasureTotals& t = r.totals;
    h += row(tr("Cracks"), l.toString(t.cracks));
    h += row(tr("Branches"), l.toString(t.branches));
    h += row(tr("Total length"), len(t.lengthPx, t.lengthMm));
    h += row(tr("Cracked area"), mm ? tr("%1 mm²").arg(num(t.areaMm2, 1))
                                    : tr("%1 px").arg(l.toString(qulonglong(t.areaPx))));
    h += row(tr("Cracked fraction of the surface"), tr("%1 %").arg(num(t.areaFraction * 100, 3)));
    if (t.densityMPerM2 >= 0)
        h += row(tr("Crack density"), tr("%1 m/m²").arg(num(t.densityMPerM2, 3)));
    h += QStringLiteral("</table>");

    if (!r.classes.empty()) {
        h += QStringLiteral("<h2>%1</h2>").arg(esc(tr("Totals by width class")));
        h += QStringLiteral("<table class='grid' width='100%'><thead><tr><th>%1</th><th>%2</th>"
                            "<th>%3</th><th>%4</th><th>%5</th></tr></thead>")
                 .arg(esc(tr("Class")), esc(tr("Width")), esc(tr("Cracks")), esc(tr("Branches")),
                      esc(tr("Total length")));
        for (size_t k = 0; k < r.classes.size(); ++k) {
            const WidthClassTotals& c = r.classes[k];
            h += QStringLiteral(
                     "<tr><td><span style='color:%1'>■</span> %2</td><td>%3</td>"
                     "<td class='n'>%4</td><td class='n'>%5</td><td class='n'>%6</td></tr>")
                     .arg(MeasureText::classColour(r.options.classes, int(k)).name(),
                          esc(MeasureText::className(c.id)),
                          esc(MeasureText::classRange(c.fromMm, c.toMm)), l.toString(c.cracks),
                          l.toString(c.branches), esc(len(c.lengthPx, c.lengthMm)));
        }
        h += QStringLiteral("</table>");
        h += standard(r);
        h += QStringLiteral("<p class='note'>%1</p>").arg(esc(MeasureText::classNote()));
    }
    if (!in.histogram.isNull())
        h += QStringLiteral("<h2>%1</h2><table width='100%'><tr><td><img src='fisura:histogram' "
                            "width='340'></td><td><img src='fisura:classes' width='270'></td></tr>"
                            "<tr><td><p class='caption'>%2</p></td><td><p class='caption'>%3</p>"
                            "</td></tr></table>")
                 .arg(esc(tr("Widths")), esc(tr("Width histogram: crack length at each width.")),
                      esc(tr("Total crack length per width class.")));
    // The settings close the totals page; the crack table comes last, on pages of its own.
    h += settings(in);
    h += crackTable(in, layout);
    h += QStringLiteral("</body></html>");
    return h;
}

QString MeasureReport::crackTable(const ReportInput& in, int layout)
{
    const MeasureResult& r = *in.result;
    const QLocale l;
    const bool mm = r.pixelSizeMm > 0;
    const QString unit = mm ? tr("mm") : tr("px");
    // Layouts 0-2 start the table on a page of its own, 3-5 right after the settings; 0 and 3
    // have roomy rows, 2 and 5 the tightest.
    const int compact = layout % 3;
    QString h =
        QStringLiteral("<h2%1>%2</h2>")
            .arg(layout < 3 ? QStringLiteral(" style='page-break-before: always'") : QString(),
                 esc(tr("Cracks")));
    h += QStringLiteral("<table class='grid%1' width='100%'><thead><tr>")
             .arg(compact > 0 ? QStringLiteral(" c%1").arg(compact) : QString());
    // A standard in force adds the flag column: text, not colour alone.
    const bool limit = mm && r.options.classes.tolerableMm > 0;
    QStringList headers{tr("No."),
                        tr("Class"),
                        tr("Length (%1)").arg(unit),
                        tr("Width (%1)").arg(unit),
                        tr("Max. width (%1)").arg(unit),
                        tr("Branches"),
                        tr("Angle (°)"),
                        tr("Position (px)")};
    if (limit)
        headers << tr("Over limit");
    for (const QString& c : headers)
        h += QStringLiteral("<th>%1</th>").arg(esc(c));
    h += QStringLiteral("</tr></thead>");
    const int n = std::min<int>(int(r.cracks.size()), kMaxRows);
    for (int i = 0; i < n; ++i) {
        const Crack& c = r.cracks[size_t(i)];
        const QString cls =
            c.widthClass >= 0
                ? QStringLiteral("<span style='color:%1'>■</span> %2")
                      .arg(MeasureText::classColour(r.options.classes, c.widthClass).name(),
                           esc(MeasureText::className(r.options.classes, c.widthClass)))
                : QStringLiteral("—");
        h += QStringLiteral("<tr><td class='n'>%1</td><td>%2</td><td class='n'>%3</td>"
                            "<td class='n'>%4</td><td class='n'>%5</td><td class='n'>%6</td>"
                            "<td class='n'>%7</td><td class='n'>%8</td></tr>")
                 .arg(l.toString(c.id), cls, num(mm ? c.lengthMm : c.lengthPx, 1),
                      mm ? num(c.width.medianMm, 2) : num(c.width.medianPx, 1),
                      mm ? num(c.width.maxMm, 2) : num(c.width.maxPx, 1), l.toString(c.branches),
                      num(c.orientationDeg, 0),
                      QStringLiteral("%1, %2").arg(l.toString(c.box.x), l.toString(c.box.y)));
        if (limit) {
            h.chop(5); // "</tr>": the flag cell goes before it
            h +=
                QStringLiteral("<td>%1</td></tr>")
                    .arg(
                        c.exceedsLimit
                            ? QStringLiteral("<b style='color:#b01020'>%1</b>").arg(esc(tr("OVER")))
                            : QString());
        }
    }
    h += QStringLiteral("</table>");
    if (int(r.cracks.size()) > n)
        h += QStringLiteral("<p class='caption'>%1</p>")
                 .arg(esc(tr("The %1 first of %2 cracks; the CSV export lists them all.")
                              .arg(l.toString(n), l.toString(qulonglong(r.cracks.size())))));
    if (r.cracks.empty())
        h += QStringLiteral("<p>%1</p>").arg(esc(tr("No cracks were found at this threshold.")));
    h += QStringLiteral("<p class='caption'>%1</p>")
             .arg(esc(tr("Width: median over the crack's centre line. Angle: 0° horizontal, "
                         "counter-clockwise. Position: top-left corner of the crack's box.")));
    return h;
}

QString MeasureReport::standard(const MeasureResult& r)
{
    const auto preset = widthClassPreset(r.options.classes.preset);
    if (!preset || r.options.classes.tolerableMm <= 0)
        return {};
    const QLocale l;
    QString h = QStringLiteral("<table>");
    h += row(tr("Standard"), MeasureText::presetSource(*preset));
    h +=
        row(tr("Over the tolerable width"),
            tr("%1 of %Ln crack(s) (marked OVER in the crack table)", nullptr, int(r.cracks.size()))
                .arg(l.toString(r.flaggedCracks)));
    return h + QStringLiteral("</table>");
}

QString MeasureReport::settings(const ReportInput& in)
{
    const MeasureResult& r = *in.result;
    const MeasureOptions& o = r.options;
    const QLocale l;
    QString h = QStringLiteral("<h2>%1</h2><table>").arg(esc(tr("Settings used")));
    h += row(tr("Threshold"), tr("crack probability %1").arg(probabilityText(o.threshold, l)));
    h += row(tr("Gap closing"), tr("disk of %1 px radius").arg(o.closingRadiusPx));
    h += row(tr("Smallest crack kept"), tr("%1 px").arg(l.toString(o.minAreaPx)));
    h += row(tr("Class decided by"), o.classBy == ClassBy::Mean  ? tr("mean width")
                                     : o.classBy == ClassBy::Max ? tr("maximum width")
                                                                 : tr("median width"));
    QStringList limits;
    for (double v : o.classes.upperLimitsMm)
        limits << l.toString(v, 'g', 3);
    h += row(tr("Class limits"), tr("%1 mm").arg(limits.join(QStringLiteral(" · "))));
    h += row(tr("Centre lines"), QString::fromStdString(r.thinning));
    h += row(tr("Length"), tr("along the centre line, corner-corrected chain code (Vossepoel and "
                              "Smeulders, 1982)"));
    h += row(tr("Measured in"), tr("%1 s").arg(num(r.seconds, 2)));
    h += row(tr("Software"), QStringLiteral("Fisura %1").arg(QString::fromStdString(version())));
    h += QStringLiteral("</table>");
    return h;
}

Status MeasureReport::writePdf(const QString& path, const ReportInput& in)
{
    if (!in.result)
        return Status(ErrorCode::InvalidArgument, "no measurement to report");
    return writeHtmlPdf(path, tr("Crack inspection report"),
                        {{QStringLiteral("fisura:overview"), in.overview},
                         {QStringLiteral("fisura:histogram"), in.histogram},
                         {QStringLiteral("fisura:classes"), in.classPlot}},
                        kLayouts, [&in](int layout) { return html(in, layout); });
}

} // namespace fisura::ui

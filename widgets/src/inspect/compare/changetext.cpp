#include "inspect/compare/changetext.h"

#include <QLocale>

#include <cmath>

#include "common/errortext.h"
#include "inspect/measuretext.h"

namespace fisura::ui
{

QString ChangeText::kindName(ChangeKind k)
{
    switch (k) {
    case ChangeKind::New:
        return tr("New");
    case ChangeKind::Grown:
        return tr("Grown");
    case ChangeKind::Unchanged:
        return tr("Unchanged");
    case ChangeKind::Gone:
        return tr("Gone");
    case ChangeKind::Outside:
        return tr("Outside the later scan");
    }
    return QString::fromLatin1(changeKindName(k));
}

QColor ChangeText::kindColour(ChangeKind k)
{
    const auto c = changeKindColour(k);
    return QColor(c[0], c[1], c[2]);
}

QString ChangeText::failure(const Status& s)
{
    if (s.code() == ErrorCode::Cancelled)
        return tr("Comparison cancelled.");
    if (s.code() == ErrorCode::Unsupported)
        return tr("This build of Fisura cannot align scans (it was built without OpenCV's "
                  "feature matching).");
    return errorMessage(s);
}

QString ChangeText::signedLength(double px, double pixelSizeMm, int decimals)
{
    const QLocale l;
    const bool mm = pixelSizeMm > 0;
    const double v = mm ? px * pixelSizeMm : px;
    const QString n = l.toString(std::abs(v), 'f', decimals);
    const QString sign = v > 0 && n != l.toString(0.0, 'f', decimals)   ? QStringLiteral("+")
                         : v < 0 && n != l.toString(0.0, 'f', decimals) ? QStringLiteral("\u2212")
                                                                        : QString();
    return mm ? tr("%1%2 mm").arg(sign, n) : tr("%1%2 px").arg(sign, n);
}

QString ChangeText::alignment(const AlignResult& a)
{
    const QLocale l;
    QString model;
    switch (a.model) {
    case AlignModel::Similarity:
        model = tr("similarity");
        break;
    case AlignModel::Affine:
        model = tr("affine");
        break;
    case AlignModel::Homography:
        model = tr("homography");
        break;
    case AlignModel::Auto:
        model = tr("automatic");
        break;
    }
    QString text = tr("Aligned (%1): %2 of %3 matches agree, residual %4 px, overlap %5 %")
                       .arg(model, l.toString(a.inliers), l.toString(a.matches),
                            l.toString(a.rmsPx, 'f', 2), l.toString(a.overlap * 100, 'f', 0));
    if (a.field.used)
        text += QLatin1Char('\n') +
                tr("With correction field (the surface was not planar): largest correction %1 "
                   "px, window residual %2 px without the field, %3 px with it")
                    .arg(l.toString(a.field.maxPx, 'f', 1), l.toString(a.field.rmsBeforePx, 'f', 2),
                         l.toString(a.field.rmsAfterPx, 'f', 2));
    if (const QString start = georeference(a); !start.isEmpty())
        text += QLatin1Char('\n') + start;
    return text;
}

QString ChangeText::georeference(const AlignResult& a)
{
    QString text;
    switch (a.start) {
    case AlignStart::Features:
        break;
    case AlignStart::Georeference:
        text = tr("Started from the georeference: features were matched only where it says the "
                  "scans overlap.");
        break;
    case AlignStart::GeoreferenceRefuted:
        text = tr("The georeference was not confirmed: features were matched over the whole "
                  "scans.");
        break;
    case AlignStart::GeoreferenceOtherCrs:
        text = tr("The scans are georeferenced in different coordinate systems (not "
                  "reprojected): features were matched over the whole scans.");
        break;
    }
    if (a.georeferenceOffsetPx < 0)
        return text;
    const QLocale l;
    const QString offset =
        a.georeferenceUnitsPerPx > 0
            ? tr("%1 px (%2 map units)")
                  .arg(l.toString(a.georeferenceOffsetPx, 'f', 1),
                       l.toString(a.georeferenceOffsetPx * a.georeferenceUnitsPerPx, 'f', 3))
            : tr("%1 px").arg(l.toString(a.georeferenceOffsetPx, 'f', 1));
    return (text.isEmpty() ? text : text + QLatin1Char(' ')) +
           tr("The georeference placed the later scan %1 from where the alignment does.")
               .arg(offset);
}

QString ChangeText::summary(const ChangeResult& r)
{
    QString html =
        alignment(r.alignment).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")) +
        QStringLiteral("<br>");
    const QLocale l;
    for (int k = 0; k < 5; ++k) {
        const ChangeTotals& t = r.totals[size_t(k)];
        html += QStringLiteral("<span style=\"color:%1\">&#9632;</span> ")
                    .arg(kindColour(ChangeKind(k)).name()) +
                tr("%1: %2 (%3)")
                    .arg(kindName(ChangeKind(k)), l.toString(t.count),
                         MeasureText::length(t.lengthPx, t.lengthMm))
                    .toHtmlEscaped() +
                QStringLiteral("<br>");
    }
    if (r.widestIndex >= 0 && size_t(r.widestIndex) < r.changes.size()) {
        const CrackChange& c = r.changes[size_t(r.widestIndex)];
        html += tr("Widest crack: %1 (%2), width change %3")
                    .arg(MeasureText::width(c.afterMaxWidthPx, c.afterMaxWidthMm),
                         kindName(c.kind).toLower(),
                         signedLength(c.widthChangePx, r.before.pixelSizeMm, 2))
                    .toHtmlEscaped();
    }
    return html;
}

} // namespace fisura::ui

// Words and numbers of a comparison of two dates in the user's language: the change kinds that
// core names by stable ids, why a comparison stopped, signed lengths and widths, and the summary
// of a result.
#pragma once

#include <QColor>
#include <QCoreApplication>
#include <QString>

#include "fisura/change.h"

namespace fisura::ui
{

class ChangeText
{
    Q_DECLARE_TR_FUNCTIONS(fisura::ui::ChangeText)
public:
    /// "New", "Grown", "Unchanged", "Gone", "Outside the later scan".
    static QString kindName(ChangeKind k);
    /// changeKindColour as a QColor.
    static QColor kindColour(ChangeKind k);
    /// Why the comparison stopped: cancelled, no alignment in this build, else errorMessage()
    /// (which has a sentence for each alignment failure code).
    static QString failure(const Status& s);
    /// A signed length or width change in px ("+1.2 mm", "−3 px"): in mm when the pixel size
    /// is known (> 0). Not core's *Mm fields: their -1 for "unknown" is also a valid change.
    static QString signedLength(double px, double pixelSizeMm, int decimals = 1);
    /// Model, inliers of matches, residual and overlap.
    static QString alignment(const AlignResult& a);
    /// Where the coarse fit looked when the scans are georeferenced, and how far the
    /// georeference was off; "" when the georeferences had no say.
    static QString georeference(const AlignResult& a);
    /// Totals per kind, the widest crack and its change (rich text).
    static QString summary(const ChangeResult& r);
};

} // namespace fisura::ui

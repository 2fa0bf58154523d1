// Translated text for a model's provenance record (fisura/starter.h): what it was trained on,
// its licence and held-out scores, and the name the starter model goes by in lists.
#pragma once

#include <QCoreApplication>
#include <QString>

#include "fisura/starter.h"

namespace fisura::ui
{

/// "procedural scenes + UAV75": Fisura's own data set ids translated, others as named.
QString trainedOnText(const ModelProvenance& p);
/// "Starter model (trained on procedural scenes + UAV75, GPL-3.0-or-later)".
QString starterModelLabel(const ModelProvenance& p);
/// One line per held-out score: "DeepCrack/test (20 images): ODS F1 0.62 · OIS F1 0.65 ·
/// mIoU 0.71 at 2 px", numbers in the user's locale; empty when there are none.
QString heldOutScoresText(const ModelProvenance& p);

class ProvenanceText
{
    Q_DECLARE_TR_FUNCTIONS(ProvenanceText)
    friend QString trainedOnText(const ModelProvenance&);
    friend QString starterModelLabel(const ModelProvenance&);
    friend QString heldOutScoresText(const ModelProvenance&);
};

} // namespace fisura::ui

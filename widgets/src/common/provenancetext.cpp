#include "common/provenancetext.h"

#include <QLocale>
#include <QStringList>

namespace fisura::ui
{

QString trainedOnText(const ModelProvenance& p)
{
    QStringList parts;
    for (const auto& d : p.trainedOn)
        parts << (d == "fisura-procedural" ? ProvenanceText::tr("procedural scenes")
                                           : QString::fromStdString(d));
    return parts.join(QStringLiteral(" + "));
}

QString starterModelLabel(const ModelProvenance& p)
{
    const QString data = trainedOnText(p);
    const QString licence = QString::fromStdString(p.licence);
    if (data.isEmpty() && licence.isEmpty())
        return ProvenanceText::tr("Starter model");
    if (licence.isEmpty())
        return ProvenanceText::tr("Starter model (trained on %1)").arg(data);
    if (data.isEmpty())
        return ProvenanceText::tr("Starter model (%1)").arg(licence);
    return ProvenanceText::tr("Starter model (trained on %1, %2)").arg(data, licence);
}

QString heldOutScoresText(const ModelProvenance& p)
{
    const QLocale loc;
    const auto number = [&](double v) {
        return v < 0 ? QStringLiteral("–") : loc.toString(v, 'f', 2);
    };
    QStringList lines;
    for (const ModelScore& s : p.scores)
        lines << ProvenanceText::tr("%1 (%Ln image(s)): ODS F1 %2 · OIS F1 %3 · mIoU %4 at %5 px",
                                    nullptr, s.images)
                     .arg(QString::fromStdString(s.dataset), number(s.odsF1), number(s.oisF1),
                          number(s.miou), loc.toString(s.tolerancePx));
    return lines.join(QLatin1Char('\n'));
}

} // namespace fisura::ui

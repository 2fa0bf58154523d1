// The measurement tests' scan and map: four drawn cracks, one in each default width class.
#pragma once

#include <QDir>
#include <QSignalSpy>
#include <QString>

#include "fisura/image.h"
#include "fisura/status.h"
#include "inspect/measurepanel.h"

namespace fisura::test
{

constexpr int kW = 400, kH = 300;
constexpr double kPixelMm = 0.05;

inline void fill(Image& m, int x0, int y0, int x1, int y1)
{
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x)
            m.row(y)[x] = 230;
}

// Widths 1, 4, 10 and 24 px at 0.05 mm: one crack in each default class.
inline Image makeMap()
{
    Image m = Image::make(kW, kH, 1);
    fill(m, 20, 40, 219, 40);    // hairline, 200 px long
    fill(m, 300, 20, 303, 139);  // fine, 120 px
    fill(m, 50, 200, 149, 209);  // medium, 100 px
    fill(m, 250, 230, 369, 253); // wide, 120 px
    return m;
}

/// deck.tif (a grey scan with the pixel size in its tags) and deck.probability.tif (makeMap) in
/// `dir`.
inline bool writeScanAndMap(const QString& dir, QString& scan, QString& map)
{
    scan = QDir(dir).filePath(QStringLiteral("deck.tif"));
    map = QDir(dir).filePath(QStringLiteral("deck.probability.tif"));
    TiffWriteOptions o;
    o.pixelSizeMm = kPixelMm;
    return writeTiff(scan.toStdString(), Image::make(kW, kH, 3, 150), o).isOk() &&
           writeTiff(map.toStdString(), makeMap()).isOk();
}

inline Status measured(ui::MeasurePanel* panel)
{
    QSignalSpy spy(panel, &ui::MeasurePanel::measured);
    if (!spy.wait(10000))
        return Status(ErrorCode::Internal, "no result");
    return spy.at(0).at(0).value<Status>();
}

} // namespace fisura::test

// A tiny untrained U-Net saved for the Analyze tests: small tiles (a few per scan, fast on the
// CPU) and a threshold of 0.4.
#pragma once

#include <QDir>
#include <QString>

#include "fisura/model.h"

/// Saves the model as `dir`/tiny.fisura; its path, or empty when it could not be made.
inline QString writeTinyUNet(const QString& dir)
{
    fisura::ModelConfig c;
    c.type = fisura::ModelType::UNet;
    c.inputSize = 64;
    c.depth = 2;
    c.width = 4;
    auto m = fisura::Model::create(c);
    if (!m.isOk())
        return {};
    m->info().tileSize = 128;
    m->info().tileOverlap = 16;
    m->info().threshold = 0.4;
    const QString path = QDir(dir).filePath(QStringLiteral("tiny.fisura"));
    return m->save(path.toStdString()).isOk() ? path : QString();
}

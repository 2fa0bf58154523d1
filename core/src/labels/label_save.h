// Saving a label layer's mask (plain C++): TIFF by copying untouched tiles raw and encoding
// edited ones, or PNG/other formats whole through OpenCV.
#pragma once

#include <string>

#include "fisura/labels.h"
#include "label_store.h"

namespace fisura::labels
{

struct MaskMeta {
    double pixelSizeXmm = 0, pixelSizeYmm = 0;
    LabelProvenance provenance;
};

/// Writes the store's mask to `path` atomically (format from the extension). The store's
/// source is not changed here.
Result<LabelLayer::SaveStats> saveMask(TileStore& store, const std::string& path,
                                       const MaskMeta& meta, const CancelToken& cancel,
                                       ProgressSink* progress);

} // namespace fisura::labels

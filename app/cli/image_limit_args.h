// --max-pixels and --max-pixels-per-byte on the commands that read scans but take no engine
// options (measure, score, pyramid; infer and propose bind them to InferOptions::inputLimits).
// Both are declared once, in the option schema (input_limits.*, fisura/options.h): flag, help,
// unit, default and range come from there. A TIFF claiming more is refused when it is opened,
// before any pixel is decoded (a decompression bomb); the message names the option to raise.
#pragma once

#include <CLI/CLI.hpp>

#include "fisura/options.h"
#include "fisura/tiledimage.h"
#include "schema_options.h"

namespace fisura::cli
{

/// Binds the two options to `l` (defaults: ImageLimits's, through the schema).
inline void addImageLimitOptions(CLI::App* cmd, ImageLimits& l)
{
    addSchemaOption(cmd, inferOption("input_limits.max_pixels"), l.maxPixels);
    addSchemaOption(cmd, inferOption("input_limits.max_pixels_per_byte"), l.maxPixelsPerByte);
}

} // namespace fisura::cli

// --max-pixels and --max-pixels-per-byte: the options of every command that reads scans (infer,
// measure, score, pyramid, propose). A TIFF claiming more is refused when it is opened, before
// any pixel is decoded (a decompression bomb); the message names the option to raise.
#pragma once

#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

#include "fisura/tiledimage.h"

namespace fisura::cli
{

/// Binds the two options to `l` (defaults: ImageLimits's).
inline void addImageLimitOptions(CLI::App* cmd, ImageLimits& l)
{
    cmd->add_option("--max-pixels", l.maxPixels,
                    "Refuse images claiming more pixels than this (width x height at full "
                    "resolution; 0 = no limit)")
        ->capture_default_str();
    cmd->add_option("--max-pixels-per-byte", l.maxPixelsPerByte,
                    "Refuse compressed images claiming more pixels per byte of file than this, "
                    "as decompression bombs do (0 = no limit)")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& s) {
                const double v = std::strtod(s.c_str(), nullptr);
                return std::isfinite(v) && v >= 0 ? std::string()
                                                  : std::string("must be a number >= 0");
            },
            "NUMBER >= 0"));
}

} // namespace fisura::cli

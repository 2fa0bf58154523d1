// GDAL for core: drivers registered once, and GDAL's error messages collected per call instead
// of printed on stderr.
#pragma once

#include <string>

namespace fisura::gis
{

/// Registers GDAL's drivers (once per process; thread-safe).
void ensureGdal();

/// While alive, GDAL errors on this thread are not printed; message() gives the last one.
class QuietGdalErrors
{
public:
    QuietGdalErrors();
    ~QuietGdalErrors();
    QuietGdalErrors(const QuietGdalErrors&) = delete;
    QuietGdalErrors& operator=(const QuietGdalErrors&) = delete;
    /// GDAL's last error message, or `fallback` when there is none.
    std::string message(const std::string& fallback) const;
};

} // namespace fisura::gis

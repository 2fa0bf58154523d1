#include "fisura/version.h"

#include <opencv2/core/version.hpp>
#include <tiffio.h>
#include <torch/version.h>

#ifndef FISURA_VERSION
#error "FISURA_VERSION must be defined by the build"
#endif

namespace fisura
{

std::string version()
{
    return FISURA_VERSION;
}

std::string torchVersion()
{
    return TORCH_VERSION;
}

std::string opencvVersion()
{
    return CV_VERSION;
}

std::string libtiffVersion()
{
    // TIFFGetVersion() is a banner ("LIBTIFF, Version 4.5.0\n..."): keep the number only.
    std::string banner = TIFFGetVersion();
    const auto pos = banner.find("Version ");
    if (pos == std::string::npos)
        return banner;
    auto v = banner.substr(pos + 8);
    return v.substr(0, v.find_first_of("\n "));
}

} // namespace fisura

#pragma once

#include <string>

namespace fisura
{

/// Fisura's version, e.g. "0.1.0".
std::string version();
/// The LibTorch version core was built against, e.g. "1.13.1".
std::string torchVersion();
/// The OpenCV and libtiff versions core was built against.
std::string opencvVersion();
std::string libtiffVersion();

} // namespace fisura

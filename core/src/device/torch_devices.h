#pragma once

#include "fisura/sysinfo.h"

namespace fisura::detail
{

/// Fill the LibTorch/CUDA fields of `m`. Never throws.
void queryTorchDevices(MachineInfo& m);

} // namespace fisura::detail

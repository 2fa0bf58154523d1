// The one place that knows LibTorch 1.13 (Debian) from 2.x (CUDA builds). Include it only from
// .cpp files that already need torch.
#pragma once

#include <torch/torch.h>
#include <torch/version.h>

#define FISURA_TORCH_AT_LEAST(major, minor)                                                        \
    (TORCH_VERSION_MAJOR > (major) ||                                                              \
     (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace fisura::compat
{

/// Is this exception a CUDA out-of-memory? 2.x throws c10::OutOfMemoryError; 1.13 a c10::Error
/// whose message says so.
inline bool isOutOfMemory(const c10::Error& e)
{
#if FISURA_TORCH_AT_LEAST(2, 0)
    if (dynamic_cast<const c10::OutOfMemoryError*>(&e))
        return true;
#endif
    const std::string msg = e.what();
    return msg.find("out of memory") != std::string::npos;
}

} // namespace fisura::compat

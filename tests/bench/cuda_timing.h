// Milliseconds per call of a GPU step: three calls to warm up, then `iterations` between two
// device synchronisations (bench_bnrelu, bench_unet_train).
#pragma once

#include "compat/torch_compat.h"

#include <chrono>

namespace fisura::bench
{

template <typename F> double cudaTimeMs(F&& step, int iterations)
{
    for (int i = 0; i < 3; ++i)
        step();
    torch::cuda::synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i)
        step();
    torch::cuda::synchronize();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
               .count() /
           iterations;
}

} // namespace fisura::bench

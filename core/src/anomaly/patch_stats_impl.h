// Pieces shared by the one-shot fit, the streaming accumulator and the CUDA dispatch.
#pragma once

#include "anomaly/patch_stats.h"

namespace fisura::anomaly::detail
{

/// Shrinkage weight, shrunk covariance and its inverse (or Cholesky factor of the inverse) of a
/// chunk of unbiased sample covariances S [n, d, d] from T samples. `sumFourth` [n] is
/// sum_t |x_t - m|^4, needed by Ledoit-Wolf only (undefined otherwise). Writes into
/// precision [n, d, d] and rho [n] (slices of the outputs).
void shrinkAndInvert(const torch::Tensor& S, const torch::Tensor& sumFourth, int64_t T,
                     const PatchStatsOptions& options, torch::Tensor precision, torch::Tensor rho);

/// Positions per chunk for a working set of `bytesPerPosition` on `device`.
int64_t positionsPerChunk(uint64_t bytesPerPosition, const torch::Device& device,
                          int64_t chunkBytes);

/// Working dtype: float64 stays float64, everything else is computed in float32.
torch::ScalarType workType(const torch::Tensor& t);

} // namespace fisura::anomaly::detail

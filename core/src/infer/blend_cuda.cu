// See blend_cuda.h. One thread per pixel; the multiplications are written with the _rn
// intrinsics so the compiler contracts nothing into fused multiply-adds: the results are those
// of LibTorch's element-wise operators, one operation at a time; the band adds integers.
#include "infer/blend_cuda.h"

#include <cuda_runtime.h>

namespace fisura::detail::cuda
{
namespace
{

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    blendKernel(const float* __restrict__ maps, int64_t first, int tile, int x0, int width,
                TileTable t, int phase, int64_t* __restrict__ band)
{
    const int i = blockIdx.z;
    const int64_t g = first + i;
    if ((t.col[g] % 3) * 3 + t.row[g] % 3 != phase)
        return;
    const int yy = blockIdx.y;
    const int xx = blockIdx.x * kThreads + threadIdx.x;
    const int bx = t.x[g] + xx - x0; // column in the band
    if (yy >= t.h[g] || xx >= t.w[g] || bx < 0 || bx >= width)
        return;
    const float v = maps[(int64_t(i) * tile + yy) * tile + xx];
    const float wv = __fmul_rn(__fmul_rn(v, t.wy[int64_t(t.row[g]) * tile + yy]),
                               t.wx[int64_t(t.col[g]) * tile + xx]);
    int64_t* b = band + int64_t((t.y[g] + yy) % tile) * width + bx;
    *b += __double2ll_rn(double(wv) * kBlendScale); // both exact but the rounding
}

__global__ void __launch_bounds__(kThreads)
    emitKernel(int64_t* __restrict__ band, int tile, int width, int64_t y0,
               const float* __restrict__ invY, const float* __restrict__ invX, float scale,
               uint8_t* __restrict__ out)
{
    const int r = blockIdx.y;
    const int x = blockIdx.x * kThreads + threadIdx.x;
    if (x >= width)
        return;
    int64_t* b = band + int64_t((y0 + r) % tile) * width + x;
    const float sum = __double2float_rn(__dmul_rn(__ll2double_rn(*b), 1.0 / kBlendScale));
    float v = __fmul_rn(__fmul_rn(__fmul_rn(sum, invY[y0 + r]), invX[x]), scale);
    v = fminf(fmaxf(rintf(v), 0.f), 255.f);
    out[int64_t(r) * width + x] = uint8_t(v);
    *b = 0;
}

} // namespace

int blendTiles(const float* maps, int64_t first, int count, int tile, int x0, int width,
               const TileTable& tiles, int phase, int64_t* band, cudaStream_t stream)
{
    if (count <= 0)
        return 0;
    const dim3 grid(unsigned((tile + kThreads - 1) / kThreads), unsigned(tile), unsigned(count));
    blendKernel<<<grid, kThreads, 0, stream>>>(maps, first, tile, x0, width, tiles, phase, band);
    return int(cudaGetLastError());
}

int emitRows(int64_t* band, int tile, int width, int64_t y0, int n, const float* invY,
             const float* invX, float scale, uint8_t* out, cudaStream_t stream)
{
    if (n <= 0)
        return 0;
    const dim3 grid(unsigned((width + kThreads - 1) / kThreads), unsigned(n));
    emitKernel<<<grid, kThreads, 0, stream>>>(band, tile, width, y0, invY, invX, scale, out);
    return int(cudaGetLastError());
}

const char* blendErrorString(int err)
{
    return cudaGetErrorString(cudaError_t(err));
}

} // namespace fisura::detail::cuda

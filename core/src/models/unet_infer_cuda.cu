// See unet_infer_cuda.h. Both kernels move 16-byte vectors where the channel counts allow it
// (C a multiple of 8 bf16/f16 or 4 f32 values) and single values otherwise; one thread per
// output vector, grid-stride loops.
#include "models/unet_infer_cuda.h"

#include "models/kernel_vec.cuh"

namespace fisura::models::cuda
{
namespace
{

using vec::blocksFor;
using vec::kThreads;
using vec::Lane;
using vec::Vec;

template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    maxPoolKernel(const Vec<T, V>* __restrict__ x, int64_t H, int64_t W, int64_t groups, int64_t Ho,
                  int64_t Wo, int64_t outVecs, Vec<T, V>* __restrict__ y)
{
    for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < outVecs;
         i += int64_t(gridDim.x) * kThreads) {
        const int64_t g = i % groups;
        const int64_t p = i / groups; // output pixel n, oy, ox
        const int64_t ox = p % Wo, oy = (p / Wo) % Ho, n = p / (Wo * Ho);
        const int64_t base = ((n * H + 2 * oy) * W + 2 * ox) * groups + g;
        const Vec<T, V> w[4] = {x[base], x[base + groups], x[base + W * groups],
                                x[base + (W + 1) * groups]};
        unsigned char pick[V];
        vec::pickMax<T, V>(w, pick);
        Vec<T, V> out;
#pragma unroll
        for (int k = 0; k < V; ++k)
            out.v[k] = w[pick[k]].v[k]; // the value itself, NaN payload and all
        y[i] = out;
    }
}

template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    concatKernel(const Vec<T, V>* __restrict__ skip, int64_t gs, const Vec<T, V>* __restrict__ up,
                 int64_t gu, const float* __restrict__ bias, int64_t rows,
                 Vec<T, V>* __restrict__ y)
{
    const int64_t groups = gs + gu, total = rows * groups;
    for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * kThreads) {
        const int64_t r = i / groups, g = i % groups;
        if (g < gs) {
            y[i] = skip[r * gs + g];
            continue;
        }
        const int64_t gu0 = g - gs;
        Vec<T, V> v = up[r * gu + gu0];
        if (bias) {
#pragma unroll
            for (int k = 0; k < V; ++k)
                v.v[k] = Lane<T>::put(Lane<T>::get(v.v[k]) + __ldg(bias + gu0 * V + k));
        }
        y[i] = v;
    }
}

template <typename T, int V>
int launchMaxPool(const void* x, int64_t N, int64_t H, int64_t W, int64_t C, void* y,
                  cudaStream_t s)
{
    const int64_t Ho = H / 2, Wo = W / 2, groups = C / V, outVecs = N * Ho * Wo * groups;
    if (outVecs == 0)
        return 0;
    maxPoolKernel<T, V><<<blocksFor(outVecs), kThreads, 0, s>>>(static_cast<const Vec<T, V>*>(x), H,
                                                                W, groups, Ho, Wo, outVecs,
                                                                static_cast<Vec<T, V>*>(y));
    return int(cudaGetLastError());
}

template <typename T, int V>
int launchConcat(const void* skip, int64_t Cs, const void* up, int64_t Cu, const float* bias,
                 int64_t rows, void* y, cudaStream_t s)
{
    const int64_t total = rows * ((Cs + Cu) / V);
    if (total == 0)
        return 0;
    concatKernel<T, V><<<blocksFor(total), kThreads, 0, s>>>(
        static_cast<const Vec<T, V>*>(skip), Cs / V, static_cast<const Vec<T, V>*>(up), Cu / V,
        bias, rows, static_cast<Vec<T, V>*>(y));
    return int(cudaGetLastError());
}

template <typename T, int V> struct MaxPoolOp {
    static int run(const void* x, int64_t N, int64_t H, int64_t W, int64_t C, void* y,
                   cudaStream_t s)
    {
        return launchMaxPool<T, V>(x, N, H, W, C, y, s);
    }
};

template <typename T, int V> struct ConcatOp {
    static int run(const void* skip, int64_t Cs, const void* up, int64_t Cu, const float* bias,
                   int64_t rows, void* y, cudaStream_t s)
    {
        return launchConcat<T, V>(skip, Cs, up, Cu, bias, rows, y, s);
    }
};

using vec::aligned;
using vec::vecOf;

} // namespace

int maxPool2Nhwc(DType t, const void* x, int64_t N, int64_t H, int64_t W, int64_t C, void* y,
                 cudaStream_t stream)
{
    const bool wide = C % vecOf(t) == 0 && aligned(x) && aligned(y);
    return vec::byTypeAndWidth<MaxPoolOp>(t, wide, x, N, H, W, C, y, stream);
}

int concatBiasNhwc(DType t, const void* skip, int64_t Cs, const void* up, int64_t Cu,
                   const float* bias, int64_t rows, void* y, cudaStream_t stream)
{
    const bool wide =
        Cs % vecOf(t) == 0 && Cu % vecOf(t) == 0 && aligned(skip) && aligned(up) && aligned(y);
    return vec::byTypeAndWidth<ConcatOp>(t, wide, skip, Cs, up, Cu, bias, rows, y, stream);
}

} // namespace fisura::models::cuda

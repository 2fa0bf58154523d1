// Element access shared by Fisura's memory-bound CUDA kernels (unet_infer_cuda.cu,
// unet_train_cuda.cu): a type's values widened to float and back, and V values as one 16-byte
// (or single-value) unit of a loop.
#pragma once

#include <cmath>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "models/bn_relu_cuda.h" // DType

namespace fisura::models::cuda::vec
{

constexpr int kThreads = 256;

template <typename T> struct Lane;
template <> struct Lane<float> {
    __device__ static float get(float v) { return v; }
    __device__ static float put(float v) { return v; }
};
template <> struct Lane<__nv_bfloat16> {
    __device__ static float get(__nv_bfloat16 v) { return __bfloat162float(v); }
    __device__ static __nv_bfloat16 put(float v) { return __float2bfloat16_rn(v); }
};
template <> struct Lane<__half> {
    __device__ static float get(__half v) { return __half2float(v); }
    __device__ static __half put(float v) { return __float2half_rn(v); }
};

/// V values of T as one unit of the loop (a 16-byte vector, or one value).
template <typename T, int V> struct alignas(sizeof(T) * V) Vec {
    T v[V];
};

/// Blocks of kThreads for `work` units in a grid-stride loop.
inline unsigned blocksFor(int64_t work)
{
    const int64_t b = (work + kThreads - 1) / kThreads;
    return unsigned(b < 1 ? 1 : (b > 65535 * 8 ? 65535 * 8 : b));
}

inline bool aligned(const void* p)
{
    return reinterpret_cast<uintptr_t>(p) % 16 == 0;
}

/// Which of a 2 x 2 window's four values (row-major) ATen's max_pool2d picks, per lane: a NaN
/// wins (the last one), else the first maximum (aten/src/ATen/native/cuda/DilatedMaxPool2d.cu:
/// `val > max || isnan(val)`).
template <typename T, int V>
__device__ inline void pickMax(const Vec<T, V> (&w)[4], unsigned char (&pick)[V])
{
#pragma unroll
    for (int k = 0; k < V; ++k) {
        float best = -INFINITY;
        unsigned char j = 0;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const float v = Lane<T>::get(w[q].v[k]);
            if (v > best || isnan(v)) {
                best = v;
                j = static_cast<unsigned char>(q);
            }
        }
        pick[k] = j;
    }
}

/// Threads of the blocks that sum partial sums per channel (sumOverBlocks).
constexpr int kSumThreads = 128;

/// Channel c's Q sums over `count` partial-sum rows of C floats each (parts[q] + row * C + c), in
/// double, by a block of kSumThreads threads: each adds a strided share, then a fixed tree adds
/// the threads' sums. The same order on every run; the result is in thread 0's `out`.
template <int Q>
__device__ void sumOverBlocks(const float* const (&parts)[Q], int64_t count, int64_t C, int64_t c,
                              double (&out)[Q])
{
    __shared__ double red[Q][kSumThreads];
#pragma unroll
    for (int q = 0; q < Q; ++q)
        out[q] = 0;
    for (int64_t r = threadIdx.x; r < count; r += kSumThreads) {
#pragma unroll
        for (int q = 0; q < Q; ++q)
            out[q] += parts[q][r * C + c];
    }
#pragma unroll
    for (int q = 0; q < Q; ++q)
        red[q][threadIdx.x] = out[q];
    __syncthreads();
    for (int half = kSumThreads / 2; half > 0; half /= 2) {
        if (int(threadIdx.x) < half) {
#pragma unroll
            for (int q = 0; q < Q; ++q)
                red[q][threadIdx.x] += red[q][threadIdx.x + half];
        }
        __syncthreads();
    }
#pragma unroll
    for (int q = 0; q < Q; ++q)
        out[q] = red[q][0];
}

/// Values of a type in a 16-byte vector.
inline int64_t vecOf(DType t)
{
    return t == DType::F32 ? 4 : 8;
}

/// Calls F<T, V>::run with the vector width the channel counts allow (`wide`: 16 bytes).
template <typename T, template <typename, int> class F, typename... A>
int byWidth(bool wide, A... a)
{
    constexpr int V = 16 / sizeof(T);
    return wide ? F<T, V>::run(a...) : F<T, 1>::run(a...);
}

/// byWidth for the element type `t`.
template <template <typename, int> class F, typename... A>
int byTypeAndWidth(DType t, bool wide, A... a)
{
    switch (t) {
    case DType::BF16:
        return byWidth<__nv_bfloat16, F>(wide, a...);
    case DType::F16:
        return byWidth<__half, F>(wide, a...);
    case DType::F32:
        return byWidth<float, F>(wide, a...);
    }
    return int(cudaErrorInvalidValue);
}

} // namespace fisura::models::cuda::vec

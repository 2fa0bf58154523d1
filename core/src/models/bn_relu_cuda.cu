// Fused BatchNorm + ReLU for training, channels-last (rows x C, C contiguous), in four kernels:
//   forward:  per-block partial sums of x (shifted by row 0, so E[x^2] - E[x]^2 does not cancel),
//             a per-channel finalisation (mean, 1/std, running statistics, y = max(0, x s + t)),
//             and one pass that writes y;
//   backward: per-block partial sums of dz and dz (x - mean) with dz = dy where x s + t > 0 (the
//             ReLU mask is recomputed from x, so y is not kept for it), a per-channel finalisation
//             into dgamma, dbeta and dx = a dz + b x + c, and one pass that writes dx.
// Eager PyTorch makes 13 passes over the activation for BatchNorm + ReLU forward and backward
// (statistics, transform, ReLU; ReLU backward, BatchNorm reduce and element-wise backward); these
// make 8, each with 16-byte vector loads. The formulas are those of ATen's batch_norm_backward
// (aten/src/ATen/native/cuda/Normalization.cuh).
#include "models/bn_relu_cuda.h"

#include "models/kernel_vec.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace fisura::models::cuda
{
namespace
{

constexpr int kThreads = 256;
constexpr int kMaxPartials = 1024;

template <typename T> struct Traits;
template <> struct Traits<float> {
    static constexpr int V = 4;
    __device__ static float load(float v) { return v; }
    __device__ static float store(float v) { return v; }
};
template <> struct Traits<__nv_bfloat16> {
    static constexpr int V = 8;
    __device__ static float load(__nv_bfloat16 v) { return __bfloat162float(v); }
    __device__ static __nv_bfloat16 store(float v) { return __float2bfloat16_rn(v); }
};
template <> struct Traits<__half> {
    static constexpr int V = 8;
    __device__ static float load(__half v) { return __half2float(v); }
    __device__ static __half store(float v) { return __float2half_rn(v); }
};

/// One 16-byte vector of V elements, widened to float.
template <typename T> __device__ inline void loadVec(const T* p, float (&out)[Traits<T>::V])
{
    const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
    const T* e = reinterpret_cast<const T*>(&raw);
#pragma unroll
    for (int i = 0; i < Traits<T>::V; ++i)
        out[i] = Traits<T>::load(e[i]);
}

template <typename T> __device__ inline void storeVec(T* p, const float (&v)[Traits<T>::V])
{
    uint4 raw;
    T* e = reinterpret_cast<T*>(&raw);
#pragma unroll
    for (int i = 0; i < Traits<T>::V; ++i)
        e[i] = Traits<T>::store(v[i]);
    *reinterpret_cast<uint4*>(p) = raw;
}

template <int V> __device__ inline void loadFloats(const float* p, float (&out)[V])
{
#pragma unroll
    for (int i = 0; i < V; ++i)
        out[i] = __ldg(p + i);
}

/// Sums over the block's rows of one channel vector per thread, then per channel over the threads
/// that hold it; one partial per block and channel.
template <int V>
__device__ void blockPartials(const float (&s)[V], bool active, int groups, int rowsPerIter, int C,
                              float* red, float* out)
{
#pragma unroll
    for (int i = 0; i < V; ++i)
        red[threadIdx.x * V + i] = active ? s[i] : 0.f;
    __syncthreads();
    for (int c = threadIdx.x; c < C; c += kThreads) {
        const int lane = c / V, i = c % V;
        float sum = 0.f;
        for (int r = 0; r < rowsPerIter; ++r)
            sum += red[(r * groups + lane) * V + i];
        out[int64_t(blockIdx.x) * C + c] = sum;
    }
    __syncthreads();
}

/// Forward statistics (kBackward false): sums of x - x[row 0] and of its square.
/// Backward (kBackward true): sums of dz and dz (x - mean), dz = dy masked by x s + t > 0.
template <typename T, bool kBackward>
__global__ void __launch_bounds__(kThreads)
    reduceKernel(const T* __restrict__ x, const T* __restrict__ dy, int64_t rows, int C,
                 const float* __restrict__ mean, const float* __restrict__ scale,
                 const float* __restrict__ shift, float* __restrict__ part1,
                 float* __restrict__ part2)
{
    constexpr int V = Traits<T>::V;
    __shared__ float red[kThreads * 8];
    const int groups = C / V;
    const int rowsPerIter = kThreads / groups;
    const int lane = threadIdx.x % groups;
    const int rowInIter = threadIdx.x / groups;
    const bool active = rowInIter < rowsPerIter;
    float s1[V], s2[V], ref[V], sc[V], sh[V];
#pragma unroll
    for (int i = 0; i < V; ++i)
        s1[i] = s2[i] = 0.f;
    if (kBackward) {
        loadFloats<V>(mean + lane * V, ref);
        loadFloats<V>(scale + lane * V, sc);
        loadFloats<V>(shift + lane * V, sh);
    } else {
        loadVec<T>(x + lane * V, ref);
    }
    const int64_t step = int64_t(gridDim.x) * rowsPerIter;
    for (int64_t r = int64_t(blockIdx.x) * rowsPerIter + rowInIter; active && r < rows; r += step) {
        float xv[V];
        loadVec<T>(x + r * C + lane * V, xv);
        if (kBackward) {
            float g[V];
            loadVec<T>(dy + r * C + lane * V, g);
#pragma unroll
            for (int i = 0; i < V; ++i) {
                const float z = __fmaf_rn(xv[i], sc[i], sh[i]) > 0.f ? g[i] : 0.f;
                s1[i] += z;
                s2[i] = __fmaf_rn(z, xv[i] - ref[i], s2[i]);
            }
        } else {
#pragma unroll
            for (int i = 0; i < V; ++i) {
                const float d = xv[i] - ref[i];
                s1[i] += d;
                s2[i] = __fmaf_rn(d, d, s2[i]);
            }
        }
    }
    blockPartials<V>(s1, active, groups, rowsPerIter, C, red, part1);
    blockPartials<V>(s2, active, groups, rowsPerIter, C, red, part2);
}

/// Channel blockIdx.x's two sums over the blocks' partials, in double (vec::sumOverBlocks: one
/// block of kSumThreads per channel; a thread per channel adding up to 1024 partials in a row took
/// 2.3 ms of a U-Net training step at batch 64). Valid in thread 0.
__device__ inline void sumPartials(const float* __restrict__ part1, const float* __restrict__ part2,
                                   int partials, int C, double& s1, double& s2)
{
    const float* const parts[2] = {part1, part2};
    double out[2];
    vec::sumOverBlocks<2>(parts, partials, C, blockIdx.x, out);
    s1 = out[0];
    s2 = out[1];
}

template <typename T>
__global__ void finalizeForward(const float* __restrict__ part1, const float* __restrict__ part2,
                                int partials, int C, int64_t rows, const T* __restrict__ x,
                                const float* __restrict__ gamma, const float* __restrict__ beta,
                                float* runningMean, float* runningVar, double momentum, double eps,
                                float* saveMean, float* saveInvstd, float* scale, float* shift)
{
    const int c = blockIdx.x;
    double s1 = 0, s2 = 0;
    sumPartials(part1, part2, partials, C, s1, s2);
    if (threadIdx.x != 0)
        return;
    const double n = double(rows);
    const double md = s1 / n;
    const double var = fmax(s2 / n - md * md, 0.0);
    const double mean = double(Traits<T>::load(x[c])) + md;
    const double invstd = 1.0 / sqrt(var + eps);
    saveMean[c] = float(mean);
    saveInvstd[c] = float(invstd);
    const double s = (gamma ? gamma[c] : 1.0) * invstd;
    scale[c] = float(s);
    shift[c] = float((beta ? beta[c] : 0.0) - mean * s);
    if (runningMean)
        runningMean[c] = float((1 - momentum) * runningMean[c] + momentum * mean);
    if (runningVar)
        runningVar[c] = float((1 - momentum) * runningVar[c] + momentum * var * n / (n - 1));
}

__global__ void finalizeBackward(const float* __restrict__ part1, const float* __restrict__ part2,
                                 int partials, int C, int64_t rows,
                                 const float* __restrict__ saveMean,
                                 const float* __restrict__ saveInvstd,
                                 const float* __restrict__ scale, float* dgamma, float* dbeta,
                                 float* coef)
{
    const int c = blockIdx.x;
    double s1 = 0, s2 = 0;
    sumPartials(part1, part2, partials, C, s1, s2);
    if (threadIdx.x != 0)
        return;
    const double n = double(rows), invstd = saveInvstd[c], a = scale[c];
    if (dbeta)
        dbeta[c] = float(s1);
    if (dgamma)
        dgamma[c] = float(s2 * invstd);
    const double b = -a * invstd * invstd * s2 / n;
    coef[c] = float(a);
    coef[C + c] = float(b);
    coef[2 * C + c] = float(-a * s1 / n - b * saveMean[c]);
}

/// y = max(0, x s + t) (kBackward false), or dx = a dz + b x + c with dz = dy where x s + t > 0.
template <typename T, bool kBackward>
__global__ void __launch_bounds__(kThreads)
    applyKernel(const T* __restrict__ x, const T* __restrict__ dy, T* __restrict__ out,
                int64_t vectors, int groups, const float* __restrict__ scale,
                const float* __restrict__ shift, const float* __restrict__ coef, int C)
{
    constexpr int V = Traits<T>::V;
    for (int64_t v = int64_t(blockIdx.x) * kThreads + threadIdx.x; v < vectors;
         v += int64_t(gridDim.x) * kThreads) {
        const int c0 = int(v % groups) * V;
        float xv[V], sc[V], sh[V], o[V];
        loadVec<T>(x + v * V, xv);
        loadFloats<V>(scale + c0, sc);
        loadFloats<V>(shift + c0, sh);
        if (kBackward) {
            float g[V], a[V], b[V], k[V];
            loadVec<T>(dy + v * V, g);
            loadFloats<V>(coef + c0, a);
            loadFloats<V>(coef + C + c0, b);
            loadFloats<V>(coef + 2 * C + c0, k);
#pragma unroll
            for (int i = 0; i < V; ++i) {
                const float z = __fmaf_rn(xv[i], sc[i], sh[i]) > 0.f ? g[i] : 0.f;
                o[i] = __fmaf_rn(a[i], z, __fmaf_rn(b[i], xv[i], k[i]));
            }
        } else {
#pragma unroll
            for (int i = 0; i < V; ++i)
                o[i] = fmaxf(__fmaf_rn(xv[i], sc[i], sh[i]), 0.f);
        }
        storeVec<T>(out + v * V, o);
    }
}

int multiprocessors()
{
    static int cached[64] = {};
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess)
        return 108;
    if (dev >= 0 && dev < 64 && cached[dev] > 0)
        return cached[dev];
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        sms <= 0)
        return 108;
    if (dev >= 0 && dev < 64)
        cached[dev] = sms;
    return sms;
}

int blocksFor(int64_t items)
{
    const int64_t want = (items + kThreads - 1) / kThreads;
    const int64_t cap = int64_t(multiprocessors()) * 8;
    return int(want < cap ? (want > 0 ? want : 1) : cap);
}

template <typename T>
int forwardT(const void* xp, int64_t rows, int64_t C, const float* gamma, const float* beta,
             float* runningMean, float* runningVar, double momentum, double eps, void* yp,
             float* saveMean, float* saveInvstd, float* scale, float* shift, float* partials,
             cudaStream_t stream)
{
    const T* x = static_cast<const T*>(xp);
    const int P = int(bnReluPartials(rows));
    float* part1 = partials;
    float* part2 = partials + int64_t(P) * C;
    reduceKernel<T, false><<<P, kThreads, 0, stream>>>(x, nullptr, rows, int(C), nullptr, nullptr,
                                                       nullptr, part1, part2);
    finalizeForward<T><<<int(C), vec::kSumThreads, 0, stream>>>(
        part1, part2, P, int(C), rows, x, gamma, beta, runningMean, runningVar, momentum, eps,
        saveMean, saveInvstd, scale, shift);
    const int64_t vectors = rows * C / Traits<T>::V;
    applyKernel<T, false><<<blocksFor(vectors), kThreads, 0, stream>>>(
        x, nullptr, static_cast<T*>(yp), vectors, int(C / Traits<T>::V), scale, shift, nullptr,
        int(C));
    return int(cudaGetLastError());
}

template <typename T>
int backwardT(const void* dyp, const void* xp, int64_t rows, int64_t C, const float* saveMean,
              const float* saveInvstd, const float* scale, const float* shift, void* dxp,
              float* dgamma, float* dbeta, float* coef, float* partials, cudaStream_t stream)
{
    const T* x = static_cast<const T*>(xp);
    const T* dy = static_cast<const T*>(dyp);
    const int P = int(bnReluPartials(rows));
    float* part1 = partials;
    float* part2 = partials + int64_t(P) * C;
    reduceKernel<T, true>
        <<<P, kThreads, 0, stream>>>(x, dy, rows, int(C), saveMean, scale, shift, part1, part2);
    finalizeBackward<<<int(C), vec::kSumThreads, 0, stream>>>(
        part1, part2, P, int(C), rows, saveMean, saveInvstd, scale, dgamma, dbeta, coef);
    const int64_t vectors = rows * C / Traits<T>::V;
    applyKernel<T, true><<<blocksFor(vectors), kThreads, 0, stream>>>(
        x, dy, static_cast<T*>(dxp), vectors, int(C / Traits<T>::V), scale, shift, coef, int(C));
    return int(cudaGetLastError());
}

} // namespace

bool bnReluFits(DType t, int64_t C)
{
    const int64_t V = t == DType::F32 ? 4 : 8;
    return C > 0 && C % V == 0 && C / V <= kThreads;
}

int64_t bnReluPartials(int64_t rows)
{
    const int64_t p = rows / 64;
    return p < 1 ? 1 : (p > kMaxPartials ? kMaxPartials : p);
}

int bnReluForward(DType t, const void* x, int64_t rows, int64_t C, const float* gamma,
                  const float* beta, float* runningMean, float* runningVar, double momentum,
                  double eps, void* y, float* saveMean, float* saveInvstd, float* scale,
                  float* shift, float* partials, cudaStream_t stream)
{
    switch (t) {
    case DType::F32:
        return forwardT<float>(x, rows, C, gamma, beta, runningMean, runningVar, momentum, eps, y,
                               saveMean, saveInvstd, scale, shift, partials, stream);
    case DType::BF16:
        return forwardT<__nv_bfloat16>(x, rows, C, gamma, beta, runningMean, runningVar, momentum,
                                       eps, y, saveMean, saveInvstd, scale, shift, partials,
                                       stream);
    case DType::F16:
        return forwardT<__half>(x, rows, C, gamma, beta, runningMean, runningVar, momentum, eps, y,
                                saveMean, saveInvstd, scale, shift, partials, stream);
    }
    return int(cudaErrorInvalidValue);
}

int bnReluBackward(DType t, const void* dy, const void* x, int64_t rows, int64_t C,
                   const float* gamma, const float* saveMean, const float* saveInvstd,
                   const float* scale, const float* shift, void* dx, float* dgamma, float* dbeta,
                   float* coef, float* partials, cudaStream_t stream)
{
    (void)gamma; // folded into scale by the forward pass
    switch (t) {
    case DType::F32:
        return backwardT<float>(dy, x, rows, C, saveMean, saveInvstd, scale, shift, dx, dgamma,
                                dbeta, coef, partials, stream);
    case DType::BF16:
        return backwardT<__nv_bfloat16>(dy, x, rows, C, saveMean, saveInvstd, scale, shift, dx,
                                        dgamma, dbeta, coef, partials, stream);
    case DType::F16:
        return backwardT<__half>(dy, x, rows, C, saveMean, saveInvstd, scale, shift, dx, dgamma,
                                 dbeta, coef, partials, stream);
    }
    return int(cudaErrorInvalidValue);
}

const char* bnReluErrorString(int err)
{
    return cudaGetErrorString(cudaError_t(err));
}

} // namespace fisura::models::cuda

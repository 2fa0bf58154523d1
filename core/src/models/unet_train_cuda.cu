// See unet_train_cuda.h. Profiling the training step next to torch.compile's
// (tests/bench/gpu_step_timeline.sh) put ATen's NHWC max-pool backward (a zero fill, then a
// scatter through int64 indices), the add of each encoder output's two gradients and the loss's
// dozen element-wise passes and reductions at 3.7 ms of a 29.8 ms step; Inductor fuses them.
// The pooling picks its maximum as ATen's max_pool2d does (aten/src/ATen/native/cuda/
// DilatedMaxPool2d.cu: `val > max || isnan(val)` in row-major order), so the gradients are the
// same bit for bit; the loss's formulas are ATen's binary_cross_entropy_with_logits and sigmoid.
#include "models/unet_train_cuda.h"

#include <cmath>

#include "models/kernel_vec.cuh"

namespace fisura::models::cuda
{
namespace
{

using vec::blocksFor;
using vec::kThreads;
using vec::Lane;
using vec::Vec;

/// One thread per 2 x 2 block of input pixels and channel vector; blocks past the last whole
/// window (an odd last row or column) only pass the skip gradient on.
template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    maxPoolSkipBackwardKernel(const Vec<T, V>* __restrict__ x, const Vec<T, V>* __restrict__ dy,
                              const Vec<T, V>* __restrict__ dskip, int64_t skipStride, int64_t H,
                              int64_t W, int64_t groups, int64_t Hb, int64_t Wb, int64_t Ho,
                              int64_t Wo, int64_t work, Vec<T, V>* __restrict__ dx)
{
    for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < work;
         i += int64_t(gridDim.x) * kThreads) {
        const int64_t g = i % groups;
        const int64_t p = i / groups;
        const int64_t bx = p % Wb, by = (p / Wb) % Hb, n = p / (Wb * Hb);
        const bool window = by < Ho && bx < Wo;
        const int64_t row0 = (n * H + 2 * by) * W + 2 * bx; // pixel index of the block's corner
        const int64_t rows[4] = {row0, row0 + 1, row0 + W, row0 + W + 1};
        const bool inside[4] = {true, 2 * bx + 1 < W, 2 * by + 1 < H,
                                2 * bx + 1 < W && 2 * by + 1 < H};
        unsigned char pick[V];
        Vec<T, V> grad;
        if (window) {
            const Vec<T, V> w[4] = {x[rows[0] * groups + g], x[rows[1] * groups + g],
                                    x[rows[2] * groups + g], x[rows[3] * groups + g]};
            vec::pickMax<T, V>(w, pick);
            grad = dy[((n * Ho + by) * Wo + bx) * groups + g];
        }
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            if (!inside[q])
                continue;
            Vec<T, V> out;
            if (dskip) {
                const Vec<T, V> s = dskip[rows[q] * skipStride + g];
#pragma unroll
                for (int k = 0; k < V; ++k) {
                    const float routed = window && pick[k] == q ? Lane<T>::get(grad.v[k]) : 0.f;
                    out.v[k] = Lane<T>::put(Lane<T>::get(s.v[k]) + routed);
                }
            } else {
#pragma unroll
                for (int k = 0; k < V; ++k)
                    out.v[k] = window && pick[k] == q ? grad.v[k] : Lane<T>::put(0.f);
            }
            dx[rows[q] * groups + g] = out;
        }
    }
}

template <typename T, int V> struct PoolBackwardOp {
    static int run(const void* x, const void* dy, const void* dskip, int64_t skipRowStride,
                   int64_t N, int64_t H, int64_t W, int64_t C, void* dx, cudaStream_t s)
    {
        const int64_t Hb = (H + 1) / 2, Wb = (W + 1) / 2, groups = C / V;
        const int64_t work = N * Hb * Wb * groups;
        if (work == 0)
            return 0;
        maxPoolSkipBackwardKernel<T, V><<<blocksFor(work), kThreads, 0, s>>>(
            static_cast<const Vec<T, V>*>(x), static_cast<const Vec<T, V>*>(dy),
            static_cast<const Vec<T, V>*>(dskip), skipRowStride / V, H, W, groups, Hb, Wb, H / 2,
            W / 2, work, static_cast<Vec<T, V>*>(dx));
        return int(cudaGetLastError());
    }
};

// --- The decoder's concatenation, backward
// --------------------------------------------------------

constexpr int64_t kMaxConcatBlocks = 1024;
constexpr int64_t kConcatRowsPerBlock = 64; // at least, so each block's partial sums pay off

/// Threads of a block split into lanes of `groups` threads, one channel vector each; the block
/// copies its rows of dy's up-side channels into du and sums them per channel.
template <typename T, int V>
__global__ void __launch_bounds__(kThreads)
    concatGradKernel(const Vec<T, V>* __restrict__ dy, int64_t gs, int64_t gu, int64_t rows,
                     int64_t rowsPerBlock, Vec<T, V>* __restrict__ du, float* __restrict__ partials)
{
    __shared__ float red[kThreads * V];
    const int64_t lanes = kThreads / gu, g = threadIdx.x % gu, lane = threadIdx.x / gu;
    const int64_t start = int64_t(blockIdx.x) * rowsPerBlock;
    const int64_t end = start + rowsPerBlock < rows ? start + rowsPerBlock : rows;
    float acc[V];
#pragma unroll
    for (int k = 0; k < V; ++k)
        acc[k] = 0.f;
    if (lane < lanes) {
        for (int64_t r = start + lane; r < end; r += lanes) {
            const Vec<T, V> v = dy[r * (gs + gu) + gs + g];
            du[r * gu + g] = v;
#pragma unroll
            for (int k = 0; k < V; ++k)
                acc[k] += Lane<T>::get(v.v[k]);
        }
    }
#pragma unroll
    for (int k = 0; k < V; ++k)
        red[threadIdx.x * V + k] = lane < lanes ? acc[k] : 0.f;
    __syncthreads();
    const int64_t Cu = gu * V;
    for (int64_t c = threadIdx.x; c < Cu; c += kThreads) {
        float sum = 0.f;
        for (int64_t l = 0; l < lanes; ++l)
            sum += red[(l * gu + c / V) * V + c % V];
        partials[int64_t(blockIdx.x) * Cu + c] = sum;
    }
}

/// One block of kSumThreads per channel.
template <typename T>
__global__ void concatGradFinishKernel(const float* __restrict__ partials, int64_t blocks,
                                       int64_t Cu, float* __restrict__ dbias)
{
    const float* const parts[1] = {partials};
    double sum[1];
    vec::sumOverBlocks<1>(parts, blocks, Cu, blockIdx.x, sum);
    if (threadIdx.x == 0)
        dbias[blockIdx.x] = Lane<T>::get(Lane<T>::put(float(sum[0])));
}

template <typename T, int V> struct ConcatGradOp {
    static int run(const void* dy, int64_t Cs, int64_t Cu, int64_t rows, void* du, float* partials,
                   float* dbias, cudaStream_t s)
    {
        if (rows == 0)
            return 0;
        const int64_t blocks = concatGradPartials(rows);
        const int64_t rowsPerBlock = (rows + blocks - 1) / blocks;
        concatGradKernel<T, V><<<unsigned(blocks), kThreads, 0, s>>>(
            static_cast<const Vec<T, V>*>(dy), Cs / V, Cu / V, rows, rowsPerBlock,
            static_cast<Vec<T, V>*>(du), partials);
        concatGradFinishKernel<T>
            <<<unsigned(Cu), vec::kSumThreads, 0, s>>>(partials, blocks, Cu, dbias);
        return int(cudaGetLastError());
    }
};

// --- The segmentation loss ----------------------------------------------------------------------

constexpr int64_t kMaxLossBlocks = 1024;
constexpr int64_t kLossPerThread = 8; // values a thread sums at least, so blocks are not idle

__device__ inline float sigmoidOf(float z)
{
    return 1.f / (1.f + expf(-z));
}

/// Sums of the block's threads, one value per thread and quantity, into out[0 .. Q).
template <int Q> __device__ void blockSum(float (&v)[Q], float* out)
{
    __shared__ float red[Q][kThreads / 32];
#pragma unroll
    for (int q = 0; q < Q; ++q)
        for (int o = 16; o > 0; o /= 2)
            v[q] += __shfl_down_sync(0xffffffffu, v[q], o);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
#pragma unroll
        for (int q = 0; q < Q; ++q)
            red[q][warp] = v[q];
    }
    __syncthreads();
    if (threadIdx.x < Q) {
        float s = 0;
        for (int w = 0; w < kThreads / 32; ++w)
            s += red[threadIdx.x][w];
        out[threadIdx.x] = s;
    }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    segLossPartialKernel(const T* __restrict__ z, const float* __restrict__ target, int64_t n,
                         float* __restrict__ partials)
{
    float s[4] = {0, 0, 0, 0}; // BCE, p t, p, t
    for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n;
         i += int64_t(gridDim.x) * kThreads) {
        const float x = Lane<T>::get(z[i]), t = target[i];
        // ATen's binary_cross_entropy_with_logits without weights:
        // (1 - t) x + m + log(exp(-m) + exp(-x - m)), m = max(-x, 0).
        const float m = fmaxf(-x, 0.f);
        s[0] += (1.f - t) * x + m + logf(expf(-m) + expf(-x - m));
        const float p = sigmoidOf(x);
        s[1] += p * t;
        s[2] += p;
        s[3] += t;
    }
    blockSum<4>(s, partials + int64_t(blockIdx.x) * 4);
}

/// The blocks' partial sums in double, in block order, and the loss.
__global__ void segLossFinishKernel(const float* __restrict__ partials, int64_t blocks, int64_t n,
                                    float* __restrict__ sums, float* __restrict__ loss)
{
    __shared__ double total[4];
    if (threadIdx.x < 4) {
        double s = 0;
        for (int64_t b = 0; b < blocks; ++b)
            s += partials[b * 4 + threadIdx.x];
        total[threadIdx.x] = s;
        sums[threadIdx.x] = float(s);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const double bce = total[0] / double(n);
        const double dice = 1.0 - (2.0 * total[1] + 1.0) / (total[2] + total[3] + 1.0);
        *loss = float(bce + dice);
    }
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    segLossBackwardKernel(const T* __restrict__ z, const float* __restrict__ target, int64_t n,
                          const float* __restrict__ sums, const float* __restrict__ gradLoss,
                          T* __restrict__ dz)
{
    // dice = 1 - A / B, A = 2 sum(p t) + 1, B = sum(p) + sum(t) + 1:
    // d dice / d p_i = (A - 2 t_i B) / B^2 = A / B^2 - t_i 2 / B.
    const double A = 2.0 * double(sums[1]) + 1.0, B = double(sums[2]) + double(sums[3]) + 1.0;
    const float c1 = float(A / (B * B)), c2 = float(2.0 / B), invN = float(1.0 / double(n));
    const float g = *gradLoss;
    for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < n;
         i += int64_t(gridDim.x) * kThreads) {
        const float t = target[i], p = sigmoidOf(Lane<T>::get(z[i]));
        dz[i] = Lane<T>::put(g * ((p - t) * invN + p * (1.f - p) * (c1 - t * c2)));
    }
}

template <typename T> struct LossForwardOp {
    static int run(const void* z, const float* target, int64_t n, float* partials, float* sums,
                   float* loss, cudaStream_t s)
    {
        const int64_t blocks = lossPartials(n);
        segLossPartialKernel<T>
            <<<unsigned(blocks), kThreads, 0, s>>>(static_cast<const T*>(z), target, n, partials);
        segLossFinishKernel<<<1, 32, 0, s>>>(partials, blocks, n, sums, loss);
        return int(cudaGetLastError());
    }
};

template <typename T> struct LossBackwardOp {
    static int run(const void* z, const float* target, int64_t n, const float* sums,
                   const float* gradLoss, void* dz, cudaStream_t s)
    {
        segLossBackwardKernel<T><<<blocksFor(n), kThreads, 0, s>>>(
            static_cast<const T*>(z), target, n, sums, gradLoss, static_cast<T*>(dz));
        return int(cudaGetLastError());
    }
};

template <template <typename> class F, typename... A> int byType(DType t, A... a)
{
    switch (t) {
    case DType::BF16:
        return F<__nv_bfloat16>::run(a...);
    case DType::F16:
        return F<__half>::run(a...);
    case DType::F32:
        return F<float>::run(a...);
    }
    return int(cudaErrorInvalidValue);
}

} // namespace

int maxPool2SkipBackwardNhwc(DType t, const void* x, const void* dy, const void* dskip,
                             int64_t skipRowStride, int64_t N, int64_t H, int64_t W, int64_t C,
                             void* dx, cudaStream_t stream)
{
    const int64_t v = vec::vecOf(t);
    const bool wide = C % v == 0 && vec::aligned(x) && vec::aligned(dy) && vec::aligned(dx) &&
                      (!dskip || (skipRowStride % v == 0 && vec::aligned(dskip)));
    return vec::byTypeAndWidth<PoolBackwardOp>(t, wide, x, dy, dskip, skipRowStride, N, H, W, C, dx,
                                               stream);
}

bool concatGradFits(DType t, int64_t Cs, int64_t Cu)
{
    const int64_t v = vec::vecOf(t);
    return Cu > 0 && (Cs % v == 0 && Cu % v == 0 ? Cu / v : Cu) <= kThreads;
}

int64_t concatGradPartials(int64_t rows)
{
    const int64_t b = (rows + kConcatRowsPerBlock - 1) / kConcatRowsPerBlock;
    return b < 1 ? 1 : (b > kMaxConcatBlocks ? kMaxConcatBlocks : b);
}

int concatGradNhwc(DType t, const void* dy, int64_t Cs, int64_t Cu, int64_t rows, void* du,
                   float* partials, float* dbias, cudaStream_t stream)
{
    const int64_t v = vec::vecOf(t);
    const bool wide = Cs % v == 0 && Cu % v == 0 && vec::aligned(dy) && vec::aligned(du);
    if (Cu <= 0 || (wide ? Cu / v : Cu) > kThreads)
        return int(cudaErrorInvalidValue);
    return vec::byTypeAndWidth<ConcatGradOp>(t, wide, dy, Cs, Cu, rows, du, partials, dbias,
                                             stream);
}

int64_t lossPartials(int64_t n)
{
    const int64_t b = (n + kThreads * kLossPerThread - 1) / (kThreads * kLossPerThread);
    return b < 1 ? 1 : (b > kMaxLossBlocks ? kMaxLossBlocks : b);
}

int segLossForward(DType t, const void* z, const float* target, int64_t n, float* partials,
                   float* sums, float* loss, cudaStream_t stream)
{
    return byType<LossForwardOp>(t, z, target, n, partials, sums, loss, stream);
}

int segLossBackward(DType t, const void* z, const float* target, int64_t n, const float* sums,
                    const float* gradLoss, void* dz, cudaStream_t stream)
{
    if (n == 0)
        return 0;
    return byType<LossBackwardOp>(t, z, target, n, sums, gradLoss, dz, stream);
}

} // namespace fisura::models::cuda

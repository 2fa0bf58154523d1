// One thread block per position: the T x d samples of the position are gathered into shared
// memory (straight from the frames for PACO: the T x P patch matrix never exists in global
// memory), shifted by the position's first sample, multiplied into X^T X with 4x4 register tiles
// (a column of ones appended to X gives the sums for the mean in the same product), shrunk (the
// formulas of patch_stats.cpp: PACO, Flasseur et al. 2018; Ledoit & Wolf 2004) and inverted:
// by the symmetric sweep operator (Goodnight, "A tutorial on the SWEEP operator", The American
// Statistician 33, 1979) on a matrix held in the registers of the whole block, one barrier per
// pivot, or by an in-shared-memory Cholesky and L^-1 when the factor is asked for. Global traffic
// is the input read (mostly from L2: neighbouring patches overlap) plus the d x d output.
#include "anomaly/patch_stats_cuda.h"

#include <cuda_runtime.h>

namespace fisura::anomaly::cuda
{
namespace
{

constexpr int kThreads = 256;
constexpr int kMaxDim = 64;

/// Rows of samples held in shared memory at once. The samples stream through this chunk, so a
/// block needs about 25 KB instead of T x d floats (65 KB for T = 252, P = 49): eight blocks fit
/// on an SM instead of three, which hides the barriers of the pivot loops behind other blocks.
constexpr int kChunkRows = 64;

struct Layout {
    int dp;      // d rounded up to a multiple of 4 (float4 rows)
    int ld;      // leading dimension of the d x d matrices (odd: fewer bank conflicts)
    int chunk;   // sample rows per chunk
    int xFloats; // union of a chunk of samples (chunk x dp) and the inverse factor dp x ld
    size_t bytes;
};

Layout layoutFor(int64_t T, int64_t d)
{
    Layout l;
    l.dp = int((d + 1 + 3) / 4 * 4); // room for the column of ones
    l.ld = l.dp + 1;
    l.chunk = int(T < kChunkRows ? T : kChunkRows);
    const int64_t x = int64_t(l.chunk) * l.dp > int64_t(l.dp) * l.ld ? int64_t(l.chunk) * l.dp
                                                                     : int64_t(l.dp) * l.ld;
    l.xFloats = int(x);
    // X/W union, A, x0 shift, mean, two pivot columns (or L's diagonal), 32 reduction slots x 4.
    l.bytes = size_t(x + int64_t(l.dp) * l.ld + 4 * l.dp + 4 * 32) * sizeof(float);
    return l;
}

/// Sample t of feature f of a position: base[t * stride + offset(n, f)].
struct FramesLoader {
    const float* frames;
    int C, H, W, r, k;
    __device__ size_t offset(long long n, int f) const
    {
        const int c = f / (k * k), rem = f - c * k * k;
        const int dy = rem / k, dx = rem - dy * k;
        const int py = int(n / W), px = int(n - (long long)py * W);
        const int y = min(max(py + dy - r, 0), H - 1); // replicate borders
        const int x = min(max(px + dx - r, 0), W - 1);
        return (size_t(c) * H + y) * W + x;
    }
    __device__ float at(size_t off, int t) const
    {
        return __ldg(frames + size_t(t) * C * H * W + off);
    }
};

struct SamplesLoader {
    const float* samples;
    int T, d;
    __device__ size_t offset(long long n, int f) const { return size_t(n) * T * d + f; }
    __device__ float at(size_t off, int t) const { return __ldg(samples + off + size_t(t) * d); }
};

/// Sum of v over the block; every thread gets the result. `slots` has 32 floats.
__device__ float blockSum(float v, float* slots)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        slots[warp] = v;
    __syncthreads();
    float s = 0.f;
    for (int w = 0; w < int(blockDim.x / 32); ++w)
        s += slots[w];
    return s;
}

/// Lower triangle of X^T X over all chunks of samples: each thread keeps a 4 x 4 tile of the
/// product in registers (`part` splits a chunk's rows between the threads of one tile).
struct CovarianceTile {
    int I = 0, J = 0, part = 0, parts = 1;
    bool active = false;
    float acc[4][4] = {};

    __device__ explicit CovarianceTile(int dp)
    {
        const int nb = dp / 4, tiles = nb * (nb + 1) / 2;
        parts = max(1, int(blockDim.x) / tiles);
        active = int(threadIdx.x) < tiles * parts;
        const int tile = threadIdx.x % tiles;
        part = threadIdx.x / tiles;
        while ((I + 1) * (I + 2) / 2 <= tile) // tile -> (I, J), I >= J
            ++I;
        J = tile - I * (I + 1) / 2;
    }
    /// Adds the `rows` rows of X [rows, dp].
    __device__ void add(const float* X, int rows, int dp)
    {
        if (!active)
            return;
        for (int t = part; t < rows; t += parts) {
            const float4 a = *reinterpret_cast<const float4*>(X + t * dp + 4 * I);
            const float4 b = *reinterpret_cast<const float4*>(X + t * dp + 4 * J);
            const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
    }
    /// Into A (zeroed by the caller), rows/columns < n.
    __device__ void flush(float* A, int ld, int n) const
    {
        if (!active)
            return;
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int gi = 4 * I + i, gj = 4 * J + j;
                if (gi < n && gj <= gi)
                    atomicAdd(A + gi * ld + gj, acc[i][j]);
            }
    }
};

/// Samples t0 .. t0 + rows - 1 of the position into X [rows, dp], shifted by x0 (y = x - x_0);
/// column d holds ones, the columns after it zeros.
template <class Loader>
__device__ void gatherChunk(const Loader& load, long long n, int t0, int rows, int d, int dp,
                            const float* x0, float* X)
{
    const int rowsPer = blockDim.x / dp, f = threadIdx.x % dp, r0 = threadIdx.x / dp;
    if (r0 >= rowsPer)
        return;
    if (f < d) {
        const size_t off = load.offset(n, f);
        const float shift = x0[f];
        for (int t = r0; t < rows; t += rowsPer)
            X[t * dp + f] = load.at(off, t0 + t) - shift;
    } else {
        const float v = f == d ? 1.f : 0.f;
        for (int t = r0; t < rows; t += rowsPer)
            X[t * dp + f] = v;
    }
}

/// In-place lower Cholesky of A (d x d, lower triangle); diag receives L_kk, A's strict lower
/// triangle L's. Returns false (to every thread) when a pivot is not positive.
__device__ bool cholesky(float* A, float* diag, int d, int ld)
{
    bool ok = true;
    for (int k = 0; k < d; ++k) {
        const float pivot = A[k * ld + k];
        ok = ok && pivot > 0.f;
        const float inv = rsqrtf(fmaxf(pivot, 1e-30f));
        for (int i = k + 1 + threadIdx.x; i < d; i += blockDim.x)
            A[i * ld + k] *= inv;
        if (threadIdx.x == 0)
            diag[k] = sqrtf(fmaxf(pivot, 1e-30f));
        __syncthreads();
        const int m = d - k - 1;
        for (int e = threadIdx.x; e < m * m; e += blockDim.x) {
            const int i = k + 1 + e / m, j = k + 1 + e % m;
            if (j <= i)
                A[i * ld + j] -= A[i * ld + k] * A[j * ld + k];
        }
        __syncthreads();
    }
    return ok;
}

/// W = L^-1 (lower), one column per thread: L w = e_j by forward substitution.
__device__ void invertLower(const float* A, const float* diag, float* Wm, int d, int ld)
{
    for (int j = threadIdx.x; j < d; j += blockDim.x) {
        for (int i = 0; i < j; ++i)
            Wm[i * ld + j] = 0.f;
        Wm[j * ld + j] = 1.f / diag[j];
        for (int i = j + 1; i < d; ++i) {
            float s = 0.f;
            for (int k = j; k < i; ++k)
                s = fmaf(A[i * ld + k], Wm[k * ld + j], s);
            Wm[i * ld + j] = -s / diag[i];
        }
    }
}

constexpr int kPerThread = (kMaxDim * kMaxDim + kThreads - 1) / kThreads;

/// C^-1 of the symmetric C (lower triangle in A) written to out [d, d]: sweeping every pivot
/// turns C into -C^-1. Element e = tid + s * blockDim lives in a register of its thread; the
/// pivot's column is published through shared memory (double-buffered: one barrier a pivot).
/// Returns false when a pivot is not positive (C not positive definite).
__device__ bool sweepInverse(const float* A, int d, int ld, float* buf /*[2, dp]*/, int dp,
                             float* out)
{
    float a[kPerThread];
    int ij[kPerThread]; // (i << 8) | j of the element, -1 past the end: one register, not two
    const int dd = d * d;
#pragma unroll
    for (int s = 0; s < kPerThread; ++s) {
        const int e = threadIdx.x + s * kThreads;
        const int i = e / d, j = e - (e / d) * d;
        ij[s] = e < dd ? (i << 8) | j : -1;
        a[s] = e < dd ? (i >= j ? A[i * ld + j] : A[j * ld + i]) : 0.f;
        if (e < dd && j == 0)
            buf[i] = a[s];
    }
    __syncthreads();
    bool ok = true;
    for (int k = 0; k < d; ++k) {
        const float* v = buf + (k & 1) * dp;
        float* next = buf + ((k + 1) & 1) * dp;
        const float p = v[k];
        ok = ok && p > 0.f;
        const float inv = 1.f / p;
#pragma unroll
        for (int s = 0; s < kPerThread; ++s) {
            if (ij[s] < 0)
                continue;
            const int i = ij[s] >> 8, j = ij[s] & 0xff;
            if (i == k && j == k)
                a[s] = -inv;
            else if (i == k)
                a[s] = v[j] * inv;
            else if (j == k)
                a[s] = v[i] * inv;
            else
                a[s] = fmaf(-v[i] * inv, v[j], a[s]);
            if (j == k + 1)
                next[i] = a[s];
        }
        __syncthreads();
    }
#pragma unroll
    for (int s = 0; s < kPerThread; ++s) {
        const int e = threadIdx.x + s * kThreads;
        if (e < dd)
            out[e] = ok ? -a[s] : __int_as_float(0x7fc00000); // NaN: not positive definite
    }
    return ok;
}

// Blocks per SM the register budget must allow: 4 = at most 64 registers a thread (no spills);
// more trade spills for occupancy (measured in tests/bench/patchstats).
#ifndef FISURA_PS_MIN_BLOCKS
#define FISURA_PS_MIN_BLOCKS 4
#endif
template <class Loader>
__global__ void __launch_bounds__(kThreads, FISURA_PS_MIN_BLOCKS)
    statsKernel(Loader load, int T, int d, int dp, int ld, int chunk, int xFloats, int shrinkage,
                bool choleskyOut, float* mean, float* out, float* rhoOut)
{
    extern __shared__ float4 smem4[];
    float* X = reinterpret_cast<float*>(smem4); // a chunk [chunk, dp], later W = L^-1 [dp, ld]
    float* A = X + xFloats;                     // [dp, ld]
    float* x0 = A + dp * ld;                    // [dp]: the first sample (the shift)
    float* mu = x0 + dp;                        // [dp]
    float* buf = mu + dp;                       // [2, dp]
    float* slots = buf + 2 * dp;                // [4, 32]
    const long long n = blockIdx.x;
    const int tid = threadIdx.x;

    for (int f = tid; f < d; f += blockDim.x)
        x0[f] = load.at(load.offset(n, f), 0);
    for (int e = tid; e < dp * ld; e += blockDim.x)
        A[e] = 0.f;
    CovarianceTile cov(dp);
    __syncthreads();
    for (int t0 = 0; t0 < T; t0 += chunk) {
        const int rows = min(chunk, T - t0);
        gatherChunk(load, n, t0, rows, d, dp, x0, X);
        __syncthreads();
        cov.add(X, rows, dp);
        __syncthreads();
    }
    cov.flush(A, ld, d + 1); // row d: sums of y
    __syncthreads();
    const float Tf = float(T);
    if (tid < d) {
        const float my = A[d * ld + tid] / Tf;
        mean[n * d + tid] = x0[tid] + my;
        mu[tid] = my; // the mean of y
    }
    __syncthreads();

    // S = (sum y y^T - T m m^T) / (T - 1); traces for the shrinkage weight.
    const float scale = 1.f / (Tf - 1.f);
    float trS = 0.f, trS2 = 0.f, diag2 = 0.f, fourth = 0.f;
    for (int e = tid; e < d * d; e += blockDim.x) {
        const int i = e / d, j = e - i * d;
        if (j > i)
            continue;
        const float s = fmaf(-Tf * mu[i], mu[j], A[i * ld + j]) * scale;
        A[i * ld + j] = s;
        trS2 += (i == j ? 1.f : 2.f) * s * s;
        if (i == j) {
            trS += s;
            diag2 += s * s;
        }
    }
    if (shrinkage == 2) { // Ledoit-Wolf needs the samples again: a second pass over the chunks
        for (int t0 = 0; t0 < T; t0 += chunk) {
            const int rows = min(chunk, T - t0);
            __syncthreads();
            gatherChunk(load, n, t0, rows, d, dp, x0, X);
            __syncthreads();
            for (int t = tid; t < rows; t += blockDim.x) {
                float n2 = 0.f;
                for (int f = 0; f < d; ++f) {
                    const float c = X[t * dp + f] - mu[f];
                    n2 = fmaf(c, c, n2);
                }
                fourth += n2 * n2;
            }
        }
    }
    trS = blockSum(trS, slots);
    trS2 = blockSum(trS2, slots + 32);
    diag2 = blockSum(diag2, slots + 64);
    fourth = blockSum(fourth, slots + 96);

    float rho = 0.f, target = 0.f;
    if (shrinkage == 1) {
        const float num = trS2 + trS * trS - 2.f * diag2;
        const float den = float(T + 1) * (trS2 - diag2);
        rho = den > 0.f ? fminf(fmaxf(num / den, 0.f), 1.f) : 1.f;
    } else if (shrinkage == 2) {
        const float sc = (Tf - 1.f) / Tf;
        const float m = trS * sc / float(d), trSn2 = trS2 * sc * sc;
        const float delta2 = fmaxf(trSn2 / float(d) - m * m, 0.f);
        const float bbar2 = fmaxf((fourth / Tf - trSn2) / (Tf * float(d)), 0.f);
        rho = delta2 > 0.f ? fminf(bbar2, delta2) / delta2 : 1.f;
        target = trS / float(d);
    }
    if (tid == 0)
        rhoOut[n] = rho;
    for (int e = tid; e < d * d; e += blockDim.x) {
        const int i = e / d, j = e - i * d;
        if (j < i)
            A[i * ld + j] *= 1.f - rho;
        else if (j == i && shrinkage == 2)
            A[i * ld + i] = (1.f - rho) * A[i * ld + i] + rho * target;
    }
    __syncthreads();

    float* o = out + size_t(n) * d * d;
    if (!choleskyOut) {
        sweepInverse(A, d, ld, buf, dp, o);
        return;
    }
    float* diag = buf;
    const bool ok = cholesky(A, diag, d, ld);
    float* Wm = X;
    invertLower(A, diag, Wm, d, ld);
    __syncthreads();
    for (int e = tid; e < d * d; e += blockDim.x) {
        const int i = e / d, j = e - i * d;
        const float v = j <= i ? Wm[i * ld + j] : 0.f;
        o[e] = ok ? v : __int_as_float(0x7fc00000);
    }
}

template <class Loader>
int launch(const Loader& load, long long N, int64_t T, int64_t d, int shrinkage, bool cholesky,
           float* mean, float* out, float* rho, cudaStream_t stream)
{
    if (N == 0)
        return 0;
    const Layout l = layoutFor(T, d);
    cudaError_t err = cudaFuncSetAttribute(
        statsKernel<Loader>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(l.bytes));
    if (err != cudaSuccess)
        return int(err);
    statsKernel<Loader><<<unsigned(N), kThreads, l.bytes, stream>>>(load, int(T), int(d), l.dp, l.ld,
                                                                     l.chunk, l.xFloats, shrinkage,
                                                                     cholesky, mean, out, rho);
    return int(cudaGetLastError());
}

} // namespace

bool kernelsFit(int64_t T, int64_t d)
{
    if (d < 1 || d > kMaxDim || T < 2 || T > (int64_t(1) << 20))
        return false;
    int device = 0, optin = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
            cudaSuccess)
        return false;
    return layoutFor(T, d).bytes <= size_t(optin);
}

const char* errorString(int err)
{
    return cudaGetErrorString(cudaError_t(err));
}

int statsFromFrames(const float* frames, int64_t T, int64_t C, int64_t H, int64_t W, int radius,
                    int shrinkage, bool cholesky, float* mean, float* out, float* rho,
                    cudaStream_t stream)
{
    const int k = 2 * radius + 1;
    const FramesLoader load{frames, int(C), int(H), int(W), radius, k};
    return launch(load, (long long)(H * W), T, C * k * k, shrinkage, cholesky, mean, out, rho,
                  stream);
}

int statsFromSamples(const float* samples, int64_t N, int64_t T, int64_t d, int shrinkage,
                     bool cholesky, float* mean, float* out, float* rho, cudaStream_t stream)
{
    const SamplesLoader load{samples, int(T), int(d)};
    return launch(load, (long long)N, T, d, shrinkage, cholesky, mean, out, rho, stream);
}

} // namespace fisura::anomaly::cuda

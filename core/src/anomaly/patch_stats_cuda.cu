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

struct Layout {
    int dp;      // d rounded up to a multiple of 4 (float4 rows)
    int ld;      // leading dimension of the d x d matrices (odd: fewer bank conflicts)
    int xFloats; // union of the sample matrix T x dp and the inverse factor dp x ld
    size_t bytes;
};

Layout layoutFor(int64_t T, int64_t d)
{
    Layout l;
    l.dp = int((d + 1 + 3) / 4 * 4); // room for the column of ones
    l.ld = l.dp + 1;
    const int64_t x = T * l.dp > int64_t(l.dp) * l.ld ? T * l.dp : int64_t(l.dp) * l.ld;
    l.xFloats = int(x);
    // X/W union, A, mean, two pivot columns (or L's diagonal), 32 reduction slots x 4.
    l.bytes = size_t(x + int64_t(l.dp) * l.ld + 3 * l.dp + 4 * 32) * sizeof(float);
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

/// Lower triangle of X^T X, X [T, dp], rows/columns < n, into A (zeroed by the caller).
__device__ void covariance(const float* X, float* A, int T, int dp, int ld, int n)
{
    const int nb = dp / 4, tiles = nb * (nb + 1) / 2;
    const int parts = max(1, int(blockDim.x) / tiles);
    if (int(threadIdx.x) >= tiles * parts)
        return;
    const int tile = threadIdx.x % tiles, part = threadIdx.x / tiles;
    int I = 0; // tile -> (I, J), I >= J
    while ((I + 1) * (I + 2) / 2 <= tile)
        ++I;
    const int J = tile - I * (I + 1) / 2;
    float acc[4][4] = {};
    for (int t = part; t < T; t += parts) {
        const float4 a = *reinterpret_cast<const float4*>(X + t * dp + 4 * I);
        const float4 b = *reinterpret_cast<const float4*>(X + t * dp + 4 * J);
        const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int gi = 4 * I + i, gj = 4 * J + j;
            if (gi < n && gj <= gi)
                atomicAdd(A + gi * ld + gj, acc[i][j]);
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
    int ii[kPerThread], jj[kPerThread];
    const int dd = d * d;
#pragma unroll
    for (int s = 0; s < kPerThread; ++s) {
        const int e = threadIdx.x + s * kThreads;
        ii[s] = e < dd ? e / d : -1;
        jj[s] = e < dd ? e - ii[s] * d : -1;
        a[s] = e < dd ? (ii[s] >= jj[s] ? A[ii[s] * ld + jj[s]] : A[jj[s] * ld + ii[s]]) : 0.f;
        if (e < dd && jj[s] == 0)
            buf[ii[s]] = a[s];
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
            const int i = ii[s], j = jj[s];
            if (i < 0)
                continue;
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

template <class Loader>
__global__ void __launch_bounds__(kThreads)
    statsKernel(Loader load, int T, int d, int dp, int ld, int xFloats, int shrinkage,
                bool choleskyOut, float* mean, float* out, float* rhoOut)
{
    extern __shared__ float4 smem4[];
    float* X = reinterpret_cast<float*>(smem4); // [T, dp], later W = L^-1 [dp, ld]
    float* A = X + xFloats;                     // [dp, ld]
    float* mu = A + dp * ld;                    // [dp]
    float* buf = mu + dp;                       // [2, dp]
    float* slots = buf + 2 * dp;                // [4, 32]
    const long long n = blockIdx.x;
    const int tid = threadIdx.x;

    // Gather, shifted by the first sample (y = x - x_0); column d holds ones, the rest zeros.
    {
        const int rowsPer = blockDim.x / dp, f = tid % dp, t0 = tid / dp;
        if (t0 < rowsPer) {
            if (f < d) {
                const size_t off = load.offset(n, f);
                const float x0 = load.at(off, 0);
                if (t0 == 0)
                    mu[f] = x0;
                for (int t = t0; t < T; t += rowsPer)
                    X[t * dp + f] = load.at(off, t) - x0;
            } else {
                const float v = f == d ? 1.f : 0.f;
                for (int t = t0; t < T; t += rowsPer)
                    X[t * dp + f] = v;
            }
        }
    }
    for (int e = tid; e < dp * ld; e += blockDim.x)
        A[e] = 0.f;
    __syncthreads();
    covariance(X, A, T, dp, ld, d + 1); // row d: sums of y
    __syncthreads();
    const float Tf = float(T);
    if (tid < d) {
        const float my = A[d * ld + tid] / Tf;
        mean[n * d + tid] = mu[tid] + my;
        mu[tid] = my; // from here on: the mean of y
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
    if (shrinkage == 2)
        for (int t = tid; t < T; t += blockDim.x) {
            float n2 = 0.f;
            for (int f = 0; f < d; ++f) {
                const float c = X[t * dp + f] - mu[f];
                n2 = fmaf(c, c, n2);
            }
            fourth += n2 * n2;
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
    statsKernel<Loader><<<unsigned(N), kThreads, l.bytes, stream>>>(
        load, int(T), int(d), l.dp, l.ld, l.xFloats, shrinkage, cholesky, mean, out, rho);
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

// GPU check and benchmark of the per-position patch statistics (core/src/anomaly/patch_stats.h).
//  1. check: the CUDA paths (Fisura's kernels and the batched LibTorch path) against the CPU
//     float64 path on random data: relative errors of means, inverses and rho, pass/fail;
//  2. time: PACO statistics of 100x100x252 and 200x200x252 stacks, P = 49 (radius 3), CUDA
//     events, warm-up, median of N; achieved bandwidth (input read + statistics written)
//     against a measured device-to-device copy;
//  3. the CPU path on the same 100x100x252 case.
// Without CUDA only 3 runs. Usage:
//   fisura-bench-patchstats [--json FILE] [--reps N] [--cpu-reps N] [--no-cpu] [--no-large]
//                           [--no-kernels]
// Exit code 1 when a check fails, 2 on an error (the JSON then holds what was done and the error).
#include "compat/torch_compat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "anomaly/patch_stats.h"

#ifdef FISURA_TORCH_CUDA
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

using namespace fisura::anomaly;
using nlohmann::json;

namespace
{

struct Args {
    std::string json;
    int reps = 20, cpuReps = 3;
    bool cpu = true, large = true, kernels = true;
};

bool gKernels = true; // --no-kernels: the LibTorch path only (after a kernel failure)

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Median milliseconds of f over `reps` runs after `warm` warm-up runs.
double timeMs(const std::function<void()>& f, bool cuda, int warm, int reps)
{
    for (int i = 0; i < warm; ++i)
        f();
    std::vector<double> ms;
#ifdef FISURA_TORCH_CUDA
    if (cuda) {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        const auto stream = c10::cuda::getCurrentCUDAStream().stream();
        for (int i = 0; i < reps; ++i) {
            cudaEventRecord(a, stream);
            f();
            cudaEventRecord(b, stream);
            cudaEventSynchronize(b);
            float t = 0.f;
            cudaEventElapsedTime(&t, a, b);
            ms.push_back(t);
        }
        cudaEventDestroy(a);
        cudaEventDestroy(b);
        return median(ms);
    }
#else
    (void)cuda;
#endif
    for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    return median(ms);
}

#ifdef FISURA_TORCH_CUDA
double relError(const torch::Tensor& a, const torch::Tensor& ref)
{
    const auto r = ref.to(torch::kCPU, torch::kFloat64);
    const auto x = a.to(torch::kCPU, torch::kFloat64);
    return ((x - r).norm() / r.norm().clamp_min(1e-300)).item<double>();
}

/// One comparison of a CUDA result with the CPU float64 result.
json compare(const std::string& name, const PatchStats& got, const PatchStats& ref, double tol,
             bool& allOk)
{
    const double em = relError(got.mean, ref.mean), ep = relError(got.precision, ref.precision),
                 er = relError(got.rho, ref.rho);
    const bool finite = torch::isfinite(got.precision).all().item<bool>();
    const bool ok = finite && em < tol && ep < tol && er < tol;
    allOk = allOk && ok;
    std::printf("check %-44s mean %.2e  inverse %.2e  rho %.2e  %s\n", name.c_str(), em, ep, er,
                ok ? "PASS" : "FAIL");
    return {{"name", name},      {"mean_rel_err", em}, {"inverse_rel_err", ep},
            {"rho_rel_err", er}, {"tolerance", tol},   {"pass", ok}};
}

json checks(const torch::Device dev, bool& allOk)
{
    json out = json::array();
    const double tol = 1e-4;
    struct C {
        int T, Cn, H, W, r;
        Shrinkage s;
        bool chol;
    };
    const std::vector<C> cases = {{252, 1, 24, 20, 3, Shrinkage::Paco, false},
                                  {64, 1, 17, 13, 3, Shrinkage::LedoitWolf, false},
                                  {100, 1, 16, 16, 3, Shrinkage::Paco, true},
                                  {80, 3, 12, 10, 1, Shrinkage::Paco, false},
                                  {90, 1, 10, 11, 2, Shrinkage::Paco, false}, // None: singular at replicated borders
                                  {40, 3, 9, 8, 2, Shrinkage::LedoitWolf, false}};
    const char* names[] = {"none", "paco", "ledoit-wolf"};
    for (const auto& c : cases) {
        const auto stack = torch::rand({c.T, c.Cn, c.H, c.W}, torch::kFloat64) * 200.0 + 20.0;
        PatchStatsOptions o;
        o.radius = c.r;
        o.shrinkage = c.s;
        o.cholesky = c.chol;
        const PatchStats ref = patchStatistics(stack, o);
        const int64_t d = c.Cn * (2 * c.r + 1) * (2 * c.r + 1);
        const std::string base = "patches T" + std::to_string(c.T) + " C" + std::to_string(c.Cn) +
                                 " " + std::to_string(c.H) + "x" + std::to_string(c.W) + " r" +
                                 std::to_string(c.r) + " " + names[int(c.s)] +
                                 (c.chol ? " chol" : "");
        const auto gpu = stack.to(dev, torch::kFloat32);
        for (bool kernels : {true, false}) {
            if (kernels && (!gKernels || !cudaKernelsApply(c.T, d, dev)))
                continue;
            o.allowKernels = kernels;
            out.push_back(compare(base + (kernels ? " [kernel]" : " [libtorch]"),
                                  patchStatistics(gpu, o), ref, tol, allOk));
        }
    }
    // Samples path (PaDiM features) and the distance, kernel and LibTorch.
    const int N = 300, T = 120, d = 40;
    const auto x = torch::randn({N, T, d}, torch::kFloat64) + 5.0;
    PatchStatsOptions o;
    const PatchStats ref = gaussianStatistics(x, o);
    const auto feats = torch::randn({4, d, 15, 20}, torch::kFloat64);
    const auto refDist = mahalanobis(feats, ref);
    for (bool kernels : {true, false}) {
        if (kernels && (!gKernels || !cudaKernelsApply(T, d, dev)))
            continue;
        o.allowKernels = kernels;
        const PatchStats got = gaussianStatistics(x.to(dev, torch::kFloat32), o);
        out.push_back(compare(std::string("samples N300 T120 d40 paco") +
                                  (kernels ? " [kernel]" : " [libtorch]"),
                              got, ref, tol, allOk));
        const double e = relError(mahalanobis(feats.to(dev, torch::kFloat32), got), refDist);
        const bool ok = e < tol;
        allOk = allOk && ok;
        std::printf("check %-44s distance %.2e  %s\n",
                    (std::string("mahalanobis") + (kernels ? " [kernel]" : " [libtorch]")).c_str(),
                    e, ok ? "PASS" : "FAIL");
        out.push_back(
            {{"name", std::string("mahalanobis") + (kernels ? " [kernel]" : " [libtorch]")},
             {"distance_rel_err", e},
             {"pass", ok}});
    }
    // Streaming accumulator on the GPU against the one-shot CPU float64 fit.
    GaussianAccumulator acc(d, 15, 20, dev);
    const auto imgs = torch::randn({37, d, 15, 20}, torch::kFloat64) * 3.0 + 50.0;
    for (int a = 0; a < 37; a += 8)
        acc.add(imgs.slice(0, a, std::min(37, a + 8)).to(dev, torch::kFloat32));
    const auto oneShot =
        gaussianStatistics(imgs.flatten(2).permute({2, 0, 1}), PatchStatsOptions{});
    out.push_back(compare("accumulator 300 positions x 37 images", acc.finish(PatchStatsOptions{}),
                          oneShot, tol, allOk));
    return out;
}

double copyBandwidthGBs(const torch::Device dev)
{
    const int64_t n = int64_t(256) << 20; // 1 GiB of floats
    auto src = torch::rand({n}, torch::TensorOptions().device(dev));
    auto dst = torch::empty_like(src);
    const double ms = timeMs([&] { dst.copy_(src); }, true, 3, 10);
    return 2.0 * double(n) * 4.0 / (ms * 1e-3) / 1e9; // read + write
}
#endif

json timing(const std::string& name, int64_t T, int64_t H, int64_t W, const torch::Device dev,
            bool kernels, int reps, double copyGBs)
{
    const int r = 3;
    const int64_t d = 49, N = H * W;
    const auto stack = torch::rand({T, H, W}, torch::TensorOptions().device(dev)) * 255.0;
    PatchStatsOptions o;
    o.radius = r;
    o.allowKernels = kernels;
    PatchStats keep;
    const double ms = timeMs([&] { keep = patchStatistics(stack, o); }, dev.is_cuda(),
                             dev.is_cuda() ? 3 : 1, reps);
    const double bytes = double(T * H * W) * 4.0 + double(statisticsBytes(N, d));
    const double gbs = bytes / (ms * 1e-3) / 1e9;
    const std::string path =
        dev.is_cuda() ? (kernels && cudaKernelsApply(T, d, dev) ? "kernel" : "libtorch") : "cpu";
    std::printf("time  %-12s %-8s %9.3f ms  %8.1f GB/s", name.c_str(), path.c_str(), ms, gbs);
    if (copyGBs > 0)
        std::printf("  (%.1f %% of copy bandwidth)", 100.0 * gbs / copyGBs);
    std::printf("\n");
    json j = {{"case", name},   {"path", path},   {"T", T},          {"H", H},
              {"W", W},         {"P", d},         {"median_ms", ms}, {"reps", reps},
              {"bytes", bytes}, {"gb_per_s", gbs}};
    if (copyGBs > 0)
        j["fraction_of_copy_bw"] = gbs / copyGBs;
    return j;
}

Args parse(int argc, char** argv)
{
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument(s + " needs a value");
            return argv[++i];
        };
        if (s == "--json")
            a.json = next();
        else if (s == "--reps")
            a.reps = std::stoi(next());
        else if (s == "--cpu-reps")
            a.cpuReps = std::stoi(next());
        else if (s == "--no-cpu")
            a.cpu = false;
        else if (s == "--no-large")
            a.large = false;
        else if (s == "--no-kernels")
            a.kernels = false;
        else
            throw std::invalid_argument("unknown argument " + s);
    }
    return a;
}

} // namespace

int main(int argc, char** argv)
{
    json report = {{"program", "fisura-bench-patchstats"},
                   {"libtorch", TORCH_VERSION},
                   {"kernels_built", cudaKernelsBuilt()}};
    json times = json::array();
    Args args;
    try {
        args = parse(argc, argv);
        gKernels = args.kernels;
        report["kernels_allowed"] = args.kernels;
        torch::manual_seed(7);
        bool allOk = true;
#ifdef FISURA_TORCH_CUDA
        const bool cuda = torch::cuda::is_available();
#else
        const bool cuda = false;
#endif
        report["cuda"] = cuda;
#ifdef FISURA_TORCH_CUDA
        if (cuda) {
            const torch::Device dev(torch::kCUDA, 0);
            cudaDeviceProp prop{};
            cudaGetDeviceProperties(&prop, 0);
            report["device"] = prop.name;
            report["checks"] = checks(dev, allOk);
            const double copy = copyBandwidthGBs(dev);
            std::printf("copy  device-to-device %.1f GB/s (read + write)\n", copy);
            report["copy_gb_per_s"] = copy;
            for (bool kernels : {true, false}) {
                if (kernels && !gKernels)
                    continue;
                times.push_back(
                    timing("100x100x252", 252, 100, 100, dev, kernels, args.reps, copy));
                if (args.large)
                    times.push_back(
                        timing("200x200x252", 252, 200, 200, dev, kernels, args.reps, copy));
            }
        }
#endif
        if (args.cpu) {
            report["cpu_threads"] = at::get_num_threads();
            times.push_back(
                timing("100x100x252", 252, 100, 100, torch::kCPU, false, args.cpuReps, 0));
        }
        report["timings"] = times;
        report["checks_pass"] = allOk;
        if (!args.json.empty())
            std::ofstream(args.json) << report.dump(2) << "\n";
        std::printf("checks: %s\n", allOk ? "PASS" : "FAIL");
        return allOk ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fisura-bench-patchstats: %s\n", e.what());
        report["timings"] = times;
        report["error"] = std::string(e.what()).substr(0, 2000);
        report["checks_pass"] = false;
        if (!args.json.empty())
            std::ofstream(args.json) << report.dump(2) << "\n";
        return 2;
    }
}

// Cost of the telemetry sampler: CPU time of the whole process while it samples at a given rate
// and the main thread sleeps, as a percentage of one core. Target: < 1 % at 2 Hz.
// Usage: bench_sampler [seconds=20] [hz=2] [max_percent=1.0]   (exit 1 when over the target)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <sys/resource.h>

#include "fisura/telemetry.h"

namespace
{

double cpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

} // namespace

int main(int argc, char** argv)
{
    const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
    const double hz = argc > 2 ? std::atof(argv[2]) : 2.0;
    const double maxPercent = argc > 3 ? std::atof(argv[3]) : 1.0;

    fisura::TelemetryOptions o;
    o.hz = hz;
    fisura::TelemetrySampler sampler(o);
    // NVML's first load and init are a one-off start-up cost, not the steady-state cost.
    const double t0 = cpuSeconds();
    const bool gpu = sampler.hasGpuTelemetry();
    const double initCpu = cpuSeconds() - t0;

    // Per-sample cost on this thread.
    const int n = 50;
    const double c0 = cpuSeconds();
    const auto w0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        sampler.sampleNow();
    const double perSampleCpu = (cpuSeconds() - c0) / n;
    const double perSampleWall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() / n;

    // Steady state on the sampler thread.
    const double c1 = cpuSeconds();
    const auto w1 = std::chrono::steady_clock::now();
    if (auto st = sampler.start(); !st) {
        std::fprintf(stderr, "cannot start: %s\n", st.toString().c_str());
        return 2;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    sampler.stop();
    const double cpu = cpuSeconds() - c1;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w1).count();
    const double percent = 100.0 * cpu / wall;
    std::printf("{\"hz\": %.2f, \"seconds\": %.1f, \"samples\": %llu, \"gpu_telemetry\": %s, "
                "\"nvml_init_cpu_ms\": %.2f, \"per_sample_cpu_ms\": %.3f, "
                "\"per_sample_wall_ms\": %.3f, \"cpu_percent_of_one_core\": %.4f}\n",
                hz, wall, static_cast<unsigned long long>(sampler.history().pushed()),
                gpu ? "true" : "false", initCpu * 1e3, perSampleCpu * 1e3, perSampleWall * 1e3,
                percent);
    return percent < maxPercent ? 0 : 1;
}

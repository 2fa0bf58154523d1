// Live telemetry: a sampler thread reads NVML (loaded at run time; absent = no GPU figures, never
// a crash) and /proc a few times a second into a ring buffer that readers on any thread copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura
{

/// One GPU at one instant. Fields NVML cannot report on this device stay negative.
struct GpuSample {
    int index = 0; ///< NVML index
    std::string name;
    std::string pciBusId;
    double utilizationGpu = -1;    ///< % of time a kernel ran
    double utilizationMemory = -1; ///< % of time memory was read or written
    uint64_t memoryUsedBytes = 0;
    uint64_t memoryTotalBytes = 0;
    double temperatureC = -1;
    double powerW = -1;
    double powerLimitW = -1;
    double smClockMHz = -1;
    double pcieRxMBps = -1; ///< host to device
    double pcieTxMBps = -1; ///< device to host
};

struct TelemetrySample {
    double seconds = 0;            ///< since the sampler started (steady clock)
    int64_t unixMillis = 0;        ///< wall clock, for exported files
    double processCpuPercent = -1; ///< this process; 100 = one full core
    double systemCpuPercent = -1;  ///< all cores; 100 = every core busy
    uint64_t processRssBytes = 0;
    uint64_t ramUsedBytes = 0; ///< total minus available
    uint64_t ramTotalBytes = 0;
    std::vector<GpuSample> gpus;
};

/// Thread-safe ring of the newest samples. Writers push; readers copy.
class TelemetryHistory
{
public:
    explicit TelemetryHistory(size_t capacity);
    void push(TelemetrySample sample);
    /// Oldest first. `lastSeconds` > 0 keeps only samples that recent (relative to the newest).
    std::vector<TelemetrySample> snapshot(double lastSeconds = 0) const;
    bool latest(TelemetrySample& out) const;
    size_t size() const;
    size_t capacity() const { return capacity_; }
    /// Samples ever pushed; readers poll it to see whether anything is new.
    uint64_t pushed() const;
    void clear();

private:
    mutable std::mutex mutex_;
    size_t capacity_;
    std::vector<TelemetrySample> ring_;
    size_t next_ = 0;
    uint64_t pushed_ = 0;
};

struct TelemetryOptions {
    double hz = 2.0;                               ///< 0.5 .. 10
    double historySeconds = 15 * 60;               ///< ring covers this long at `hz`
    std::string nvmlLibrary = "libnvidia-ml.so.1"; ///< tests point it elsewhere
};

/// Samples on its own thread until stopped or destroyed.
class TelemetrySampler
{
public:
    static constexpr double kMinHz = 0.5;
    static constexpr double kMaxHz = 10.0;

    explicit TelemetrySampler(TelemetryOptions options = {});
    ~TelemetrySampler();
    TelemetrySampler(const TelemetrySampler&) = delete;
    TelemetrySampler& operator=(const TelemetrySampler&) = delete;

    Status start();
    void stop();
    bool isRunning() const;
    /// Change the rate while running (history keeps its capacity). InvalidArgument outside range.
    Status setRate(double hz);
    double rate() const;

    /// Take one sample now on the calling thread (not stored). CPU % needs two calls to be known.
    TelemetrySample sampleNow();

    const TelemetryHistory& history() const;
    /// Whether NVML loaded and found devices; gpuStatus() says why not in one sentence.
    bool hasGpuTelemetry() const;
    std::string gpuStatus() const;
    /// NVIDIA driver version from NVML, empty without it.
    std::string driverVersion() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// Stable JSON of one sample (keys used by `fisura-cli monitor --json` and CSV export).
std::string toJson(const TelemetrySample& sample);

} // namespace fisura

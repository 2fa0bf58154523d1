// The telemetry sampler: NVML for GPUs, /proc for CPU and RAM, a ring buffer for readers.
#include "fisura/telemetry.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "device/nvml.h"
#include "util/json_bounded.h"

namespace fisura
{

// ---- TelemetryHistory --------------------------------------------------------------------------

TelemetryHistory::TelemetryHistory(size_t capacity) : capacity_(std::max<size_t>(1, capacity))
{
    ring_.reserve(std::min<size_t>(capacity_, 4096));
}

void TelemetryHistory::push(TelemetrySample sample)
{
    std::lock_guard<std::mutex> lock(mutex_);
    if (ring_.size() < capacity_)
        ring_.push_back(std::move(sample));
    else
        ring_[next_] = std::move(sample);
    next_ = (next_ + 1) % capacity_;
    ++pushed_;
}

std::vector<TelemetrySample> TelemetryHistory::snapshot(double lastSeconds) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<TelemetrySample> out;
    out.reserve(ring_.size());
    // When full, next_ is the oldest entry.
    const size_t start = ring_.size() < capacity_ ? 0 : next_;
    for (size_t i = 0; i < ring_.size(); ++i)
        out.push_back(ring_[(start + i) % ring_.size()]);
    if (lastSeconds > 0 && !out.empty()) {
        const double from = out.back().seconds - lastSeconds;
        out.erase(out.begin(),
                  std::find_if(out.begin(), out.end(),
                               [from](const TelemetrySample& s) { return s.seconds >= from; }));
    }
    return out;
}

bool TelemetryHistory::latest(TelemetrySample& out) const
{
    std::lock_guard<std::mutex> lock(mutex_);
    if (ring_.empty())
        return false;
    out = ring_[(next_ + capacity_ - 1) % capacity_ % ring_.size()];
    return true;
}

size_t TelemetryHistory::size() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return ring_.size();
}

uint64_t TelemetryHistory::pushed() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return pushed_;
}

void TelemetryHistory::clear()
{
    std::lock_guard<std::mutex> lock(mutex_);
    ring_.clear();
    next_ = 0;
}

// ---- /proc readings ----------------------------------------------------------------------------

namespace
{

struct CpuTimes {
    unsigned long long busy = 0, total = 0; ///< system jiffies
    unsigned long long process = 0;         ///< this process, utime + stime
    std::chrono::steady_clock::time_point when;
    bool valid = false;
};

CpuTimes readCpuTimes()
{
    CpuTimes t;
    t.when = std::chrono::steady_clock::now();
    std::ifstream stat("/proc/stat");
    std::string cpu;
    unsigned long long v[8] = {};
    if (stat >> cpu >> v[0] >> v[1] >> v[2] >> v[3] >> v[4] >> v[5] >> v[6] >> v[7] &&
        cpu == "cpu") {
        for (auto x : v)
            t.total += x;
        t.busy = t.total - v[3] - v[4]; // minus idle and iowait
        t.valid = true;
    }
    std::ifstream self("/proc/self/stat");
    std::string line;
    if (std::getline(self, line)) {
        // Field 2 (comm) may hold spaces: parse after its closing parenthesis.
        const auto close = line.rfind(')');
        std::istringstream rest(line.substr(close == std::string::npos ? 0 : close + 2));
        std::string field;
        unsigned long long utime = 0, stime = 0;
        for (int i = 3; i <= 15 && rest >> field; ++i) {
            if (i == 14)
                utime = std::stoull(field);
            else if (i == 15)
                stime = std::stoull(field);
        }
        t.process = utime + stime;
    } else {
        t.valid = false;
    }
    return t;
}

uint64_t meminfoKiB(std::istream& in, const char* key)
{
    in.clear();
    in.seekg(0);
    std::string k;
    unsigned long long value = 0;
    std::string unit;
    const std::string want = std::string(key) + ":";
    while (in >> k >> value) {
        std::getline(in, unit);
        if (k == want)
            return value;
    }
    return 0;
}

} // namespace

// ---- TelemetrySampler --------------------------------------------------------------------------

struct TelemetrySampler::Impl {
    explicit Impl(const TelemetryOptions& o)
        : options(o), hz(std::clamp(o.hz, kMinHz, kMaxHz)),
          history(static_cast<size_t>(std::ceil(o.historySeconds * hz)))
    {
    }

    TelemetryOptions options;
    std::atomic<double> hz;
    TelemetryHistory history;
    std::unique_ptr<detail::Nvml> nvml;
    std::once_flag nvmlOnce;
    std::chrono::steady_clock::time_point origin = std::chrono::steady_clock::now();
    CpuTimes previous;
    long ticksPerSecond = ::sysconf(_SC_CLK_TCK);
    long pageSize = ::sysconf(_SC_PAGESIZE);
    int cores = std::max(1u, std::thread::hardware_concurrency());

    std::mutex sampleMutex; // sampleNow() from a user thread vs the sampler thread
    std::mutex runMutex;
    std::condition_variable wake;
    bool stopRequested = false;
    std::thread thread;

    detail::Nvml& gpu()
    {
        std::call_once(nvmlOnce,
                       [this] { nvml = std::make_unique<detail::Nvml>(options.nvmlLibrary); });
        return *nvml;
    }

    TelemetrySample take()
    {
        std::lock_guard<std::mutex> lock(sampleMutex);
        TelemetrySample s;
        const auto now = std::chrono::steady_clock::now();
        s.seconds = std::chrono::duration<double>(now - origin).count();
        s.unixMillis = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
        const CpuTimes cur = readCpuTimes();
        if (cur.valid && previous.valid) {
            const double wall = std::chrono::duration<double>(cur.when - previous.when).count();
            const double dTotal = double(cur.total - previous.total);
            if (dTotal > 0)
                s.systemCpuPercent = 100.0 * double(cur.busy - previous.busy) / dTotal;
            if (wall > 0)
                s.processCpuPercent =
                    100.0 * double(cur.process - previous.process) / ticksPerSecond / wall;
        }
        previous = cur;
        {
            std::ifstream statm("/proc/self/statm");
            unsigned long long size = 0, resident = 0;
            if (statm >> size >> resident)
                s.processRssBytes = resident * static_cast<uint64_t>(pageSize);
        }
        {
            std::ifstream meminfo("/proc/meminfo");
            s.ramTotalBytes = meminfoKiB(meminfo, "MemTotal") * 1024ull;
            const uint64_t avail = meminfoKiB(meminfo, "MemAvailable") * 1024ull;
            s.ramUsedBytes = s.ramTotalBytes > avail ? s.ramTotalBytes - avail : 0;
        }
        s.gpus = gpu().sample();
        return s;
    }

    void loop()
    {
        auto next = std::chrono::steady_clock::now();
        std::unique_lock<std::mutex> lock(runMutex);
        while (!stopRequested) {
            lock.unlock();
            history.push(take());
            lock.lock();
            // Fixed-rate schedule; after a stall, skip missed ticks instead of bursting.
            const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::duration<double>(1.0 / hz.load()));
            next += period;
            const auto now = std::chrono::steady_clock::now();
            if (next < now)
                next = now + period;
            wake.wait_until(lock, next, [this] { return stopRequested; });
        }
    }
};

TelemetrySampler::TelemetrySampler(TelemetryOptions options) : d(std::make_unique<Impl>(options)) {}

TelemetrySampler::~TelemetrySampler()
{
    stop();
}

Status TelemetrySampler::start()
{
    std::lock_guard<std::mutex> lock(d->runMutex);
    if (d->thread.joinable())
        return Status::ok();
    d->stopRequested = false;
    try {
        d->thread = std::thread([this] { d->loop(); });
    } catch (const std::system_error& e) {
        return {ErrorCode::Internal, std::string("cannot start the telemetry thread: ") + e.what()};
    }
    return Status::ok();
}

void TelemetrySampler::stop()
{
    {
        std::lock_guard<std::mutex> lock(d->runMutex);
        if (!d->thread.joinable())
            return;
        d->stopRequested = true;
    }
    d->wake.notify_all();
    d->thread.join();
}

bool TelemetrySampler::isRunning() const
{
    std::lock_guard<std::mutex> lock(d->runMutex);
    return d->thread.joinable();
}

Status TelemetrySampler::setRate(double hz)
{
    if (!(hz >= kMinHz && hz <= kMaxHz))
        return {ErrorCode::InvalidArgument,
                "sampling rate " + std::to_string(hz) + " Hz is outside 0.5..10 Hz"};
    d->hz = hz;
    d->wake.notify_all();
    return Status::ok();
}

double TelemetrySampler::rate() const
{
    return d->hz.load();
}

TelemetrySample TelemetrySampler::sampleNow()
{
    return d->take();
}

const TelemetryHistory& TelemetrySampler::history() const
{
    return d->history;
}

bool TelemetrySampler::hasGpuTelemetry() const
{
    return d->gpu().ok();
}

std::string TelemetrySampler::gpuStatus() const
{
    return d->gpu().status();
}

std::string TelemetrySampler::driverVersion() const
{
    return d->gpu().driverVersion();
}

std::string toJson(const TelemetrySample& s)
{
    auto num = [](double v) { return v < 0 ? nlohmann::json() : nlohmann::json(v); };
    nlohmann::json j{{"t", s.seconds},
                     {"unix_ms", s.unixMillis},
                     {"process_cpu_percent", num(s.processCpuPercent)},
                     {"system_cpu_percent", num(s.systemCpuPercent)},
                     {"process_rss_bytes", s.processRssBytes},
                     {"ram_used_bytes", s.ramUsedBytes},
                     {"ram_total_bytes", s.ramTotalBytes}};
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : s.gpus)
        gpus.push_back({{"index", g.index},
                        {"name", g.name},
                        {"pci_bus_id", g.pciBusId},
                        {"utilization_gpu_percent", num(g.utilizationGpu)},
                        {"utilization_memory_percent", num(g.utilizationMemory)},
                        {"memory_used_bytes", g.memoryUsedBytes},
                        {"memory_total_bytes", g.memoryTotalBytes},
                        {"temperature_c", num(g.temperatureC)},
                        {"power_w", num(g.powerW)},
                        {"power_limit_w", num(g.powerLimitW)},
                        {"sm_clock_mhz", num(g.smClockMHz)},
                        {"pcie_rx_mb_s", num(g.pcieRxMBps)},
                        {"pcie_tx_mb_s", num(g.pcieTxMBps)}});
    j["gpus"] = gpus;
    return util::dumpJson(j);
}

} // namespace fisura

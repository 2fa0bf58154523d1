#include "device/nvml.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>

namespace fisura::detail
{

namespace
{

// The ABI subset of nvml.h we use (stable since NVML 5; the _v2 entry points since driver 325).
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr int kTemperatureGpu = 0;
constexpr int kClockSm = 1;
constexpr int kPcieTxBytes = 0;
constexpr int kPcieRxBytes = 1;
struct NvmlUtilization {
    unsigned int gpu;
    unsigned int memory;
};
struct NvmlMemory {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
struct NvmlPciInfo {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
};

} // namespace

struct Nvml::Api {
    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    const char* (*errorString)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*driverVersion)(char*, unsigned int) = nullptr;
    nvmlReturn_t (*count)(unsigned int*) = nullptr;
    nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned int) = nullptr;
    nvmlReturn_t (*pci)(nvmlDevice_t, NvmlPciInfo*) = nullptr;
    nvmlReturn_t (*utilization)(nvmlDevice_t, NvmlUtilization*) = nullptr;
    nvmlReturn_t (*memory)(nvmlDevice_t, NvmlMemory*) = nullptr;
    nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int*) = nullptr;
    nvmlReturn_t (*power)(nvmlDevice_t, unsigned int*) = nullptr;
    nvmlReturn_t (*powerLimit)(nvmlDevice_t, unsigned int*) = nullptr;
    nvmlReturn_t (*clock)(nvmlDevice_t, int, unsigned int*) = nullptr;
    nvmlReturn_t (*pcie)(nvmlDevice_t, int, unsigned int*) = nullptr;
};

namespace
{

// NVML writes "00000000:3B:00.0"; CUDA and Fisura use "0000:3b:00.0".
std::string normaliseBusId(const char* id)
{
    unsigned int domain = 0, bus = 0, dev = 0, fn = 0;
    if (std::sscanf(id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4)
        return id;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", domain, bus, dev, fn);
    return buf;
}

template <class F> bool resolve(void* lib, const char* name, F& fn)
{
    fn = reinterpret_cast<F>(::dlsym(lib, name));
    return fn != nullptr;
}

} // namespace

Nvml::Nvml(const std::string& library)
{
    lib_ = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
        status_ = "NVML is not available (" + library +
                  " not found: no NVIDIA driver); GPU telemetry is off";
        return;
    }
    api_ = new Api;
    Api& a = *api_;
    // Optional readings (power, clocks, PCIe) may be missing on old drivers; the core set may not.
    const bool core = resolve(lib_, "nvmlInit_v2", a.init) &&
                      resolve(lib_, "nvmlShutdown", a.shutdown) &&
                      resolve(lib_, "nvmlDeviceGetCount_v2", a.count) &&
                      resolve(lib_, "nvmlDeviceGetHandleByIndex_v2", a.handle) &&
                      resolve(lib_, "nvmlDeviceGetUtilizationRates", a.utilization) &&
                      resolve(lib_, "nvmlDeviceGetMemoryInfo", a.memory);
    resolve(lib_, "nvmlErrorString", a.errorString);
    resolve(lib_, "nvmlSystemGetDriverVersion", a.driverVersion);
    resolve(lib_, "nvmlDeviceGetName", a.name);
    resolve(lib_, "nvmlDeviceGetPciInfo_v3", a.pci);
    resolve(lib_, "nvmlDeviceGetTemperature", a.temperature);
    resolve(lib_, "nvmlDeviceGetPowerUsage", a.power);
    resolve(lib_, "nvmlDeviceGetEnforcedPowerLimit", a.powerLimit);
    resolve(lib_, "nvmlDeviceGetClockInfo", a.clock);
    resolve(lib_, "nvmlDeviceGetPcieThroughput", a.pcie);
    if (!core) {
        status_ = library + " lacks the NVML functions Fisura needs; GPU telemetry is off";
        return;
    }
    const nvmlReturn_t rc = a.init();
    if (rc != kNvmlSuccess) {
        status_ = std::string("NVML failed to initialise (") +
                  (a.errorString ? a.errorString(rc) : std::to_string(rc).c_str()) +
                  "); GPU telemetry is off";
        return;
    }
    initialised_ = true;
    char buf[96] = {};
    if (a.driverVersion && a.driverVersion(buf, sizeof buf) == kNvmlSuccess)
        driverVersion_ = buf;
    unsigned int n = 0;
    if (a.count(&n) != kNvmlSuccess)
        n = 0;
    for (unsigned int i = 0; i < n; ++i) {
        nvmlDevice_t h = nullptr;
        if (a.handle(i, &h) != kNvmlSuccess)
            continue;
        GpuSample id;
        id.index = static_cast<int>(i);
        char name[96] = {};
        if (a.name && a.name(h, name, sizeof name) == kNvmlSuccess)
            id.name = name;
        NvmlPciInfo pci{};
        if (a.pci && a.pci(h, &pci) == kNvmlSuccess)
            id.pciBusId = normaliseBusId(pci.busId);
        devices_.push_back(h);
        identity_.push_back(id);
    }
    if (devices_.empty()) {
        status_ = "NVML reports no GPU; GPU telemetry is off";
        return;
    }
    ok_ = true;
    status_ = "NVML " + driverVersion_ + ": " + std::to_string(devices_.size()) + " GPU(s)";
}

Nvml::~Nvml()
{
    if (initialised_ && api_->shutdown)
        api_->shutdown();
    delete api_;
    if (lib_)
        ::dlclose(lib_);
}

std::vector<GpuSample> Nvml::sample() const
{
    std::vector<GpuSample> out;
    if (!ok_)
        return out;
    const Api& a = *api_;
    for (size_t i = 0; i < devices_.size(); ++i) {
        nvmlDevice_t h = devices_[i];
        GpuSample s = identity_[i];
        NvmlUtilization u{};
        if (a.utilization(h, &u) == kNvmlSuccess) {
            s.utilizationGpu = u.gpu;
            s.utilizationMemory = u.memory;
        }
        NvmlMemory m{};
        if (a.memory(h, &m) == kNvmlSuccess) {
            s.memoryUsedBytes = m.used;
            s.memoryTotalBytes = m.total;
        }
        unsigned int v = 0;
        if (a.temperature && a.temperature(h, kTemperatureGpu, &v) == kNvmlSuccess)
            s.temperatureC = v;
        if (a.power && a.power(h, &v) == kNvmlSuccess)
            s.powerW = v / 1000.0; // mW
        if (a.powerLimit && a.powerLimit(h, &v) == kNvmlSuccess)
            s.powerLimitW = v / 1000.0;
        if (a.clock && a.clock(h, kClockSm, &v) == kNvmlSuccess)
            s.smClockMHz = v;
        // PCIe counters are KB/s over a 20 ms window; they cost ~20 ms each, so read them last.
        if (a.pcie && a.pcie(h, kPcieRxBytes, &v) == kNvmlSuccess)
            s.pcieRxMBps = v / 1000.0;
        if (a.pcie && a.pcie(h, kPcieTxBytes, &v) == kNvmlSuccess)
            s.pcieTxMBps = v / 1000.0;
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace fisura::detail

// NVML loaded with dlopen: the library ships with the NVIDIA driver, so Fisura must run (without
// GPU telemetry) where it is absent. Only the few entry points we read are resolved.
#pragma once

#include <string>
#include <vector>

#include "fisura/telemetry.h"

namespace fisura::detail
{

class Nvml
{
public:
    /// Loads and initialises `library`; on failure ok() is false and status() says why.
    explicit Nvml(const std::string& library = "libnvidia-ml.so.1");
    ~Nvml();
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    bool ok() const { return ok_; }
    const std::string& status() const { return status_; }
    const std::string& driverVersion() const { return driverVersion_; }
    int deviceCount() const { return static_cast<int>(devices_.size()); }

    /// Read every device; fields a device does not support stay at their "unknown" values.
    std::vector<GpuSample> sample() const;

private:
    struct Api;
    void* lib_ = nullptr;
    Api* api_ = nullptr;
    bool ok_ = false;
    bool initialised_ = false;
    std::string status_;
    std::string driverVersion_;
    std::vector<void*> devices_;      ///< nvmlDevice_t handles
    std::vector<GpuSample> identity_; ///< name and bus id, read once
};

} // namespace fisura::detail

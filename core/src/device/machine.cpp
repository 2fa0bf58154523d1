// Machine facts from /proc and sysconf; device facts come from torch_devices.cpp.
#include "fisura/sysinfo.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "device/nvml.h"
#include "device/torch_devices.h"
#include "fisura/distributed.h"
#include "fisura/version.h"
#include "util/json_bounded.h"

namespace fisura
{

namespace
{

std::string trim(std::string s)
{
    const auto b = s.find_first_not_of(" \t\"");
    const auto e = s.find_last_not_of(" \t\"\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string readKey(const char* file, const std::string& key, char sep)
{
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        const auto pos = line.find(sep);
        if (pos != std::string::npos && trim(line.substr(0, pos)) == key)
            return trim(line.substr(pos + 1));
    }
    return {};
}

uint64_t meminfoBytes(const std::string& key)
{
    const std::string v = readKey("/proc/meminfo", key, ':'); // "24576000 kB"
    return v.empty() ? 0 : std::stoull(v) * 1024ull;
}

} // namespace

void deriveGpuFeatures(GpuInfo& g)
{
    g.fp16 = g.computeMajor >= 7;
    g.bf16 = g.computeMajor >= 8;
    g.tf32 = g.computeMajor >= 8;
}

void deriveCpuFeatures(const std::string& flags, MachineInfo& m)
{
    std::istringstream in(flags);
    bool avx512bf16 = false, amxTile = false, amxBf16 = false;
    for (std::string f; in >> f;) {
        avx512bf16 = avx512bf16 || f == "avx512_bf16";
        amxTile = amxTile || f == "amx_tile";
        amxBf16 = amxBf16 || f == "amx_bf16";
    }
    m.cpuAmx = amxTile && amxBf16;
    m.cpuBf16 = avx512bf16 || m.cpuAmx;
}

MachineInfo queryMachine()
{
    MachineInfo m;
    m.os = readKey("/etc/os-release", "PRETTY_NAME", '=');
    m.cpuModel = readKey("/proc/cpuinfo", "model name", ':');
    m.logicalCores = static_cast<int>(std::thread::hardware_concurrency());
    deriveCpuFeatures(readKey("/proc/cpuinfo", "flags", ':'), m);
    m.totalRamBytes = meminfoBytes("MemTotal");
    m.availableRamBytes = meminfoBytes("MemAvailable");
    m.fisuraVersion = version();
    m.torchVersion = torchVersion();
    detail::queryTorchDevices(m);
    m.distributedBackends = distributedBackends();
    // The driver's own version only NVML knows; without it the CUDA status already says why.
    detail::Nvml nvml;
    m.nvidiaDriverVersion = nvml.driverVersion();
    return m;
}

std::string toJson(const MachineInfo& m, int indent)
{
    nlohmann::json j;
    j["fisura_version"] = m.fisuraVersion;
    j["os"] = m.os;
    j["cpu"] = {{"model", m.cpuModel},
                {"logical_cores", m.logicalCores},
                {"bf16", m.cpuBf16},
                {"amx", m.cpuAmx},
                {"ram_total_bytes", m.totalRamBytes},
                {"ram_available_bytes", m.availableRamBytes}};
    j["libraries"] = {
        {"libtorch", m.torchVersion}, {"opencv", opencvVersion()}, {"libtiff", libtiffVersion()}};
    // How LibTorch's OpenMP threads wait (fisura/process.h sets the spin count at start).
    const char* spin = std::getenv("GOMP_SPINCOUNT");
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    j["openmp_wait"] = {{"gomp_spincount", spin ? spin : ""},
                        {"omp_wait_policy", policy ? policy : ""}};
    j["cuda"] = {{"torch_built_with_cuda", m.torchBuiltWithCuda},
                 {"usable", m.cudaUsable},
                 {"status", m.cudaStatus},
                 {"runtime_version", m.cudaRuntimeVersion},
                 {"driver_api_version", m.cudaDriverVersion},
                 {"driver_version", m.nvidiaDriverVersion},
                 {"cudnn_version", m.cudnnVersion}};
    j["distributed_backends"] = m.distributedBackends;
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : m.gpus)
        gpus.push_back({{"index", g.index},
                        {"name", g.name},
                        {"compute_capability",
                         std::to_string(g.computeMajor) + "." + std::to_string(g.computeMinor)},
                        {"multiprocessors", g.multiprocessors},
                        {"memory_total_bytes", g.totalMemoryBytes},
                        {"memory_free_bytes", g.freeMemoryBytes},
                        {"pci_bus_id", g.pciBusId},
                        {"fp16", g.fp16},
                        {"bf16", g.bf16},
                        {"tf32", g.tf32}});
    j["gpus"] = gpus;
    return util::dumpJson(j, indent);
}

} // namespace fisura

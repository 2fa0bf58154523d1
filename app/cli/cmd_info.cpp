// `fisura-cli info [--json]`: machine and device facts.
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli_lang.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/sysinfo.h"
#include "fisura/version.h"

namespace fisura::cli
{

namespace
{

std::string gib(uint64_t bytes)
{
    return num(bytes / 1073741824.0, 1) + " GiB";
}

void printInfoText(const MachineInfo& m)
{
    std::cout << "Fisura " << m.fisuraVersion << "\n"
              << "OS:        " << m.os << "\n"
              << "CPU:       " << m.cpuModel << " (" << m.logicalCores << " logical cores)\n"
              << "RAM:       " << gib(m.totalRamBytes) << " total, " << gib(m.availableRamBytes)
              << " available\n"
              << "LibTorch:  " << m.torchVersion
              << (m.torchBuiltWithCuda ? " (CUDA build)" : " (CPU build)") << "\n"
              << "OpenCV:    " << opencvVersion() << "\n"
              << "libtiff:   " << libtiffVersion() << "\n"
              << "CUDA:      " << (m.cudaUsable ? "usable" : "not usable") << " - " << m.cudaStatus
              << "\n";
    if (!m.cudaRuntimeVersion.empty())
        std::cout << "Versions:  CUDA runtime " << m.cudaRuntimeVersion << ", driver API "
                  << m.cudaDriverVersion << ", NVIDIA driver " << m.nvidiaDriverVersion
                  << ", cuDNN " << m.cudnnVersion << "\n";
    for (const auto& g : m.gpus)
        std::cout << "GPU " << g.index << ":     " << g.name << ", compute " << g.computeMajor
                  << "." << g.computeMinor << ", " << g.multiprocessors << " SMs, "
                  << gib(g.totalMemoryBytes) << " (" << gib(g.freeMemoryBytes) << " free)"
                  << (g.fp16 ? ", fp16" : "") << (g.bf16 ? ", bf16" : "")
                  << (g.tf32 ? ", TF32" : "") << ", PCI " << g.pciBusId << "\n";
}

} // namespace

void registerInfoCommand(CLI::App& app)
{
    auto json = std::make_shared<bool>(false);
    auto* info =
        app.add_subcommand("info", "Machine and device facts: CPU, RAM, LibTorch, CUDA, GPUs");
    addJsonFlag(info, *json, "Print JSON instead of text");
    info->callback([json] {
        const auto m = queryMachine();
        if (*json)
            std::cout << toJson(m) << "\n";
        else
            printInfoText(m);
    });
}

} // namespace fisura::cli

// fisura-cli monitor / policy: live telemetry and "what would be chosen and why".
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_lang.h"
#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/policy.h"
#include "fisura/sysinfo.h"
#include "fisura/telemetry.h"
#include "signals.h"

namespace fisura::cli
{

namespace
{

std::string mib(uint64_t bytes)
{
    return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

std::string pct(double v)
{
    char buf[16];
    if (v < 0)
        return "  -  ";
    std::snprintf(buf, sizeof buf, "%5s%%", num(v, 1).c_str());
    return buf;
}

void printSampleText(const TelemetrySample& s)
{
    char head[128];
    std::snprintf(head, sizeof head, "%7s s  CPU proc %s sys %s  RSS %s  RAM %s/%s",
                  num(s.seconds, 1).c_str(), pct(s.processCpuPercent).c_str(),
                  pct(s.systemCpuPercent).c_str(), mib(s.processRssBytes).c_str(),
                  mib(s.ramUsedBytes).c_str(), mib(s.ramTotalBytes).c_str());
    std::cout << head;
    for (const auto& g : s.gpus) {
        char buf[200];
        std::snprintf(buf, sizeof buf, " | GPU%d util %s mem %s %s/%s %.0f C %.0f/%.0f W %.0f MHz",
                      g.index, pct(g.utilizationGpu).c_str(), pct(g.utilizationMemory).c_str(),
                      mib(g.memoryUsedBytes).c_str(), mib(g.memoryTotalBytes).c_str(),
                      g.temperatureC, g.powerW, g.powerLimitW, g.smClockMHz);
        std::cout << buf;
    }
    std::cout << std::endl;
}

int runMonitor(double hz, double seconds, bool json)
{
    TelemetryOptions o;
    o.hz = hz;
    TelemetrySampler sampler(o);
    if (!sampler.hasGpuTelemetry())
        std::cerr << "fisura-cli: " << sampler.gpuStatus() << "\n";
    if (auto st = sampler.start(); !st)
        fail(st, "monitor failed");
    const CancelToken& stop = cancelOnSignals();
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    uint64_t seen = 0;
    auto drain = [&] {
        const uint64_t pushed = sampler.history().pushed();
        if (pushed == seen)
            return;
        const auto all = sampler.history().snapshot();
        const size_t fresh = std::min<uint64_t>(pushed - seen, all.size());
        for (size_t i = all.size() - fresh; i < all.size(); ++i) {
            if (json)
                std::cout << toJson(all[i]) << std::endl; // one object per line (JSON Lines)
            else
                printSampleText(all[i]);
        }
        seen = pushed;
    };
    while (!stop.isCancelled() && (seconds <= 0 || std::chrono::steady_clock::now() < end)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        drain();
    }
    sampler.stop();
    drain();
    return stop.isCancelled() ? cancelledExitCode() : 0;
}

void printPolicyText(const MachineInfo& m, const ExecutionPolicy& p, const PolicyRequest& r)
{
    std::cout << "Policy for " << (r.kind == JobKind::Train ? "training" : "inference") << " of '"
              << r.model << "' at " << r.inputSize << " px on "
              << (p.useCuda ? m.gpus.at(static_cast<size_t>(p.deviceIndex)).name : "the CPU")
              << ":\n";
    for (const auto& c : p.choices) {
        std::string what = c.what + ":";
        what.resize(std::max<size_t>(what.size(), 17), ' ');
        std::string value = c.value;
        value.resize(std::max<size_t>(value.size(), 8), ' ');
        std::cout << "  " << what << value << "  " << c.reason << "\n";
    }
}

} // namespace

void registerDeviceCommands(CLI::App& app)
{
    struct MonitorArgs {
        double hz = 2.0;
        double seconds = 10.0;
        bool json = false;
    };
    auto mon = std::make_shared<MonitorArgs>();
    auto* monitor = app.add_subcommand(
        "monitor", "Live telemetry: GPU utilization, memory, temperature, power; CPU and RAM");
    monitor->add_option("--hz", mon->hz, "Samples per second")
        ->capture_default_str()
        ->check(FiniteRange(TelemetrySampler::kMinHz, TelemetrySampler::kMaxHz));
    monitor->add_option("--seconds", mon->seconds, "How long to sample (0 = until Ctrl+C)")
        ->capture_default_str()
        ->check(FiniteRange(0.0, 7.0 * 24 * 3600));
    addJsonFlag(monitor, mon->json, "One JSON object per sample and line");
    monitor->callback([mon] {
        const int rc = runMonitor(mon->hz, mon->seconds, mon->json);
        if (rc != 0)
            exitWith(rc);
    });

    struct PolicyArgs {
        PolicyRequest request;
        std::string kind = "train";
        std::string precision = "auto";
        bool json = false;
    };
    auto pol = std::make_shared<PolicyArgs>();
    auto* policy = app.add_subcommand(
        "policy", "What Fisura would choose for a job on this machine (precision, TF32, batch "
                  "size, loader threads) and why");
    policy->add_option("--model", pol->request.model, "Model")
        ->capture_default_str()
        ->check(CLI::IsMember({"unet", "classifier", "autoencoder"}));
    policy->add_option("--input", pol->request.inputSize, "Input edge in px")
        ->capture_default_str()
        ->check(CLI::Range(16, 16384));
    policy->add_option("--kind", pol->kind, "Job kind")
        ->capture_default_str()
        ->check(CLI::IsMember({"train", "infer"}));
    policy->add_option("--precision", pol->precision, "Override the precision")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "fp32", "bf16", "fp16"}));
    policy->add_option("--batch", pol->request.batchSize, "Override the batch size (0 = choose)")
        ->capture_default_str()
        ->check(CLI::Range(0, 65536));
    policy
        ->add_option("--threads", pol->request.intraOpThreads,
                     "Override LibTorch's intra-op threads (0 = choose)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1024));
    policy
        ->add_option("--interop-threads", pol->request.interOpThreads,
                     "Override LibTorch's inter-op threads (0 = choose)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1024));
    addCpuFlag(policy, pol->request.preferCpu, "Plan for the CPU even if a GPU is usable");
    addJsonFlag(policy, pol->json, "Print JSON instead of text");
    policy->callback([pol] {
        PolicyRequest r = pol->request;
        r.kind = pol->kind == "infer" ? JobKind::Infer : JobKind::Train;
        parsePrecision(pol->precision, r.precision);
        const MachineInfo m = queryMachine();
        const ExecutionPolicy p = choosePolicy(m, r);
        if (pol->json) {
            auto j = nlohmann::json::parse(toJson(p));
            j["model"] = r.model;
            j["input"] = r.inputSize;
            j["kind"] = pol->kind;
            std::cout << j.dump(2) << "\n";
        } else {
            printPolicyText(m, p, r);
        }
    });
}

} // namespace fisura::cli

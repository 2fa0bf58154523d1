// The local launcher of fisura-cli train --gpus (see train_launch.h): posix_spawn of
// /proc/self/exe with this process's own arguments (/proc/self/cmdline) and the rendezvous
// variables, signal forwarding, and fail-fast: the first rank to fail ends the job.
#include "train_launch.h"

#include "fisura/distributed.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace
{

constexpr int kMaxRanks = 256;
pid_t g_children[kMaxRanks];
volatile sig_atomic_t g_childCount = 0;

extern "C" void forwardSignal(int sig)
{
    for (int i = 0; i < g_childCount; ++i)
        if (g_children[i] > 0)
            ::kill(g_children[i], sig);
}

std::vector<std::string> ownArguments()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    std::string cur;
    for (char c : all) {
        if (c == '\0') {
            args.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    return args;
}

/// The environment of rank `rank` as posix_spawn takes it ("KEY=value").
std::vector<std::string> rankEnvironment(int rank, const fisura::DistributedIdentity& job,
                                         bool onCpu)
{
    std::vector<std::string> env;
    for (const auto& [key, value] :
         fisura::rankEnvironment(fisura::processEnvironment(), rank, job, onCpu))
        env.push_back(key + "=" + value);
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& v)
{
    std::vector<char*> p;
    for (auto& s : v)
        p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

/// 128 + a signal that cancels a job (signals.h): the rank stopped as asked, it did not fail.
bool cancelledBySignal(int code)
{
    return code == 128 + SIGINT || code == 128 + SIGTERM || code == 128 + SIGHUP ||
           code == 128 + SIGQUIT;
}

int exitCodeOf(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/// Waits for every child; after the first failure the rest get SIGTERM, and SIGKILL when they
/// have not ended `grace` later. Returns the first failure's exit code, or 0.
int waitForRanks(int processes, std::chrono::seconds grace)
{
    int alive = processes, firstFailure = 0;
    std::chrono::steady_clock::time_point killAt{};
    bool stopping = false, killed = false;
    while (alive > 0) {
        int status = 0;
        const pid_t p = ::waitpid(-1, &status, WNOHANG);
        if (p < 0 && errno != EINTR)
            break;
        if (p <= 0) {
            if (stopping && !killed && std::chrono::steady_clock::now() >= killAt) {
                std::fprintf(stderr,
                             "fisura-cli: the other processes did not stop: killing them\n");
                forwardSignal(SIGKILL);
                killed = true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        int rank = -1;
        for (int i = 0; i < processes; ++i)
            if (g_children[i] == p) {
                rank = i;
                g_children[i] = 0; // never signal a pid that may be reused
            }
        if (rank < 0)
            continue;
        --alive;
        const int code = exitCodeOf(status);
        if (code != 0 && !stopping) {
            firstFailure = code;
            stopping = true;
            killAt = std::chrono::steady_clock::now() + grace;
            if (alive > 0 && !cancelledBySignal(code))
                std::fprintf(stderr,
                             "fisura-cli: rank %d ended with exit code %d: stopping the other "
                             "%d process(es)\n",
                             rank, code, alive);
            forwardSignal(SIGTERM);
        }
    }
    return firstFailure;
}

} // namespace

int runLocalRanks(int processes, bool onCpu)
{
    if (processes < 1 || processes > kMaxRanks) {
        std::fprintf(stderr, "fisura-cli: cannot start %d processes\n", processes);
        return -1;
    }
    const fisura::DistributedIdentity job =
        fisura::localJob(processes, fisura::processEnvironment());
    if (job.masterPort == 0) {
        std::fprintf(stderr, "fisura-cli: no free TCP port on 127.0.0.1 for the processes\n");
        return -1;
    }
    auto args = ownArguments();
    if (args.empty()) {
        std::fprintf(stderr, "fisura-cli: cannot read this program's arguments\n");
        return -1;
    }
    auto argv = pointers(args);
    struct sigaction sa {
    };
    sa.sa_handler = forwardSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        ::sigaction(sig, &sa, nullptr);
    for (int r = 0; r < processes; ++r) {
        auto env = rankEnvironment(r, job, onCpu);
        auto envp = pointers(env);
        pid_t pid = 0;
        const int err =
            ::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), envp.data());
        if (err != 0) {
            std::fprintf(stderr, "fisura-cli: cannot start rank %d: %s\n", r, std::strerror(err));
            forwardSignal(SIGTERM);
            waitForRanks(g_childCount, std::chrono::seconds(10));
            return -1;
        }
        g_children[r] = pid;
        g_childCount = r + 1;
    }
    return waitForRanks(processes, std::chrono::seconds(15));
}

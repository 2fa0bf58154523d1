// The distributed identity from the environment torchrun and Slurm set (plain C++, no torch).
// torchrun's variables: https://pytorch.org/docs/stable/elastic/run.html ("Environment
// Variables"); Slurm's: the srun(1) manual, "OUTPUT ENVIRONMENT VARIABLES".
#include "fisura/distributed.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <limits>

extern char** environ;

namespace fisura
{

namespace
{

using Env = std::map<std::string, std::string>;

const std::string* find(const Env& env, const std::string& key)
{
    auto it = env.find(key);
    return it == env.end() || it->second.empty() ? nullptr : &it->second;
}

/// A whole decimal number in [lo, hi], else InvalidArgument naming the variable.
Status parseInt(const Env& env, const std::string& key, int lo, int hi, int& out)
{
    const std::string* v = find(env, key);
    if (!v)
        return Status::ok();
    errno = 0;
    char* end = nullptr;
    const long n = std::strtol(v->c_str(), &end, 10);
    if (errno != 0 || end == v->c_str() || *end != '\0' || n < lo || n > hi)
        return Status(ErrorCode::InvalidArgument,
                      key + "=" + *v + ": expected a whole number from " + std::to_string(lo) +
                          " to " + std::to_string(hi));
    out = int(n);
    return Status::ok();
}

/// SLURM_TASKS_PER_NODE is "2(x3),1": the tasks of the first node are what one host runs.
int leadingCount(const std::string& s)
{
    int n = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            break;
        n = n * 10 + (c - '0');
    }
    return n;
}

Status readTorchrun(const Env& env, DistributedIdentity& id)
{
    constexpr int kMax = std::numeric_limits<int>::max();
    id.launcher = "torchrun";
    if (!find(env, "WORLD_SIZE"))
        return Status(ErrorCode::InvalidArgument, "RANK is set but WORLD_SIZE is not");
    if (Status s = parseInt(env, "WORLD_SIZE", 1, kMax, id.worldSize); !s)
        return s;
    if (Status s = parseInt(env, "RANK", 0, id.worldSize - 1, id.rank); !s)
        return s;
    id.localRank = id.rank;
    id.localWorldSize = id.worldSize;
    if (Status s = parseInt(env, "LOCAL_WORLD_SIZE", 1, id.worldSize, id.localWorldSize); !s)
        return s;
    return parseInt(env, "LOCAL_RANK", 0, id.localWorldSize - 1, id.localRank);
}

Status readSlurm(const Env& env, DistributedIdentity& id)
{
    constexpr int kMax = std::numeric_limits<int>::max();
    id.launcher = "slurm";
    if (!find(env, "SLURM_NTASKS"))
        return Status(ErrorCode::InvalidArgument, "SLURM_PROCID is set but SLURM_NTASKS is not");
    if (Status s = parseInt(env, "SLURM_NTASKS", 1, kMax, id.worldSize); !s)
        return s;
    if (Status s = parseInt(env, "SLURM_PROCID", 0, id.worldSize - 1, id.rank); !s)
        return s;
    id.localWorldSize = id.worldSize;
    if (find(env, "SLURM_NTASKS_PER_NODE")) {
        if (Status s = parseInt(env, "SLURM_NTASKS_PER_NODE", 1, id.worldSize, id.localWorldSize);
            !s)
            return s;
    } else if (const std::string* tpn = find(env, "SLURM_TASKS_PER_NODE")) {
        const int n = leadingCount(*tpn);
        if (n < 1)
            return Status(ErrorCode::InvalidArgument,
                          "SLURM_TASKS_PER_NODE=" + *tpn + ": expected a count such as 4(x2)");
        id.localWorldSize = std::min(n, id.worldSize);
    }
    id.localRank = id.rank % id.localWorldSize;
    return parseInt(env, "SLURM_LOCALID", 0, id.localWorldSize - 1, id.localRank);
}

} // namespace

std::string firstSlurmHost(const std::string& nodeList)
{
    // The first entry ends at a comma outside brackets.
    std::string first;
    int depth = 0;
    for (char c : nodeList) {
        if (c == ',' && depth == 0)
            break;
        depth += c == '[' ? 1 : c == ']' ? -1 : 0;
        first += c;
    }
    const auto open = first.find('[');
    if (open == std::string::npos)
        return first;
    // "node[03-05,7]": the prefix and the first number of the range, zero padding kept.
    std::string range = first.substr(open + 1);
    const auto stop = range.find_first_of(",-]");
    return first.substr(0, open) + range.substr(0, stop);
}

Result<DistributedIdentity> readDistributedEnvironment(const Env& env)
{
    DistributedIdentity id;
    Status s;
    if (find(env, "RANK"))
        s = readTorchrun(env, id);
    else if (find(env, "SLURM_PROCID"))
        s = readSlurm(env, id);
    else if (find(env, "WORLD_SIZE") && env.at("WORLD_SIZE") != "1")
        s = Status(ErrorCode::InvalidArgument, "WORLD_SIZE is set but RANK is not");
    if (!s)
        return s;
    if (Status ts = parseInt(env, "FISURA_DIST_TIMEOUT", 1, 86400, id.timeoutSeconds); !ts)
        return ts;
    if (const std::string* agent = find(env, "TORCHELASTIC_USE_AGENT_STORE"))
        id.launcherHostsStore = *agent == "True";
    if (Status as = parseInt(env, "TORCHELASTIC_RESTART_COUNT", 0, 1 << 20, id.launcherAttempt);
        !as)
        return as;
    if (const std::string* ifname = find(env, "GLOO_SOCKET_IFNAME"))
        id.socketInterface = *ifname;
    if (!id.distributed()) {
        id.rank = id.localRank = 0;
        id.localWorldSize = 1;
        return id;
    }
    if (const std::string* a = find(env, "MASTER_ADDR"))
        id.masterAddr = *a;
    else if (const std::string* ip = find(env, "SLURM_LAUNCH_NODE_IPADDR"))
        id.masterAddr = *ip;
    else if (const std::string* nodes = find(env, "SLURM_JOB_NODELIST"))
        id.masterAddr = firstSlurmHost(*nodes);
    if (id.masterAddr.empty())
        return Status(ErrorCode::InvalidArgument,
                      "MASTER_ADDR is not set: the processes of a job with WORLD_SIZE " +
                          std::to_string(id.worldSize) + " cannot meet");
    id.masterPort = 29500; // torchrun's default
    if (Status ps = parseInt(env, "MASTER_PORT", 1, 65535, id.masterPort); !ps)
        return ps;
    return id;
}

Env processEnvironment()
{
    Env env;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return env;
}

Result<DistributedIdentity> readDistributedEnvironment()
{
    return readDistributedEnvironment(processEnvironment());
}

DistributedIdentity localJob(int processes, const Env& environment)
{
    DistributedIdentity id;
    id.worldSize = id.localWorldSize = processes;
    id.masterAddr = "127.0.0.1";
    id.masterPort = freeLocalPort();
    id.launcher = "fisura";
    int timeout = id.timeoutSeconds;
    if (parseInt(environment, "FISURA_DIST_TIMEOUT", 1, 86400, timeout))
        id.timeoutSeconds = timeout;
    return id;
}

Env rankEnvironment(const Env& base, int rank, const DistributedIdentity& job, bool onCpu)
{
    // Everything that would make a rank join another job, or launch ranks of its own.
    static const char* const kOtherJob[] = {"RANK",
                                            "WORLD_SIZE",
                                            "LOCAL_RANK",
                                            "LOCAL_WORLD_SIZE",
                                            "MASTER_ADDR",
                                            "MASTER_PORT",
                                            "GROUP_RANK",
                                            "GROUP_WORLD_SIZE",
                                            "ROLE_RANK",
                                            "ROLE_NAME",
                                            "ROLE_WORLD_SIZE",
                                            "TORCHELASTIC_USE_AGENT_STORE",
                                            "TORCHELASTIC_RESTART_COUNT",
                                            "TORCHELASTIC_MAX_RESTARTS",
                                            "TORCHELASTIC_RUN_ID",
                                            "SLURM_PROCID",
                                            "FISURA_DIST_TIMEOUT",
                                            "FISURA_DIST_CPU_RANKS"};
    Env env = base;
    for (const char* key : kOtherJob)
        env.erase(key);
    env["RANK"] = std::to_string(rank);
    env["WORLD_SIZE"] = std::to_string(job.worldSize);
    env["LOCAL_RANK"] = std::to_string(rank);
    env["LOCAL_WORLD_SIZE"] = std::to_string(job.localWorldSize);
    env["MASTER_ADDR"] = job.masterAddr;
    env["MASTER_PORT"] = std::to_string(job.masterPort);
    env["FISURA_DIST_TIMEOUT"] = std::to_string(job.timeoutSeconds);
    if (onCpu)
        env["FISURA_DIST_CPU_RANKS"] = std::to_string(job.worldSize);
    return env;
}

int freeLocalPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

} // namespace fisura

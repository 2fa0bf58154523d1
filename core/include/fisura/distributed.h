// Who this process is in a data-parallel job: its rank among the job's processes, where they
// meet, and which GPU it drives. Read from the environment that torchrun and Slurm set, by the
// program (fisura-cli), never silently by the engine: TrainOptions::distributed carries it in.
#pragma once

#include <map>
#include <string>

#include "fisura/status.h"

namespace fisura
{

/// One process of a data-parallel job. worldSize 1 is a job on its own (the default).
struct DistributedIdentity {
    int rank = 0;                ///< 0 .. worldSize-1; rank 0 hosts the store and writes the files
    int worldSize = 1;           ///< processes in the job (one per GPU)
    int localRank = 0;           ///< rank among the processes of this host: the GPU it drives
    int localWorldSize = 1;      ///< processes on this host
    std::string masterAddr;      ///< host of rank 0's TCP store
    int masterPort = 0;          ///< its port
    std::string socketInterface; ///< GLOO_SOCKET_IFNAME: network interface for gloo (empty: any)
    std::string launcher;        ///< "torchrun", "slurm", "fisura" or "" (a job on its own)
    int timeoutSeconds = 300;    ///< waiting for peers (rendezvous) before giving up
    /// torchrun 2.x serves the store itself (TORCHELASTIC_USE_AGENT_STORE=True): rank 0 then
    /// connects to it like the others, under the prefix of its restart attempt.
    bool launcherHostsStore = false;
    int launcherAttempt = 0; ///< TORCHELASTIC_RESTART_COUNT

    bool distributed() const { return worldSize > 1; }
};

/// Which environment variables the job reads (the conventions of torchrun and Slurm):
///   torchrun / fisura-cli --gpus: RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
///     MASTER_PORT;
///   srun: SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NTASKS_PER_NODE /
///     SLURM_TASKS_PER_NODE, and MASTER_ADDR or else SLURM_LAUNCH_NODE_IPADDR or else the first
///     host of SLURM_JOB_NODELIST (MASTER_PORT or else 29500);
///   both: GLOO_SOCKET_IFNAME, FISURA_DIST_TIMEOUT (seconds); torchrun's
///     TORCHELASTIC_USE_AGENT_STORE and TORCHELASTIC_RESTART_COUNT.
/// RANK wins over SLURM_PROCID (torchrun inside an allocation). Neither set: a job on its own.
/// Bad values (not a number, rank outside the world, a port outside 1..65535, no master
/// address for several processes) give InvalidArgument naming the variable.
Result<DistributedIdentity>
readDistributedEnvironment(const std::map<std::string, std::string>& environment);
/// The same from this process's environment.
Result<DistributedIdentity> readDistributedEnvironment();

/// The process-group backends this build has: "gloo,nccl", "gloo", "nccl" or "" (then a job
/// runs as one process only).
std::string distributedBackends();

/// The first host of a Slurm node list: "node[03-05,7],gpu1" -> "node03".
std::string firstSlurmHost(const std::string& nodeList);

/// A TCP port on 127.0.0.1 that was free a moment ago (0 when none could be found): the store
/// of ranks started on this host (fisura-cli train --gpus, the desktop application's peers).
int freeLocalPort();

/// This process's environment.
std::map<std::string, std::string> processEnvironment();

/// Rank 0 of a job of `processes` ranks that this host starts itself (fisura-cli train --gpus
/// or --cpu-ranks, the desktop application's peers): they meet at 127.0.0.1 on freeLocalPort()
/// (masterPort 0 when none was free: the caller says so), launcher "fisura", and wait for each
/// other as long as FISURA_DIST_TIMEOUT in `environment` says (when it is a whole number of
/// seconds, 1..86400; else the default).
DistributedIdentity localJob(int processes, const std::map<std::string, std::string>& environment);

/// The environment rank `rank` of `job` is started with, the same from every launcher: `base`
/// without any variable of another job (every one readDistributedEnvironment reads, torchrun's
/// GROUP_* / ROLE_* / TORCHELASTIC_*, FISURA_DIST_CPU_RANKS), plus RANK and LOCAL_RANK = `rank`,
/// WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT and FISURA_DIST_TIMEOUT from `job`,
/// and FISURA_DIST_CPU_RANKS = the world size when `onCpu` (the ranks train on the CPU over
/// gloo). readDistributedEnvironment of the result gives rank `rank` of `job`.
std::map<std::string, std::string> rankEnvironment(const std::map<std::string, std::string>& base,
                                                   int rank, const DistributedIdentity& job,
                                                   bool onCpu);

} // namespace fisura

// fisura-cli train --gpus: one process per GPU on this host, started by fisura-cli itself as
// torchrun would start them (fisura::rankEnvironment: RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, ... in their environment), each running this same
// command line.
#pragma once

/// Starts `processes` copies of this program with the same arguments as the ranks of one job
/// on this host (MASTER_ADDR=127.0.0.1, a free port) and waits for them. SIGINT, SIGTERM,
/// SIGHUP and SIGQUIT are passed on to every one. When one ends with an error the others are stopped (SIGTERM,
/// then SIGKILL after a grace period) and its exit code is returned; 0 when all succeed.
/// Returns -1 (with a message on stderr) when the processes cannot be started. `onCpu`: the
/// ranks train on the CPU over gloo (--cpu-ranks).
int runLocalRanks(int processes, bool onCpu);

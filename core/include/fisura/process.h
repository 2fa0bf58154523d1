// Process-wide settings that must be in place before the libraries start.
#pragma once

#include <cstdint>

namespace fisura
{

/// LibTorch's OpenMP threads (GNU libgomp) spin for a while at the end of every parallel
/// region before they sleep. When the loader or reader threads share the cores with them, that
/// spinning takes the core the loader needs: a small U-Net trained 17x slower on 2 cores, while a
/// spin count of 0 left a larger network's speed unchanged (tests/bench/RESULTS.md). libgomp
/// reads GOMP_SPINCOUNT only when it is loaded, before main(), so the executables call this
/// first thing: when neither GOMP_SPINCOUNT nor OMP_WAIT_POLICY is set, it sets
/// GOMP_SPINCOUNT=0 and starts the same program again (execv of /proc/self/exe with the same
/// arguments). A user's own setting is left alone; if the restart fails the program goes on.
void restartWithQuietOpenMpThreads(int argc, char** argv);
/// The environment part of restartWithQuietOpenMpThreads, for a program about to start another
/// that loads LibTorch: sets GOMP_SPINCOUNT=0 unless the user set GOMP_SPINCOUNT or
/// OMP_WAIT_POLICY. True when it set it.
bool setQuietOpenMpEnvironment();

/// This process's resident memory now and at its highest (VmRSS and VmHWM of
/// /proc/self/status), in bytes; 0 where the system does not say.
struct ProcessMemory {
    uint64_t resident = 0;
    uint64_t peak = 0;
};
ProcessMemory processMemory();

/// Hands the heap's free pages back to the system (glibc's malloc_trim(0), every arena).
/// While tensor jobs run, freed blocks stay in the heap for the next layer and the heap is
/// trimmed only above 1 GiB free (util/malloc_tuning.h): right for a job, wrong for a window
/// that stays open after it. Long-lived processes call this when a job has ended. Returns
/// whether any memory was released; does nothing with another C library.
bool releaseFreedMemory();

} // namespace fisura

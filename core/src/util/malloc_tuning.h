// glibc malloc settings for long tensor jobs.
//
// LibTorch's CPU kernels allocate and free blocks of tens of MiB on every layer. With glibc's
// defaults, blocks above the (dynamic, at most 32 MiB) mmap threshold are mmap()ed and unmapped
// on every free, and freed memory at the top of the heap is trimmed (madvise / brk), so the next
// layer faults the same pages in again: profiles of CPU inference put 30-40 % of the time there.
// Fixing the thresholds once keeps freed blocks in the heap for the next layer (see mallopt(3)
// and glibc's "Memory Allocation Tunables").
#pragma once

#include <functional>
#include <string>

namespace fisura::detail
{

enum class MallocTuning {
    Applied,      ///< set now
    Already,      ///< set earlier in this process
    UserSettings, ///< the environment sets glibc malloc tunables: left alone
    NotGlibc,     ///< another C library: nothing to do
};

const char* mallocTuningName(MallocTuning t); ///< "applied", "already", "user_settings", ...

/// True when `getenv` shows malloc settings of the user's (GLIBC_TUNABLES with glibc.malloc.*,
/// or MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_, MALLOC_ARENA_MAX, MALLOC_MMAP_MAX_,
/// MALLOC_TOP_PAD_).
bool userMallocSettings(const std::function<const char*(const char*)>& getenv);

/// Once per process, at the start of a job (thread-safe): mallopt() M_MMAP_THRESHOLD,
/// M_TRIM_THRESHOLD, M_TOP_PAD and M_ARENA_MAX (glibc only).
MallocTuning tuneMallocForJobs();

} // namespace fisura::detail

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

/// While a CPU training job runs, the job-time settings above would keep the step's peak in the
/// heap: every layer's activations and their gradients are freed and allocated again in another
/// order, and a heap that never returns them held 0.75 GiB more than glibc's defaults at the
/// peak (tests/bench/RESULTS.md, bench_gui_memory). In this scope blocks of at least
/// kTrainingMmapThreshold are mmap()ed and unmapped when freed instead; the job-time settings
/// come back when the last scope of the process ends. Nothing changes where tuneMallocForJobs
/// did not apply its settings (the user's, another C library).
constexpr int kTrainingMmapThreshold = 4 << 20;

class TrainingMallocScope
{
public:
    TrainingMallocScope();
    ~TrainingMallocScope();
    TrainingMallocScope(const TrainingMallocScope&) = delete;
    TrainingMallocScope& operator=(const TrainingMallocScope&) = delete;
    bool active() const { return active_; } ///< this scope counts (the settings are changed)

private:
    bool active_ = false;
};

/// Scopes alive in the process (0: the job-time settings are in force).
int trainingMallocScopes();

} // namespace fisura::detail

#include "util/malloc_tuning.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace fisura::detail
{

namespace
{
constexpr int kJobMmapThreshold = 32 << 20;
constexpr int kJobTrimThreshold = 1 << 30;
constexpr int kJobTopPad = 64 << 20;
constexpr int kGlibcMmapMax = 65536;    // glibc's default M_MMAP_MAX
constexpr int kGlibcTopPad = 128 << 10; // glibc's default M_TOP_PAD
constexpr int kTrainingTrimThreshold = 64 << 20;
std::mutex g_scopeMutex;
int g_scopes = 0;
} // namespace

const char* mallocTuningName(MallocTuning t)
{
    switch (t) {
    case MallocTuning::Applied:
        return "applied";
    case MallocTuning::Already:
        return "already";
    case MallocTuning::UserSettings:
        return "user_settings";
    case MallocTuning::NotGlibc:
        return "not_glibc";
    }
    return "not_glibc";
}

bool userMallocSettings(const std::function<const char*(const char*)>& getenv)
{
    const char* tunables = getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc."))
        return true;
    for (const char* name : {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_ARENA_MAX",
                             "MALLOC_MMAP_MAX_", "MALLOC_TOP_PAD_"})
        if (getenv(name))
            return true;
    return false;
}

MallocTuning tuneMallocForJobs()
{
#if defined(__GLIBC__)
    static std::once_flag once;
    static MallocTuning first = MallocTuning::Already;
    bool ranNow = false;
    std::call_once(once, [&] {
        ranNow = true;
        if (userMallocSettings([](const char* n) { return std::getenv(n); })) {
            first = MallocTuning::UserSettings;
            return;
        }
        // Freed blocks of any size stay in the heap for the next layer (no mmap / munmap per
        // tensor); the top of the heap is returned to the system only above 1 GiB free.
        // 32 MiB is the largest mmap threshold glibc accepts (half its 64 MiB arena heaps);
        // M_MMAP_MAX = 0 extends the same to larger blocks of the main arena.
        mallopt(M_MMAP_THRESHOLD, kJobMmapThreshold);
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, kJobTrimThreshold);
        mallopt(M_TOP_PAD, kJobTopPad);
        // Untrimmed per-thread arenas each keep their peak: bound their number by the cores.
        const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
        mallopt(M_ARENA_MAX, std::max(2, cores));
        first = MallocTuning::Applied;
    });
    return ranNow ? first : (first == MallocTuning::UserSettings ? first : MallocTuning::Already);
#else
    return MallocTuning::NotGlibc;
#endif
}

TrainingMallocScope::TrainingMallocScope()
{
#if defined(__GLIBC__)
    const MallocTuning t = tuneMallocForJobs();
    if (t != MallocTuning::Applied && t != MallocTuning::Already)
        return;
    std::lock_guard<std::mutex> lock(g_scopeMutex);
    if (g_scopes++ == 0) {
        // glibc maps a block only when the top of the heap cannot hold it: the top goes back
        // now, without padding, and is trimmed again above 64 MiB free.
        mallopt(M_MMAP_THRESHOLD, kTrainingMmapThreshold);
        mallopt(M_MMAP_MAX, kGlibcMmapMax);
        mallopt(M_TOP_PAD, kGlibcTopPad);
        mallopt(M_TRIM_THRESHOLD, kTrainingTrimThreshold);
        malloc_trim(0);
    }
    active_ = true;
#endif
}

TrainingMallocScope::~TrainingMallocScope()
{
#if defined(__GLIBC__)
    if (!active_)
        return;
    std::lock_guard<std::mutex> lock(g_scopeMutex);
    if (--g_scopes == 0) {
        // Blocks mapped meanwhile stay mapped until freed; new ones come from the heap again.
        mallopt(M_MMAP_THRESHOLD, kJobMmapThreshold);
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TOP_PAD, kJobTopPad);
        mallopt(M_TRIM_THRESHOLD, kJobTrimThreshold);
    }
#endif
}

int trainingMallocScopes()
{
    std::lock_guard<std::mutex> lock(g_scopeMutex);
    return g_scopes;
}

} // namespace fisura::detail

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
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_TOP_PAD, 64 << 20);
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

} // namespace fisura::detail

// CPU time of this thread and of the process (POSIX clocks; 0 where there are none). A run's
// wall-clock stage times also count the time a thread waited for a core; these say what the
// work itself cost the CPU.
#pragma once

#include <cstdint>
#include <ctime>

namespace fisura::util
{

inline int64_t cpuClockNanos(bool process)
{
#if defined(CLOCK_THREAD_CPUTIME_ID) && defined(CLOCK_PROCESS_CPUTIME_ID)
    timespec ts{};
    if (clock_gettime(process ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return int64_t(ts.tv_sec) * 1000000000 + int64_t(ts.tv_nsec);
#else
    (void)process;
    return 0;
#endif
}

/// CPU time (user + system) of the calling thread so far.
inline int64_t threadCpuNanos()
{
    return cpuClockNanos(false);
}

/// CPU time (user + system) of every thread of the process so far.
inline int64_t processCpuNanos()
{
    return cpuClockNanos(true);
}

} // namespace fisura::util

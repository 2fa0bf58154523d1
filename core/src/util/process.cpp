#include "fisura/process.h"

#include <cstdlib>
#include <fstream>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__linux__)
#include <unistd.h>
#endif

namespace fisura
{

bool setQuietOpenMpEnvironment()
{
#if defined(__linux__)
    if (std::getenv("GOMP_SPINCOUNT") || std::getenv("OMP_WAIT_POLICY"))
        return false;
    return setenv("GOMP_SPINCOUNT", "0", 1) == 0;
#else
    return false;
#endif
}

void restartWithQuietOpenMpThreads(int argc, char** argv)
{
#if defined(__linux__)
    if (argc < 1 || !setQuietOpenMpEnvironment())
        return;
    execv("/proc/self/exe", argv); // returns only on failure: carry on as we are
#else
    (void)argc;
    (void)argv;
#endif
}

ProcessMemory processMemory()
{
    ProcessMemory m;
    std::ifstream in("/proc/self/status");
    std::string line;
    auto kib = [&line](const char* key, uint64_t& out) {
        const std::string k(key);
        if (line.compare(0, k.size(), k) == 0)
            out = std::strtoull(line.c_str() + k.size(), nullptr, 10) * 1024u;
    };
    while (std::getline(in, line)) {
        kib("VmRSS:", m.resident);
        kib("VmHWM:", m.peak);
    }
    return m;
}

bool releaseFreedMemory()
{
#if defined(__GLIBC__)
    return malloc_trim(0) != 0;
#else
    return false;
#endif
}

} // namespace fisura

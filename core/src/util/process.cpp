#include "fisura/process.h"

#include <cstdlib>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace fisura
{

void restartWithQuietOpenMpThreads(int argc, char** argv)
{
#if defined(__linux__)
    if (argc < 1 || std::getenv("GOMP_SPINCOUNT") || std::getenv("OMP_WAIT_POLICY"))
        return;
    if (setenv("GOMP_SPINCOUNT", "0", 1) != 0)
        return;
    execv("/proc/self/exe", argv); // returns only on failure: carry on as we are
#else
    (void)argc;
    (void)argv;
#endif
}

} // namespace fisura

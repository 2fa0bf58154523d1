// Room in the address space; see address_space.h.
#include "util/address_space.h"

#include <cstdio>
#include <fstream>

#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace fisura::util
{

namespace
{

std::string mib(uint64_t bytes)
{
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

} // namespace

uint64_t addressSpaceLimit()
{
    rlimit r{};
    if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
        return 0;
    return uint64_t(r.rlim_cur);
}

uint64_t addressSpaceUsed()
{
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    return pages * uint64_t(sysconf(_SC_PAGESIZE));
}

uint64_t threadStackBytes()
{
    pthread_attr_t attr;
    size_t size = 8u << 20;
    if (pthread_getattr_default_np(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &size);
        pthread_attr_destroy(&attr);
    }
    return uint64_t(size);
}

Status checkAddressSpace(uint64_t bytes, const std::string& what)
{
    const uint64_t limit = addressSpaceLimit();
    if (limit == 0 || bytes == 0)
        return Status::ok();
    void* p =
        mmap(nullptr, size_t(bytes), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
        munmap(p, size_t(bytes));
        return Status::ok();
    }
    return Status(ErrorCode::OutOfMemory,
                  what + " needs about " + mib(bytes) +
                      " more address space than this process may map (the limit, ulimit -v, is " +
                      mib(limit) + ", " + mib(addressSpaceUsed()) +
                      " are in use): raise the limit, or use a smaller tile, batch or fewer "
                      "threads");
}

} // namespace fisura::util

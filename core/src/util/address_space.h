// Room left in the process's address space under a limit (RLIMIT_AS, `ulimit -v`).
//
// Under such a limit, third-party code Fisura runs does not always survive running out: with
// LibTorch 1.13 on the CPU, a oneDNN convolution crashed (SIGSEGV in dnnl_memory_create, an
// allocation whose failure it does not check) at `ulimit -v 600000`, and LibTorch's thread pool
// waited forever for a worker that could not start (pthreadpool_create) at 700000. Neither can be
// caught, so work that will need room checks first that the room is there, and the user gets
// out_of_memory instead of a crash or a hang. Without a limit the checks cost nothing.
#pragma once

#include <cstdint>
#include <string>

#include "fisura/status.h"

namespace fisura::util
{

/// The soft RLIMIT_AS in bytes, or 0 when there is none.
uint64_t addressSpaceLimit();
/// Bytes of address space the process maps now (VmSize).
uint64_t addressSpaceUsed();
/// The address space a new thread takes: its stack (pthread's default size).
uint64_t threadStackBytes();
/// OutOfMemory, naming `what`, the limit and what is in use, when `bytes` more of address space
/// cannot be mapped now (tried with a PROT_NONE reservation, released at once). Ok without a
/// limit.
Status checkAddressSpace(uint64_t bytes, const std::string& what);

} // namespace fisura::util

// LibTorch's c10d (stores and process groups) across 1.13 (Debian) and 2.x (CUDA builds).
// Include it only from core/src/dist/*.cpp.
//
// What differs: 2.0 split ProcessGroup into a front (ProcessGroup) and backends (Backend); the
// gloo and NCCL process groups became Backends with Backend::Options. Their constructors
// (store, rank, size, options) and the collective calls stay the same, so Fisura holds the
// backend itself (compat::CommBackend) and never the 2.x front.
// FISURA_HAVE_GLOO / FISURA_HAVE_NCCL come from CMake (cmake/FisuraDistributed.cmake), which
// checks that the headers compile and the library exports the classes.
#pragma once

#include "compat/torch_compat.h"

#include <chrono>
#include <string>

#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#if FISURA_TORCH_AT_LEAST(2, 0)
#include <torch/csrc/distributed/c10d/Backend.hpp>
#else
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#endif
#ifdef FISURA_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef FISURA_HAVE_NCCL
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace fisura::compat
{

#if FISURA_TORCH_AT_LEAST(2, 0)
using CommBackend = c10d::Backend;
#else
using CommBackend = c10d::ProcessGroup;
#endif

/// The job's TCP store: rank 0 serves it and waits (up to `timeout`) until `workers` processes
/// have joined; the others connect, retrying until `timeout`. Throws c10::Error (a
/// c10::DistStoreError in 2.x) when that time passes.
inline c10::intrusive_ptr<c10d::Store> makeTcpStore(const std::string& host, int port, bool server,
                                                    int workers, std::chrono::milliseconds timeout)
{
    c10d::TCPStoreOptions o;
    o.port = uint16_t(port);
    o.isServer = server;
    o.numWorkers = size_t(workers);
    o.waitWorkers = false; // dist::meetAll() waits for them, and a cancel ends its wait
    o.timeout = timeout;
    return c10::make_intrusive<c10d::TCPStore>(host, o);
}

#ifdef FISURA_HAVE_GLOO
/// Gloo over TCP. The interface (GLOO_SOCKET_IFNAME) wins; a job on one host binds to the
/// loopback address; otherwise the address this host's name resolves to (as PyTorch's
/// init_process_group does).
inline c10::intrusive_ptr<CommBackend> makeGloo(const c10::intrusive_ptr<c10d::Store>& store,
                                                int rank, int size,
                                                std::chrono::milliseconds timeout,
                                                const std::string& interface, bool loopback)
{
    auto o = c10d::ProcessGroupGloo::Options::create(timeout);
    if (!interface.empty())
        o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
    else if (loopback)
        o->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    else
        o->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    o->threads = 2;
    return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, o);
}
#endif

#ifdef FISURA_HAVE_NCCL
/// NCCL on GPU `device` (this process's LOCAL_RANK). The communicator starts at the first
/// collective; the device is made current first so it lands there. NCCL reads its own settings
/// (NCCL_NVLS_ENABLE, NCCL_DEBUG, ...) from the environment the launcher passes on.
inline c10::intrusive_ptr<CommBackend> makeNccl(const c10::intrusive_ptr<c10d::Store>& store,
                                                int rank, int size,
                                                std::chrono::milliseconds timeout, int device)
{
    c10::cuda::set_device(c10::DeviceIndex(device));
    auto o = c10d::ProcessGroupNCCL::Options::create();
    o->timeout = timeout;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, o);
}
#endif

} // namespace fisura::compat

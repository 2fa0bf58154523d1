// LibTorch side of batch probing, job steps and whole jobs: map an out-of-memory (CUDA or host)
// to a Status so callers (the probe, the trainer, the CLI) can back off or fail clearly instead
// of dying. Include after compat/torch_compat.h.
#pragma once

#include <new>
#include <string>

#include "compat/torch_compat.h"
#include "fisura/status.h"

namespace fisura::detail
{

/// An allocation failure: a CUDA out-of-memory (compat::isOutOfMemory), or the CPU allocator's
/// "can't allocate memory" (host memory exhausted, or a limit such as ulimit -v).
inline bool isAllocationFailure(const c10::Error& e)
{
    return compat::isOutOfMemory(e) ||
           std::string(e.what()).find("can't allocate memory") != std::string::npos;
}

/// A LibTorch error at the facade: OutOfMemory (first line of the message) for an allocation
/// failure, DeviceError for anything else.
inline Status torchErrorStatus(const c10::Error& e)
{
    const std::string what = e.what_without_backtrace();
    if (isAllocationFailure(e))
        return {ErrorCode::OutOfMemory, what.substr(0, what.find('\n'))};
    return {ErrorCode::DeviceError, what};
}

/// Run `fn` (one forward/backward step); OutOfMemory for a CUDA or host out-of-memory,
/// DeviceError for any other LibTorch error. The tensors of the failed step are gone when this
/// returns, so releasing cached blocks afterwards actually frees them.
template <class F> Status guardTorchStep(F&& fn)
{
    try {
        fn();
        return Status::ok();
    } catch (const c10::Error& e) {
        return torchErrorStatus(e);
    } catch (const std::bad_alloc&) {
        return {ErrorCode::OutOfMemory, "host memory exhausted"};
    }
}

/// The boundary of a whole job (training, evaluation): `fn` returns the job's Status; LibTorch
/// errors become OutOfMemory or DeviceError and any other exception Internal, so no exception
/// crosses the facade.
template <class F> Status guardTorchJob(F&& fn)
{
    try {
        return fn();
    } catch (const c10::Error& e) {
        return torchErrorStatus(e);
    } catch (const std::bad_alloc&) {
        return {ErrorCode::OutOfMemory, "host memory exhausted"};
    } catch (const std::exception& e) {
        return {ErrorCode::Internal, e.what()};
    }
}

} // namespace fisura::detail

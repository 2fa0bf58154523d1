// Host <-> GPU copies that overlap compute (LibTorch side; include after compat/torch_compat.h).
//
// CopyStream::upload() copies a pinned host tensor on a side CUDA stream and makes the current
// (compute) stream wait for that copy only, so while the GPU still runs the previous batch the
// next one is already on its way; download() is the way back, off the compute stream too.
// Without CUDA (or for a CPU device) they are plain copies.
// Pattern from PyTorch's "CUDA semantics" notes (streams, record_stream) and NVIDIA's apex
// data_prefetcher.
#pragma once

#include "compat/torch_compat.h"

#ifdef FISURA_TORCH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <memory>
#include <optional>

namespace fisura::detail
{

/// "The GPU has finished everything queued so far on the current stream": recorded by the
/// thread that queues work, waited on by another (e.g. before reading a non-blocking download).
class StreamMark
{
public:
    explicit StreamMark(torch::Device device)
    {
#ifdef FISURA_TORCH_CUDA
        if (device.is_cuda()) {
            // A thread that waits for the mark sleeps instead of spinning on its core (CUDA's
            // default for an event): the readers and the map's compressors need those cores.
            // A 40000² scan on one GPU of 16 cores took 22.6-23.2 CPU-s against 25.2-26.7
            // spinning, in the same 2.97 s (the map writer's band thread alone 0.28 against 2.85).
            event_.emplace(cudaEventDisableTiming | cudaEventBlockingSync);
            event_->record(c10::cuda::getCurrentCUDAStream(device.index()));
        }
#else
        (void)device;
#endif
    }
    /// Blocks the calling thread (asleep) until the recorded work is done (no-op on the CPU).
    void wait()
    {
#ifdef FISURA_TORCH_CUDA
        if (event_)
            event_->synchronize();
#endif
    }

private:
#ifdef FISURA_TORCH_CUDA
    std::optional<at::cuda::CUDAEvent> event_;
#endif
};

class CopyStream
{
public:
    explicit CopyStream(torch::Device device) : device_(device)
    {
#ifdef FISURA_TORCH_CUDA
        if (device_.is_cuda())
            side_.emplace(c10::cuda::getStreamFromPool(/*isHighPriority=*/false, device_.index()));
#endif
    }

    /// `host` on the device, usable on the current stream (which waits for the copy, the CPU
    /// does not). `host` should be pinned for the copy to be asynchronous.
    torch::Tensor upload(const torch::Tensor& host)
    {
#ifdef FISURA_TORCH_CUDA
        if (side_) {
            const auto compute = c10::cuda::getCurrentCUDAStream(device_.index());
            torch::Tensor out;
            {
                c10::cuda::CUDAStreamGuard guard(*side_);
                out = host.to(device_, /*non_blocking=*/true);
            }
            at::cuda::CUDAEvent copied;
            copied.record(*side_);
            copied.block(compute);
            // The block was allocated on the side stream; tell the caching allocator the compute
            // stream uses it too, so it is not reused before the compute that reads it is done.
            out.record_stream(compute);
            return out;
        }
#endif
        return host.to(device_, /*non_blocking=*/host.is_pinned());
    }

    /// `dev` (written by work queued on the current stream) copied into `host` on the side
    /// stream once that work is done, so the compute stream goes on with the next batch while
    /// the copy engine works. The mark is reached when `host` holds the bytes; `host` should be
    /// pinned for the copy to be asynchronous.
    std::shared_ptr<StreamMark> download(const torch::Tensor& dev, torch::Tensor& host)
    {
#ifdef FISURA_TORCH_CUDA
        if (side_) {
            const auto compute = c10::cuda::getCurrentCUDAStream(device_.index());
            at::cuda::CUDAEvent written;
            written.record(compute);
            written.block(*side_);
            c10::cuda::CUDAStreamGuard guard(*side_);
            host.copy_(dev, /*non_blocking=*/true);
            // `dev` came from the compute stream's pool: not to be reused before this copy.
            dev.record_stream(*side_);
            return std::make_shared<StreamMark>(device_); // on the side stream (current here)
        }
#endif
        host.copy_(dev, /*non_blocking=*/host.is_pinned());
        return std::make_shared<StreamMark>(device_);
    }

private:
    torch::Device device_;
#ifdef FISURA_TORCH_CUDA
    std::optional<c10::cuda::CUDAStream> side_;
#endif
};

} // namespace fisura::detail

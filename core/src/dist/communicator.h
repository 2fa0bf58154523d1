// The processes of a data-parallel job talking to each other (internal): a c10d process group
// over a c10d store — gloo for CPU tensors, NCCL for CUDA tensors where the LibTorch has it.
// c10d's headers stay in communicator.cpp, so the trainer only sees this small class.
//
// Every collective is called by every rank in the same order (c10d's rule). A collective that
// fails — a peer process died, its connection closed, the operation timed out — throws
// dist::CommError; the trainer's boundary turns it into a Status, and the launcher ends the
// other processes.
#pragma once

#include "compat/torch_compat.h"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fisura/distributed.h"
#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura::dist
{

/// A collective failed (the text says which and why).
class CommError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Which backends this build has: "gloo", "nccl", both or none.
bool glooBuilt();
bool ncclBuilt();

/// A store the test threads of one process share (c10d::HashStore), as an opaque handle.
struct SharedStore;
std::shared_ptr<SharedStore> makeInProcessStore();

/// Collectives over flat tensors. Tensors on the CPU use gloo; CUDA tensors use NCCL.
class Communicator
{
public:
    ~Communicator();
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    /// Joins the job: rank 0 serves the TCP store at masterAddr:masterPort and waits for the
    /// others; every rank then builds its process group for `device`. A peer that does not come
    /// within id.timeoutSeconds gives IoError (never a hang); a device without a backend in this
    /// build gives Unsupported. `cancel` ends the wait for the others (Cancelled): the desktop
    /// application cancels rank 0 when one of its peer processes failed to start.
    static Result<std::unique_ptr<Communicator>> connect(const DistributedIdentity& id,
                                                         const torch::Device& device,
                                                         const CancelToken& cancel = {});
    /// The same over a store shared by threads of this process (tests).
    static Result<std::unique_ptr<Communicator>>
    overStore(const std::shared_ptr<SharedStore>& store, int rank, int size,
              const torch::Device& device, std::chrono::milliseconds timeout);

    int rank() const { return rank_; }
    int size() const { return size_; }
    const std::string& backend() const { return backend_; } ///< "gloo" or "nccl"

    /// In place, on every rank. Throw CommError.
    void allReduceSum(torch::Tensor& t);
    void allReduceMax(torch::Tensor& t);
    void allReduceMin(torch::Tensor& t);
    void broadcastFromRoot(torch::Tensor& t); ///< rank 0's values everywhere
    void barrier();

    /// Sums of several tensors started at once (each on its own); finish() waits for all.
    class Batch
    {
    public:
        ~Batch();
        void finish();

    private:
        friend class Communicator;
        struct Work;
        std::vector<std::shared_ptr<Work>> works_;
        int rank_ = 0;
    };
    std::unique_ptr<Batch> startAllReduceSums(std::vector<torch::Tensor>& tensors);

    struct Impl;

private:
    Communicator() = default;
    std::unique_ptr<Impl> impl_;
    int rank_ = 0, size_ = 1;
    std::string backend_;
};

/// Parameters and buffers (BatchNorm statistics) of `module` from rank 0 on every rank: every
/// replica starts from the same weights.
void broadcastModuleState(Communicator& comm, torch::nn::Module& module);

} // namespace fisura::dist

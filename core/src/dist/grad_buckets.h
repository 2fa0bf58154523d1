// Gradients as views into a few flat buffers, all-reduced bucket by bucket (internal).
//
// As PyTorch's DistributedDataParallel with gradient_as_bucket_view=True (Li et al., "PyTorch
// Distributed: Experiences on Accelerating Data Parallel Training", VLDB 2020): parameters go
// into buckets of about 25 MB in reverse order — the order the backward pass produces their
// gradients — one dtype per bucket; each parameter's .grad() is a view into its bucket's flat
// buffer, so autograd accumulates straight into it and the all-reduce needs no copy in or out.
// A bucket's all-reduce starts during the backward pass, as soon as autograd has accumulated the
// last gradient in it (post hooks on the parameters' gradient accumulators, as DDP's reducer
// does), in bucket order so that every rank issues the same collectives in the same order; the
// step waits for them all before clipping and the optimiser step, which then see the averaged
// gradients on every replica.
#pragma once

#include "compat/torch_compat.h"

#include <cstdint>
#include <vector>

namespace fisura::dist
{

class Communicator;

/// Where each parameter's gradient lives.
struct BucketLayout {
    struct Slot {
        size_t param = 0;   ///< index into the parameter list
        int64_t offset = 0; ///< in elements, within the bucket
        int64_t numel = 0;
    };
    at::ScalarType dtype = at::kFloat;
    int64_t numel = 0;
    std::vector<Slot> slots; ///< in reverse parameter order
};

/// DDP's default bucket size.
constexpr int64_t kDefaultBucketBytes = 25 * 1024 * 1024;

/// Buckets of at most `capBytes` (a parameter larger than that gets a bucket of its own), per
/// dtype, parameters taken from last to first. Parameters that need no gradient are left out.
std::vector<BucketLayout> planBuckets(const std::vector<torch::Tensor>& params, int64_t capBytes);

class GradBuckets
{
public:
    /// Allocates the buffers on the parameters' device and makes every .grad() a view into
    /// them (zeroed). `capBytes` <= 0: no buckets — each gradient is all-reduced on its own.
    GradBuckets(const std::vector<torch::Tensor>& params, int64_t capBytes);

    /// Gradients to zero (the views stay: the optimiser must not set them to none).
    void zero();
    /// Every gradient averaged over the ranks, in place. Throws CommError.
    void allReduceMean(Communicator& comm);

    const std::vector<BucketLayout>& layout() const { return layout_; }
    const std::vector<torch::Tensor>& buffers() const { return buffers_; }
    bool bucketed() const { return !layout_.empty(); }

    /// Re-attach the views after something replaced a .grad() (a loaded checkpoint, a
    /// zero_grad that set them to none).
    void attach();

    /// From now on each step's buckets are averaged while the backward pass runs: beginStep()
    /// before the backward pass, finishStep() after it (bucketed layouts only).
    void overlapWith(Communicator& comm);
    bool overlapping() const { return comm_ != nullptr; }
    void beginStep();
    /// Starts the buckets the backward pass did not fill (unused parameters), waits for all.
    /// Throws CommError.
    void finishStep();
    /// Buckets of this step already started (tests: all of them once backward has run).
    size_t startedBuckets() const;

    ~GradBuckets();
    GradBuckets(const GradBuckets&) = delete;
    GradBuckets& operator=(const GradBuckets&) = delete;

private:
    struct Pending;
    void gradientReady(size_t bucket);
    void launchReadyBuckets(bool all); ///< under mutex_

    std::vector<torch::Tensor> params_;
    std::vector<BucketLayout> layout_;
    std::vector<torch::Tensor> buffers_;
    // Overlap with the backward pass.
    Communicator* comm_ = nullptr;
    std::vector<std::shared_ptr<torch::autograd::Node>> accumulators_; ///< keeps hooks alive
    std::unique_ptr<Pending> pending_;
};

} // namespace fisura::dist

// Gradients as views into a few flat buffers, all-reduced bucket by bucket (internal).
//
// As PyTorch's DistributedDataParallel with gradient_as_bucket_view=True (Li et al., "PyTorch
// Distributed: Experiences on Accelerating Data Parallel Training", VLDB 2020): parameters go
// into buckets of about 25 MB in reverse order — the order the backward pass produces their
// gradients — one dtype per bucket; each parameter's .grad() is a view into its bucket's flat
// buffer, so autograd accumulates straight into it and the all-reduce needs no copy in or out.
// Buckets are all-reduced after the backward pass (all started at once, then waited for); the
// clipping and the optimiser step run after that, on the averaged gradients, so every replica
// stays the same.
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

private:
    std::vector<torch::Tensor> params_;
    std::vector<BucketLayout> layout_;
    std::vector<torch::Tensor> buffers_;
};

} // namespace fisura::dist

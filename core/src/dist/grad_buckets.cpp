// Flat gradient buckets and their averaging all-reduce (see grad_buckets.h).
#include "compat/torch_compat.h"

#include "dist/grad_buckets.h"

#include <functional>
#include <map>
#include <mutex>

#include <torch/csrc/autograd/function_hook.h>

#include "dist/communicator.h"

namespace fisura::dist
{

std::vector<BucketLayout> planBuckets(const std::vector<torch::Tensor>& params, int64_t capBytes)
{
    std::vector<BucketLayout> done;
    std::map<at::ScalarType, BucketLayout> open;
    for (size_t k = params.size(); k-- > 0;) {
        const auto& p = params[k];
        if (!p.requires_grad() || p.numel() == 0)
            continue;
        const at::ScalarType dt = p.scalar_type();
        BucketLayout& b = open[dt];
        b.dtype = dt;
        const int64_t bytes = p.numel() * int64_t(p.element_size());
        const int64_t have = b.numel * int64_t(p.element_size());
        if (!b.slots.empty() && have + bytes > capBytes) {
            done.push_back(std::move(b));
            b = BucketLayout{};
            b.dtype = dt;
        }
        b.slots.push_back({k, b.numel, p.numel()});
        b.numel += p.numel();
    }
    for (auto& [dt, b] : open)
        if (!b.slots.empty())
            done.push_back(std::move(b));
    return done;
}

/// Per step: gradients still to come per bucket, the next bucket to start, the started ones.
struct GradBuckets::Pending {
    std::mutex mutex;
    bool armed = false;
    std::vector<size_t> missing;
    size_t next = 0;
    std::vector<std::unique_ptr<Communicator::Batch>> started;
};

namespace
{

/// Runs after autograd accumulated a parameter's gradient (into its bucket view).
class BucketReadyHook final : public torch::autograd::FunctionPostHook
{
public:
    BucketReadyHook(std::function<void()> ready) : ready_(std::move(ready)) {}
    torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                              const torch::autograd::variable_list&) override
    {
        ready_();
        return outputs;
    }

private:
    std::function<void()> ready_;
};

} // namespace

GradBuckets::~GradBuckets() = default;

GradBuckets::GradBuckets(const std::vector<torch::Tensor>& params, int64_t capBytes)
    : params_(params)
{
    if (capBytes <= 0) {
        for (auto& p : params_)
            if (p.requires_grad() && !p.grad().defined())
                p.mutable_grad() = torch::zeros_like(p);
        return;
    }
    layout_ = planBuckets(params_, capBytes);
    for (const auto& b : layout_)
        buffers_.push_back(torch::zeros(
            {b.numel}, torch::TensorOptions().dtype(b.dtype).device(params_.front().device())));
    attach();
}

void GradBuckets::attach()
{
    torch::NoGradGuard ng;
    for (size_t i = 0; i < layout_.size(); ++i)
        for (const auto& s : layout_[i].slots) {
            auto& p = params_[s.param];
            // The gradient keeps the parameter's strides (channels-last weights too), as DDP's
            // bucket views do, so accumulating into it is a plain dense add.
            auto view = p.is_non_overlapping_and_dense()
                            ? buffers_[i].as_strided(p.sizes(), p.strides(), s.offset)
                            : buffers_[i].narrow(0, s.offset, s.numel).view(p.sizes());
            if (p.grad().defined() && p.grad().data_ptr() != view.data_ptr())
                view.copy_(p.grad());
            p.mutable_grad() = view;
        }
}

void GradBuckets::zero()
{
    if (!bucketed()) {
        for (auto& p : params_)
            if (p.grad().defined())
                p.mutable_grad().zero_();
        return;
    }
    for (auto& b : buffers_)
        b.zero_();
}

void GradBuckets::allReduceMean(Communicator& comm)
{
    const double scale = 1.0 / double(comm.size());
    std::vector<torch::Tensor> flat;
    if (bucketed()) {
        flat = buffers_;
    } else {
        for (auto& p : params_)
            if (p.grad().defined())
                flat.push_back(p.grad());
    }
    // Divided before the sum (as DDP does): fp16 or bf16 sums of W gradients cannot overflow.
    for (auto& t : flat)
        t.mul_(scale);
    // Gradients that are not views of a bucket may be strided: they travel contiguous.
    std::vector<torch::Tensor> send;
    for (auto& t : flat)
        send.push_back(t.is_contiguous() ? t : t.contiguous());
    comm.startAllReduceSums(send)->finish();
    for (size_t i = 0; i < flat.size(); ++i)
        if (!send[i].is_same(flat[i]))
            flat[i].copy_(send[i]);
}

} // namespace fisura::dist

namespace fisura::dist
{

void GradBuckets::overlapWith(Communicator& comm)
{
    if (!bucketed() || comm_)
        return;
    comm_ = &comm;
    pending_ = std::make_unique<Pending>();
    for (size_t b = 0; b < layout_.size(); ++b)
        for (const auto& s : layout_[b].slots) {
            auto acc = torch::autograd::impl::grad_accumulator(params_[s.param]);
            if (!acc)
                continue;
            acc->add_post_hook(std::make_unique<BucketReadyHook>([this, b] { gradientReady(b); }));
            accumulators_.push_back(std::move(acc));
        }
}

void GradBuckets::beginStep()
{
    if (!pending_)
        return;
    std::lock_guard<std::mutex> lock(pending_->mutex);
    pending_->missing.clear();
    for (const auto& b : layout_)
        pending_->missing.push_back(b.slots.size());
    pending_->next = 0;
    pending_->started.clear();
    pending_->armed = true;
}

void GradBuckets::gradientReady(size_t bucket)
{
    std::lock_guard<std::mutex> lock(pending_->mutex);
    if (!pending_->armed || bucket >= pending_->missing.size() || pending_->missing[bucket] == 0)
        return;
    --pending_->missing[bucket];
    launchReadyBuckets(false);
}

/// Buckets start strictly in order: the same collectives in the same order on every rank,
/// whatever order this rank's backward pass filled them in.
void GradBuckets::launchReadyBuckets(bool all)
{
    Pending& p = *pending_;
    const double scale = 1.0 / double(comm_->size());
    while (p.next < layout_.size() && (all || p.missing[p.next] == 0)) {
        auto& buf = buffers_[p.next];
        buf.mul_(scale); // divided before the sum, as in allReduceMean
        std::vector<torch::Tensor> one{buf};
        p.started.push_back(comm_->startAllReduceSums(one));
        ++p.next;
    }
}

size_t GradBuckets::startedBuckets() const
{
    if (!pending_)
        return 0;
    std::lock_guard<std::mutex> lock(pending_->mutex);
    return pending_->next;
}

void GradBuckets::finishStep()
{
    std::vector<std::unique_ptr<Communicator::Batch>> started;
    {
        std::lock_guard<std::mutex> lock(pending_->mutex);
        if (!pending_->armed)
            return;
        launchReadyBuckets(true);
        pending_->armed = false;
        started = std::move(pending_->started);
        pending_->started.clear();
    }
    for (auto& b : started)
        b->finish();
}

} // namespace fisura::dist

// Validation after each epoch: the loss and the task's metrics over the whole validation split,
// accumulated on the device (train/metrics.h) so nothing grows with the dataset.
#include "compat/torch_compat.h"

#include "models/model_impl.h"
#include "train/metrics.h"
#include "train/trainer.h"

namespace fisura::train_detail
{

Status Trainer::validate(int epoch, EpochMetrics& m)
{
    net_->eval();
    torch::NoGradGuard ng;
    MetricAccumulator acc(o_.task, ds_->positiveClass(), device_);
    vl_->start(0, 0, st_.batchSize);
    DeviceBatch vb, vnext;
    bool have = vl_->next(vb.host, cancel_);
    double vloss = 0;
    int vcount = 0;
    while (have) {
        if (!vb.uploaded)
            upload(vb);
        const auto x = toInput(vb.pixels);
        torch::Tensor out;
        {
            compat::CudaAutocast ac(useAmp_, amp_);
            compat::CpuAutocast cac(!pol().useCuda && pol().precision == Precision::BF16);
            out = model_.impl()->forward(x);
        }
        torch::Tensor target;
        const auto batchLoss = lossOf(out, x, vb, &target);
        bool haveNext = false;
        if (lookahead_) { // as in training: the next batch travels during this one
            haveNext = vl_->next(vnext.host, cancel_);
            if (haveNext)
                upload(vnext);
        }
        vloss += batchLoss.item<double>() * vb.host.count;
        vcount += vb.host.count;
        acc.add(out.to(torch::kFloat), x, target);
        if (!lookahead_)
            haveNext = vl_->next(vnext.host, cancel_);
        vb = std::move(vnext);
        vnext = {};
        have = haveNext;
    }
    if (cancel_.isCancelled()) {
        res_.cancelled = true;
        stop_ = true;
        ev_.notice("cancelled", "stopped while validating epoch " + std::to_string(epoch + 1) +
                                    "; the checkpoint of the last completed epoch is kept");
        return Status::ok();
    }
    if (!vl_->error.isOk())
        return vl_->error;
    m.valLoss = vcount ? vloss / vcount : -1;
    acc.finish(m);
    return Status::ok();
}

} // namespace fisura::train_detail

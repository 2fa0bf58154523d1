// The training step as one CUDA graph (the whole-network capture of PyTorch's "CUDA Graphs"
// notes, torch.cuda.graphs): forward, loss, backward, gradient clipping and the fused AdamW
// update are captured once, at a fixed batch, on a side stream after that very step ran there
// eagerly (its warm-up: cuDNN's algorithm choice, library handles), and replayed for every later
// step of that batch size. The host then only copies the batch into the graph's input buffers
// and writes the learning rate and step count into two device tensors: one launch per step
// instead of hundreds, so the GPU no longer waits for a CPU that is busy decoding the next batches.
// Steps of another batch size (a last partial batch, after an out-of-memory back-off) run eagerly;
// fp16 loss scaling reads a flag per step and so stays eager; a capture that fails is reported
// and training carries on eagerly.
#include "compat/torch_compat.h"

#include <atomic>
#include <stdexcept>

#include "dist/communicator.h"
#include "dist/grad_buckets.h"
#include "fisura/testing.h"
#include "fisura/train.h"
#include "models/bn_relu.h"
#include "models/model_impl.h"
#include "train/train_optim.h"
#include "train/trainer.h"

#ifdef FISURA_TORCH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace fisura
{
namespace
{
std::atomic<bool> g_graphsEnabled{true};
/// Eager steps before the capture: the first ones allocate the optimiser's moments and let
/// cuDNN choose its algorithms.
constexpr int64_t kEagerStepsFirst = 2;
} // namespace

void testing::setTrainingStepGraphs(bool enabled)
{
    g_graphsEnabled.store(enabled);
}

} // namespace fisura

namespace fisura::train_detail
{

struct Trainer::StepGraph {
#ifdef FISURA_TORCH_CUDA
    at::cuda::CUDAGraph graph;
#endif
    int batch = 0;
    bool captured = false;
    torch::Tensor pixels, labels, masks; ///< the graph's inputs, refilled before each replay
    torch::Tensor lr, steps;             ///< learning rate (0-dim), moment step counts [P]
    torch::Tensor loss;                  ///< the graph's output (the batch loss)
    std::vector<torch::Tensor> grads;    ///< gradient buffers the graph writes
};

void Trainer::chooseStepGraph()
{
    const ExecutionPolicy& pol = res_.policy;
    if (!pol.useCuda || fitsInsteadOfTraining())
        return; // a CPU step has no launches worth saving; a patch fit has no training step
    graphPolicy_ = false;
    std::string value = "eager", reason, id;
    if (!g_graphsEnabled.load()) {
        reason = "the training step runs op by op (CUDA graphs turned off)";
        id = "step_graph_off";
    } else if (comm_ && comm_->backend() != "nccl") {
        // Only NCCL's collectives can be captured (from NCCL 2.9.6 on).
        reason = "several processes average their gradients between the backward pass and the "
                 "optimiser step, so the step runs op by op";
        id = "step_graph_distributed";
    } else if (scaler_.enabled) {
        reason = "fp16 loss scaling reads one flag per step, so the step runs op by op";
        id = "step_graph_fp16";
    } else if (adamwKernel_ != AdamWKernel::Fused) {
        reason = "the optimiser is not the fused kernel, so the step runs op by op";
        id = "step_graph_optimizer";
    } else if (comm_) {
        // The buckets' NCCL all-reduces are captured where the backward pass starts them, as
        // in PyTorch's whole-network capture of a DistributedDataParallel step (the CUDA Graphs
        // notes): every replay averages the gradients in the same order on every rank.
        graphPolicy_ = true;
        value = "cuda-graph";
        reason = "the whole training step, the all-reduce of the gradients included, is captured "
                 "once as a CUDA graph and replayed: one launch per step";
        id = "step_graph_allreduce";
    } else {
        graphPolicy_ = true;
        value = "cuda-graph";
        reason = "the whole training step is captured once as a CUDA graph and replayed: one "
                 "launch per step; a smaller last batch runs op by op";
        id = "step_graph";
    }
    graph_ = std::make_shared<StepGraph>();
    res_.policy.choices.push_back({"training_step", value, reason, id, ""});
    if (models::fusedBnReluEnabled())
        res_.policy.choices.push_back({"batchnorm_relu", "fused",
                                       "Fisura's fused kernels: fewer passes over the activations",
                                       "bnrelu_fused", ""});
    else
        res_.policy.choices.push_back(
            {"batchnorm_relu", "separate",
             models::fusedBnReluBuilt()
                 ? "the fused kernels are turned off"
                 : "this build has no CUDA compiler for Fisura's fused kernels",
             models::fusedBnReluBuilt() ? "bnrelu_off" : "bnrelu_not_built", ""});
}

void Trainer::dropStepGraph()
{
    if (graph_)
        graph_ = std::make_shared<StepGraph>(); // captured again at the new batch size
}

bool Trainer::stepGraphReady(const DeviceBatch& d) const
{
    return graphPolicy_ && graph_ && graph_->captured && d.host.count == graph_->batch;
}

bool Trainer::stepGraphDue(const DeviceBatch& d) const
{
    return graphPolicy_ && graph_ && !graph_->captured && st_.step >= kEagerStepsFirst &&
           d.host.count == st_.batchSize;
}

#ifdef FISURA_TORCH_CUDA

torch::Tensor Trainer::replayStep(DeviceBatch& d, double lr, bool moreBatches)
{
    StepGraph& g = *graph_;
    g.pixels.copy_(d.pixels);
    if (g.labels.defined())
        g.labels.copy_(d.labels);
    if (g.masks.defined())
        g.masks.copy_(d.masks);
    g.lr.fill_(lr);
    g.steps.fill_(double(advanceAdamWSteps(*opt_, params_)));
    g.graph.replay();
    if (lookahead_ && moreBatches)
        fetchAhead();
    return g.loss;
}

/// This step eagerly on a side stream (the graph's warm-up), then the capture on that stream. A
/// data-parallel job already runs on a stream of its own (joinJob): it captures there.
torch::Tensor Trainer::captureAfterEagerStep(DeviceBatch& d, bool moreBatches)
{
    const int index = device_.index();
    const auto current = c10::cuda::getCurrentCUDAStream(index);
    const auto side = current != c10::cuda::getDefaultCUDAStream(index)
                          ? current
                          : c10::cuda::getStreamFromPool(/*isHighPriority=*/false, index);
    at::cuda::CUDAEvent before, after;
    before.record(current);
    before.block(side);
    torch::Tensor loss;
    {
        const c10::cuda::CUDAStreamGuard guard(side);
        loss = eagerStep(d, /*moreBatches=*/false); // no look-ahead: its copy waits on `current`
        if (std::string why = captureStep(d); !why.empty()) {
            graphPolicy_ = false;
            for (auto& c : res_.policy.choices)
                if (c.what == "training_step")
                    c = {"training_step", "eager",
                         "capturing the training step as a CUDA graph failed (" + why +
                             "); it runs op by op",
                         "step_graph_failed", why};
            ev_.notice("step_graph_failed", why);
        }
    }
    after.record(side);
    after.block(current);
    loss.record_stream(current);
    if (lookahead_ && moreBatches)
        fetchAhead();
    return loss;
}

/// Captures forward, loss, backward, clipping and AdamW on the current (side) stream. Returns
/// why it failed, or an empty string.
std::string Trainer::captureStep(const DeviceBatch& d)
{
    StepGraph& g = *graph_;
    const auto optF = torch::TensorOptions().dtype(torch::kFloat).device(device_);
    g.pixels = d.pixels.clone();
    g.labels = d.labels.defined() ? d.labels.clone() : torch::Tensor();
    g.masks = d.masks.defined() ? d.masks.clone() : torch::Tensor();
    g.lr = torch::zeros({}, optF);
    g.steps = torch::zeros({int64_t(params_.size())}, optF);
    g.batch = d.host.count;
    // Data-parallel: the gradients are views of the all-reduce buckets and stay so; zeroing them
    // is part of the graph. Otherwise to none: the backward pass allocates them in its pool.
    const bool bucketGrads = bool(buckets_);
    if (!bucketGrads)
        opt_->zero_grad();
    // The eager steps' cached blocks go back to the device, so that the graph's own pool can
    // take that memory instead of doubling the step's footprint.
    torch::cuda::synchronize(device_.index());
    c10::cuda::CUDACachingAllocator::emptyCache();
    bool capturing = false;
    try {
        const compat::AutocastCacheOff noCache; // cached casts would outlive the capture
        g.graph.capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
        capturing = true;
        DeviceBatch in;
        in.host.count = d.host.count;
        in.pixels = g.pixels;
        in.labels = g.labels;
        in.masks = g.masks;
        in.uploaded = true;
        if (bucketGrads)
            zeroGrads(); // also arms the buckets: the backward pass below starts their all-reduces
        const auto x = toInput(in.pixels);
        torch::Tensor out;
        {
            compat::CudaAutocast ac(useAmp_, amp_);
            out = model_.impl()->forward(x);
        }
        torch::Tensor target;
        auto loss = lossOf(out, x, in, &target);
        loss.backward();
        averageGradients(); // data-parallel: waits for the buckets' all-reduces in the graph
        if (o_.clipNorm > 0)
            clipGradNormOnDevice(params_, o_.clipNorm);
        if (!adamwStepFromTensors(*opt_, params_, g.lr, g.steps))
            throw std::runtime_error("the fused optimiser step does not apply");
        g.loss = loss.detach();
        capturing = false;
        g.graph.capture_end();
    } catch (const std::exception& e) {
        if (capturing) {
            try {
                g.graph.capture_end();
            } catch (const std::exception&) { // the capture was invalidated: nothing to keep
            }
        }
        graph_ = std::make_shared<StepGraph>();
        if (bucketGrads)
            buckets_->zero();
        else
            opt_->zero_grad();
        const std::string msg = e.what();
        return msg.substr(0, msg.find('\n'));
    }
    for (const auto& p : params_)
        g.grads.push_back(p.grad());
    g.captured = true;
    return {};
}

#else

torch::Tensor Trainer::replayStep(DeviceBatch& d, double, bool moreBatches)
{
    return eagerStep(d, moreBatches);
}

torch::Tensor Trainer::captureAfterEagerStep(DeviceBatch& d, bool moreBatches)
{
    return eagerStep(d, moreBatches);
}

std::string Trainer::captureStep(const DeviceBatch&)
{
    return "no CUDA";
}

#endif

} // namespace fisura::train_detail

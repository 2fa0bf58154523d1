// See network_graph.h.
#include "infer/network_graph.h"

#include <stdexcept>

#ifdef FISURA_TORCH_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace fisura::detail
{

struct NetworkGraph::State {
#ifdef FISURA_TORCH_CUDA
    at::cuda::CUDAGraph graph;
#endif
    bool captured = false;
    torch::Tensor input, output;
};

NetworkGraph::NetworkGraph() : s_(std::make_unique<State>()) {}
NetworkGraph::~NetworkGraph() = default;

bool NetworkGraph::takes(const torch::Tensor& x) const
{
    return s_->captured && x.defined() && x.sizes() == s_->input.sizes() &&
           x.scalar_type() == s_->input.scalar_type() && x.device() == s_->input.device();
}

#ifdef FISURA_TORCH_CUDA

std::string NetworkGraph::capture(const Network& network, const torch::Tensor& example,
                                  const NetworkGraph* sharing)
{
    if (!example.is_cuda())
        return "the input is not on a CUDA device";
    const int index = example.device().index();
    const c10::cuda::CUDAGuard deviceGuard(example.device());
    const auto current = c10::cuda::getCurrentCUDAStream(index);
    const auto side = c10::cuda::getStreamFromPool(/*isHighPriority=*/false, index);
    at::cuda::CUDAEvent before, after;
    before.record(current);
    before.block(side);
    std::string why;
    {
        const c10::cuda::CUDAStreamGuard streamGuard(side);
        s_->input = example.clone();
        (void)network(s_->input); // warm-up on the capturing stream (cuDNN plans, handles)
        // The warm-up's cached blocks go back to the device, so that the graph's pool can take
        // that memory instead of doubling the network's footprint.
        side.synchronize();
        c10::cuda::CUDACachingAllocator::emptyCache();
        bool capturing = false;
        try {
            const compat::AutocastCacheOff noCache; // cached casts would outlive the capture
            const bool shared =
                sharing && sharing->s_->captured && sharing->s_->input.device() == example.device();
            using Pool = decltype(s_->graph.pool());
            s_->graph.capture_begin(shared ? sharing->s_->graph.pool() : Pool{0, 0},
                                    cudaStreamCaptureModeThreadLocal);
            capturing = true;
            s_->output = network(s_->input);
            capturing = false;
            s_->graph.capture_end();
            s_->captured = true;
        } catch (const std::exception& e) {
            if (capturing) {
                try {
                    s_->graph.capture_end();
                } catch (const std::exception&) { // the capture was invalidated: nothing kept
                }
            }
            s_ = std::make_unique<State>();
            why = e.what();
            why = why.substr(0, why.find('\n'));
        }
    }
    after.record(side);
    after.block(current);
    if (s_->captured)
        s_->input.record_stream(current); // replays copy into it on the caller's stream
    return why;
}

torch::Tensor NetworkGraph::run(const torch::Tensor& x)
{
    s_->input.copy_(x, /*non_blocking=*/true);
    s_->graph.replay();
    return s_->output;
}

#else

std::string NetworkGraph::capture(const Network&, const torch::Tensor&, const NetworkGraph*)
{
    return "this build has no CUDA";
}

torch::Tensor NetworkGraph::run(const torch::Tensor&)
{
    throw std::logic_error("NetworkGraph::run without a captured graph");
}

#endif

} // namespace fisura::detail

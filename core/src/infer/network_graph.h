// The network of a tile batch as one CUDA graph (PyTorch's "CUDA Graphs" whole-network capture,
// torch.cuda.graphs, as torch.compile's "reduce-overhead" mode does for inference): captured once
// at the pipeline's fixed batch shape, on a side stream after a warm-up there, then replayed for
// every batch. The host copies the uploaded batch into the graph's input and launches one graph
// instead of a few hundred kernels; the activations live in the graph's own memory pool.
#pragma once

#include "compat/torch_compat.h"

#include <functional>
#include <memory>
#include <string>

namespace fisura::detail
{

class NetworkGraph
{
public:
    using Network = std::function<torch::Tensor(const torch::Tensor&)>;

    NetworkGraph();
    ~NetworkGraph();
    NetworkGraph(const NetworkGraph&) = delete;
    NetworkGraph& operator=(const NetworkGraph&) = delete;

    /// Runs `network` once on `example` (a CUDA tensor) eagerly on a side stream, then captures
    /// it there. Returns why the capture failed (the graph then stays empty), or "".
    /// `sharing` (captured, same device): the new graph's activations go into that graph's
    /// memory pool instead of a pool of their own. The two must then never run at the same time
    /// (PyTorch's torch.cuda.graph(pool=...)); each one's output stays its own.
    std::string capture(const Network& network, const torch::Tensor& example,
                        const NetworkGraph* sharing = nullptr);

    /// Whether `x` has the captured input's shape, type and device.
    bool takes(const torch::Tensor& x) const;

    /// The captured network's output for `x` (takes(x) must hold). The output tensor is the
    /// graph's own: the next run overwrites it, so use it (on this stream) before then.
    torch::Tensor run(const torch::Tensor& x);

private:
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace fisura::detail

// Batch-size probe on a U-Net-like segmentation net (encoder-decoder with skips, BatchNorm,
// transpose convolutions; a stand-in written for this benchmark only). Measures:
//  1. fp32, fp32+TF32 and bf16 at one batch: images/s and peak allocated memory;
//  2. the cost of releasing cached blocks after every step;
//  3. fisura::probeBatchSize() for bf16 training: chosen batch, largest fit, time taken;
//  4. an independent sweep (more steps per size) -> probed batch as % of the best throughput.
// Usage: bench_probe [input=512] [base=32] [max_batch=1024] [fixed_batch=32] [cudnn_benchmark=0]
// cuDNN autotuning is off by default: with it every new batch size re-tunes every convolution.
// With it on, the first fp32 measurement (batch 32, 512 px, 7 steps) did not finish within 200 s
// on an H200 (GPU busy throughout); autotuning is the suspected cause, not yet confirmed.
// Prints one JSON object per measurement line (JSON Lines) on stdout.
#include "compat/torch_compat.h"

#include <ATen/autocast_mode.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "device/torch_step.h"
#include "fisura/gpumemory.h"
#include "fisura/policy.h"

namespace nn = torch::nn;

namespace
{

struct DoubleConvImpl : nn::Module {
    DoubleConvImpl(int in, int out)
    {
        seq = register_module(
            "seq", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(in, out, 3).padding(1).bias(false)),
                                  nn::BatchNorm2d(out), nn::ReLU(true),
                                  nn::Conv2d(nn::Conv2dOptions(out, out, 3).padding(1).bias(false)),
                                  nn::BatchNorm2d(out), nn::ReLU(true)));
    }
    torch::Tensor forward(const torch::Tensor& x) { return seq->forward(x); }
    nn::Sequential seq{nullptr};
};
TORCH_MODULE(DoubleConv);

struct UNetImpl : nn::Module {
    explicit UNetImpl(int base)
    {
        int c = base, in = 3;
        for (int i = 0; i < 4; ++i, in = c, c *= 2)
            enc.push_back(register_module("enc" + std::to_string(i), DoubleConv(in, c)));
        mid = register_module("mid", DoubleConv(in, c));
        for (int i = 0; i < 4; ++i, c /= 2) {
            up.push_back(register_module(
                "up" + std::to_string(i),
                nn::ConvTranspose2d(nn::ConvTranspose2dOptions(c, c / 2, 2).stride(2))));
            dec.push_back(register_module("dec" + std::to_string(i), DoubleConv(c, c / 2)));
        }
        head = register_module("head", nn::Conv2d(nn::Conv2dOptions(c, 1, 1)));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        std::vector<torch::Tensor> skips;
        for (auto& e : enc) {
            x = e->forward(x);
            skips.push_back(x);
            x = torch::max_pool2d(x, 2);
        }
        x = mid->forward(x);
        for (size_t i = 0; i < up.size(); ++i)
            x = dec[i]->forward(torch::cat({up[i]->forward(x), skips[skips.size() - 1 - i]}, 1));
        return head->forward(x);
    }
    std::vector<DoubleConv> enc, dec;
    std::vector<nn::ConvTranspose2d> up;
    DoubleConv mid{nullptr};
    nn::Conv2d head{nullptr};
};
TORCH_MODULE(UNet);

enum class Mode { FP32, TF32, BF16 };
const char* modeName(Mode m)
{
    return m == Mode::FP32 ? "fp32" : m == Mode::TF32 ? "fp32+tf32" : "bf16";
}

/// Mixed precision for the scope (bench-local: the product's guard lives with the trainer).
struct Autocast {
    explicit Autocast(bool on) : on_(on)
    {
#if FISURA_TORCH_AT_LEAST(2, 4)
        if (on_) {
            at::autocast::set_autocast_enabled(at::kCUDA, true);
            at::autocast::set_autocast_dtype(at::kCUDA, at::kBFloat16);
        }
#endif
    }
    ~Autocast()
    {
#if FISURA_TORCH_AT_LEAST(2, 4)
        if (on_) {
            at::autocast::set_autocast_enabled(at::kCUDA, false);
            at::autocast::clear_cache();
        }
#endif
    }
    bool on_;
};

class Trainer
{
public:
    Trainer(int input, int base, torch::Device dev) : input_(input), dev_(dev), net_(base)
    {
        net_->to(dev_);
        if (dev_.is_cuda()) // NHWC for tensor-core convolutions
            for (auto& p : net_->parameters())
                if (p.dim() == 4)
                    p.set_data(p.data().contiguous(at::MemoryFormat::ChannelsLast));
        opt_ = std::make_unique<torch::optim::Adam>(net_->parameters(),
                                                    torch::optim::AdamOptions(1e-3));
    }

    void setMode(Mode m)
    {
        mode_ = m;
        at::globalContext().setAllowTF32CuDNN(m == Mode::TF32);
        at::globalContext().setAllowTF32CuBLAS(m == Mode::TF32);
    }

    fisura::Status step(int batch)
    {
        return fisura::detail::guardTorchStep([&] {
            if (batch != batch_) {
                x_ = torch::Tensor();
                y_ = torch::Tensor();
                x_ = torch::randn({batch, 3, input_, input_}, dev_)
                         .contiguous(dev_.is_cuda() ? at::MemoryFormat::ChannelsLast
                                                    : at::MemoryFormat::Contiguous);
                y_ = (torch::rand({batch, 1, input_, input_}, dev_) > 0.9).to(torch::kFloat);
                batch_ = batch;
            }
            opt_->zero_grad();
            torch::Tensor loss;
            {
                Autocast ac(mode_ == Mode::BF16);
                auto out = net_->forward(x_);
                loss = torch::binary_cross_entropy_with_logits(out.to(torch::kFloat), y_);
            }
            loss.backward();
            opt_->step();
        });
    }

    void dropInputs()
    {
        x_ = y_ = torch::Tensor();
        batch_ = -1;
    }

private:
    int input_;
    torch::Device dev_;
    UNet net_;
    std::unique_ptr<torch::optim::Adam> opt_;
    Mode mode_ = Mode::FP32;
    torch::Tensor x_, y_;
    int batch_ = -1;
};

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// images/s over `steps` steps after `warmup`, and the peak allocated bytes.
bool timeSteps(Trainer& t, int dev, int batch, int warmup, int steps, double& ips, uint64_t& peak,
               bool releaseEachStep = false)
{
    fisura::resetPeakGpuMemory(dev);
    for (int i = 0; i < warmup; ++i)
        if (!t.step(batch))
            return false;
    fisura::synchronizeGpu(dev);
    const double t0 = now();
    for (int i = 0; i < steps; ++i) {
        if (!t.step(batch))
            return false;
        if (releaseEachStep)
            fisura::releaseGpuMemory(dev);
    }
    fisura::synchronizeGpu(dev);
    ips = batch * steps / (now() - t0);
    auto m = fisura::gpuMemoryStats(dev);
    peak = m ? m->peakAllocatedBytes : 0;
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const int input = argc > 1 ? std::atoi(argv[1]) : 512;
    const int base = argc > 2 ? std::atoi(argv[2]) : 32;
    const int maxBatch = argc > 3 ? std::atoi(argv[3]) : 1024;
    const int fixedBatch = argc > 4 ? std::atoi(argv[4]) : 32;
    const bool autotune = argc > 5 && std::atoi(argv[5]) != 0;
    const bool cuda = torch::cuda::is_available();
    const int dev = cuda ? 0 : -1;
    torch::manual_seed(0);
    at::globalContext().setBenchmarkCuDNN(cuda && autotune);
    Trainer trainer(input, base, cuda ? torch::Device(torch::kCUDA, 0) : torch::kCPU);
    std::printf("{\"what\": \"setup\", \"input\": %d, \"base\": %d, \"cuda\": %s}\n", input, base,
                cuda ? "true" : "false");
    std::fflush(stdout);

    // 1. Precision at a fixed batch.
    for (Mode m : {Mode::FP32, Mode::TF32, Mode::BF16}) {
        if (!cuda && m != Mode::FP32)
            continue;
        trainer.setMode(m);
        double ips = 0;
        uint64_t peak = 0;
        const bool ok = timeSteps(trainer, dev, fixedBatch, 2, 5, ips, peak);
        trainer.dropInputs();
        fisura::releaseGpuMemory(dev);
        std::printf("{\"what\": \"precision\", \"mode\": \"%s\", \"batch\": %d, \"ok\": %s, "
                    "\"images_per_second\": %.1f, \"peak_bytes\": %llu}\n",
                    modeName(m), fixedBatch, ok ? "true" : "false", ips,
                    static_cast<unsigned long long>(peak));
        std::fflush(stdout);
    }

    // 2. Releasing cached blocks after every step (what the product does not do).
    if (cuda) {
        trainer.setMode(Mode::BF16);
        double keep = 0, release = 0;
        uint64_t peak = 0;
        timeSteps(trainer, dev, fixedBatch, 2, 10, keep, peak, false);
        timeSteps(trainer, dev, fixedBatch, 2, 10, release, peak, true);
        trainer.dropInputs();
        fisura::releaseGpuMemory(dev);
        std::printf("{\"what\": \"release_each_step\", \"batch\": %d, \"keep_ips\": %.1f, "
                    "\"release_ips\": %.1f, \"slowdown\": %.3f}\n",
                    fixedBatch, keep, release, keep / release);
        std::fflush(stdout);
    }

    // 3. The probe, as the product runs it (bf16 on a GPU that has it).
    trainer.setMode(cuda ? Mode::BF16 : Mode::FP32);
    fisura::BatchProbeOptions o;
    o.deviceIndex = dev;
    o.maxBatch = maxBatch;
    const double p0 = now();
    auto probe =
        fisura::probeBatchSize([&](int b) { return trainer.step(b); }, o, fisura::CancelToken{});
    const double probeSeconds = now() - p0;
    trainer.dropInputs();
    fisura::releaseGpuMemory(dev);
    if (!probe) {
        std::string why = probe.status().toString();
        std::replace(why.begin(), why.end(), '"', '\'');
        std::replace(why.begin(), why.end(), '\n', ' ');
        std::printf("{\"what\": \"probe\", \"error\": \"%s\"}\n", why.c_str());
        return 1;
    }
    std::printf("{\"what\": \"probe\", \"mode\": \"%s\", \"seconds\": %.1f, \"result\": %s}\n",
                modeName(cuda ? Mode::BF16 : Mode::FP32), probeSeconds,
                fisura::toJson(*probe, -1).c_str());
    std::fflush(stdout);

    // 4. Independent sweep: powers of two up to the headroom limit, plus the probed size.
    std::map<int, double> sweep;
    for (int b = 8; b <= probe->headroomLimit; b *= 2)
        sweep[b] = 0;
    sweep[probe->batchSize] = 0;
    sweep[probe->headroomLimit] = 0;
    double best = 0;
    for (auto& [b, ips] : sweep) {
        uint64_t peak = 0;
        const bool ok = timeSteps(trainer, dev, b, 2, 5, ips, peak);
        trainer.dropInputs();
        best = std::max(best, ips);
        std::printf("{\"what\": \"sweep\", \"batch\": %d, \"ok\": %s, \"images_per_second\": %.1f, "
                    "\"peak_bytes\": %llu}\n",
                    b, ok ? "true" : "false", ips, static_cast<unsigned long long>(peak));
        std::fflush(stdout);
    }
    std::printf("{\"what\": \"sweep_summary\", \"probed_batch\": %d, \"probed_ips\": %.1f, "
                "\"best_ips\": %.1f, \"probed_over_best\": %.3f}\n",
                probe->batchSize, sweep[probe->batchSize], best, sweep[probe->batchSize] / best);
    fisura::releaseGpuMemory(dev);

    return 0;
}

#include "common/policytext.h"

namespace fisura::ui
{

namespace
{
QString cpuPolicyReason(const PolicyChoice& c);    // threads, CPU precision and layout, folding
QString trainingStepReason(const PolicyChoice& c); // CUDA graph, fused kernels
QString dataParallelReason(const PolicyChoice& c); // processes, their GPUs and batch
QString inferenceReason(const PolicyChoice& c);    // the inference graph, U-Net kernels
QString gpusReason(const PolicyChoice& c);         // inference on several GPUs
} // namespace

QString policyChoiceLabel(const std::string& what)
{
    const QString w = QString::fromStdString(what);
    if (w == QStringLiteral("device"))
        return PolicyText::tr("Device");
    if (w == QStringLiteral("precision"))
        return PolicyText::tr("Precision");
    if (w == QStringLiteral("loss_scaling"))
        return PolicyText::tr("Loss scaling");
    if (w == QStringLiteral("tf32"))
        return PolicyText::tr("TF32 matrix maths");
    if (w == QStringLiteral("cudnn_benchmark"))
        return PolicyText::tr("Convolution autotuning");
    if (w == QStringLiteral("channels_last"))
        return PolicyText::tr("Channels-last layout");
    if (w == QStringLiteral("pinned_memory"))
        return PolicyText::tr("Pinned host memory");
    if (w == QStringLiteral("batch_size"))
        return PolicyText::tr("Batch size");
    if (w == QStringLiteral("loader_threads"))
        return PolicyText::tr("Loader threads");
    if (w == QStringLiteral("optimizer"))
        return PolicyText::tr("Optimizer step");
    if (w == QStringLiteral("intra_op_threads"))
        return PolicyText::tr("Compute threads");
    if (w == QStringLiteral("inter_op_threads"))
        return PolicyText::tr("Parallel operator threads");
    if (w == QStringLiteral("batchnorm_fold"))
        return PolicyText::tr("BatchNorm folding");
    if (w == QStringLiteral("training_step"))
        return PolicyText::tr("Training step");
    if (w == QStringLiteral("batchnorm_relu"))
        return PolicyText::tr("BatchNorm + ReLU");
    if (w == QStringLiteral("conv_bias_relu"))
        return PolicyText::tr("Convolution + ReLU");
    if (w == QStringLiteral("network_graph"))
        return PolicyText::tr("Network of a tile batch");
    if (w == QStringLiteral("unet_kernels"))
        return PolicyText::tr("U-Net pooling and concatenation");
    if (w == QStringLiteral("gpus"))
        return PolicyText::tr("GPUs computing tiles");
    if (w == QStringLiteral("map_level"))
        return PolicyText::tr("Map compression level");
    if (w == QStringLiteral("data_parallel"))
        return PolicyText::tr("Processes training together");
    if (w == QStringLiteral("gpu"))
        return PolicyText::tr("GPU of this process");
    if (w == QStringLiteral("batch_per_process"))
        return PolicyText::tr("Batch per GPU");
    return w;
}

QString policyChoiceValue(const std::string& value)
{
    const QString v = QString::fromStdString(value);
    if (v == QStringLiteral("on"))
        return PolicyText::tr("on");
    if (v == QStringLiteral("off"))
        return PolicyText::tr("off");
    if (v == QStringLiteral("cpu"))
        return PolicyText::tr("processor (CPU)");
    if (v == QStringLiteral("dynamic"))
        return PolicyText::tr("dynamic");
    if (v == QStringLiteral("fused"))
        return PolicyText::tr("fused");
    if (v == QStringLiteral("foreach"))
        return PolicyText::tr("multi-tensor");
    if (v == QStringLiteral("cuda-graph"))
        return PolicyText::tr("one CUDA graph");
    if (v == QStringLiteral("eager"))
        return PolicyText::tr("op by op");
    if (v == QStringLiteral("separate"))
        return PolicyText::tr("separate kernels");
    if (v == QStringLiteral("fisura"))
        return PolicyText::tr("Fisura's kernels");
    if (v == QStringLiteral("aten"))
        return PolicyText::tr("LibTorch's operators");
    if (v == QStringLiteral("adaptive"))
        return PolicyText::tr("adaptive");
    if (v == QStringLiteral("fixed"))
        return PolicyText::tr("fixed");
    return v; // numbers, fp32/bf16/fp16 and GPU names read the same in every language
}

QString policyChoiceReason(const PolicyChoice& c)
{
    const QString id = QString::fromStdString(c.reasonId);
    const QString arg = QString::fromStdString(c.reasonArg);
    if (id == QStringLiteral("gpu_found"))
        return PolicyText::tr("a usable CUDA GPU was found");
    if (id == QStringLiteral("cpu_requested"))
        return PolicyText::tr("the processor was requested");
    if (id == QStringLiteral("no_gpu"))
        return PolicyText::tr("there is no usable GPU");
    if (id == QStringLiteral("reduced_needs_gpu"))
        return PolicyText::tr("reduced precision was requested but needs a GPU");
    if (id == QStringLiteral("bf16_unsupported"))
        return PolicyText::tr(
                   "bf16 was requested but compute capability %1 has no bf16 tensor cores")
            .arg(arg);
    if (id == QStringLiteral("fp16_unsupported"))
        return PolicyText::tr(
                   "fp16 was requested but compute capability %1 has no fp16 tensor cores")
            .arg(arg);
    if (id == QStringLiteral("user"))
        return PolicyText::tr("requested by the user");
    if (id == QStringLiteral("cpu_fp32"))
        return PolicyText::tr("the processor computes in fp32");
    if (id == QStringLiteral("bf16_tensor_cores"))
        return PolicyText::tr("compute capability %1 has bf16 tensor cores; no loss scaling needed")
            .arg(arg);
    if (id == QStringLiteral("fp16_tensor_cores"))
        return PolicyText::tr("compute capability %1 has fp16 tensor cores but no bf16").arg(arg);
    if (id == QStringLiteral("no_tensor_cores"))
        return PolicyText::tr("compute capability %1 has no tensor cores for reduced precision")
            .arg(arg);
    if (id == QStringLiteral("loss_scaling"))
        return PolicyText::tr("fp16 gradients underflow without it");
    if (id == QStringLiteral("tf32_on"))
        return PolicyText::tr("Ampere or later: fp32 matrix products run on tensor cores");
    if (id == QStringLiteral("tf32_off"))
        return PolicyText::tr("needs an Ampere or later GPU");
    if (id == QStringLiteral("cudnn_on"))
        return PolicyText::tr("input sizes are fixed, so autotuned convolutions pay off");
    if (id == QStringLiteral("cudnn_infer_fixed"))
        return PolicyText::tr("deterministic algorithms chosen without timing: the same map on "
                              "every GPU and in every run");
    if (id == QStringLiteral("cudnn_off"))
        return PolicyText::tr("only applies on a GPU");
    if (id == QStringLiteral("nhwc_on"))
        return PolicyText::tr("tensor-core convolutions prefer this layout");
    if (id == QStringLiteral("nhwc_off"))
        return PolicyText::tr("no gain without reduced-precision tensor cores");
    if (id == QStringLiteral("pinned_on"))
        return PolicyText::tr("page-locked buffers allow asynchronous copies to the GPU");
    if (id == QStringLiteral("pinned_off"))
        return PolicyText::tr("there is no GPU to copy to");
    if (id == QStringLiteral("batch_table"))
        return PolicyText::tr("from the memory table for %1 GB (not measured)").arg(arg);
    if (id == QStringLiteral("batch_probed"))
        return PolicyText::tr("measured: the fastest batch that fits with headroom");
    if (id == QStringLiteral("batch_cpu"))
        return PolicyText::tr("a moderate batch for the processor");
    // Thread reasons quote the value and the core count, so the loader and compute rows agree
    // with each other and with the numbers beside them on any machine.
    if ((id == QStringLiteral("loaders_gpu") || id == QStringLiteral("loaders_cpu") ||
         id == QStringLiteral("threads_gpu")) &&
        arg.isEmpty())
        return QString::fromStdString(c.reason); // recorded before the reasons quoted the cores
    if (id == QStringLiteral("loaders_gpu"))
        return PolicyText::tr("%1 of the %2 cores prepare the next images while the GPU computes")
            .arg(QString::fromStdString(c.value), arg);
    if (id == QStringLiteral("loaders_cpu"))
        return PolicyText::tr("prepare the next images while the network computes; they share "
                              "the %n core(s) with it",
                              nullptr, arg.toInt());
    if (id == QStringLiteral("optimizer_fused"))
        return PolicyText::tr("AdamW as one fused kernel for all weights; the loss is read back "
                              "every half second, so no step waits for the GPU");
    if (id == QStringLiteral("optimizer_foreach"))
        return PolicyText::tr("AdamW on all weights at once (multi-tensor operations)");
    return trainingStepReason(c);
}

namespace
{

QString trainingStepReason(const PolicyChoice& c)
{
    const QString id = QString::fromStdString(c.reasonId);
    const QString arg = QString::fromStdString(c.reasonArg);
    if (id == QStringLiteral("step_graph"))
        return PolicyText::tr("the whole training step is captured once as a CUDA graph and "
                              "replayed: one launch per step; a smaller last batch runs op by op");
    if (id == QStringLiteral("step_graph_allreduce"))
        return PolicyText::tr("the whole training step, the all-reduce of the gradients included, "
                              "is captured once as a CUDA graph and replayed: one launch per step");
    if (id == QStringLiteral("step_graph_off"))
        return PolicyText::tr("CUDA graphs are turned off");
    if (id == QStringLiteral("step_graph_fp16"))
        return PolicyText::tr("fp16 loss scaling reads one flag per step, so the step runs op by "
                              "op");
    if (id == QStringLiteral("step_graph_optimizer"))
        return PolicyText::tr("the optimizer is not the fused kernel, so the step runs op by op");
    if (id == QStringLiteral("step_graph_failed"))
        return PolicyText::tr("capturing the step as a CUDA graph failed (%1); it runs op by op")
            .arg(arg);
    if (id == QStringLiteral("bnrelu_fused"))
        return PolicyText::tr("Fisura's fused kernels: fewer passes over the activations");
    if (id == QStringLiteral("bnrelu_not_built"))
        return PolicyText::tr("this build has no CUDA compiler for Fisura's fused kernels");
    if (id == QStringLiteral("bnrelu_off"))
        return PolicyText::tr("the fused kernels are turned off");
    if (id == QStringLiteral("conv_relu_cudnn"))
        return PolicyText::tr("cuDNN's fused convolution + bias + ReLU on the folded network");
    if (id == QStringLiteral("step_graph_distributed"))
        return PolicyText::tr("several processes average their gradients between the backward "
                              "pass and the optimizer step, so the step runs op by op");
    return dataParallelReason(c);
}

QString dataParallelReason(const PolicyChoice& c)
{
    const QString id = QString::fromStdString(c.reasonId);
    const QString arg = QString::fromStdString(c.reasonArg);
    if (id == QStringLiteral("dp_single"))
        return PolicyText::tr("one process trains alone");
    if (id == QStringLiteral("dp_nccl"))
        return PolicyText::tr("%1 processes, one per GPU, average their gradients over NCCL "
                              "while the backward pass runs")
            .arg(arg);
    if (id == QStringLiteral("dp_gloo"))
        return PolicyText::tr("%1 processes on the processor average their gradients over gloo")
            .arg(arg);
    if (id == QStringLiteral("dp_processes")) // the Train pane's "All GPUs"
        return PolicyText::tr("%1 GPUs train together, one process each").arg(arg);
    if (id == QStringLiteral("dp_local_rank"))
        return PolicyText::tr(
                   "each process drives the GPU of its local rank (%1 processes on this host)")
            .arg(arg);
    if (id == QStringLiteral("dp_batch"))
        return PolicyText::tr("every step trains %1 samples: this batch on each process").arg(arg);
    return inferenceReason(c);
}

QString inferenceReason(const PolicyChoice& c)
{
    const QString id = QString::fromStdString(c.reasonId);
    const QString arg = QString::fromStdString(c.reasonArg);
    if (id == QStringLiteral("infer_graph"))
        return PolicyText::tr("the network of a tile batch is captured once as a CUDA graph and "
                              "replayed: one launch per batch");
    if (id == QStringLiteral("infer_graph_off"))
        return PolicyText::tr("CUDA graphs are turned off");
    if (id == QStringLiteral("infer_graph_script"))
        return PolicyText::tr("an imported TorchScript module runs op by op through its own "
                              "executor");
    if (id == QStringLiteral("infer_graph_failed"))
        return PolicyText::tr("capturing the network as a CUDA graph failed (%1); it runs op by op")
            .arg(arg);
    if (id == QStringLiteral("unet_kernels"))
        return PolicyText::tr("Fisura's kernels: max pooling without indices, the decoder's "
                              "concatenation with the upsampling bias in one pass");
    if (id == QStringLiteral("map_level_adaptive"))
        return PolicyText::tr("compressing the map must not hold the GPUs back: the level drops "
                              "while the writer is what limits the job, to levels measured to "
                              "compress faster, and climbs back once it keeps up; the map may be "
                              "larger, its pixels are the same");
    if (id == QStringLiteral("unet_kernels_off"))
        return PolicyText::tr("Fisura's U-Net kernels are turned off");
    if (id == QStringLiteral("unet_kernels_not_built"))
        return PolicyText::tr("this build has no CUDA compiler for Fisura's U-Net kernels");
    return gpusReason(c);
}

QString gpusReason(const PolicyChoice& c)
{
    const QString id = QString::fromStdString(c.reasonId);
    const QString arg = QString::fromStdString(c.reasonArg);
    if (id == QStringLiteral("gpus_all"))
        return PolicyText::tr("every usable GPU (%1): each computes one band of tile columns of "
                              "a scan")
            .arg(arg);
    if (id == QStringLiteral("gpus_single"))
        return PolicyText::tr("the only usable GPU");
    if (id == QStringLiteral("gpus_one"))
        return PolicyText::tr("one GPU was requested");
    if (id == QStringLiteral("gpus_fewer"))
        return PolicyText::tr("%1 GPUs were requested; all usable ones are used").arg(arg);
    if (id == QStringLiteral("gpus_same_model"))
        return PolicyText::tr("only GPUs of the first one's model (%1): the bands stay balanced "
                              "and the map does not depend on the GPU")
            .arg(arg);
    if (id == QStringLiteral("gpus_none"))
        return PolicyText::tr("the processor computes");
    if (id == QStringLiteral("gpus_cpu_bands"))
        return PolicyText::tr("the processor computes as %1 devices (column bands), as tests ask")
            .arg(arg);
    return cpuPolicyReason(c);
}

QString cpuPolicyReason(const PolicyChoice& c)
{
    const QString id = QString::fromStdString(c.reasonId);
    const QString arg = QString::fromStdString(c.reasonArg);
    if (id == QStringLiteral("bf16_cpu_unsupported"))
        return PolicyText::tr("bf16 was requested but this processor has no bf16 instructions");
    if (id == QStringLiteral("bf16_cpu_train"))
        return PolicyText::tr(
            "bf16 was requested, but on the processor it trains no faster than fp32");
    if (id == QStringLiteral("cpu_bf16"))
        return PolicyText::tr("the processor has %1: bf16 for inference").arg(arg);
    if (id == QStringLiteral("cpu_fp32_train"))
        return PolicyText::tr("measured: bf16 does not train faster on the processor");
    if (id == QStringLiteral("cpu_bf16_train"))
        return PolicyText::tr("measured: bf16 trains faster on this processor");
    if (id == QStringLiteral("nhwc_cpu"))
        return PolicyText::tr("the processor's bf16 convolutions prefer this layout");
    if (id == QStringLiteral("nhwc_cpu_off"))
        return PolicyText::tr("measured: no gain in fp32 on the processor");
    if (id == QStringLiteral("threads_cpu")) {
        if (c.value == c.reasonArg)
            return PolicyText::tr("the network uses all %n core(s); preparing images takes "
                                  "little and shares them",
                                  nullptr, arg.toInt());
        return PolicyText::tr("the network uses %1 of the %2 cores; the others stay free for "
                              "preparing images and for the window")
            .arg(QString::fromStdString(c.value), arg);
    }
    if (id == QStringLiteral("threads_gpu"))
        return PolicyText::tr("the %1 of the %2 cores that the loader threads leave")
            .arg(QString::fromStdString(c.value), arg);
    if (id == QStringLiteral("interop_chain"))
        return PolicyText::tr("the networks are one chain of layers: nothing runs side by side");
    if (id == QStringLiteral("bn_fold_infer"))
        return PolicyText::tr("inference runs a copy with BatchNorm folded into the convolutions");
    if (id == QStringLiteral("bn_fold_train"))
        return PolicyText::tr("training updates the BatchNorm statistics");
    if (id == QStringLiteral("bn_fold_script"))
        return PolicyText::tr("imported TorchScript models run as they are");
    return QString::fromStdString(c.reason);
}

} // namespace

} // namespace fisura::ui

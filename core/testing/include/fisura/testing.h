// Testing hooks of fisura_core: switches that make a failure happen on purpose (a full disk, an
// out-of-memory step, a failing device) or force one implementation of a step so that tests and
// benchmarks can compare it with the other.
//
// FOR TESTS AND BENCHMARKS ONLY. This header is not part of the facade (core/include/fisura/):
// it is reached through the `fisura_testing` CMake target, which the test suites and benchmarks
// link and the products do not (the layering check fails when widgets/ or app/ include it; the
// one documented exception is fisura-cli's `infer --cpu-devices`, see cmake/CheckLayering.cmake).
// Every hook is process-wide state; a test that sets one restores the default before it ends.
#pragma once

#include <cstdint>
#include <string>

namespace fisura::testing
{

// --- Files (model.h, project.h) ---------------------------------------------------------------

/// Make the next atomic file write (model, checkpoint, split) fail like a full disk after `bytes`
/// bytes; -1 turns it off. For tests of the "nothing half-written" guarantee.
void failNextAtomicWriteAfter(long long bytes);
/// Make the next Project::save fail after `step` of its steps (0 = before writing, 1 = after
/// writing part of the temporary file, 2 = after the whole temporary file, 3 = after fsync,
/// before the rename); -1 turns it off. For the "a save interrupted at any step leaves the
/// previous file" tests.
void failNextProjectSaveAt(int step);

// --- Training (train.h) -------------------------------------------------------------------------

/// Throw a CUDA-style out-of-memory error in the forward pass of optimiser step `step`
/// (counted from 0 over the whole job); -1 turns it off.
void injectOutOfMemoryAtStep(int step);
/// Read the loss back every `steps` optimiser steps, as on a GPU; 0 restores the default (every
/// step on the CPU, every half second on a GPU).
void setLossReadBackSteps(int steps);
/// Train every step on the first batch, kept on the device (no loader, no upload): the step's
/// own speed, for benchmarks against the same job reading its data from files.
void reuseFirstBatch(bool reuse);
/// Fisura's fused BatchNorm + ReLU kernels (CUDA builds) on or off, for benchmarks and tests.
void setFusedBatchNormRelu(bool enabled);
/// Fisura's kernels for the U-Net's max pooling with its skip gradient and for the segmentation
/// loss (CUDA builds) on or off, for benchmarks and tests.
void setUNetTrainingKernels(bool enabled);
/// The training step captured and replayed as a CUDA graph (the default on a GPU), or op by op.
void setTrainingStepGraphs(bool enabled);
/// Run the optimiser step as "per-tensor" (torch::optim::AdamW::step), "foreach" or "fused";
/// empty restores the automatic choice.
void forceAdamWKernel(const std::string& kernel);
/// Pretend the host has this many bytes available when a patch-gaussian fit checks whether its
/// statistics fit (0 = the real figure).
void limitPatchStatisticsMemory(uint64_t bytes);
/// BatchNorm layers use their running statistics while training (and leave them unchanged), so
/// a step's gradient is a plain mean over its samples: two processes with batch B then train
/// exactly as one with batch 2B (BatchNorm's per-process batch statistics are the one thing
/// that differs otherwise, as with PyTorch DDP without SyncBatchNorm).
void freezeBatchNormStatistics(bool frozen);

// --- Inference (infer.h) ------------------------------------------------------------------------

/// cuDNN's fused convolution + bias + ReLU for folded networks on a GPU on (the default) or off,
/// for benchmarks that compare both.
void setFusedConvRelu(bool enabled);
/// Fisura's U-Net inference kernels (max pooling without indices, the decoder's concatenation
/// with the upsampling bias in one pass; CUDA builds) on (the default) or off.
void setUNetInferenceKernels(bool enabled);
/// The network of a tile batch captured once as a CUDA graph and replayed (the default on a GPU),
/// or run op by op.
void setInferenceGraphs(bool enabled);
/// The device stage's blending and row kernels (CUDA builds) on (the default) or off.
void setBlendKernels(bool enabled);
/// On the CPU, engines created from now on act as `bands` devices (0 or 1: one), all running
/// on the processor: run() splits scans into that many column bands, as over several GPUs.
void splitCpuInference(int bands);
/// The column band `band` of split runs fails with a device error after its first batch
/// (-1: none), for tests of the error path.
void failSplitBand(int band);
/// cuDNN's autotuning for inference engines created from now on: -1 as the policy chooses (the
/// default: off, deterministic algorithms by cuDNN's heuristics), 0 off, 1 on (timed per GPU,
/// any algorithm; benchmarks compare speed and whether every GPU computes the same).
void setInferenceCudnnBenchmark(int mode);
/// Split runs give the first column band to the last device and so on (off by default): tells
/// a band's effect from a device's.
void reverseSplitDevices(bool enabled);

} // namespace fisura::testing

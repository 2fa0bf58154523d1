// The CPU training's memory budget and the micro-batches it asks for (plain C++, no torch).
//
// On the CPU the activations a step keeps for its backward pass live in the process's own
// memory, beside the application's: at the default batch of 16 and 256 px crops the U-Net
// needs more than a gigabyte for them. A step whose batch would not fit the budget trains the
// same batch in equal parts (gradient accumulation): the same samples per optimiser step, the
// same steps and learning rates; only BatchNorm's batch statistics and the Dice term of the
// segmentation loss see a part at a time instead of the whole batch.
#pragma once

#include <cstdint>

namespace fisura::train_detail
{

// The budget is TrainOptions::cpuMemoryMb (fisura/train.h).

/// The largest part of `batch` (a divisor, so every part has the same size) whose training
/// memory, `fixedBytes + part * bytesPerImage`, is within `budgetBytes`; at least 1; `batch`
/// itself when it fits (or when nothing is known about its size: bytesPerImage 0).
int microBatchWithin(int batch, uint64_t fixedBytes, uint64_t bytesPerImage, uint64_t budgetBytes);

} // namespace fisura::train_detail

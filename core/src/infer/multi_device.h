// One scan over several devices (plain C++; the run itself is TiledInference::Impl::runSplit): the
// tile grid is split into column bands, one per device, and each band runs its own pipeline
//
//   band k:  TileReader (threads) --BatchQueue--> DeviceStage (its thread, its device)
//            --RowQueue--> RowAssembler (the calling thread, all bands) --RowQueue-->
//            MapWriter (one thread, one file)
//
// A band computes every tile that reaches one of its map columns: its own tile columns plus
// the neighbour's column(s) overlapping its edge, so each of its pixels gets exactly the tiles
// the single-device run adds there, in the same (raster) order, normalised by the same global
// window sums: the map is byte for byte the single-device map as long as the network gives a
// tile the same output in any batch (a larger model on cuDNN may not, by a grey level in a few
// pixels: README, "Inference on several GPUs"). The bands advance through the
// grid rows together (the writer's bounded queue holds them back), so memory stays
// O(width x tile) on each device. Bands of tile columns rather than rows: every band then emits
// the same rows at the same time and the writer never buffers a band out of order.
#pragma once

#include <string>
#include <vector>

#include "blend.h"
#include "fisura/sysinfo.h"

namespace fisura::detail
{

/// `grid` split into at most `bands` column bands (fewer when it has fewer tile columns): band
/// k owns tile columns [k n / bands, (k + 1) n / bands) of the n, emits map columns from the
/// origin of its first tile column to the origin of the next band's, and lists (in raster
/// order) every tile of the grid that reaches one of those columns. One band: the grid itself.
std::vector<TileGrid> columnBands(const TileGrid& grid, int bands);

/// The tile batch of a split run over `bands` on GPUs: the engine's `batch`, or fewer tiles, so
/// that a batch completes at most one row of tiles of any band (no more tiles than the
/// narrowest band has tile columns). Measured on 4 x H200 (tests/bench/RESULTS.md): a 40000 px
/// scan in four bands of 22-24 tile columns ran in 1.05-1.13 s at batch 42, 28 or 24, and in
/// 0.96-0.99 s at 21; batch 14 gained nothing more.
int splitBatchOf(const std::vector<TileGrid>& bands, int batch);

/// Chunks of rows each band of a split run may queue for the assembler: two rows of tiles, so
/// that a band that finished a row of tiles goes on computing the next while the slowest band
/// catches up (6, one GPU's queue, held 4-GPU runs back: 1.14-1.27 s against 1.05-1.13 s with
/// 16 or 32, at batch 42).
size_t splitRowQueue(int tile);

/// The GPUs a run uses: of the usable `gpus` (the first is the policy's device), those of the
/// first one's model (balanced bands, and a map that does not depend on which GPU computed it),
/// at most `requested` (0 = all), with the reason for the policy's choice "gpus".
struct DeviceChoice {
    std::vector<int> indices;
    std::string value, reason, reasonId, reasonArg;
};
DeviceChoice chooseGpus(const std::vector<GpuInfo>& gpus, int requested);

} // namespace fisura::detail

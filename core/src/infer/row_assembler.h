// Assembler stage of a tiled inference split into column bands (LibTorch side; include after
// compat/torch_compat.h): every band's device stage emits the same row chunks (the same y0 and
// row count, in the same order) for its own map columns; the assembler takes chunk i of every
// band and hands the slices, side by side, to the map's sink in order (the writer copies them
// straight into its band: no full-width rows are joined first).
//
//   DeviceStage 0 --RowQueue--+
//   DeviceStage 1 --RowQueue--+--> RowAssembler --parts--> TiledTiffWriter::appendRowParts
//   ...           --RowQueue--+
#pragma once

#include <vector>

#include "map_writer.h"
#include "pipeline_queues.h"

namespace fisura::detail
{

class RowAssembler
{
public:
    /// `bands[k]` carries map columns [x0s[k], x0s[k + 1]) (the last up to `width`). Every
    /// argument must outlive run().
    RowAssembler(std::vector<RowQueue*> bands, std::vector<int> x0s, int width,
                 MapWriter::RowSink sink, StopFlag& stop);

    /// Runs on the calling thread until every band closed its queue and all chunks went out
    /// (ok), or the pipeline stopped (ok: the StopFlag has the reason). Bands that disagree on
    /// their chunks (a band ending early, rows out of step) give Internal.
    Status run();

    /// Time spent waiting for the slowest band.
    double inputWaitSeconds() const { return inputWait_; }
    /// Handing rows to the sink: waiting for their downloads, copying them into the writer's
    /// band (and the writer's own waits for its band thread).
    double busySeconds() const { return busy_; }

private:
    Status join(std::vector<OutRows>& parts);

    std::vector<RowQueue*> bands_;
    std::vector<int> x0s_;
    const int width_;
    MapWriter::RowSink sink_;
    StopFlag& stop_;
    double inputWait_ = 0, busy_ = 0;
};

} // namespace fisura::detail

// Assembler stage of a tiled inference split into column bands (LibTorch side; include after
// compat/torch_compat.h): every band's device stage emits the same row chunks (the same y0 and
// row count, in the same order) for its own map columns; the assembler takes chunk i of every
// band, joins the slices side by side into full-width rows and queues them for the one
// MapWriter, in order.
//
//   DeviceStage 0 --RowQueue--+
//   DeviceStage 1 --RowQueue--+--> RowAssembler --RowQueue--> MapWriter
//   ...           --RowQueue--+
#pragma once

#include <vector>

#include "pipeline_queues.h"

namespace fisura::detail
{

class RowAssembler
{
public:
    /// `bands[k]` carries map columns [x0s[k], x0s[k + 1]) (the last up to `width`). Every
    /// argument must outlive run().
    RowAssembler(std::vector<RowQueue*> bands, std::vector<int> x0s, int width, RowQueue& out,
                 StopFlag& stop);

    /// Runs on the calling thread until every band closed its queue and all chunks went out
    /// (ok), or the pipeline stopped (ok: the StopFlag has the reason). Bands that disagree on
    /// their chunks (a band ending early, rows out of step) give Internal.
    Status run();

    /// Time spent waiting for the slowest band, and for room in the writer's queue.
    double inputWaitSeconds() const { return inputWait_; }
    double outputWaitSeconds() const { return outputWait_; }

private:
    Status join(std::vector<OutRows>& parts);

    std::vector<RowQueue*> bands_;
    std::vector<int> x0s_;
    const int width_;
    RowQueue& out_;
    StopFlag& stop_;
    double inputWait_ = 0, outputWait_ = 0;
};

} // namespace fisura::detail

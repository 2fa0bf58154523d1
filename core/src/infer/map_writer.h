// Writer stage of a tiled inference: one thread that takes finished rows from the RowQueue in
// order and streams them into the map's TiledTiffWriter (LibTorch side; include after
// compat/torch_compat.h).
#pragma once

#include <functional>
#include <thread>

#include "fisura/job.h"
#include "fisura/tiledwriter.h"
#include "pipeline_queues.h"

namespace fisura::detail
{

class MapWriter
{
public:
    /// Rows go to `append` (in order, on the writer thread): `count` rows in `n` parts side by
    /// side that cover the width (one here; one per column band when the RowAssembler calls
    /// it), valid during the call. Every argument must outlive join(). (Progress comes from the
    /// device stage: the rows written lag the work done by the blending band, a whole tile row
    /// at the end.)
    using RowSink = std::function<Status(int count, const TiledRowPart* parts, int n)>;
    MapWriter(RowSink append, RowQueue& queue, int width);

    /// OutOfMemory when the thread cannot start (the process is short of memory or threads).
    Status start();
    /// Returns once the queue is closed and drained, writing failed or the pipeline stopped.
    void join();

private:
    void loop();
    bool write(OutRows& rows);

    RowSink append_;
    RowQueue& queue_;
    const int width_;
    std::thread thread_;
};

} // namespace fisura::detail

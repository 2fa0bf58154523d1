// Writer stage of a tiled inference: one thread that takes finished rows from the RowQueue in
// order and streams them into the map's TiledTiffWriter (LibTorch side; include after
// compat/torch_compat.h).
#pragma once

#include <thread>

#include "fisura/job.h"
#include "fisura/tiledwriter.h"
#include "pipeline_queues.h"

namespace fisura::detail
{

class MapWriter
{
public:
    /// Every argument must outlive join(). Progress is reported in rows done of the image
    /// height, with the throughput since `started`.
    MapWriter(TiledTiffWriter& writer, RowQueue& queue, ProgressTracker& tracker, int width,
              int height, PipelineClock::time_point started);

    void start();
    /// Returns once the queue is closed and drained, writing failed or the pipeline stopped.
    void join();

private:
    void loop();
    bool write(OutRows& rows);
    void report(int rowsDone);

    TiledTiffWriter& writer_;
    RowQueue& queue_;
    ProgressTracker& tracker_;
    const int width_, height_;
    const PipelineClock::time_point started_;
    std::thread thread_;
};

} // namespace fisura::detail

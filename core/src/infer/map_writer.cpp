// Writer stage of a tiled inference; see map_writer.h.
#include "map_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace fisura::detail
{

MapWriter::MapWriter(TiledTiffWriter& writer, RowQueue& queue, ProgressTracker& tracker, int width,
                     int height, PipelineClock::time_point started)
    : writer_(writer), queue_(queue), tracker_(tracker), width_(width), height_(height),
      started_(started)
{
}

void MapWriter::start()
{
    thread_ = std::thread([this] { loop(); });
}

void MapWriter::join()
{
    if (thread_.joinable())
        thread_.join();
}

void MapWriter::loop()
{
    for (;;) {
        OutRows rows;
        if (!queue_.pop(rows) || !write(rows))
            return;
        report(rows.y0 + rows.rows);
    }
}

bool MapWriter::write(OutRows& o)
{
    o.ready->wait(); // the download was queued on the device without waiting for it
    Image rows = Image::make(width_, o.rows, 1);
    std::memcpy(rows.pixels.data(), o.bytes.data_ptr<uint8_t>(), rows.pixels.size());
    queue_.release(o);
    if (Status s = writer_.appendRows(rows); !s) {
        queue_.fail(s);
        return false;
    }
    return true;
}

void MapWriter::report(int done)
{
    const double mps = double(done) * width_ / 1e6 / std::max(1e-6, secondsSince(started_));
    char msg[96];
    std::snprintf(msg, sizeof msg, "row %d/%d, %.1f MP/s", done, height_, mps);
    tracker_.update(done, msg);
}

} // namespace fisura::detail

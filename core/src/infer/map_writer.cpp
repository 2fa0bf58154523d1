// Writer stage of a tiled inference; see map_writer.h.
#include "map_writer.h"

#include "util/thread_start.h"

namespace fisura::detail
{

MapWriter::MapWriter(RowSink append, RowQueue& queue, int width)
    : append_(std::move(append)), queue_(queue), width_(width)
{
}

Status MapWriter::start()
{
    return util::startThread(thread_, "fisura-band", "writing the map", [this] { loop(); });
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
    }
}

bool MapWriter::write(OutRows& o)
{
    o.ready->wait(); // the download was queued on the device without waiting for it
    // Straight from the downloaded rows (no copy first); they are released once written.
    const TiledRowPart whole{0, width_, o.bytes.data_ptr<uint8_t>(), size_t(width_)};
    const Status s = o.bytes.numel() == int64_t(o.rows) * width_ && o.bytes.is_contiguous()
                         ? append_(o.rows, &whole, 1)
                         : Status(ErrorCode::Internal, "rows of the wrong shape for the map");
    queue_.release(o);
    if (!s) {
        queue_.fail(s);
        return false;
    }
    return true;
}

} // namespace fisura::detail

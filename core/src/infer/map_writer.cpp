// Writer stage of a tiled inference; see map_writer.h.
#include "map_writer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace fisura::detail
{

MapWriter::MapWriter(TiledTiffWriter& writer, RowQueue& queue, int width)
    : MapWriter([&writer](const Image& rows) { return writer.appendRows(rows); }, queue, width)
{
}

MapWriter::MapWriter(RowSink append, RowQueue& queue, int width)
    : append_(std::move(append)), queue_(queue), width_(width)
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
    }
}

bool MapWriter::write(OutRows& o)
{
    o.ready->wait(); // the download was queued on the device without waiting for it
    Image rows = Image::make(width_, o.rows, 1);
    std::memcpy(rows.pixels.data(), o.bytes.data_ptr<uint8_t>(), rows.pixels.size());
    queue_.release(o);
    if (Status s = append_(rows); !s) {
        queue_.fail(s);
        return false;
    }
    return true;
}

} // namespace fisura::detail

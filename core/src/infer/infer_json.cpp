// InferStats as JSON (plain C++); see fisura/infer.h.
#include <nlohmann/json.hpp>

#include <algorithm>

#include "fisura/infer.h"
#include "util/json_bounded.h"

namespace fisura
{

// Here rather than with the inference (torch) so that plain C++ that writes InferStats links
// without it (the project's known-field layout, its fuzz target).
const char* mapKindName(MapKind k)
{
    switch (k) {
    case MapKind::Probability:
        return "probability";
    case MapKind::Heatmap:
        return "heatmap";
    case MapKind::Score:
        return "score";
    }
    return "probability";
}

InferLimit inferLimitOf(const InferStats& s)
{
    const double share = 0.2 * s.seconds;
    const double wait = std::max(s.inputWaitSeconds, s.outputWaitSeconds);
    if (s.seconds <= 0 || wait < share)
        return InferLimit::Device;
    return s.inputWaitSeconds >= s.outputWaitSeconds ? InferLimit::Input : InferLimit::Writer;
}

const char* inferLimitName(InferLimit limit)
{
    switch (limit) {
    case InferLimit::Device:
        return "device";
    case InferLimit::Input:
        return "input";
    case InferLimit::Writer:
        return "writer";
    }
    return "device";
}

std::string toJson(const InferStats& s, int indent)
{
    nlohmann::json j{{"input", s.input},
                     {"output", s.output},
                     {"width", s.width},
                     {"height", s.height},
                     {"map", mapKindName(s.kind)},
                     {"tile", s.tileSize},
                     {"overlap", s.overlap},
                     {"batch_size", s.batchSize},
                     {"tiles", s.tiles},
                     {"seconds", s.seconds},
                     {"megapixels_per_second", s.megapixelsPerSecond},
                     {"peak_pipeline_bytes", s.peakPipelineBytes},
                     {"input_wait_seconds", s.inputWaitSeconds},
                     {"output_wait_seconds", s.outputWaitSeconds},
                     {"device_wait_seconds", s.deviceWaitSeconds},
                     {"read_thread_seconds", s.readSeconds},
                     {"finish_seconds", s.finishSeconds},
                     {"join_seconds", s.joinSeconds},
                     {"join_wait_seconds", s.joinWaitSeconds},
                     {"limited_by", inferLimitName(inferLimitOf(s))},
                     {"prepare_seconds", s.prepareSeconds},
                     {"peak_rss_bytes", s.peakRssBytes},
                     {"device", s.device},
                     {"precision", s.precision},
                     {"devices", s.devices},
                     {"tiles_computed", s.tilesComputed},
                     {"graph_batches", s.graphBatches},
                     {"writer",
                      {{"copy_seconds", s.writer.copySeconds},
                       {"compress_wait_seconds", s.writer.compressWaitSeconds},
                       {"compress_seconds", s.writer.compressSeconds},
                       {"tile_wait_seconds", s.writer.tileWaitSeconds},
                       {"write_seconds", s.writer.writeSeconds},
                       {"write_wait_seconds", s.writer.writeWaitSeconds},
                       {"halve_seconds", s.writer.halveSeconds},
                       {"finish_seconds", s.writer.finishSeconds},
                       {"bytes_in", s.writer.bytesIn},
                       {"bytes_out", s.writer.bytesOut},
                       {"lowest_level", s.writer.lowestLevel},
                       {"highest_level", s.writer.highestLevel},
                       {"bands", s.writer.bands},
                       {"bands_below_level", s.writer.bandsBelowLevel}}}};
    return util::dumpJson(j, indent);
}

} // namespace fisura

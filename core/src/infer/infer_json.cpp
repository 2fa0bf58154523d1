// InferStats as JSON (plain C++); see fisura/infer.h.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

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
    // Rows wait for room while their downloads are still queued behind the device's work: a
    // wait for the writer counts only while the writer's appending thread was busy (copying
    // rows in, waiting for its compressors) for half the run or more.
    const double writerBusy = s.writer.copySeconds + s.writer.compressWaitSeconds;
    const double outputWait = writerBusy >= 0.5 * s.seconds ? s.outputWaitSeconds : 0.0;
    const double wait = std::max(s.inputWaitSeconds, outputWait);
    if (s.seconds <= 0 || wait < share)
        return InferLimit::Device;
    return s.inputWaitSeconds >= outputWait ? InferLimit::Input : InferLimit::Writer;
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

InferLimit paceLimitOf(double decodeMps, double networkMps)
{
    return decodeMps > 0 && networkMps > 0 && decodeMps < networkMps ? InferLimit::Input
                                                                     : InferLimit::Device;
}

namespace
{
/// A rate with the digits that matter: 1234, 56.7, 0.47.
std::string rateText(double mps)
{
    char b[32];
    std::snprintf(b, sizeof b, mps >= 100 ? "%.0f" : mps >= 10 ? "%.1f" : "%.2f", mps);
    return b;
}
} // namespace

PolicyChoice paceChoice(const PaceForecast& f)
{
    const std::string rates =
        rateText(f.decodeMegapixelsPerSecond) + " MP/s on " + std::to_string(f.readerThreads) +
        (f.readerThreads == 1 ? " reader thread (" : " reader threads (") +
        rateText(f.decodeMegapixelsPerThread) + " MP/s on one thread alone), the network " +
        rateText(f.networkMegapixelsPerSecond) + " MP/s on " + std::to_string(f.devices) +
        (f.devices == 1 ? " device" : " devices");
    const std::string codec = f.inputCompression.empty() ? "unknown" : f.inputCompression;
    if (!f.measured)
        return {"scan_pace", "device",
                f.decodeMegapixelsPerThread > 0
                    ? std::string("not forecast: the network's rate was not measured")
                    : "not forecast: a " + codec +
                          " file is decoded whole before its tiles are read",
                "pace_unmeasured", codec};
    if (f.limit == InferLimit::Input)
        return {"scan_pace", "input",
                "decoding the scan (" + codec + ") is expected to set the pace: " + rates,
                "pace_input", codec};
    return {"scan_pace", "device",
            "the network is expected to set the pace: decoding the scan (" + codec +
                ") keeps up, " + rates,
            "pace_device", codec};
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
                     {"read_cpu_seconds", s.readCpuSeconds},
                     {"cpu_seconds", s.cpuSeconds},
                     {"host_threads", s.hostThreads},
                     {"finish_seconds", s.finishSeconds},
                     {"join_seconds", s.joinSeconds},
                     {"join_wait_seconds", s.joinWaitSeconds},
                     {"band_graph_seconds", s.bandGraphSeconds},
                     {"limited_by", inferLimitName(inferLimitOf(s))},
                     {"forecast",
                      {{"limited_by", inferLimitName(s.forecast.limit)},
                       {"measured", s.forecast.measured},
                       {"input_compression", s.forecast.inputCompression},
                       {"reader_threads", s.forecast.readerThreads},
                       {"devices", s.forecast.devices},
                       {"decode_megapixels_per_thread", s.forecast.decodeMegapixelsPerThread},
                       {"decode_megapixels_per_second", s.forecast.decodeMegapixelsPerSecond},
                       {"network_megapixels_per_second", s.forecast.networkMegapixelsPerSecond},
                       {"reason", paceChoice(s.forecast).reason}}},
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
                       {"compress_cpu_seconds", s.writer.compressCpuSeconds},
                       {"tile_wait_seconds", s.writer.tileWaitSeconds},
                       {"write_seconds", s.writer.writeSeconds},
                       {"write_wait_seconds", s.writer.writeWaitSeconds},
                       {"halve_seconds", s.writer.halveSeconds},
                       {"halve_wait_seconds", s.writer.halveWaitSeconds},
                       {"finish_seconds", s.writer.finishSeconds},
                       {"bytes_in", s.writer.bytesIn},
                       {"bytes_out", s.writer.bytesOut},
                       {"lowest_level", s.writer.lowestLevel},
                       {"highest_level", s.writer.highestLevel},
                       {"bands", s.writer.bands},
                       {"bands_below_level", s.writer.bandsBelowLevel},
                       {"lower_bytes_in", s.writer.lowerBytesIn},
                       {"lower_bytes_out", s.writer.lowerBytesOut},
                       {"asked_bytes_in", s.writer.askedBytesIn},
                       {"asked_bytes_out", s.writer.askedBytesOut},
                       {"sample_bytes_out", s.writer.sampleBytesOut},
                       {"sample_bytes_asked", s.writer.sampleBytesAsked},
                       {"estimated_size_increase", adaptiveSizeIncrease(s.writer)}}}};
    return util::dumpJson(j, indent);
}

} // namespace fisura

// Tiled inference over scans of any size with bounded memory.
//
// A sliding window of tiles (size and overlap from the model, the user may override) runs the
// model batch by batch; overlapping predictions are blended with smooth weights so no seams
// appear. Reader threads decode tiles ahead of the device into (pinned) batches, the device
// computes and blends the predictions into a band of rows, and a writer thread streams the
// finished rows into a tiled pyramidal BigTIFF. Memory depends on the image width, the tile size
// and the batch size, never on the image height. The output map has the input's width and
// height:
//   segmentation (U-Net)  crack probability, 0..255 = 0..1
//   classifier            patch-grid heatmap of the crack-class probability, 0..255 = 0..1
//   autoencoder           reconstruction-error score, 128 = the model's threshold (255 = 2x)
// On failure or cancellation nothing is left at the output path.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fisura/job.h"
#include "fisura/model.h"
#include "fisura/policy.h"
#include "fisura/status.h"
#include "fisura/tiledimage.h"
#include "fisura/tiledwriter.h"

namespace fisura
{

enum class BlendWindow { Cosine, Gaussian };
enum class MapKind { Probability, Heatmap, Score };
const char* mapKindName(MapKind k);                       ///< "probability", "heatmap", "score"
bool parseMapKind(const std::string& name, MapKind& out); ///< the inverse of mapKindName
MapKind mapKindFor(ModelType type);                       ///< U-Net, classifier, autoencoder

/// The file name of the map of `scanPath` (a path or a name): `<stem>.<kind>.tif`, or
/// `<stem>.<tag>.<kind>.tif` with a `tag` (a project's maps/ folder holds the maps of several
/// models: the tag names the run or the model). The stem is the scan's name without its last
/// extension. What `fisura-cli infer --in FOLDER` and the GUI's Analyze queue both write.
std::string mapFileName(const std::string& scanPath, MapKind kind, const std::string& tag = {});
/// True for a name mapFileName gives (it ends in `.probability.tif`, `.heatmap.tif` or
/// `.score.tif`): folder runs that write into their input folder skip these as inputs.
bool isMapFileName(const std::string& name);

struct InferOptions {
    int tileSize = 0;  ///< 0 = from the model (U-Net: >= 512, a multiple of its stride)
    int overlap = -1;  ///< px shared by neighbouring tiles, 0..tile/2; -1 = from the model
    int batchSize = 0; ///< tiles per step; 0 = measured on a GPU, small on the CPU
    Precision precision = Precision::Auto;
    bool preferCpu = false;
    BlendWindow window = BlendWindow::Cosine;
    int readerThreads = 0;   ///< 0 = the policy's loader threads
    int intraOpThreads = 0;  ///< LibTorch's intra-op threads; 0 = the policy's (process-wide)
    int interOpThreads = 0;  ///< LibTorch's inter-op threads; 0 = the policy's (once a process)
    int prefetchBatches = 2; ///< decoded batches waiting for the device, at most
    /// Decoded input blocks kept for neighbouring tiles: at least a tile row of blocks plus a
    /// block row either side (sized from the scan); a larger value raises the budget.
    uint64_t cacheBytes = 0;
    uint64_t maxFlatPixels = 256ull << 20; ///< PNG/JPEG inputs are decoded whole: refuse beyond
    /// What a scan read may claim (pixels, pixels per byte): see ImageLimits. (CLI: --max-pixels,
    /// --max-pixels-per-byte)
    ImageLimits inputLimits;
    /// GPUs to use: 0 = every usable GPU (of the first GPU's model), N = at most N, 1 = one.
    /// With several, create() places a replica of the model on each (the batch is measured once,
    /// on the first) and run() splits every scan into column bands, one per GPU; the map is
    /// the one a single GPU writes, or a grey level from it in a few pixels where the bands'
    /// tiles are batched otherwise (README). The policy's choice "gpus" says which and why.
    int gpus = 0;
    /// Tile size, codec, pyramid of the written map; the ZSTD level adapts (adaptiveLevel) so
    /// that compressing the map does not hold fast GPUs back.
    TiledWriteOptions output = adaptiveOutput();
    /// How calls that take a model path (proposeLabels, proposeFolder, rankByUncertainty) load
    /// it: size limit, consent to run a TorchScript module.
    ModelLoadOptions modelLoad;
};

/// What held a run back, read from where its device thread spent the time (on several devices,
/// the device thread that waited most): waiting for decoded tiles (Input: reading and decoding
/// the scan), waiting for room in the map writer's queue while the writer's appending thread
/// was busy for half the run or more (Writer: compressing and writing the map), or neither
/// (Device: the network itself; rows also wait for room while their downloads are queued behind
/// the device's work). A wait counts once it is at least a fifth of the run; the longer wins.
enum class InferLimit { Device, Input, Writer };

/// What a scan's run is expected to be held back by, said before it runs: how fast the
/// readers can decode the scan (a sample of its blocks decoded on one thread, times the reader
/// threads) against how fast the network takes its tiles (timed on the device when the engine
/// was prepared, times the devices that share the scan). The writer is never predicted: how well
/// a map compresses is known only once the network has made it, and the adaptive level answers
/// that during the run.
struct PaceForecast {
    InferLimit limit = InferLimit::Device;
    /// false: no decoding rate (a PNG/JPEG file is decoded whole before its tiles are read) or
    /// no network rate; the limit is then Device.
    bool measured = false;
    std::string inputCompression; ///< the TIFF's codec ("jpeg", "deflate", ...), else the format
    int readerThreads = 0;
    int devices = 0;
    double decodeMegapixelsPerThread = 0.0; ///< per second, blocks decoded on one thread alone
    /// Every reader thread together: the lone thread's rate x threads x kReaderEfficiency.
    double decodeMegapixelsPerSecond = 0.0;
    double networkMegapixelsPerSecond = 0.0; ///< of the scan, every device together
    /// Readers do more than decode (they copy each tile with its overlap into a batch) and
    /// share the memory bus: on a 40000² Deflate scan they took 1.3-1.6x a lone thread's
    /// decoding time per megapixel with 2 to 30 threads (H200 host, 32 cores, 2026-11-28).
    static constexpr double kReaderEfficiency = 0.7;
};

struct InferStats {
    std::string input;
    std::string output;
    int width = 0;
    int height = 0;
    MapKind kind = MapKind::Probability;
    int tileSize = 0;
    int overlap = 0;
    /// Tiles per step of this run: the engine's batch, or a split run's smaller band batch
    /// (a batch then completes at most one row of tiles of any band; see splitBatchOf).
    int batchSize = 0;
    int64_t tiles = 0;
    double seconds = 0.0; ///< wall time of the whole job (reading, compute, writing)
    double megapixelsPerSecond = 0.0;
    /// Largest host memory the pipeline itself held at once: input batches being filled or
    /// waiting for the device, finished rows waiting for the writer and (on the CPU) the
    /// blending band. Independent of the image height.
    uint64_t peakPipelineBytes = 0;
    uint64_t peakRssBytes = 0; ///< of the whole process so far (VmHWM), 0 when unknown
    /// Where the time went: the device thread waiting for decoded tiles, or for the writer;
    /// reader threads' busy time summed over threads; writing overviews at the end.
    double inputWaitSeconds = 0.0;
    double outputWaitSeconds = 0.0;
    /// The device thread waiting for the device to finish earlier batches (it keeps at most two
    /// batches queued): high when the device is the bottleneck, low when the thread is.
    double deviceWaitSeconds = 0.0;
    double readSeconds = 0.0;
    double finishSeconds = 0.0;
    /// CPU time (user + system) during the run: of the whole process, and of the reader threads
    /// while they read tiles (readSeconds also counts a reader waiting for a core or for a block
    /// another reader decodes). Against seconds x hostThreads: how much of the host's CPU the
    /// run took.
    double cpuSeconds = 0.0;
    double readCpuSeconds = 0.0;
    int hostThreads = 0; ///< the host's hardware threads
    /// Split runs (several devices): the thread that hands the bands' rows to the map writer,
    /// busy (join: waiting for downloads, copying into the writer's band) and waiting for the
    /// slowest band (joinWait); outputWaitSeconds is then the device thread that waited most
    /// for room for its rows.
    double joinSeconds = 0.0;
    double joinWaitSeconds = 0.0;
    /// Split runs: capturing the network's CUDA graph at the band batch on every device, when
    /// that batch is new to the engine (later runs at that batch reuse it: 0).
    double bandGraphSeconds = 0.0;
    /// Once per TiledInference, before the first scan: device set-up, batch probe, warm-up.
    double prepareSeconds = 0.0;
    std::string device; ///< "cuda:0" or "cpu"
    std::string precision;
    /// Every device that computed tiles of this scan ("cuda:0", "cuda:1", ...; several when the
    /// scan was split into column bands, one per device), and the tiles they computed together
    /// (more than `tiles` when split: the tile columns at the bands' seams run on both sides).
    std::vector<std::string> devices;
    int64_t tilesComputed = 0;
    /// Tile batches whose network ran as the captured CUDA graph (all devices); the others ran
    /// op by op.
    int64_t graphBatches = 0;
    TiledWriteStats writer; ///< the map writer's share (its thread; zero for in-memory maps)
    PaceForecast forecast;  ///< what this run was expected to be limited by, before it ran
};
InferLimit inferLimitOf(const InferStats& stats);
const char* inferLimitName(InferLimit limit); ///< "device", "input", "writer"
/// JSON of the stats, with "limited_by" (inferLimitName of inferLimitOf) and "forecast".
std::string toJson(const InferStats& stats, int indent = 2);

/// The rates a PaceForecast compares, and its verdict: Input when the readers decode fewer of
/// the scan's megapixels per second than the network takes, else Device (also when either rate
/// is unknown, 0). Exposed for tests; TiledInference::forecast measures the rates.
InferLimit paceLimitOf(double decodeMegapixelsPerSecond, double networkMegapixelsPerSecond);
/// The forecast as a choice of the run's policy: what "scan_pace", value inferLimitName of the
/// predicted limit ("input" or "device"), an untranslated reason quoting both rates, reasonId
/// "pace_input", "pace_device" or "pace_unmeasured", reasonArg the scan's compression.
PolicyChoice paceChoice(const PaceForecast& forecast);

/// A model prepared for tiled inference on the device the policy chose (batch size measured
/// once); run() may then be called for any number of scans, one at a time.
class TiledInference
{
public:
    static Result<std::unique_ptr<TiledInference>> create(Model model, const InferOptions& options,
                                                          const CancelToken& cancel = {},
                                                          ProgressSink* progress = nullptr);
    ~TiledInference();
    TiledInference(const TiledInference&) = delete;
    TiledInference& operator=(const TiledInference&) = delete;

    const ExecutionPolicy& policy() const;
    const Model& model() const;
    MapKind kind() const;
    int tileSize() const;
    int overlap() const;

    /// Runs over `inputPath` (any image Fisura reads: TIFF of any size, PNG/JPEG) and writes
    /// the map to `outputPath` atomically.
    Result<InferStats> run(const std::string& inputPath, const std::string& outputPath,
                           const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

    /// In-memory variant of run() (labelling proposals, uncertainty ranking): the same tiles,
    /// blending and byte scaling over an image already decoded (1, 3 or 4 channels), returning
    /// the map (1 channel, the image's size) instead of writing a file. Refused with
    /// InvalidArgument beyond options.maxFlatPixels. Cancelled returns Cancelled.
    Result<Image> runImage(const Image& image, const CancelToken& cancel = {},
                           ProgressSink* progress = nullptr);

    /// Devices holding a replica of the model (GPUs; 1 on the CPU unless a test splits it).
    /// run() splits a scan over all of them; runOn() uses one.
    int deviceCount() const;
    /// run() on device `device` (0..deviceCount()-1) alone: folders of small scans, one thread
    /// per device. Calls for different devices may run at the same time; for one device, one at
    /// a time (and not while run() runs).
    Result<InferStats> runOn(int device, const std::string& inputPath,
                             const std::string& outputPath, const CancelToken& cancel = {},
                             ProgressSink* progress = nullptr);
    /// Whether run() should split a scan of this size over the devices rather than each device
    /// taking whole scans of a folder: several devices, and at least kSplitBatchesPerDevice
    /// batches of tiles for each (smaller scans finish sooner one per device, as the per-scan
    /// set-up, the pipeline's fill and the overviews then overlap).
    bool splitPays(int width, int height) const;
    static constexpr int kSplitBatchesPerDevice = 4;

    /// What a run over `inputPath` is expected to be limited by (PaceForecast), from a sample
    /// of its blocks decoded now (a few milliseconds; nothing is decoded whole) and the network's
    /// rate timed when the engine was prepared. run() makes the same forecast into its stats.
    Result<PaceForecast> forecast(const std::string& inputPath) const;

    /// Benchmark aid: seconds the network alone takes for `tiles` tiles already in device
    /// memory, at this batch size and precision (no reading, copying, blending or writing).
    Result<double> timeNetworkOnly(int64_t tiles, const CancelToken& cancel = {});

    struct Impl;

private:
    explicit TiledInference(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d_;
};

/// One scan of a folder run: the image and where its map goes.
struct ScanJob {
    std::string input, output;
};
/// Called once for every scan that ran (or failed), one call at a time, in the order they end.
using ScanDone = std::function<void(size_t index, const Result<InferStats>& result)>;

/// Runs `jobs` over every device of `engine`, in list order: a scan that splitPays() (a TIFF
/// large enough for several batches per device) is split over all devices; the smaller scans
/// between two such scans go one per device, each device's thread taking the next (progress is
/// reported for split scans only). With one device: run() on each, in order.
/// A failed scan does not stop the others; a cancel does (scans not started get no call), and
/// the result is then Cancelled.
Status runScans(TiledInference& engine, const std::vector<ScanJob>& jobs, const ScanDone& done,
                const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

/// The tile edge a tiled inference of a model described by `info` uses: options.tileSize, or
/// the model's own (its file's tile; the input size of a classifier or autoencoder; for a U-Net
/// at least 512 px and a multiple of its stride).
int inferenceTile(const ModelInfo& info, const InferOptions& options);
/// What that inference asks the execution policy (choosePolicy): the tile it runs on
/// (inferenceTile, not the model's training input size) and the user's overrides. Tiled
/// inference asks this; the Analyze pane's preview shows its answer.
PolicyRequest policyRequestFor(const ModelInfo& info, const InferOptions& options);

/// Tile origins along one axis: stride tile - overlap, the last tile flush with the end (one
/// origin 0 when the axis is shorter than a tile). Exposed for tests.
std::vector<int> tileOrigins(int length, int tile, int overlap);

/// Peak resident memory of this process (VmHWM), 0 when unknown.
uint64_t peakResidentBytes();

} // namespace fisura

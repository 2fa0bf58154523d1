// The one table of options: every field of TrainOptions, InferOptions and MeasureOptions with
// its key, flag,
// range, unit and help, visited in order. The schema (option_schema.cpp), validate() and the
// JSON reader and writer (project/options_json.cpp) are all visitors of this table, so a field
// is described once and nothing can list it differently. A visitor has
//   field(spec, value)                  int, int64_t, uint64_t, double, bool, std::string
//   choice(spec, value, values, name)   an enum, stored by name
//   textChoice(spec, value, choices)    a std::string that is one of `choices`
//   list(spec, value)                   a std::vector<double>, each value in the spec's range
//   rules(spec, value)                  the dataset's folder rules
// and `value` is const when the options are.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "fisura/change.h"
#include "fisura/infer.h"
#include "fisura/measure.h"
#include "fisura/options.h"
#include "fisura/train.h"

namespace fisura::options_detail
{

enum SpecFlag : unsigned {
    kPath = 1,      ///< a std::string field holding a file or folder
    kCliClears = 2, ///< a bool whose fisura-cli flag turns it off
};

/// What the table says about a field besides its value (the default is the field's own).
struct Spec {
    const char* key;
    const char* cli;
    double min, max;
    const char* unit;
    const char* help;
    unsigned flags = 0;
};

// Ranges are a demanding user's limits, the same on every entry point (issue: the GUI, the CLI
// and the JSON reader each had their own). Where core has a harder limit (model files:
// models/model_meta.h; the map writer: io/tiled_writer.cpp) the range is that limit.
constexpr double kMaxEpochs = 100000;
constexpr double kMaxBatch = 4096;
constexpr double kMaxThreads = 1024;    ///< LibTorch's intra- and inter-op threads
constexpr double kMaxLoaders = 256;     ///< image decoding threads
constexpr double kMaxSeed = 2147483647; ///< 2^31 - 1: every entry point (a spin box too) holds it
constexpr double kMaxFlatPixels = double(uint64_t(1) << 34);

template <class O, class V> void visitModelFields(O& m, V& v)
{
    v.choice(
        {"model.type", "--model", 0, 0, "",
         "Network: the task's own (classifier, unet, autoencoder); the anomaly task may "
         "take patch-gaussian (fitted in one pass)"},
        m.type,
        {ModelType::Classifier, ModelType::UNet, ModelType::Autoencoder, ModelType::PatchGaussian},
        modelTypeName);
    v.field({"model.input_size", "--size", 16, 4096, "px",
             "Input patch or crop edge (a U-Net's: a multiple of 2^depth)"},
            m.inputSize);
    v.field({"model.classes", "", 1, 4096, "classes",
             "Classifier outputs (training takes them from the dataset's classes)"},
            m.classes);
    v.field({"model.depth", "--depth", 0, 8, "levels",
             "U-Net levels, classifier stages or autoencoder downsamplings (0 = from the input "
             "size)"},
            m.depth);
    v.field({"model.width", "--width", 4, 256, "channels",
             "Channels at full resolution, doubled per level"},
            m.width);
    v.choice({"model.patch_features", "--features", 0, 0, "",
              "Patch-gaussian: cnn (random CNN stages) or pixels (gray patches), both on a "
              "half-resolution grid"},
             m.patchFeatures, {PatchFeatures::Cnn, PatchFeatures::Pixels}, patchFeaturesName);
    v.field({"model.feature_dim", "--feature-dim", 1, 1024, "channels",
             "Patch-gaussian: feature channels kept (d)"},
            m.featureDim);
    v.field(
        {"model.patch_radius", "--patch-radius", 0, 7, "px", "Patch-gaussian pixels: patch radius"},
        m.patchRadius);
    v.field({"model.pooled_positions", "--per-position", 0, 0, "",
             "Patch-gaussian: one Gaussian for all feature-map positions (off: one per position, "
             "as PaDiM)",
             kCliClears},
            m.pooledPositions);
}

template <class O, class V> void visitTrainFields(O& o, V& v)
{
    v.choice({"task", "--task", 0, 0, "",
              "What to learn: classify (cracked or not), segment (crack pixels) or anomaly "
              "(crack-free surfaces)"},
             o.task, {TaskKind::Classify, TaskKind::Segment, TaskKind::Anomaly}, taskName);
    v.field({"data_dir", "--data", 0, 0, "", "Dataset folder", kPath}, o.dataDir);
    v.field({"out_path", "--out", 0, 0, "", "Model file to write (the best epoch)", kPath},
            o.outPath);
    v.field({"checkpoint_path", "", 0, 0, "",
             "Checkpoint rewritten after every epoch (empty: the model file + .ckpt)", kPath},
            o.checkpointPath);
    v.field({"resume_from", "--resume", 0, 0, "", "Checkpoint to continue from", kPath},
            o.resumeFrom);
    v.field({"split_path", "--split", 0, 0, "",
             "Split file to reuse, or to write when absent (empty: the model file + "
             ".split.json)",
             kPath},
            o.splitPath);
    v.field({"epochs", "--epochs", 1, kMaxEpochs, "epochs", "Passes over the training images"},
            o.epochs);
    v.field({"batch_size", "--batch", 0, kMaxBatch, "images",
             "Images per step on each GPU or process (0 = auto: measured on a GPU)"},
            o.batchSize);
    v.choice({"precision", "--precision", 0, 0, "",
              "Arithmetic: auto (from the device), fp32, bf16 or fp16"},
             o.precision, {Precision::Auto, Precision::FP32, Precision::BF16, Precision::FP16},
             precisionName);
    v.field({"prefer_cpu", "--cpu", 0, 0, "", "Train on the CPU even when a GPU is usable"},
            o.preferCpu);
    v.field({"cpu_memory_mb", "--cpu-memory", 0, 1 << 20, "MiB",
             "On the CPU, memory a training step may use for the network (weights, gradients, "
             "optimiser state, activations); a batch that needs more trains in equal parts with "
             "its gradients added up (0: one image at a time)"},
            o.cpuMemoryMb);
    visitModelFields(o.model, v);
    v.field({"start_from", "--init", 0, 0, "",
             "Weights to start from: starter (Fisura's starter model), a Fisura model file "
             "(its network and input normalisation are kept, BatchNorm re-estimated on the "
             "data), or scratch (empty: random weights)"},
            o.startFrom);
    v.field({"samples_per_epoch", "--samples-per-epoch", 0, 1e9, "crops",
             "Random crops per epoch, segmentation (0 = one per training image): a few labelled "
             "images repeat, each time another crop"},
            o.samplesPerEpoch);
    v.field({"learning_rate", "--lr", 1e-6, 1.0, "", "Peak learning rate (AdamW)"}, o.learningRate);
    v.field({"weight_decay", "--weight-decay", 0, 1.0, "", "AdamW weight decay"}, o.weightDecay);
    v.choice({"schedule", "--schedule", 0, 0, "", "Learning-rate schedule: onecycle or cosine"},
             o.schedule, {Schedule::OneCycle, Schedule::Cosine}, scheduleName);
    v.field({"clip_norm", "--clip-norm", 0, 1000, "", "Gradient norm clipping (0 = no clipping)"},
            o.clipNorm);
    v.field({"patience", "--patience", 0, kMaxEpochs, "epochs",
             "Epochs without improvement before stopping early (0 = never)"},
            o.patience);
    v.field({"val_fraction", "--val", 0, 0.9, "", "Share of the images kept for validation"},
            o.valFraction);
    v.field(
        {"seed", "--seed", 0, kMaxSeed, "", "Random seed: split, initial weights, augmentation"},
        o.seed);
    v.field({"augment", "--no-augment", 0, 0, "",
             "Random flips, rotations, brightness and contrast while training", kCliClears},
            o.augment);
    v.field({"loader_threads", "--workers", 0, kMaxLoaders, "threads",
             "Threads decoding training images (0 = from the execution policy)"},
            o.loaderThreads);
    v.field({"intra_op_threads", "--threads", 0, kMaxThreads, "threads",
             "LibTorch intra-op threads (0 = from the policy; process-wide, set once per job)"},
            o.intraOpThreads);
    v.field({"inter_op_threads", "--interop-threads", 0, kMaxThreads, "threads",
             "LibTorch inter-op threads (0 = from the policy; settable once per process)"},
            o.interOpThreads);
    v.field({"prefetch", "--prefetch", 0, 1024, "batches",
             "Decoded batches waiting for the device (0 = twice the loader threads)"},
            o.prefetch);
    v.field({"max_batches_per_epoch", "--max-batches", 0, 1e9, "batches",
             "Cap on the batches of an epoch (0 = the whole training split)"},
            o.maxBatchesPerEpoch);
    v.field({"stop_after_epoch", "", 0, kMaxEpochs, "",
             "Stop cleanly after this epoch, as a pause to resume later (0 = run to the end)"},
            o.stopAfterEpoch);
    v.rules({"scan.rules", "", 0, 0, "",
             "Classification folders and their classes (empty: one class per top-level folder, "
             "or SDNET2018's rules)"},
            o.scan.rules);
    v.field({"scan.verify", "", 0, 0, "",
             "Decode every file once while scanning, to prove it is readable"},
            o.scan.verify);
    v.field({"scan.threads", "", 0, kMaxThreads, "threads",
             "Threads scanning the dataset (0 = one per core)"},
            o.scan.threads);
    v.field({"bucket_bytes", "", -1, double(uint64_t(16) << 30), "bytes",
             "Gradient all-reduce buckets of a data-parallel job (0 = 25 MB, as PyTorch DDP; "
             "-1 = every gradient on its own)"},
            o.bucketBytes);
}

template <class O, class V> void visitWriterFields(O& w, V& v)
{
    v.field(
        {"output.tile_size", "", 16, 2048, "px", "Tile edge of the written map, a multiple of 16"},
        w.tileSize);
    v.choice({"output.compression", "--compression", 0, 0, "", "Map tile compression"},
             w.compression, {TileCompression::Zstd, TileCompression::Deflate}, tileCompressionName);
    v.field({"output.compression_level", "--level", 0, 22, "",
             "Compression level (0 = 3 for zstd, 6 for deflate, which has 1-9; zstd 9 writes "
             "files about 5 % smaller, several times slower)"},
            w.compressionLevel);
    v.field({"output.adaptive_level", "--fixed-level", 0, 0, "",
             "ZSTD: lower the level while compression is what holds the job back (down to zstd's "
             "fast levels, as long as a lower level is faster and keeps the map within 25 % of "
             "its size at the level asked for; the pixels are the same) and climb back once it "
             "keeps up; the file's bytes then follow the timing; off keeps the level fixed and "
             "the file the same from run to run",
             kCliClears},
            w.adaptiveLevel);
    v.field({"output.pyramid", "", 0, 0, "", "Write halved overviews for fast zooming out"},
            w.pyramid);
    v.field({"output.max_overview_side", "", 16, 65536, "px",
             "Overviews stop once the longest side is below this"},
            w.maxOverviewSide);
    v.field(
        {"output.threads", "", 0, kMaxThreads, "threads", "Compression threads (0 = one per core)"},
        w.threads);
}

// What a scan read may claim (a decompression bomb claims a huge image in a small file).
template <class O, class V> void visitImageLimitFields(O& l, V& v)
{
    v.field({"input_limits.max_pixels", "--max-pixels", 0, double(ImageLimits::kMostPixels),
             "pixels",
             "Refuse images claiming more pixels than this, width x height at full resolution "
             "(0 = no limit)"},
            l.maxPixels);
    v.field({"input_limits.max_pixels_per_byte", "--max-pixels-per-byte", 0, 1e9, "px per byte",
             "Refuse compressed images claiming more pixels per byte of file than this, as "
             "decompression bombs do (0 = no limit)"},
            l.maxPixelsPerByte);
}

template <class O, class V> void visitInferFields(O& o, V& v)
{
    v.field({"tile_size", "--tile", 0, 4096, "px",
             "Tile edge (0 = from the model; 16 px or more otherwise)"},
            o.tileSize);
    v.field({"overlap", "--overlap", -1, 2048, "px",
             "Overlap between tiles, at most half the tile (-1 = from the model)"},
            o.overlap);
    v.field({"batch_size", "--batch", 0, kMaxBatch, "tiles",
             "Tiles per step (0 = auto: measured on a GPU, small on the CPU)"},
            o.batchSize);
    v.choice({"precision", "--precision", 0, 0, "",
              "Arithmetic: auto (from the device), fp32, bf16 or fp16"},
             o.precision, {Precision::Auto, Precision::FP32, Precision::BF16, Precision::FP16},
             precisionName);
    v.field({"prefer_cpu", "--cpu", 0, 0, "", "Use the CPU even when a GPU is usable"},
            o.preferCpu);
    v.choice({"window", "--window", 0, 0, "", "Blending window of overlapping tiles"}, o.window,
             {BlendWindow::Cosine, BlendWindow::Gaussian}, blendWindowName);
    v.field({"reader_threads", "--readers", 0, kMaxLoaders, "threads",
             "Threads decoding tiles (0 = from the execution policy)"},
            o.readerThreads);
    v.field({"intra_op_threads", "--threads", 0, kMaxThreads, "threads",
             "LibTorch intra-op threads (0 = from the policy; process-wide, set once per job)"},
            o.intraOpThreads);
    v.field({"inter_op_threads", "--interop-threads", 0, kMaxThreads, "threads",
             "LibTorch inter-op threads (0 = from the policy; settable once per process)"},
            o.interOpThreads);
    v.field({"prefetch_batches", "", 1, 64, "batches",
             "Decoded batches waiting for the device, at most"},
            o.prefetchBatches);
    v.field({"cache_bytes", "", 0, double(uint64_t(1) << 40), "bytes",
             "Decoded input blocks kept for neighbouring tiles (0 = sized from the scan)"},
            o.cacheBytes);
    v.field({"max_flat_pixels", "", 1, kMaxFlatPixels, "pixels",
             "PNG and JPEG inputs are decoded whole: larger ones are refused"},
            o.maxFlatPixels);
    v.field({"gpus", "--gpus", 0, 64, "GPUs",
             "GPUs to use (0 = all usable ones): a large scan is split into column bands, one "
             "per GPU (the map is the one-GPU map, or a grey level from it in a few pixels where "
             "a larger model's tiles are batched otherwise); a folder's small scans go one per "
             "GPU"},
            o.gpus);
    visitImageLimitFields(o.inputLimits, v);
    visitWriterFields(o.output, v);
}

// Pixel sizes Fisura accepts: from a micrometre (microscopy) to 100 m (satellite images).
constexpr double kMaxPixelSizeMm = 1e5;

/// The width-class presets' ids and "custom" (limits of the user's own).
inline std::vector<std::string> classPresetChoices()
{
    std::vector<std::string> ids;
    for (const WidthClassPreset& p : widthClassPresets())
        ids.push_back(p.id);
    ids.emplace_back("custom");
    return ids;
}

template <class O, class V> void visitMeasureFields(O& o, V& v)
{
    v.field({"threshold", "--threshold", 0.001, 1, "",
             "Crack probability from which a pixel is crack (map values b with b/255 >= t)"},
            o.threshold);
    v.field({"closing_radius_px", "--closing", 0, 32, "px",
             "Close gaps with a disk of this radius (0 = no closing)"},
            o.closingRadiusPx);
    v.field({"min_area_px", "--min-area", 0, 1e9, "px", "Drop cracks with fewer pixels (noise)"},
            o.minAreaPx);
    v.field({"pixel_size_mm", "--pixel-size", 0, kMaxPixelSizeMm, "mm",
             "Pixel size (0 = from the map's or the scan's resolution tags; without them, "
             "lengths and widths in px only)"},
            o.pixelSizeMm);
    v.field({"scan_path", "--scan", 0, 0, "",
             "The scan the map belongs to (pixel size, size check)", kPath},
            o.scanPath);
    v.textChoice({"classes.preset", "--classes", 0, 0, "",
                  "Width classes: a preset, or custom with the class limits; a standard's preset "
                  "flags cracks over its tolerable width"},
                 o.classes.preset, classPresetChoices());
    v.list({"classes.upper_limits_mm", "--class-limits", 0.001, 1e4, "mm",
            "Upper limits of the width classes, ascending (custom classes)"},
           o.classes.upperLimitsMm);
    v.choice({"class_by", "--class-by", 0, 0, "", "Width statistic that decides the class"},
             o.classBy, {ClassBy::Median, ClassBy::Mean, ClassBy::Max}, classByName);
    v.field({"tile_size", "", 64, 8192, "px", "Edge of the tiles analysed one at a time"},
            o.tileSize);
    v.field({"margin_px", "", 16, 1024, "px",
             "Overlap read around each tile (at least 2 x the closing radius + 16)"},
            o.marginPx);
    v.field(
        {"threads", "", 0, 64, "threads", "Tiles analysed at once (0 = one per core, at most 8)"},
        o.threads);
    v.field({"branch_memory_mb", "--branch-memory", 0, 1 << 20, "MiB",
             "Memory for the branches' records (centre lines, width segments); beyond it they "
             "go to a temporary file in the system's temporary folder (TMPDIR)"},
            o.branchMemoryMb);
    v.field({"width_layer_path", "--width-layer", 0, 0, "",
             "Also write a width-class layer (TIFF: 0 background, 1 + class on cracks)", kPath},
            o.widthLayerPath);
    visitImageLimitFields(o.limits, v);
}

/// Calls fn(key, reason) for the fields the tables above leave out on purpose.
template <class Fn> void trainExclusions(Fn&& fn)
{
    fn("pause_requested", "a live control shared with the running job, not a setting");
    fn("distributed", "this process's place in a data-parallel job: set per process by the "
                      "launcher (torchrun, Slurm, fisura-cli --gpus), never recorded");
}

template <class Fn> void inferExclusions(Fn&& fn)
{
    fn("output.pixel_size_x_mm", "copied from the input scan by the inference");
    fn("output.pixel_size_y_mm", "copied from the input scan by the inference");
    fn("output.extra_tags", "the input scan's GeoTIFF tags, copied by the inference");
    fn("model_load", "how a model file is opened (size limit, consent to run TorchScript): "
                     "fisura-cli's model-file options and the GUI's consent dialog");
}

template <class O, class V> void visitAlignFields(O& o, V& v)
{
    v.choice({"align.model", "--model", 0, 0, "",
              "Alignment model; auto picks the simplest one the residuals allow"},
             o.model,
             {AlignModel::Auto, AlignModel::Similarity, AlignModel::Affine, AlignModel::Homography},
             alignModelName);
    v.choice({"align.field", "--field", 0, 0, "",
              "Correction field on top of the model where the surface is not planar: auto uses "
              "it when it lowers the residual materially, off never"},
             o.field, {AlignField::Auto, AlignField::Off}, alignFieldName);
    v.choice({"align.georeference", "--georeference", 0, 0, "",
              "Georeferenced pairs: auto matches features only where both georeferences say the "
              "scans overlap (the whole scans when nothing matches there), off always the whole "
              "scans"},
             o.georeference, {AlignGeoreference::Auto, AlignGeoreference::Off},
             alignGeoreferenceName);
    v.field(
        {"align.overview_side", "", 256, 8192, "px", "Long side of the overviews matched coarsely"},
        o.overviewSide);
    v.field({"align.features", "", 100, 100000, "keypoints", "ORB keypoints per overview"},
            o.features);
    v.field({"align.ratio", "", 0.1, 0.99, "",
             "Lowe's ratio test: a match counts when its distance is below this share of the "
             "second best's"},
            o.ratio);
    v.field({"align.min_inliers", "", 4, 100000, "matches",
             "Fewer coarse matches consistent with the model: the alignment fails"},
            o.minInliers);
    v.field({"align.region_grid", "", 1, 16, "regions",
             "Residuals reported per region of a grid of this many regions a side"},
            o.regionGrid);
    v.field({"align.windows_per_region", "", 1, 16, "windows",
             "Refinement windows along each side of a region"},
            o.windowsPerRegion);
    v.field({"align.window_px", "", 64, 2048, "px", "Refinement window edge at full resolution"},
            o.windowPx);
    v.field({"align.min_overlap", "", 0, 1, "",
             "Share of the earlier scan the later one must cover, else align_no_overlap"},
            o.minOverlap);
    v.field({"align.max_scale_change", "", 1, 100, "",
             "Scales outside 1/x..x are no change of view (align_degenerate_model)"},
            o.maxScaleChange);
    v.field({"align.max_anisotropy", "", 1, 100, "",
             "Largest ratio of the model's singular values (shear, squash)"},
            o.maxAnisotropy);
    visitImageLimitFields(o.limits, v);
}

/// Visits `o`'s fields as "<prefix><key>", leaving out those `skip` names (without the prefix):
/// a struct nested in another set's options (the comparison's measurement).
template <class V> class Prefixed
{
public:
    Prefixed(V& v, std::string prefix, std::vector<std::string> skip)
        : v_(v), prefix_(std::move(prefix)), skip_(std::move(skip))
    {
    }
    template <class T> void field(const Spec& s, T& value)
    {
        pass(s, [&](const Spec& p) { v_.field(p, value); });
    }
    template <class E, class N>
    void choice(const Spec& s, E& value, const std::vector<std::remove_const_t<E>>& values, N name)
    {
        pass(s, [&](const Spec& p) { v_.choice(p, value, values, name); });
    }
    template <class T, class C> void textChoice(const Spec& s, T& value, const C& choices)
    {
        pass(s, [&](const Spec& p) { v_.textChoice(p, value, choices); });
    }
    template <class T> void list(const Spec& s, T& value)
    {
        pass(s, [&](const Spec& p) { v_.list(p, value); });
    }

private:
    template <class F> void pass(const Spec& s, F&& f)
    {
        for (const std::string& k : skip_)
            if (k == s.key)
                return;
        const std::string key = prefix_ + s.key;
        Spec p = s;
        p.key = key.c_str();
        f(p);
    }
    V& v_;
    std::string prefix_;
    std::vector<std::string> skip_;
};

/// The comparison's own measurement fields that are not options of the comparison: the command
/// sets them (see compareExclusions).
inline std::vector<std::string> compareSkipsOfMeasure()
{
    return {"scan_path", "width_layer_path", "input_limits.max_pixels",
            "input_limits.max_pixels_per_byte"};
}

template <class O, class V> void visitComparisonFields(O& o, V& v)
{
    v.field({"tolerance_px", "--tolerance", 0.5, 1000, "px",
             "Centre lines closer than this (px of the earlier scan) are the same crack"},
            o.tolerancePx);
    v.field({"min_length_gain_px", "--min-length-gain", 0, 1e6, "px",
             "Less gained length is unchanged (measurement noise)"},
            o.minLengthGainPx);
    v.field({"min_width_gain_px", "--min-width-gain", 0, 1000, "px",
             "Less gained mean width is unchanged"},
            o.minWidthGainPx);
    v.field({"min_covered_fraction", "", 0.01, 1, "",
             "A crack matches another when this share of it lies within the tolerance"},
            o.minCoveredFraction);
    Prefixed<V> measure(v, "measure.", compareSkipsOfMeasure());
    visitMeasureFields(o.measure, measure);
}

template <class Fn> void measureExclusions(Fn&& fn)
{
    fn("classes.ids", "the names of the width classes: the preset's, one more than its limits");
    fn("classes.tolerable_mm", "a standard's tolerable width: set by its preset");
}

template <class Fn> void compareExclusions(Fn&& fn)
{
    fn("measure.classes.ids", "the names of the width classes: the preset's");
    fn("measure.classes.tolerable_mm", "a standard's tolerable width: set by its preset");
    fn("measure.scan_path", "the maps are compared on the earlier scan's grid: set by compare");
    fn("measure.width_layer_path", "no width layer is written while comparing");
    fn("measure.input_limits.max_pixels", "the scans' and maps' limits are input_limits.*");
    fn("measure.input_limits.max_pixels_per_byte", "the scans' and maps' limits are "
                                                   "input_limits.*");
}

} // namespace fisura::options_detail

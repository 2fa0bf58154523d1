// Lazy datasets: a scan records file paths, labels and sizes, never pixels. Pixels are decoded
// batch by batch by a BatchLoader's worker threads into a bounded queue.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura
{

enum class TaskKind { Classify, Segment, Anomaly };
const char* taskName(TaskKind t); ///< "classify", "segment", "anomaly"
bool parseTask(const std::string& text, TaskKind& out);

/// Maps a folder (path relative to the dataset root, '/'-separated, or just its last component)
/// to a class name. SDNET2018 nests D/CD, D/UD, P/CP, P/UP, W/CW, W/UW: see sdnet2018Rules().
struct FolderRule {
    std::string folder; ///< "D/CD" matches that path; "CD" matches any folder named CD
    std::string className;
};
/// {CD, CP, CW} -> cracked, {UD, UP, UW} -> uncracked.
std::vector<FolderRule> sdnet2018Rules();

struct DatasetItem {
    std::string image;
    std::string mask; ///< segmentation only
    int label = -1;   ///< classification only: index into Dataset::classes
    int width = 0;
    int height = 0;
};

struct DatasetProblem {
    std::string path;
    std::string reason; ///< untranslated: "unreadable: corrupt: ...", "mask without image"
};

struct SizeStats {
    int count = 0;
    int minWidth = 0, maxWidth = 0, minHeight = 0, maxHeight = 0;
    double meanWidth = 0, meanHeight = 0;
};

struct Dataset {
    TaskKind task = TaskKind::Classify;
    std::string root;
    std::vector<std::string> classes;     ///< classification: sorted class names
    std::vector<int> classCounts;         ///< per class (classification), else {items}
    std::vector<DatasetItem> items;       ///< only usable items
    std::vector<DatasetProblem> problems; ///< skipped files, listed, never fatal
    SizeStats sizes;
    /// Index of the class the metrics call positive ("cracked" when present, else 1).
    int positiveClass() const;
};

struct ScanOptions {
    /// Classification rules; empty = one class per top-level subfolder, or SDNET2018 rules when
    /// the leaf folders look like SDNET2018 (CD/UD/...).
    std::vector<FolderRule> rules;
    /// Decode every file once to prove it is readable and learn its size (a scan then costs one
    /// decode per file, spread over `threads`). Off: only names are checked.
    bool verify = true;
    int threads = 0; ///< 0 = hardware concurrency
};

/// Scan `dir` for `task`:
///  Classify: image files below class folders (recursively, see ScanOptions::rules);
///  Segment:  dir/images/<stem>.* paired with dir/masks/<stem>.* (mask non-zero = crack);
///  Anomaly:  every image file below dir (crack-free by assumption).
/// Missing folders are errors; unreadable or unpaired files are listed in problems.
Result<Dataset> scanDataset(const std::string& dir, TaskKind task, const ScanOptions& options = {},
                            const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

/// Summary as JSON text (counts, classes, sizes, up to 50 problems).
std::string datasetSummaryJson(const Dataset& d, int indent = -1);

/// Indices into Dataset::items for each part; stratified by class for classification.
struct DatasetSplit {
    uint64_t seed = 0;
    double valFraction = 0, testFraction = 0;
    std::vector<int> train, val, test;
};

/// Seeded, stratified split. Every class with >= 2 items gets at least one validation item when
/// valFraction > 0. Same dataset, fractions and seed give the same split on every machine.
DatasetSplit makeSplit(const Dataset& d, double valFraction, double testFraction, uint64_t seed);

/// Save as JSON with the item paths (relative to the root), so it can be reused and checked.
Status saveSplit(const std::string& path, const Dataset& d, const DatasetSplit& split);
/// Load a saved split; fails with Corrupt when it names items this dataset does not have.
Result<DatasetSplit> loadSplit(const std::string& path, const Dataset& d);

/// What the loader decodes once every batch of an epoch has been claimed, so that the next
/// startEpoch() finds its first batches ready instead of waiting for them: nothing, the next
/// epoch (training), or the same epoch again (validation repeats one order).
enum class LookAhead { None, NextEpoch, SameEpoch };

struct LoaderOptions {
    int inputSize = 256; ///< square side of every sample
    int batchSize = 16;
    int threads = 2;      ///< decoding workers
    int prefetch = 4;     ///< batches decoded ahead (>= threads keeps every worker busy)
    bool augment = false; ///< flips, 90 degree rotations, brightness/contrast
    bool shuffle = false;
    bool dropLast = false;
    bool randomCrop = true; ///< segmentation: random crops when augmenting, else a tile grid
    bool pinned = false;    ///< page-locked host batches (CUDA builds only)
    /// Random crops (augment + randomCrop): an epoch repeats the shuffled items, each time
    /// another crop, until it holds at least this many samples (0 = each item once).
    int minSamplesPerEpoch = 0;
    uint64_t seed = 1;
    /// Decoded ahead, within the same prefetch bound; startEpoch() with another epoch (or, after
    /// an out-of-memory, another batch size) drops it and starts afresh.
    LookAhead lookAhead = LookAhead::None;
};

/// One decoded batch as it crosses the facade: uint8 NHWC pixels (RGB), and per task either
/// labels (classify) or uint8 masks N x H x W with 0/1 (segment). Valid until the next call.
struct BatchView {
    int count = 0;
    int size = 0;
    const uint8_t* pixels = nullptr;
    const int64_t* labels = nullptr;
    const uint8_t* masks = nullptr;
    std::vector<int> items; ///< dataset item index of each sample
};

/// Lazy batches over a subset of a dataset (see LoaderOptions). Worker threads decode ahead into
/// a bounded queue: at most prefetch + 1 batches are alive at any time, whatever the dataset size.
class BatchLoader
{
public:
    BatchLoader(const Dataset& dataset, std::vector<int> indices, const LoaderOptions& options);
    ~BatchLoader();
    BatchLoader(const BatchLoader&) = delete;
    BatchLoader& operator=(const BatchLoader&) = delete;

    int batchesPerEpoch() const;
    /// Start an epoch (order and augmentation depend on seed and epoch only).
    void startEpoch(int epoch);
    /// Next batch, or false at the end of the epoch / on cancellation / on error (see status()).
    bool next(BatchView& out, const CancelToken& cancel = {});
    Status status() const;
    /// Largest number of bytes held in batches at once since construction.
    uint64_t peakBatchBytes() const;
    uint64_t batchBytes() const; ///< bytes of one full batch
    /// Samples decoded since construction (a sample decoded ahead and then used counts once).
    uint64_t samplesDecoded() const;

    struct Impl;
    Impl* impl() { return impl_.get(); }

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace fisura

// Labelling cracks: a label layer (mask) over any image or gigapixel scan, edited tile by tile
// with exact tool geometry and cheap undo, saved beside the image; model proposals; ranking of
// unlabelled images by the model's uncertainty; the labelled / proposed / unlabelled status of a
// dataset.
//
// Where labels live (labelPathsFor):
//   image <root>/images/<stem>.<ext> of a segmentation dataset (see dataset.h: a folder named
//   "images" with a sibling "masks")
//     mask      <root>/masks/<stem>.tif, or the existing <root>/masks/<stem>.<other ext> when one
//               is there (the shared datasets use PNG): that file is edited and saved in its own
//               format, so there is never more than one mask per stem
//     proposal  <root>/proposals/<stem>.tif (unaccepted model proposals, e.g. written by
//               `fisura-cli propose`; training pairs images/ with masks/ only, so it ignores them)
//   any other image <dir>/<stem>.<ext>
//     mask      <dir>/<stem>.mask.tif     proposal  <dir>/<stem>.proposal.tif
//
// Mask files: 8-bit gray, the image's width and height, 0 = background, 255 = crack (any non-zero
// value read is a crack), the image's resolution tags. TIFF masks are tiled (LabelLayerOptions::
// tileSize) and Deflate-compressed; their ImageDescription holds a small JSON
// {"fisura_labels":1,"provenance":{...}} so the split between proposal and user pixels survives
// saving and reopening. PNG masks keep no provenance (it restarts as "all labelled by the user").
//
// Memory: the layer keeps only the tiles it decoded or edited (LRU within memoryBudget; edited
// tiles are pinned until saved). Saving a TIFF mask writes a new file atomically (temporary +
// rename) that copies the compressed bytes of every untouched tile from the old file and encodes
// only the edited ones, so its cost follows the edited tiles, not the image size. A mask that is
// not a tiled TIFF of the layer's tile size (PNG, striped TIFF, other tiles) is re-encoded whole
// on save; with no mask yet, untouched tiles are written as one precompressed empty tile (not
// counted in SaveStats::tilesEncoded).
//
// Limits: provenance is exact within a session (a per-pixel origin is kept in memory); after
// reopening, only the saved counts come back, so erasing a pixel saved earlier counts against
// userAdded first, then fromProposal. A mask Fisura did not write counts as the user's when it
// has at most 64 Mpx (counted at open), else its counts start at 0. Edited tiles stay in memory
// until saved, so setRegion / applyProposal refuse a region whose tiles (x3: the tile, and the
// edit's before and after) exceed memoryBudget with OutOfMemory, detail "region_too_large: ..."
// (mark a gigapixel scan crack-free region by region).
//
// Geometry (all coordinates are level-0 image pixels; pixel (i, j) has its centre at
// (i + 0.5, j + 0.5)):
//   polyline(points, w)   every pixel whose centre lies within w/2 of one of the segments
//                         (round caps and joins); a single point gives a disc
//   brush(stroke, d, e)   the same set with w = d (discs of diameter d swept along the stroke);
//                         erase writes 0 instead of 255
//   fill(seed)            the 4-connected region of 0-pixels containing the seed, bounded by label
//                         pixels, searched within kFillWindow px of the seed. Refused with
//                         InvalidArgument; the detail starts with a stable id the GUI can map:
//                           "fill_not_closed:"  the region reaches the image border
//                           "fill_too_large:"   the region reaches the edge of the search window
//                           "fill_on_label:"    the seed pixel is already a label
//                           "fill_outside:"     the seed is outside the image
//   setRegion(r, v)       every pixel of r (clipped to the image) = v; "crack-free" is v = 0
// Every edit returns a LabelEdit that holds the before/after bytes of the tiles it changed and
// nothing else; an edit that changes no pixel is valid and empty (LabelEdit::empty()).
//
// Threading: a LabelLayer is not thread-safe; use it from one thread (the GUI thread, or a job
// that owns it). proposeLabels / rankByUncertainty / labelStatus are free functions that can run
// on any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/infer.h"
#include "fisura/job.h"
#include "fisura/status.h"

namespace fisura
{

/// A point in level-0 image pixels (x to the right, y down; pixel centres at +0.5).
struct LabelPoint {
    double x = 0, y = 0;
};

/// A rectangle of level-0 pixels.
struct LabelRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool empty() const { return width <= 0 || height <= 0; }
};

enum class LabelState {
    Unlabelled, ///< neither a mask nor a proposal file
    Proposed,   ///< a proposal file, no mask
    Labelled,   ///< a mask file (a proposal file beside it does not matter)
};
/// "unlabelled", "proposed", "labelled" (stable, for JSON and for mapping to tr() text).
const char* labelStateName(LabelState state);

struct LabelPaths {
    std::string mask;     ///< where the label is (or will be) saved
    std::string proposal; ///< where an unaccepted proposal is (or would be) saved
};
/// Where the mask and the proposal of `imagePath` live (see the top of this file). Looks at the
/// disk only to find an existing mask of another format in <root>/masks.
LabelPaths labelPathsFor(const std::string& imagePath);

/// The state of one image: from the files present (labelPathsFor), nothing is decoded.
LabelState labelStateFor(const std::string& imagePath);

struct LabelStatusEntry {
    std::string image;
    LabelState state = LabelState::Unlabelled;
    std::string mask;     ///< path of the mask, "" when there is none
    std::string proposal; ///< path of the proposal, "" when there is none
};
/// Every image of a segmentation dataset folder (`datasetDir/images`, sorted by file name)
/// with its state. NotFound when `datasetDir/images` does not exist.
Result<std::vector<LabelStatusEntry>> labelStatus(const std::string& datasetDir);

/// Where the crack pixels of a layer came from (pixel counts, updated by every edit).
struct LabelProvenance {
    uint64_t labelled = 0;       ///< crack pixels now (= fromProposal + userAdded)
    uint64_t fromProposal = 0;   ///< crack pixels that an accepted proposal set and are still set
    uint64_t userAdded = 0;      ///< crack pixels the user drew (polyline, brush, fill, region)
    uint64_t proposalErased = 0; ///< proposal pixels the user has since erased
};

/// fill() searches at most this many px from the seed in x and y (a window of at most
/// 4096 x 4096 = kMaxFillPixels).
constexpr int kFillWindow = 2048;
constexpr uint64_t kMaxFillPixels = 16ull << 20;

/// One undoable change: the before/after bytes of the tiles it touched (only those), and the
/// provenance before/after. Copyable; hand it back to the LabelLayer that made it.
class LabelEdit
{
public:
    struct Tile {
        int column = 0, row = 0;
        std::vector<uint8_t> before, after;             ///< the tile's pixels (edge tiles clipped)
        std::vector<uint8_t> originBefore, originAfter; ///< per pixel: 0 user, 1 proposal
    };
    bool empty() const { return tiles.empty(); }
    /// Bytes this edit holds (what an undo stack costs).
    uint64_t bytes() const;
    /// Pixels whose value changed.
    uint64_t changedPixels = 0;
    std::vector<Tile> tiles;
    LabelProvenance provenanceBefore, provenanceAfter;
    const void* layer = nullptr; ///< the LabelLayer it belongs to (checked by undo/redo)
};

struct LabelLayerOptions {
    int tileSize = 256;                   ///< edit granularity and tile size of new TIFF masks
    uint64_t memoryBudget = 256ull << 20; ///< decoded clean tiles kept beyond this are dropped
};

class LabelLayer
{
public:
    /// Opens the label layer of `imagePath`: the image's size and resolution come from the image
    /// (TIFF header or, for PNG/JPEG, a decode); the existing mask is read lazily tile by tile
    /// when it is a tiled TIFF of the same tile size, otherwise decoded once. A missing mask is an
    /// all-zero layer. Errors: NotFound (no image), Corrupt (mask of another size or unreadable),
    /// Unsupported (image format).
    static Result<std::unique_ptr<LabelLayer>> open(const std::string& imagePath,
                                                    const LabelLayerOptions& options = {});
    ~LabelLayer();
    LabelLayer(const LabelLayer&) = delete;
    LabelLayer& operator=(const LabelLayer&) = delete;

    int width() const;
    int height() const;
    int tileSize() const;
    double pixelSizeXmm() const; ///< 0 = unknown (from the image's resolution tags)
    double pixelSizeYmm() const;
    const std::string& imagePath() const;
    LabelPaths paths() const;
    /// Labelled when a mask file exists or the layer holds unsaved edits; else from the files.
    LabelState state() const;

    /// Crack polyline of width `widthPx` (see the geometry at the top). InvalidArgument when
    /// `points` is empty or widthPx <= 0.
    Result<LabelEdit> polyline(const std::vector<LabelPoint>& points, double widthPx,
                               uint8_t value = 255);
    /// Brush (255) or eraser (0) of diameter `diameterPx` along `stroke`.
    Result<LabelEdit> brush(const std::vector<LabelPoint>& stroke, double diameterPx, bool erase);
    /// Flood fill of the closed 0-region around `seed` with `value`.
    Result<LabelEdit> fill(LabelPoint seed, uint8_t value = 255);
    /// Every pixel of `r` (clipped to the image) = value: 0 marks a region crack-free.
    Result<LabelEdit> setRegion(const LabelRect& r, uint8_t value);
    /// Accept a proposal: `mask` (1 channel, r's size, non-zero = crack) replaces the pixels of
    /// `region`; its crack pixels count as fromProposal. InvalidArgument on a size mismatch.
    Result<LabelEdit> applyProposal(const LabelRect& region, const Image& mask);
    /// Labels drawn elsewhere (e.g. imported from GeoJSON): `mask` replaces the pixels of
    /// `region` as applyProposal does, but its crack pixels count as userAdded.
    Result<LabelEdit> replaceRegion(const LabelRect& region, const Image& mask);
    /// Restore the tiles of `e` as they were before / after it. Edits must be undone in reverse
    /// order (as QUndoStack does); an edit of another layer is ignored.
    void undo(const LabelEdit& e);
    void redo(const LabelEdit& e);

    /// Pixels of `r` (inside the image), 1 channel, 0/255. InvalidArgument outside the image.
    Result<Image> readRegion(const LabelRect& r) const;
    /// The whole mask downsampled so that its longer side is at most maxSide, by max-pooling
    /// (a thin crack stays visible). Reads every tile once (decoded tiles are not kept).
    Result<Image> overview(int maxSide) const;

    LabelProvenance provenance() const;
    /// Edits since open or the last save (undoing every edit does not clear it).
    bool modified() const;
    /// Bytes of decoded tiles held now (edited tiles included).
    uint64_t residentBytes() const;

    struct SaveStats {
        std::string path;
        uint64_t bytesWritten = 0;
        int tilesEncoded = 0; ///< tiles compressed anew (the rest were copied raw)
        int tilesCopied = 0;  ///< tiles whose compressed bytes were copied from the old file
    };
    /// Writes the mask to paths().mask atomically and removes paths().proposal (the proposal is
    /// now part of the label). Cancelled leaves the old file untouched.
    Result<SaveStats> save(const CancelToken& cancel = {}, ProgressSink* progress = nullptr);

    struct Impl;

private:
    Result<LabelEdit> writeMask(const LabelRect& region, const Image& mask, bool fromProposal);
    explicit LabelLayer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d_;
};

struct ProposeOptions {
    /// Crack probability 0..1 on the map's own scale (mapByteThreshold; for a score map 0.5 is
    /// about the model's threshold, byte 128). < 0: the model's own (modelMapByteThreshold).
    double threshold = -1;
    LabelRect region; ///< empty: the whole image
    InferOptions infer;
};
/// Runs `modelPath` with the tiled inference (TiledInference::runImage) over the pixels of
/// `region` of `imagePath` (the model sees only the region: the result equals `infer` run on
/// the region cropped to a file, then thresholded) and thresholds its map: pixel = 255 where
/// map byte >= the threshold's byte (see ProposeOptions::threshold). The result has the
/// region's size (or the image's). Whole images beyond infer.maxFlatPixels are refused with
/// InvalidArgument (propose the visible region of a gigapixel scan instead).
Result<Image> proposeLabels(const std::string& modelPath, const std::string& imagePath,
                            const ProposeOptions& options = {}, const CancelToken& cancel = {},
                            ProgressSink* progress = nullptr);

/// Folder (or single file) -> folder, for `fisura-cli propose`: one model, every image of
/// `input` (sorted; not recursive) thresholded as proposeLabels does and written atomically as
/// `<outDir>/<stem>.tif` (0/255, the image's resolution tags, tiled when large). An image that
/// fails is listed with its reason and the rest continue; cancelling stops between or inside
/// images and leaves no partial file. Errors: NotFound (input), model load/create errors.
struct ProposeFailure {
    std::string image;
    std::string reason; ///< Status::toString() of the failure
};
struct ProposeFolderResult {
    std::vector<std::string> written; ///< mask paths, in input order
    std::vector<ProposeFailure> failures;
    uint64_t crackPixels = 0;
    uint64_t pixels = 0;
};
Result<ProposeFolderResult> proposeFolder(const std::string& modelPath, const std::string& input,
                                          const std::string& outDir,
                                          const ProposeOptions& options = {},
                                          const CancelToken& cancel = {},
                                          ProgressSink* progress = nullptr);

struct RankEntry {
    std::string image;
    double uncertainty = 0;   ///< 0..1: (meanEntropy + nearThreshold) / 2; -1 when it failed
    double meanEntropy = 0;   ///< mean binary entropy of p = map byte / 255, in bits (0..1)
    double nearThreshold = 0; ///< share of pixels with |p - threshold| <= band
    std::string error;        ///< why this image could not be ranked ("" when it was)
};
struct RankOptions {
    double band = 0.1; ///< half-width of the "near the threshold" band, in probability
    InferOptions infer;
};
/// Runs the model over each image (whole, in memory: refused beyond infer.maxFlatPixels) and
/// orders them most uncertain first (ties by path). p is the map byte / 255; the threshold is
/// the model's own byte (modelMapByteThreshold) / 255: the model's threshold for U-Nets, 0.5
/// for classifiers, 128/255 for autoencoder scores. An image that fails is kept, last, with `error`
/// set; the call fails only for the model, an invalid band, or cancellation (Cancelled).
Result<std::vector<RankEntry>> rankByUncertainty(const std::string& modelPath,
                                                 const std::vector<std::string>& images,
                                                 const RankOptions& options = {},
                                                 const CancelToken& cancel = {},
                                                 ProgressSink* progress = nullptr);

/// Entropy and near-threshold share of one 8-bit map (p = byte/255): exposed for tests and for
/// anyone with a map already on disk.
RankEntry uncertaintyOfMap(const Image& map, double threshold, double band);

} // namespace fisura

// The tiles of a label layer (plain C++): where clean tiles come from (the mask file on disk),
// which tiles are decoded (LRU within a budget; edited tiles pinned until saved), how edits
// write pixels while keeping the provenance counts, and how an edit records its tiles.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "fisura/labels.h"
#include "fisura/tiledimage.h"
#include "io/tiff_handle.h"
#include "label_provenance.h"

namespace fisura::labels
{

/// Where tiles not in memory come from.
struct MaskSource {
    enum class Kind {
        None,      ///< no mask file: every tile is 0
        TiffTiles, ///< a tiled 8-bit gray TIFF with the layer's tile size: tiles read (and
                   ///< copied raw on save) one by one
        Tiled,     ///< any other TIFF: regions read through TiledImage
        Flat,      ///< PNG/JPEG/BMP: decoded whole
    };
    Kind kind = Kind::None;
    std::string path;
    std::unique_ptr<io::TiffHandle> tiff; // TiffTiles
    uint16_t compression = 1, predictor = 1;
    std::shared_ptr<TiledImage> tiled; // Tiled
    Image flat;                        // Flat (1 channel)
    LabelProvenance provenance;        // restored from the file's description
    bool hasProvenance = false;
};

/// Opens the mask at `path` for a layer of width x height with `tile`; None when absent.
Result<MaskSource> openMaskSource(const std::string& path, int width, int height, int tile);

struct TileData {
    std::vector<uint8_t> pix;    ///< 0/255, tw x th
    std::vector<uint8_t> origin; ///< per pixel 1 = set by a proposal; empty = all user
    bool dirty = false;          ///< differs from the file (pinned)
    uint64_t lastUse = 0;
};

/// Tiles touched by one edit in progress: their state before it.
struct EditRecorder {
    std::map<int, LabelEdit::Tile> tiles;
    std::map<int, bool> wasDirty;
};

class TileStore
{
public:
    TileStore(int width, int height, int tile, uint64_t budget);

    int width() const { return width_; }
    int height() const { return height_; }
    int tile() const { return tile_; }
    int columns() const { return cols_; }
    int rows() const { return rows_; }
    int tileCount() const { return cols_ * rows_; }
    int tileWidth(int column) const;
    int tileHeight(int row) const;

    MaskSource& source() { return source_; }
    const MaskSource& source() const { return source_; }
    void setSource(MaskSource s);

    /// Tile pixels for reading (loaded and cached when needed); null on a read error (status()).
    const TileData* get(int index) const;
    /// Tile for writing: loaded, marked dirty and, with a recorder, snapshotted on first touch.
    TileData* edit(int index, EditRecorder* rec);
    /// Pixels of a tile without keeping it (overview, save): a copy.
    Result<std::vector<uint8_t>> peek(int index) const;
    bool isLoaded(int index) const { return tiles_.count(index) != 0; }
    bool isDirty(int index) const;
    const std::unordered_map<int, TileData>& loaded() const { return tiles_; }
    /// After a save: every tile is clean (and may be evicted).
    void markAllClean();
    uint64_t residentBytes() const;
    Status status() const { return status_; }
    /// The first read error since the last call (and clears it).
    Status takeStatus()
    {
        Status s = status_;
        status_ = Status::ok();
        return s;
    }

    /// Writes `value` (0 or 255) to pixels x0..x1 of row y, updating `prov`.
    void writeSpan(int y, int x0, int x1, uint8_t value, bool fromProposal, EditRecorder& rec,
                   LabelProvenance& prov);
    /// The finished edit: tiles whose bytes changed, with before and after.
    LabelEdit finish(EditRecorder& rec);
    /// Puts the before (undo) or after (redo) bytes of `e` back.
    void restore(const LabelEdit& e, bool after);

private:
    Status loadTile(int index, TileData& t) const;
    void evict() const;

    int width_, height_, tile_, cols_, rows_;
    uint64_t budget_;
    MaskSource source_;
    mutable std::unordered_map<int, TileData> tiles_;
    mutable uint64_t clock_ = 0;
    mutable uint64_t resident_ = 0;
    mutable Status status_;
};

} // namespace fisura::labels

// Saving a label mask; see label_save.h.
//
// TIFF: a new tiled file beside the target, then rename. Tiles nobody edited keep their
// compressed bytes (TIFFReadRawTile -> TIFFWriteRawTile, same codec), so a save costs the edited
// tiles, not the image: the same idea as GDAL's COG "copy source tiles" path.
#include "label_save.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#ifdef FISURA_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef FISURA_HAVE_IMGCODECS
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#endif

#include "util/atomic_file.h"
#include "util/io_error.h"

namespace fs = std::filesystem;

namespace fisura::labels
{

namespace
{

std::string lowerExtension(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

/// A tile's pixels in a full tile x tile buffer (edge tiles padded with 0).
std::vector<uint8_t> padded(const std::vector<uint8_t>& pix, int tw, int th, int tile)
{
    std::vector<uint8_t> buf(size_t(tile) * size_t(tile), 0);
    for (int r = 0; r < th; ++r)
        std::memcpy(buf.data() + size_t(r) * size_t(tile), pix.data() + size_t(r) * size_t(tw),
                    size_t(tw));
    return buf;
}

/// The Deflate (zlib) bytes of an all-zero tile, as libtiff's codec writes them; empty when
/// zlib is not available (every zero tile is then encoded by libtiff).
std::vector<uint8_t> zeroTileDeflate(int tile)
{
#ifdef FISURA_HAVE_ZLIB
    std::vector<uint8_t> zeros(size_t(tile) * size_t(tile), 0);
    uLongf n = compressBound(uLong(zeros.size()));
    std::vector<uint8_t> out(n);
    if (compress2(out.data(), &n, zeros.data(), uLong(zeros.size()), Z_DEFAULT_COMPRESSION) != Z_OK)
        return {};
    out.resize(n);
    return out;
#else
    (void)tile;
    return {};
#endif
}

void setTags(TIFF* tif, const TileStore& store, const MaskMeta& meta, uint16_t compression,
             uint16_t predictor, const std::string& description)
{
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(store.width()));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(store.height()));
    TIFFSetField(tif, TIFFTAG_TILEWIDTH, uint32_t(store.tile()));
    TIFFSetField(tif, TIFFTAG_TILELENGTH, uint32_t(store.tile()));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(1));
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    if (predictor > 1)
        TIFFSetField(tif, TIFFTAG_PREDICTOR, predictor);
    TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, description.c_str());
    TIFFSetField(tif, TIFFTAG_SOFTWARE, "Fisura");
    if (meta.pixelSizeXmm > 0 && meta.pixelSizeYmm > 0) {
        TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_CENTIMETER);
        TIFFSetField(tif, TIFFTAG_XRESOLUTION, float(10.0 / meta.pixelSizeXmm));
        TIFFSetField(tif, TIFFTAG_YRESOLUTION, float(10.0 / meta.pixelSizeYmm));
    }
}

struct TileWriter {
    TileStore& store;
    TIFF* out;
    LabelLayer::SaveStats& stats;
    bool rawCopy = false;
    std::vector<uint8_t> zero, raw;

    Status encode(int index, const std::vector<uint8_t>& pix)
    {
        const int tw = store.tileWidth(index % store.columns());
        const int th = store.tileHeight(index / store.columns());
        std::vector<uint8_t> buf = padded(pix, tw, th, store.tile());
        if (TIFFWriteEncodedTile(out, uint32_t(index), buf.data(), tmsize_t(buf.size())) < 0)
            return Status(ErrorCode::IoError, "cannot write mask tile " + std::to_string(index));
        ++stats.tilesEncoded;
        return Status::ok();
    }

    Status copyRaw(int index)
    {
        TIFF* in = store.source().tiff->get();
        const tmsize_t n = tmsize_t(TIFFGetStrileByteCount(in, uint32_t(index)));
        if (n <= 0) // a sparse tile: zeros
            return writeZero(index);
        raw.resize(size_t(n));
        if (TIFFReadRawTile(in, uint32_t(index), raw.data(), n) != n)
            return store.source().tiff->error(ErrorCode::Corrupt, "cannot read mask tile");
        if (TIFFWriteRawTile(out, uint32_t(index), raw.data(), n) != n)
            return Status(ErrorCode::IoError, "cannot write mask tile " + std::to_string(index));
        ++stats.tilesCopied;
        return Status::ok();
    }

    Status writeZero(int index)
    {
        if (zero.empty())
            return encode(index, std::vector<uint8_t>(size_t(store.tile()) * store.tile(), 0));
        if (TIFFWriteRawTile(out, uint32_t(index), zero.data(), tmsize_t(zero.size())) < 0)
            return Status(ErrorCode::IoError, "cannot write mask tile " + std::to_string(index));
        return Status::ok();
    }

    Status write(int index)
    {
        const MaskSource& src = store.source();
        if (store.isDirty(index) || (!rawCopy && src.kind != MaskSource::Kind::None)) {
            auto pix = store.peek(index);
            if (!pix)
                return pix.status();
            return encode(index, *pix);
        }
        if (rawCopy)
            return copyRaw(index);
        return writeZero(index);
    }
};

Result<LabelLayer::SaveStats> saveTiff(TileStore& store, const std::string& path,
                                       const MaskMeta& meta, const CancelToken& cancel,
                                       ProgressSink* progress)
{
    LabelLayer::SaveStats stats;
    stats.path = path;
    const MaskSource& src = store.source();
    const bool rawCopy = src.kind == MaskSource::Kind::TiffTiles;
    const uint16_t compression = rawCopy ? src.compression : uint16_t(COMPRESSION_ADOBE_DEFLATE);
    const uint16_t predictor = rawCopy ? src.predictor : uint16_t(1);
    removeStaleTemporaries(path); // left by a save that was killed
    const std::string tmp = path + ".part" + std::to_string(::getpid());
    const bool big = uint64_t(store.width()) * uint64_t(store.height()) > (1ull << 31);
    Status st;
    {
        io::TiffHandle h;
        if (st = h.open(tmp, big ? "w8" : "w"); !st) {
            std::error_code rec;
            fs::remove(tmp, rec); // libtiff may have created it before failing
            return st;
        }
        setTags(h.get(), store, meta, compression, predictor, provenanceJson(meta.provenance));
        TileWriter w{store, h.get(), stats, rawCopy, {}, {}};
        if (!rawCopy && src.kind == MaskSource::Kind::None &&
            compression == COMPRESSION_ADOBE_DEFLATE)
            w.zero = zeroTileDeflate(store.tile());
        ProgressTracker tracker(progress, store.tileCount());
        for (int i = 0; i < store.tileCount() && st; ++i) {
            if (cancel.isCancelled())
                st = Status(ErrorCode::Cancelled, "saving the mask was cancelled: " + path);
            else
                st = w.write(i);
            tracker.update(i + 1, "tile " + std::to_string(i + 1));
        }
        if (st)
            st = h.close();
        if (st)
            tracker.finish("saved");
    }
    std::error_code ec;
    if (st) {
        fs::rename(tmp, path, ec);
        if (ec)
            st = writeFailure(path, ec.value(), path + ": " + ec.message());
    }
    if (!st && st.code() == ErrorCode::IoError && st.detail().find(path) == std::string::npos)
        st = Status(ErrorCode::IoError, path + ": " + st.detail()); // name the mask, not a tile
    if (!st) {
        st = classifyWriteFailure(path, st); // before the temporary is gone: it fills the disk
        fs::remove(tmp, ec);
        return st;
    }
    stats.bytesWritten = fs::file_size(path, ec);
    return stats;
}

Result<LabelLayer::SaveStats> saveFlat(TileStore& store, const std::string& path,
                                       const CancelToken& cancel)
{
#ifdef FISURA_HAVE_IMGCODECS
    cv::Mat full(store.height(), store.width(), CV_8UC1, cv::Scalar(0));
    for (int i = 0; i < store.tileCount(); ++i) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "saving the mask was cancelled: " + path);
        auto pix = store.peek(i);
        if (!pix)
            return pix.status();
        const int cx = i % store.columns(), cy = i / store.columns();
        const int tw = store.tileWidth(cx), th = store.tileHeight(cy);
        for (int r = 0; r < th; ++r)
            std::memcpy(full.ptr(cy * store.tile() + r) + cx * store.tile(),
                        pix->data() + size_t(r) * size_t(tw), size_t(tw));
    }
    std::vector<uint8_t> bytes;
    if (!cv::imencode(fs::path(path).extension().string(), full, bytes))
        return Status(ErrorCode::Unsupported, path + ": cannot encode this format");
    if (Status s = writeFileAtomic(path, std::string(bytes.begin(), bytes.end())); !s)
        return s;
    LabelLayer::SaveStats stats;
    stats.path = path;
    stats.bytesWritten = bytes.size();
    stats.tilesEncoded = store.tileCount();
    return stats;
#else
    (void)store;
    (void)cancel;
    return Status(ErrorCode::Unsupported, path + ": this build writes only TIFF masks");
#endif
}

} // namespace

Result<LabelLayer::SaveStats> saveMask(TileStore& store, const std::string& path,
                                       const MaskMeta& meta, const CancelToken& cancel,
                                       ProgressSink* progress)
{
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec)
        return writeFailure(path, ec.value(),
                            fs::path(path).parent_path().string() + ": " + ec.message());
    const std::string ext = lowerExtension(path);
    if (ext == ".tif" || ext == ".tiff")
        return saveTiff(store, path, meta, cancel, progress);
    return saveFlat(store, path, cancel);
}

} // namespace fisura::labels

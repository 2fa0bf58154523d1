// TiledTiffWriter's files (see tiled_writer_bands.h for the pipeline): each level's TIFF
// directory, a band's compressed tiles stored in order by the file thread, the overviews placed
// by finish(), and the libtiff path of builds without the codecs.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fisura/version.h"
#include "io/tiff_tags.h"
#include "io/tiled_writer_bands.h"

namespace fisura
{

void TiledTiffWriter::Impl::setupDirectory(TIFF* tif, int k) const
{
    const LevelOut& L = levels[k];
    TIFFSetField(tif, TIFFTAG_SUBFILETYPE, k == 0 ? 0 : FILETYPE_REDUCEDIMAGE);
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, uint32_t(L.width));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, uint32_t(L.height));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, uint16_t(8));
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, uint16_t(channels));
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC,
                 channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
    if (channels == 4) {
        const uint16_t extraType = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, uint16_t(1), &extraType);
    }
    TIFFSetField(tif, TIFFTAG_TILEWIDTH, uint32_t(o.tileSize));
    TIFFSetField(tif, TIFFTAG_TILELENGTH, uint32_t(o.tileSize));
    if (o.compression == TileCompression::Zstd) {
        TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ZSTD);
        TIFFSetField(tif, TIFFTAG_ZSTD_LEVEL, level());
    } else {
        TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
        TIFFSetField(tif, TIFFTAG_ZIPQUALITY, level());
    }
    TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    const std::string software = "Fisura " + version();
    TIFFSetField(tif, TIFFTAG_SOFTWARE, software.c_str());
    const double scale = double(width) / L.width;
    if (o.pixelSizeXmm > 0 && o.pixelSizeYmm > 0) {
        TIFFSetField(tif, TIFFTAG_RESOLUTIONUNIT, RESUNIT_CENTIMETER);
        TIFFSetField(tif, TIFFTAG_XRESOLUTION, float(10.0 / (o.pixelSizeXmm * scale)));
        TIFFSetField(tif, TIFFTAG_YRESOLUTION, float(10.0 / (o.pixelSizeYmm * scale)));
    }
    if (k == 0)
        io::writeOpaqueTags(tif, o.extraTags);
}

Status TiledTiffWriter::Impl::storeTiles(LevelOut& L, uint32_t first, int index,
                                         std::vector<std::vector<uint8_t>>& tiles)
{
    uint64_t size = 0;
    for (const auto& t : tiles)
        size += t.size();
    bytesOut += size;
    if (L.placed) {
        if (L.offsets.size() != first)
            return Status(ErrorCode::Internal, path + ": overview tiles out of order");
        for (const auto& t : tiles)
            L.sizes.push_back(t.size());
        return levels[0].file->output()->append(tiles, L.offsets);
    }
    return writeTiles(*L.file, first, index, tiles);
}

Status TiledTiffWriter::Impl::writeTiles(io::TiffHandle& file, uint32_t first, int index,
                                         const std::vector<std::vector<uint8_t>>& tiles)
{
    for (size_t tx = 0; tx < tiles.size(); ++tx) {
        const std::vector<uint8_t>& t = tiles[tx];
        if (TIFFWriteRawTile(file.get(), first + uint32_t(tx), const_cast<uint8_t*>(t.data()),
                             tmsize_t(t.size())) < 0)
            return file.error(ErrorCode::IoError, "cannot write tile row " + std::to_string(index));
    }
    return Status::ok();
}

Status TiledTiffWriter::Impl::writePlaced(int k)
{
    LevelOut& L = levels[size_t(k)];
    io::TiffHandle& out = *levels[0].file;
    const size_t n = size_t(L.across) * size_t(L.down);
    if (L.offsets.size() != n || L.sizes.size() != n)
        return Status(ErrorCode::Internal, path + ": overview " + std::to_string(k) + " has " +
                                               std::to_string(L.offsets.size()) + " tiles");
    setupDirectory(out.get(), k);
    // libtiff hands this to the write it does not make; never read.
    const uint64_t largest = n ? *std::max_element(L.sizes.begin(), L.sizes.end()) : 0;
    std::vector<uint8_t> unused(size_t(std::max<uint64_t>(largest, 1)));
    for (size_t t = 0; t < n; ++t) {
        out.output()->placeNext(L.offsets[t], L.sizes[t]);
        if (TIFFWriteRawTile(out.get(), uint32_t(t), unused.data(), tmsize_t(L.sizes[t])) < 0 ||
            !out.output()->placementTaken())
            return out.error(ErrorCode::Internal, "libtiff did not take overview " +
                                                      std::to_string(k) + "'s tile " +
                                                      std::to_string(t) + " where it was written");
    }
    if (!TIFFWriteDirectory(out.get()))
        return out.error(ErrorCode::IoError, "cannot write level " + std::to_string(k));
    return Status::ok();
}

Status TiledTiffWriter::Impl::encodeWithLibtiff(LevelOut& L, const std::vector<uint8_t>& data,
                                                int rows, int index)
{
    const int ts = o.tileSize;
    const size_t tileBytes = size_t(ts) * ts * channels;
    const size_t rowBytes = size_t(L.width) * channels;
    const uint32_t firstTile = uint32_t(index) * uint32_t(L.across);
    std::vector<uint8_t> tile;
    for (int tx = 0; tx < L.across; ++tx) {
        tile.assign(tileBytes, 0);
        const int x0 = tx * ts;
        const int w = std::min(ts, L.width - x0);
        for (int y = 0; y < rows; ++y)
            std::memcpy(tile.data() + size_t(y) * ts * channels,
                        data.data() + size_t(y) * rowBytes + size_t(x0) * channels,
                        size_t(w) * channels);
        if (TIFFWriteEncodedTile(L.file->get(), firstTile + uint32_t(tx), tile.data(),
                                 tmsize_t(tileBytes)) < 0)
            return L.file->error(ErrorCode::IoError,
                                 "cannot write tile row " + std::to_string(index));
    }
    return Status::ok();
}

} // namespace fisura

// writeCrackOverlay: the width-class layer of a measurement as an RGBA GeoTIFF (see
// vectorexport.h), converted band by band so that memory does not grow with the map.
#include <filesystem>
#include <memory>
#include <vector>

#include <gdal_priv.h>

#include "fisura/vectorexport.h"
#include "gis/gdal_session.h"
#include "util/atomic_file.h"

namespace fisura
{

namespace
{

constexpr int kBandRows = 256;

Status failure(const gis::QuietGdalErrors& quiet, const std::string& what)
{
    return Status(ErrorCode::IoError, what + ": " + quiet.message("GDAL failed"));
}

// The colours of layer values 0..n: 0 transparent, 1 + k the colour of class k.
std::vector<std::array<uint8_t, 4>> palette(const MeasureResult& r)
{
    std::vector<std::array<uint8_t, 4>> lut(256, {0, 0, 0, 0});
    const auto& c = r.options.classes;
    for (int k = 0; k < int(c.ids.size()) && k < 255; ++k)
        lut[size_t(k + 1)] =
            r.pixelSizeMm > 0 ? overlayColour(c, k) : std::array<uint8_t, 4>{255, 0, 0, 255};
    return lut;
}

Status georeference(GDALDataset& out, const MeasureResult& r, const VectorExportOptions& o)
{
    std::string geo = o.georeferencePath;
    if (geo.empty()) // as for vectors: the scan, else the map itself
        geo = !r.options.scanPath.empty() ? r.options.scanPath : r.mapPath;
    std::error_code ec;
    if (geo.empty() || (o.georeferencePath.empty() && !std::filesystem::exists(geo, ec)))
        return Status::ok();
    auto g = readGeoreference(geo);
    if (!g)
        return o.georeferencePath.empty() ? Status::ok() : g.status();
    if (!g->georeferenced)
        return Status::ok();
    if (g->width != r.width || g->height != r.height)
        return Status(ErrorCode::InvalidArgument, "the map and " + geo + " differ in size");
    double gt[6];
    for (int k = 0; k < 6; ++k)
        gt[k] = g->geoTransform[size_t(k)];
    out.SetGeoTransform(gt);
    if (!g->crsWkt.empty()) {
        OGRSpatialReference srs;
        if (srs.importFromWkt(g->crsWkt.c_str()) == OGRERR_NONE)
            out.SetSpatialRef(&srs);
    }
    return Status::ok();
}

Status convert(GDALDataset& in, GDALDataset& out, const MeasureResult& r, const CancelToken& cancel,
               const gis::QuietGdalErrors& quiet)
{
    const auto lut = palette(r);
    const int w = r.width;
    std::vector<uint8_t> src(size_t(w) * kBandRows), rgba(size_t(w) * kBandRows * 4);
    for (int y = 0; y < r.height; y += kBandRows) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "crack overlay cancelled");
        const int h = std::min(kBandRows, r.height - y);
        if (in.GetRasterBand(1)->RasterIO(GF_Read, 0, y, w, h, src.data(), w, h, GDT_Byte, 0, 0) !=
            CE_None)
            return failure(quiet, "cannot read the width-class layer");
        for (size_t i = 0; i < size_t(w) * size_t(h); ++i)
            for (int c = 0; c < 4; ++c)
                rgba[i * 4 + size_t(c)] = lut[src[i]][size_t(c)];
        // Pixel-interleaved buffer: bands 1..4 are R, G, B, A.
        if (out.RasterIO(GF_Write, 0, y, w, h, rgba.data(), w, h, GDT_Byte, 4, nullptr, 4,
                         4 * GSpacing(w), 1, nullptr) != CE_None)
            return failure(quiet, "cannot write the overlay");
    }
    return Status::ok();
}

} // namespace

Status writeCrackOverlay(const MeasureResult& r, const std::string& path,
                         const VectorExportOptions& o, const CancelToken& cancel)
{
    if (r.widthLayerPath.empty())
        return Status(ErrorCode::InvalidArgument,
                      "the crack overlay needs the measurement's width-class layer");
    gis::ensureGdal();
    gis::QuietGdalErrors quiet;
    std::unique_ptr<GDALDataset> in(
        GDALDataset::Open(r.widthLayerPath.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
    if (!in || in->GetRasterXSize() != r.width || in->GetRasterYSize() != r.height)
        return Status(ErrorCode::Corrupt,
                      r.widthLayerPath + ": " + quiet.message("not the map's layer"));
    GDALDriver* gtiff = GetGDALDriverManager()->GetDriverByName("GTiff");
    if (!gtiff)
        return Status(ErrorCode::Unsupported, "this GDAL has no GTiff driver");
    const std::string tmp = temporaryPathFor(path);
    const char* const opts[] = {
        "TILED=YES",       "BLOCKXSIZE=256", "BLOCKYSIZE=256",   "COMPRESS=DEFLATE",
        "PHOTOMETRIC=RGB", "ALPHA=YES",      "BIGTIFF=IF_SAFER", nullptr};
    std::unique_ptr<GDALDataset> out(
        gtiff->Create(tmp.c_str(), r.width, r.height, 4, GDT_Byte, const_cast<char**>(opts)));
    if (!out)
        return failure(quiet, "cannot create " + path);
    Status s = georeference(*out, r, o);
    if (s)
        s = convert(*in, *out, r, cancel, quiet);
    CPLErrorReset();
    out.reset(); // flushes
    if (s && CPLGetLastErrorType() >= CE_Failure)
        s = failure(quiet, "cannot finish " + path);
    std::error_code ec;
    if (s) {
        std::filesystem::rename(tmp, path, ec);
        if (ec)
            s = Status(ErrorCode::IoError, "cannot write " + path + ": " + ec.message());
    }
    if (!s)
        std::filesystem::remove(tmp, ec);
    return s;
}

Status writeCrackOverlayOfMap(const MeasureResult& r, const std::string& path,
                              const VectorExportOptions& o, const CancelToken& cancel,
                              ProgressSink* progress)
{
    if (!r.widthLayerPath.empty())
        return writeCrackOverlay(r, path, o, cancel);
    MeasureOptions again = r.options;
    again.pixelSizeMm = r.pixelSizeMm; // as measured, wherever it came from
    again.widthLayerPath = temporaryPathFor(path) + ".layer.tif";
    auto measured = measureCracks(r.mapPath, again, cancel, progress);
    const Status s = measured ? writeCrackOverlay(*measured, path, o, cancel) : measured.status();
    std::error_code ec;
    std::filesystem::remove(again.widthLayerPath, ec);
    return s;
}

} // namespace fisura

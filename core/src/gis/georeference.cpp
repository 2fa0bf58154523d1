// readGeoreference: a raster's geotransform and CRS through GDAL (no pixels are read).
#include <cmath>
#include <filesystem>
#include <memory>

#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "fisura/vectorexport.h"
#include "gis/gdal_session.h"

namespace fisura
{

Result<Georeference> readGeoreference(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return Status(ErrorCode::NotFound, path);
    gis::ensureGdal();
    gis::QuietGdalErrors quiet;
    std::unique_ptr<GDALDataset> ds(
        GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
    if (!ds)
        return Status(ErrorCode::Unsupported, path + ": " + quiet.message("GDAL cannot open it"));
    Georeference g;
    g.width = ds->GetRasterXSize();
    g.height = ds->GetRasterYSize();
    double gt[6];
    // GDAL answers a default transform (0, 1, 0, 0, 0, 1) with CE_Failure when there is none.
    g.georeferenced = ds->GetGeoTransform(gt) == CE_None;
    if (g.georeferenced)
        for (int k = 0; k < 6; ++k)
            g.geoTransform[size_t(k)] = gt[k];
    if (const OGRSpatialReference* srs = ds->GetSpatialRef(); srs && !srs->IsEmpty()) {
        char* wkt = nullptr;
        const char* const opts[] = {"FORMAT=WKT2_2018", nullptr};
        if (srs->exportToWkt(&wkt, opts) == OGRERR_NONE && wkt)
            g.crsWkt = wkt;
        CPLFree(wkt);
        if (const char* name = srs->GetName())
            g.crsName = name;
        const char* auth = srs->GetAuthorityName(nullptr);
        const char* code = srs->GetAuthorityCode(nullptr);
        if (auth && code)
            g.crsCode = std::string(auth) + ":" + code;
    }
    return g;
}

} // namespace fisura

#include "gis/gdal_session.h"

#include <mutex>

#include <cpl_error.h>
#include <gdal.h>

namespace fisura::gis
{

void ensureGdal()
{
    static std::once_flag once;
    std::call_once(once, [] { GDALAllRegister(); });
}

QuietGdalErrors::QuietGdalErrors()
{
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
}

QuietGdalErrors::~QuietGdalErrors()
{
    CPLPopErrorHandler();
}

std::string QuietGdalErrors::message(const std::string& fallback) const
{
    const char* m = CPLGetLastErrorMsg();
    return m && *m ? std::string(m) : fallback;
}

} // namespace fisura::gis

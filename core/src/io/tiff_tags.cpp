#include "io/tiff_tags.h"

#include <cstring>
#include <mutex>
#include <string>

namespace fisura::io
{

namespace
{

// passcount 1 with TIFF_VARIABLE: TIFFGetField/SetField take (uint16 count, T* values).
const TIFFFieldInfo kFields[] = {
    {33550, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("ModelPixelScaleTag")},
    {33922, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("ModelTiepointTag")},
    {34264, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("ModelTransformationTag")},
    {34735, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_SHORT, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("GeoKeyDirectoryTag")},
    {34736, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1,
     const_cast<char*>("GeoDoubleParamsTag")},
    {34737, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
     const_cast<char*>("GeoASCIIParamsTag")},
    {42112, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
     const_cast<char*>("GDALMetadata")},
    {42113, TIFF_VARIABLE, TIFF_VARIABLE, TIFF_ASCII, FIELD_CUSTOM, 1, 0,
     const_cast<char*>("GDALNoDataValue")},
};

TIFFExtendProc g_parent = nullptr;

void extender(TIFF* tif)
{
    TIFFMergeFieldInfo(tif, kFields, sizeof kFields / sizeof kFields[0]);
    if (g_parent)
        g_parent(tif);
}

size_t typeSize(uint16_t type)
{
    switch (type) {
    case TIFF_SHORT:
        return 2;
    case TIFF_DOUBLE:
        return 8;
    default:
        return 1;
    }
}

} // namespace

void registerExtraTags()
{
    static std::once_flag once;
    std::call_once(once, [] { g_parent = TIFFSetTagExtender(extender); });
}

std::vector<TiffTag> readOpaqueTags(TIFF* tif)
{
    std::vector<TiffTag> tags;
    for (const auto& f : kFields) {
        TiffTag t;
        t.tag = static_cast<uint16_t>(f.field_tag);
        t.type = static_cast<uint16_t>(f.field_type);
        if (f.field_type == TIFF_ASCII) {
            const char* s = nullptr;
            if (!TIFFGetField(tif, f.field_tag, &s) || !s)
                continue;
            const size_t n = std::strlen(s) + 1;
            t.count = static_cast<uint32_t>(n);
            t.bytes.assign(s, s + n);
        } else {
            uint16_t count = 0;
            void* data = nullptr;
            if (!TIFFGetField(tif, f.field_tag, &count, &data) || !data || count == 0)
                continue;
            t.count = count;
            const auto* p = static_cast<const uint8_t*>(data);
            t.bytes.assign(p, p + count * typeSize(t.type));
        }
        tags.push_back(std::move(t));
    }
    return tags;
}

void writeOpaqueTags(TIFF* tif, const std::vector<TiffTag>& tags)
{
    for (const auto& t : tags) {
        const TIFFFieldInfo* f = nullptr;
        for (const auto& k : kFields)
            if (k.field_tag == t.tag && k.field_type == t.type)
                f = &k;
        if (!f || t.count == 0 || t.bytes.size() < t.count * typeSize(t.type))
            continue;
        if (t.type == TIFF_ASCII) {
            std::string s(t.bytes.begin(), t.bytes.end());
            TIFFSetField(tif, t.tag, s.c_str());
        } else if (t.count <= 0xFFFF) {
            TIFFSetField(tif, t.tag, static_cast<uint16_t>(t.count), t.bytes.data());
        }
    }
}

} // namespace fisura::io

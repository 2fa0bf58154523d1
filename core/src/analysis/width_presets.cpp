// Width-class presets: Fisura's descriptive classes and the tolerable crack widths of the
// standards inspectors report against.
//
// Sources: ACI 224R-01 "Control of Cracking in Concrete Structures", Table 4.1 (tolerable crack
// widths for reinforced concrete under service loads); EN 1992-1-1:2004 (Eurocode 2),
// Table 7.1N (recommended values of w_max).
#include <algorithm>
#include <string>

#include "fisura/measure.h"

namespace fisura
{

namespace
{

WidthClassPreset standard(const char* id, const char* source, double tolerableMm)
{
    WidthClassPreset p;
    p.id = id;
    p.source = source;
    p.citation = p.source.substr(0, p.source.find(':'));
    p.classes.upperLimitsMm = {tolerableMm};
    p.classes.ids = {"within_limit", "over_limit"};
    p.classes.preset = id;
    p.classes.tolerableMm = tolerableMm;
    return p;
}

std::vector<WidthClassPreset> makePresets()
{
    WidthClassPreset def;
    def.id = "default";
    def.source = "Fisura: hairline < 0.1 mm, fine 0.1-0.3 mm, medium 0.3-1 mm, wide >= 1 mm";
    return {
        def,
        standard("aci224r-dry", "ACI 224R-01 Table 4.1: dry air or protective membrane, 0.41 mm",
                 0.41),
        standard("aci224r-humid", "ACI 224R-01 Table 4.1: humidity, moist air, soil, 0.30 mm",
                 0.30),
        standard("aci224r-deicing", "ACI 224R-01 Table 4.1: de-icing chemicals, 0.18 mm", 0.18),
        standard("aci224r-seawater",
                 "ACI 224R-01 Table 4.1: seawater and seawater spray, wetting and drying, 0.15 mm",
                 0.15),
        standard("aci224r-water-retaining",
                 "ACI 224R-01 Table 4.1: water-retaining structures, 0.10 mm", 0.10),
        standard("en1992-xc1",
                 "EN 1992-1-1 Table 7.1N: exposure X0, XC1 (reinforced and prestressed with "
                 "unbonded tendons), w_max 0.4 mm",
                 0.4),
        standard("en1992-xc2-xs",
                 "EN 1992-1-1 Table 7.1N: exposure XC2, XC3, XC4, XD1, XD2, XS1, XS2, XS3 "
                 "(reinforced members), w_max 0.3 mm",
                 0.3),
        standard("en1992-prestressed",
                 "EN 1992-1-1 Table 7.1N: prestressed members with bonded tendons, X0 to XC4 "
                 "(XC2-XC4 also decompression), w_max 0.2 mm",
                 0.2),
    };
}

} // namespace

const std::vector<WidthClassPreset>& widthClassPresets()
{
    static const std::vector<WidthClassPreset> presets = makePresets();
    return presets;
}

Result<WidthClassPreset> widthClassPreset(const std::string& id)
{
    std::string known;
    for (const auto& p : widthClassPresets()) {
        if (p.id == id)
            return p;
        known += (known.empty() ? "" : ", ") + p.id;
    }
    return Status(ErrorCode::NotFound, "unknown width class preset '" + id + "' (" + known + ")");
}

std::array<uint8_t, 3> widthClassColour(const WidthClasses& classes, int k)
{
    const bool known = k >= 0 && size_t(k) < classes.ids.size();
    if (known && classes.ids[size_t(k)] == "over_limit")
        return {0xD5, 0x5E, 0x00}; // Okabe-Ito vermillion
    if (known && classes.ids[size_t(k)] == "within_limit")
        return {0x00, 0x72, 0xB2}; // Okabe-Ito blue
    static const std::array<uint8_t, 3> ramp[] = {
        {46, 160, 67}, {230, 190, 0}, {245, 120, 20}, {215, 30, 40}};
    if (k < 0)
        return {128, 128, 128};
    return ramp[std::min(k, 3)];
}

} // namespace fisura

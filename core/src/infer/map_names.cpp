// Map file names; see fisura/infer.h (plain C++, no torch).
#include <filesystem>

#include "fisura/infer.h"

namespace fisura
{

namespace
{

constexpr MapKind kKinds[] = {MapKind::Probability, MapKind::Heatmap, MapKind::Score};

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

bool parseMapKind(const std::string& name, MapKind& out)
{
    for (MapKind k : kKinds)
        if (name == mapKindName(k)) {
            out = k;
            return true;
        }
    return false;
}

std::string mapFileName(const std::string& scanPath, MapKind kind, const std::string& tag)
{
    const std::string stem = std::filesystem::path(scanPath).stem().string();
    return stem + (tag.empty() ? "" : "." + tag) + "." + mapKindName(kind) + ".tif";
}

bool isMapFileName(const std::string& name)
{
    for (MapKind k : kKinds)
        if (endsWith(name, std::string(".") + mapKindName(k) + ".tif"))
            return true;
    return false;
}

} // namespace fisura

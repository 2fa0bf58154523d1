// See input_notices.h.
#include "input_notices.h"

#include <cstdio>

#include "fisura/tiledimage.h"

namespace fisura::cli
{

std::vector<std::string> inputNotices(const std::string& path)
{
    std::vector<std::string> out;
    auto image = TiledImage::open(path);
    if (!image)
        return out;
    const TiledImageInfo& i = (*image)->info();
    if (i.pages > 1)
        out.push_back(path + " holds " + (i.pages >= 64 ? "64 or more" : std::to_string(i.pages)) +
                      " pages (images); only the first is used");
    if (i.nonFiniteSamples > 0)
        out.push_back(path + " has NaN or infinite values (" + std::to_string(i.nonFiniteSamples) +
                      " of " + std::to_string(i.sampledValues) +
                      " values sampled): NaN and -inf are read as 0 (black), +inf as 255 (white)");
    return out;
}

void printInputNotices(const std::string& path)
{
    for (const auto& n : inputNotices(path))
        std::fprintf(stderr, "notice: %s\n", n.c_str());
}

} // namespace fisura::cli

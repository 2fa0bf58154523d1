// Crack probability <-> map byte; see fisura/threshold.h.
#include "fisura/threshold.h"

#include <algorithm>
#include <cmath>

namespace fisura
{

namespace
{

// A millionth of a byte: 255 x 0.2 is 51.000000000000007 in binary floating point. Decimals of
// up to three places never come closer than 0.005 of a byte above a whole byte, so this slack
// only absorbs rounding.
constexpr double kSlack = 1e-6;

int ceilByte(double bytes)
{
    if (std::isnan(bytes))
        return 255;
    return int(std::clamp(std::ceil(bytes - kSlack), 0.0, 255.0));
}

} // namespace

int mapByteThreshold(double probability)
{
    return ceilByte(probability * 255.0);
}

double probabilityOfMapByte(int byte)
{
    const int b = std::clamp(byte, 0, 255);
    if (b == 0)
        return 0.0;
    // The shortest n / 10^k in ((b - 1) / 255, b / 255], in whole numbers: n = floor(b 10^k / 255)
    // is the largest candidate, and it is in the interval when n x 255 > (b - 1) x 10^k. Three
    // places always suffice (the interval is 1/255 wide).
    for (int scale = 1; scale <= 1000; scale *= 10) {
        const int n = b * scale / 255;
        if (n * 255 > (b - 1) * scale)
            return double(n) / double(scale);
    }
    return double(b) / 255.0; // not reached
}

int scoreMapByteThreshold(double score, double modelThreshold)
{
    return ceilByte(128.0 * score / std::max(1e-12, modelThreshold));
}

int modelMapByteThreshold(MapKind kind, double modelThreshold, double threshold)
{
    switch (kind) {
    case MapKind::Probability:
        return mapByteThreshold(threshold >= 0 ? threshold : modelThreshold);
    case MapKind::Heatmap:
        return mapByteThreshold(threshold >= 0 ? threshold : 0.5);
    case MapKind::Score:
        return threshold >= 0 ? scoreMapByteThreshold(threshold, modelThreshold) : 128;
    }
    return 128;
}

int legacyByteThreshold(double value)
{
    if (!(value >= 2 && value <= 255) || value != std::floor(value))
        return -1;
    return int(value);
}

bool isProbability(double value)
{
    return value >= 0 && value <= 1;
}

} // namespace fisura

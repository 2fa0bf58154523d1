// Sample-level helpers of the TIFF reader: unpacking 1/2/4-bit rows, reading one stored sample
// of any supported format as a double, and the percentile stretch that maps deep, signed and
// floating-point samples to 8-bit display values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fisura::io
{

/// Unpacks `count` samples of `bits` (1, 2 or 4) bits, most significant first, one per byte.
void unpackBits(const uint8_t* src, uint8_t* dst, size_t count, int bits);

/// One stored sample (`bytes` 1, 2, 4 or 8; format SAMPLEFORMAT_UINT / INT / IEEEFP) in host
/// byte order, as a double.
double sampleValue(const uint8_t* p, uint16_t format, int bytes);

/// The 0.5 and 99.5 percentiles of `values` (reordered), by the rule of the 16-bit histogram:
/// the values at sorted positions floor(0.005 n) and floor(0.995 n). NaN and infinities must
/// already be left out. {0, 1} when empty; high is at least low + 1 ulp-free: hi > lo.
std::pair<double, double> percentileRange(std::vector<double>& values);

/// (v - lo) * 255 / (hi - lo), clamped to 0..255 and rounded; NaN maps to 0, -inf to 0,
/// +inf to 255. So does a NaN quotient (inf / inf when the range spans the doubles, 0 / 0 when
/// lo + 1 == lo for huge values): it must never reach the cast to uint8_t.
inline uint8_t stretchToByte(double v, double lo, double hi)
{
    const double t = (v - lo) * 255.0 / (hi - lo);
    if (!(t > 0.0))
        return 0;
    if (!(t < 255.0))
        return 255;
    return static_cast<uint8_t>(t + 0.5);
}

} // namespace fisura::io

#include "io/tiled_samples.h"

#include <algorithm>
#include <cstring>

#include <tiffio.h>

namespace fisura::io
{

void unpackBits(const uint8_t* src, uint8_t* dst, size_t count, int bits)
{
    // Byte by byte (no division per sample): bilevel scans of several hundred megapixels in a
    // single strip are decoded whole for every block and every raw value read.
    const int perByte = 8 / bits;
    const uint8_t mask = uint8_t((1u << bits) - 1);
    const size_t whole = count / size_t(perByte);
    for (size_t b = 0; b < whole; ++b, dst += perByte) {
        const unsigned v = src[b];
        for (int k = 0; k < perByte; ++k)
            dst[k] = uint8_t((v >> (8 - bits * (k + 1))) & mask);
    }
    const size_t rest = count - whole * size_t(perByte);
    for (size_t k = 0; k < rest; ++k)
        dst[k] = uint8_t((src[whole] >> (8 - bits * (int(k) + 1))) & mask);
}

double sampleValue(const uint8_t* p, uint16_t format, int bytes)
{
    switch (bytes) {
    case 1:
        return format == SAMPLEFORMAT_INT ? double(int8_t(*p)) : double(*p);
    case 2: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return format == SAMPLEFORMAT_INT ? double(int16_t(v)) : double(v);
    }
    case 4: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        if (format == SAMPLEFORMAT_IEEEFP) {
            float f;
            std::memcpy(&f, &v, 4);
            return double(f);
        }
        return format == SAMPLEFORMAT_INT ? double(int32_t(v)) : double(v);
    }
    default: {
        double d;
        std::memcpy(&d, p, 8);
        return d;
    }
    }
}

std::pair<double, double> percentileRange(std::vector<double>& values)
{
    if (values.empty())
        return {0.0, 1.0};
    const size_t n = values.size();
    const size_t loAt = std::min(n - 1, size_t(double(n) * 0.005));
    const size_t hiAt = std::min(n - 1, size_t(double(n) * 0.995));
    std::nth_element(values.begin(), values.begin() + loAt, values.end());
    const double lo = values[loAt];
    std::nth_element(values.begin(), values.begin() + hiAt, values.end());
    double hi = values[hiAt];
    if (hi <= lo)
        hi = lo + 1.0;
    return {lo, hi};
}

} // namespace fisura::io

// The decoding half of a PaceForecast: a sample of a scan's blocks decoded on one thread.
#include "pace_forecast.h"

#include <algorithm>
#include <chrono>

namespace fisura::detail
{

DecodeSample sampleDecoding(const TiledImage& image, int maxBlocks, int minBlocks,
                            double minSeconds, double maxSeconds)
{
    DecodeSample s;
    if (image.levelCount() < 1 || maxBlocks < 1)
        return s;
    const TiledLevel& l = image.info().levels.at(0);
    const int64_t n = int64_t(l.blocksAcross) * l.blocksDown;
    if (n < 1)
        return s;
    // Every step-th block in raster order, from the middle of the first step, so a scan whose
    // content changes from top to bottom (margins, a blank edge) is sampled throughout. The
    // block before the first sampled one warms up untimed.
    const int64_t count = std::min<int64_t>(n, maxBlocks);
    const int64_t step = std::max<int64_t>(1, n / count);
    const int64_t first = step / 2;
    auto decode = [&](int64_t i) {
        return image.readBlock(0, int(i % l.blocksAcross), int(i / l.blocksAcross));
    };
    (void)decode(std::max<int64_t>(0, first - 1));
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    for (int64_t k = 0; k < count; ++k) {
        const auto t0 = Clock::now();
        auto block = decode(std::min(n - 1, first + k * step));
        const double took = std::chrono::duration<double>(Clock::now() - t0).count();
        if (block && *block) {
            ++s.blocks;
            s.megapixels += double((*block)->width) * double((*block)->height) / 1e6;
            s.seconds += took;
        }
        const double spent = std::chrono::duration<double>(Clock::now() - started).count();
        if (spent >= maxSeconds || (k + 1 >= minBlocks && spent >= minSeconds))
            break;
    }
    return s;
}

} // namespace fisura::detail

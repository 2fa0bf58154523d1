// The map writer's adaptive ZSTD level (TiledWriteOptions::adaptiveLevel) as plain logic: which
// level the next level-0 band is compressed at, from whether the appending thread waited for the
// compressors and from the compression rate measured per level. A lower level is used only while
// it pays: on a map that hardly compresses, zstd's fast levels are no faster, only larger (a
// 4.5:1 map: level -2 wrote 76 % more bytes than level 3 at the same MB/s per core;
// tests/bench/RESULTS.md, "A hard-to-compress map"). zstd's own --adapt lowers the level while the
// output waits; this also checks that the lower level is faster, and that it costs no more than
// kMaxSizeIncrease in size: the writer compresses a sample tile of each lowered band at the level
// asked for too (where the writer stayed at -2, a map of real photographs came out 27-31 % larger
// than at level 3, the synthetic scan's map 16-30 % with models trained on different hosts;
// RESULTS.md, "A map of real photographs").
#pragma once

#include <algorithm>
#include <map>

namespace fisura::io
{

class AdaptiveLevel
{
public:
    /// A lower level pays when it compresses at least this much faster per core than every
    /// level above it that pays.
    static constexpr double kGain = 1.1;
    /// Bands in a row without a wait before the level climbs one useful step; doubled (up to
    /// kMaxCalmBands) each time a climb is followed by a wait within that many bands, halved
    /// back each time one is not (and for as many calm bands at the level asked for). Where the
    /// cores are what limits the job (a scan on several GPUs: decoding and compressing take every
    /// core), each climb only brought the waits back: on 2 GPUs a fixed 8 left most bands at level
    /// 3 although the writer waited.
    static constexpr int kCalmBands = 8;
    static constexpr int kMaxCalmBands = 128;
    /// A lower level is kept only while its sample tiles came out at most this much larger than
    /// at the level asked for (issue 34's budget for the adaptive level: +25 %).
    static constexpr double kMaxSizeIncrease = 0.25;

    AdaptiveLevel(int asked, int floor) : asked_(asked), floor_(floor), now_(asked) {}

    int level() const { return now_; }

    /// A level-0 band compressed at `level`: its raw bytes and compressing seconds (summed over
    /// the threads that compressed it).
    void measured(int level, double bytes, double seconds)
    {
        Rate& r = rates_[level];
        r.bytes += bytes;
        r.seconds += seconds;
    }

    /// A sample tile of a band compressed at `level`: its compressed bytes there and at the level
    /// asked for.
    void sized(int level, double bytes, double askedBytes)
    {
        Size& z = sizes_[level];
        z.bytes += bytes;
        z.asked += askedBytes;
    }

    /// How much larger `level`'s sample tiles came out than at the level asked for (0.3: 30 %,
    /// negative: smaller); 0 when none was measured.
    double sizeIncrease(int level) const
    {
        const auto it = sizes_.find(level);
        return it == sizes_.end() || it->second.asked <= 0
                   ? 0.0
                   : it->second.bytes / it->second.asked - 1.0;
    }

    /// Whether `level` stays within kMaxSizeIncrease: as measured; unmeasured, a fast (negative)
    /// level is over it when a fast level above it was measured over it (each faster level
    /// writes more; levels 1 and 2 need not: on the synthetic scan's map level 2 wrote 20 % more
    /// than 3, level 1 only 5 %).
    bool fitsSize(int level) const
    {
        if (sizes_.count(level) > 0)
            return sizeIncrease(level) <= kMaxSizeIncrease;
        for (int k = level + 1; k < 0; ++k)
            if (sizes_.count(k) > 0 && sizeIncrease(k) > kMaxSizeIncrease)
                return false;
        return true;
    }

    /// The appending thread took a level-0 buffer (after waiting for one or not): the level for
    /// the band it fills. A wait steps down to the next lower level that pays or is untried,
    /// once the current level's rate is known; a level measured not to pay is left for the one
    /// above that does; kCalmBands without a wait climb one step toward the level asked for.
    int next(bool waited)
    {
        if (!pays(now_))
            now_ = nextUp(now_);
        if (sinceClimb_ < calmNeeded_ && ++sinceClimb_ == calmNeeded_) // the climb held
            calmNeeded_ = std::max(kCalmBands, calmNeeded_ / 2);
        if (waited) {
            calm_ = 0;
            if (sinceClimb_ < calmNeeded_) { // the last climb brought the waits back
                calmNeeded_ = std::min(kMaxCalmBands, 2 * calmNeeded_);
                sinceClimb_ = calmNeeded_;
            }
            if (rate(now_) <= 0) // a step down is judged against this level's rate: wait for it
                return now_;
            for (int k = now_ - 1; k >= floor_; --k)
                if (k != 0 && pays(k)) { // zstd's 0 means its default level, 3
                    now_ = k;
                    break;
                }
        } else if (++calm_ >= calmNeeded_) {
            calm_ = 0;
            if (now_ < asked_) {
                now_ = nextUp(now_);
                sinceClimb_ = 0;
            } else { // keeping up at the level asked for
                calmNeeded_ = std::max(kCalmBands, calmNeeded_ / 2);
            }
        }
        return now_;
    }

    /// Calm bands the next climb waits for (kCalmBands .. kMaxCalmBands).
    int calmNeeded() const { return calmNeeded_; }

    /// MB/s per core measured at `level`; 0 when no band was compressed there yet.
    double rate(int level) const
    {
        const auto it = rates_.find(level);
        return it == rates_.end() || it->second.seconds <= 0
                   ? 0.0
                   : it->second.bytes / it->second.seconds / 1e6;
    }

    /// Whether `level` pays: the level asked for always; a lower one when within the size budget
    /// (fitsSize) and untried, or measured kGain faster than every paying level above it that
    /// was measured.
    bool pays(int level) const
    {
        double best = rate(asked_);
        for (int k = asked_ - 1; k >= level; --k) {
            if (k == 0 && level != 0)
                continue;
            const double r = rate(k);
            const bool ok = fitsSize(k) && (r <= 0 || best <= 0 || r >= kGain * best);
            if (k == level)
                return ok;
            if (ok && r > best)
                best = r;
        }
        return true;
    }

private:
    struct Rate {
        double bytes = 0, seconds = 0;
    };
    struct Size {
        double bytes = 0, asked = 0;
    };
    int nextUp(int from) const
    {
        for (int k = from + 1; k < asked_; ++k)
            if (k != 0 && pays(k))
                return k;
        return asked_;
    }

    int asked_, floor_, now_;
    int calm_ = 0;
    int calmNeeded_ = kCalmBands;
    int sinceClimb_ = kMaxCalmBands; // bands since the last climb, counted up to calmNeeded_
    std::map<int, Rate> rates_;
    std::map<int, Size> sizes_;
};

} // namespace fisura::io

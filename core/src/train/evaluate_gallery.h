// Keeps the `k` best and `k` worst samples of a stream without storing the rest: a sample's
// pictures are copied only when its quality earns it a place (bounded memory whatever the
// number of validation images).
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "fisura/evaluate.h"

namespace fisura::eval_detail
{

class GalleryKeeper
{
public:
    explicit GalleryKeeper(int k) : k_(std::max(0, k)) {}

    /// Would a sample of quality `q` enter the best or the worst list?
    bool wants(double q) const { return wantsBest(q) || wantsWorst(q); }

    /// Offer a sample; `make` builds it (pictures included) only when it is kept.
    void offer(double q, const std::function<GallerySample()>& make)
    {
        if (!wants(q))
            return;
        const GallerySample s = make();
        if (wantsBest(q))
            insert(best_, s, [](double a, double b) { return a > b; });
        if (wantsWorst(q))
            insert(worst_, s, [](double a, double b) { return a < b; });
    }

    const std::vector<GallerySample>& best() const { return best_; }
    const std::vector<GallerySample>& worst() const { return worst_; }
    std::vector<GallerySample> takeBest() { return std::move(best_); }
    std::vector<GallerySample> takeWorst() { return std::move(worst_); }

private:
    bool wantsBest(double q) const
    {
        return k_ > 0 && (int(best_.size()) < k_ || q > best_.back().quality);
    }
    bool wantsWorst(double q) const
    {
        return k_ > 0 && (int(worst_.size()) < k_ || q < worst_.back().quality);
    }
    /// Sorted insertion; among equal qualities the earlier sample stays first.
    template <class Before>
    void insert(std::vector<GallerySample>& v, const GallerySample& s, Before before)
    {
        auto it =
            std::upper_bound(v.begin(), v.end(), s.quality, [&](double q, const GallerySample& e) {
                return before(q, e.quality);
            });
        v.insert(it, s);
        if (int(v.size()) > k_)
            v.pop_back();
    }

    int k_;
    std::vector<GallerySample> best_, worst_;
};

} // namespace fisura::eval_detail

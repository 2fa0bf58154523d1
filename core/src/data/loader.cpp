// Worker threads decode, crop/resize and augment samples into a bounded queue of host batches.
// Batch k of an epoch goes to whichever worker claims it, but only while k < consumed + prefetch:
// that claim rule alone bounds memory to prefetch + 1 batches (the one the trainer holds).
#include "compat/torch_compat.h"

#include "data/loader_impl.h"

#include <cstring>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "fisura/image.h"

namespace fisura
{

namespace data
{

uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

namespace
{

// Segmentation images smaller than the input are scaled up so a crop fits.
cv::Size scaledSize(int w, int h, int s)
{
    if (w >= s && h >= s)
        return {w, h};
    const double f = double(s) / std::min(w, h);
    return {std::max(s, int(std::ceil(w * f))), std::max(s, int(std::ceil(h * f)))};
}

std::vector<int> gridPositions(int length, int s)
{
    if (length <= s)
        return {0};
    const int n = (length + s - 1) / s;
    std::vector<int> p;
    for (int i = 0; i < n; ++i)
        p.push_back(int(int64_t(i) * (length - s) / (n - 1)));
    return p;
}

cv::Mat toRgb(const Image& im)
{
    cv::Mat src(im.height, im.width, CV_8UC(im.channels), const_cast<uint8_t*>(im.pixels.data()));
    cv::Mat out;
    if (im.channels == 3)
        out = src.clone();
    else if (im.channels == 1)
        cv::cvtColor(src, out, cv::COLOR_GRAY2RGB);
    else
        cv::cvtColor(src, out, cv::COLOR_RGBA2RGB);
    return out;
}

cv::Mat toBinaryMask(const Image& im)
{
    cv::Mat src(im.height, im.width, CV_8UC(im.channels), const_cast<uint8_t*>(im.pixels.data()));
    cv::Mat any;
    if (im.channels == 1) {
        any = src;
    } else {
        std::vector<cv::Mat> ch;
        cv::split(src, ch);
        any = ch[0];
        for (size_t i = 1; i < ch.size() && i < 3; ++i)
            cv::max(any, ch[i], any);
    }
    cv::Mat out;
    cv::threshold(any, out, 0, 1, cv::THRESH_BINARY);
    return out;
}

void rotate90(cv::Mat& m, int k)
{
    static const int codes[] = {0, cv::ROTATE_90_CLOCKWISE, cv::ROTATE_180,
                                cv::ROTATE_90_COUNTERCLOCKWISE};
    if (k % 4 != 0)
        cv::rotate(m, m, codes[k % 4]);
}

} // namespace

Status decodeSample(const Dataset& d, const Sample& s, const LoaderOptions& o, uint64_t rngSeed,
                    Batch& batch, int slot)
{
    const DatasetItem& item = d.items[size_t(s.item)];
    auto img = readImage(item.image);
    if (!img)
        return img.status();
    const int S = o.inputSize;
    uint64_t r = rngSeed;
    auto rnd = [&r] { return (r = mix(r)); };
    auto uniform = [&](double a, double b) {
        return a + (b - a) * double(rnd() >> 11) * 0x1.0p-53;
    };
    try {
        cv::Mat rgb = toRgb(*img);
        cv::Mat mask;
        if (d.task == TaskKind::Segment) {
            auto m = readImage(item.mask);
            if (!m)
                return m.status();
            mask = toBinaryMask(*m);
            if (mask.size() != rgb.size())
                return Status(ErrorCode::Corrupt, "mask size differs from image: " + item.mask);
            const cv::Size sz = scaledSize(rgb.cols, rgb.rows, S);
            if (sz != rgb.size()) {
                cv::resize(rgb, rgb, sz, 0, 0, cv::INTER_LINEAR);
                cv::resize(mask, mask, sz, 0, 0, cv::INTER_NEAREST);
            }
            int x = s.x, y = s.y;
            if (x < 0) {
                x = int(rnd() % uint64_t(rgb.cols - S + 1));
                y = int(rnd() % uint64_t(rgb.rows - S + 1));
            }
            x = std::clamp(x, 0, rgb.cols - S);
            y = std::clamp(y, 0, rgb.rows - S);
            const cv::Rect roi(x, y, S, S);
            rgb = rgb(roi).clone();
            mask = mask(roi).clone();
        } else if (rgb.cols != S || rgb.rows != S) {
            const bool shrink = rgb.cols > S && rgb.rows > S;
            cv::resize(rgb, rgb, cv::Size(S, S), 0, 0, shrink ? cv::INTER_AREA : cv::INTER_LINEAR);
        }
        if (o.augment) {
            const bool fh = rnd() & 1, fv = rnd() & 1;
            const int rot = int(rnd() % 4);
            const double contrast = uniform(0.8, 1.2), brightness = uniform(-20.0, 20.0);
            auto geo = [&](cv::Mat& m) {
                if (fh)
                    cv::flip(m, m, 1);
                if (fv)
                    cv::flip(m, m, 0);
                rotate90(m, rot);
            };
            geo(rgb);
            if (!mask.empty())
                geo(mask);
            // Contrast about mid-grey, then brightness; saturating in uint8.
            rgb.convertTo(rgb, CV_8U, contrast, brightness + 128.0 * (1.0 - contrast));
        }
        if (!rgb.isContinuous())
            rgb = rgb.clone();
        std::memcpy(batch.pixels[slot].data_ptr<uint8_t>(), rgb.data, size_t(S) * S * 3);
        if (!mask.empty()) {
            if (!mask.isContinuous())
                mask = mask.clone();
            std::memcpy(batch.masks[slot].data_ptr<uint8_t>(), mask.data, size_t(S) * S);
        }
        if (batch.labels.defined())
            batch.labels.data_ptr<int64_t>()[slot] = item.label;
    } catch (const cv::Exception& e) {
        return Status(ErrorCode::Internal, item.image + ": " + e.what());
    }
    return Status::ok();
}

} // namespace data

BatchLoader::Impl::Impl(const Dataset& d, std::vector<int> idx, const LoaderOptions& o)
    : dataset(d), indices(std::move(idx)), options(o)
{
    options.inputSize = std::max(8, options.inputSize);
    options.threads = std::max(1, options.threads);
    options.prefetch = std::max(1, options.prefetch);
    batchSize_ = std::max(1, options.batchSize);
#ifdef FISURA_TORCH_CUDA
    options.pinned = options.pinned && torch::cuda::is_available();
#else
    options.pinned = false;
#endif
    for (int t = 0; t < options.threads; ++t)
        workers.emplace_back([this] { work(); });
}

BatchLoader::Impl::~Impl()
{
    {
        std::lock_guard<std::mutex> lock(m);
        stopping = true;
    }
    workCv.notify_all();
    readyCv.notify_all();
    for (auto& t : workers)
        t.join();
}

std::vector<data::Sample> BatchLoader::Impl::samplesFor(int ep) const
{
    std::vector<data::Sample> out;
    const bool randomCrops = options.augment && options.randomCrop;
    std::vector<int> order = indices;
    uint64_t s = data::mix(options.seed ^ (uint64_t(ep) * 0x9e3779b97f4a7c15ull));
    const auto shuffle = [&s](std::vector<int>& v) {
        for (size_t i = v.size(); i > 1; --i) {
            s = data::mix(s);
            std::swap(v[i - 1], v[s % i]);
        }
    };
    if (options.shuffle)
        shuffle(order);
    // A few images still make a real epoch: further passes over them, each in its own order.
    if (randomCrops && !indices.empty() && options.minSamplesPerEpoch > int(order.size())) {
        std::vector<int> pass = indices;
        while (int(order.size()) < options.minSamplesPerEpoch) {
            if (options.shuffle)
                shuffle(pass);
            order.insert(order.end(), pass.begin(), pass.end());
        }
        order.resize(size_t(options.minSamplesPerEpoch));
    }
    for (int i : order) {
        const DatasetItem& it = dataset.items[size_t(i)];
        if (dataset.task != TaskKind::Segment || randomCrops || it.width <= 0) {
            out.push_back({i, -1, -1});
            continue;
        }
        // Validation covers each image with a fixed grid of crops.
        const cv::Size sz = data::scaledSize(it.width, it.height, options.inputSize);
        for (int y : data::gridPositions(sz.height, options.inputSize))
            for (int x : data::gridPositions(sz.width, options.inputSize))
                out.push_back({i, x, y});
    }
    return out;
}

int BatchLoader::Impl::samplesPerEpoch() const
{
    std::lock_guard<std::mutex> lock(m);
    return int(samples.size());
}

int BatchLoader::Impl::batchesFor(int n) const
{
    if (shardCount_ > 1)
        return n / (batchSize_ * shardCount_);
    return options.dropLast ? n / batchSize_ : (n + batchSize_ - 1) / batchSize_;
}

int BatchLoader::Impl::batchesPerEpoch() const
{
    std::lock_guard<std::mutex> lock(m);
    return batchesFor(int(samples.size()) - firstSample);
}

void BatchLoader::Impl::setShard(int rank, int count)
{
    std::lock_guard<std::mutex> lock(m);
    shardCount_ = std::max(1, count);
    shardRank_ = std::clamp(rank, 0, shardCount_ - 1);
}

int BatchLoader::Impl::lookAheadEpochAfter(int ep) const
{
    switch (options.lookAhead) {
    case LookAhead::NextEpoch:
        return ep + 1;
    case LookAhead::SameEpoch:
        return ep;
    case LookAhead::None:
        break;
    }
    return -1;
}

void BatchLoader::Impl::start(int ep, int first, int bs)
{
    bs = std::max(1, bs);
    const int aheadEp = lookAheadEpochAfter(ep);
    // The next look-ahead's order, computed outside the lock (a shuffle of the indices).
    std::vector<data::Sample> following;
    if (aheadEp >= 0 && aheadEp != ep)
        following = samplesFor(aheadEp);
    {
        std::lock_guard<std::mutex> lock(m);
        if (repeatsCurrentStart(ep, first, bs))
            return;
        if (startsLookAhead(ep, first, bs)) {
            adoptLookAhead(std::move(following));
            workCv.notify_all();
            return;
        }
    }
    auto order = samplesFor(ep);
    {
        std::lock_guard<std::mutex> lock(m);
        restart(ep, first, bs, std::move(order), std::move(following));
    }
    workCv.notify_all();
}

/// The same start again before anything was taken (the trainer starts the first epoch while it
/// sets up, then again when the epoch begins): keep what is decoded.
bool BatchLoader::Impl::repeatsCurrentStart(int ep, int first, int bs) const
{
    return started && error.isOk() && consumed == 0 && ep == epoch && first == firstSample &&
           bs == batchSize_;
}

bool BatchLoader::Impl::startsLookAhead(int ep, int first, int bs) const
{
    return started && error.isOk() && aheadEpoch >= 0 && ep == aheadEpoch && first == 0 &&
           bs == batchSize_;
}

/// The look-ahead becomes the epoch: its batches keep their places (key k - totalBatches), what
/// is left of the old epoch is dropped, and the look-ahead moves on to the epoch after.
void BatchLoader::Impl::adoptLookAhead(std::vector<data::Sample> following)
{
    const int done = totalBatches;
    liveBytes -= held.bytes;
    held = {};
    std::map<int, data::Batch> keep;
    for (auto& [k, b] : ready) {
        if (k < done)
            liveBytes -= b.bytes;
        else
            keep.emplace(k - done, std::move(b));
    }
    ready = std::move(keep);
    std::map<int, std::shared_ptr<InFlight>> still;
    for (auto& [k, f] : inflight) {
        if (k < done) {
            f->dropped = true;
            liveBytes -= f->b.bytes;
        } else {
            f->k = k - done;
            still.emplace(f->k, f);
        }
    }
    inflight = std::move(still);
    nextClaim = std::max(0, nextClaim - done);
    consumed = 0;
    epoch = aheadEpoch;
    firstSample = 0;
    samples = std::move(aheadSamples);
    totalBatches = aheadTotal;
    error = std::move(aheadError);
    if (options.lookAhead == LookAhead::SameEpoch)
        following = samples;
    setLookAhead(std::move(following));
}

void BatchLoader::Impl::restart(int ep, int first, int bs, std::vector<data::Sample> order,
                                std::vector<data::Sample> following)
{
    started = true;
    ++generation;
    epoch = ep;
    samples = std::move(order);
    batchSize_ = bs;
    firstSample = std::clamp(first, 0, int(samples.size()));
    totalBatches = batchesFor(int(samples.size()) - firstSample);
    nextClaim = 0;
    consumed = 0;
    for (auto& [k, b] : ready)
        liveBytes -= b.bytes;
    ready.clear();
    for (auto& [k, f] : inflight) // workers still decoding into these drop them when done
        liveBytes -= f->b.bytes;
    inflight.clear();
    liveBytes -= held.bytes;
    held = {};
    error = Status::ok();
    if (options.lookAhead == LookAhead::SameEpoch)
        following = samples; // from its first sample, whatever this start's was
    setLookAhead(std::move(following));
}

void BatchLoader::Impl::setLookAhead(std::vector<data::Sample> following)
{
    aheadEpoch = lookAheadEpochAfter(epoch);
    aheadSamples = std::move(following);
    aheadTotal = aheadEpoch >= 0 ? batchesFor(int(aheadSamples.size())) : 0;
    aheadError = Status::ok();
}

int BatchLoader::Impl::claimLimit() const
{
    return totalBatches + (aheadEpoch >= 0 ? aheadTotal : 0);
}

/// A batch is decoded in chunks of samples by whichever workers are free, so the first batch of
/// an epoch is decoded by all of them at once instead of by one while the GPU waits.
void BatchLoader::Impl::work()
{
    for (;;) {
        std::shared_ptr<InFlight> f;
        int c0 = 0, c1 = 0;
        {
            std::unique_lock<std::mutex> lock(m);
            workCv.wait(lock, [&] { return stopping || claimable(); });
            if (stopping)
                return;
            f = claimChunk(c0, c1);
            if (!f)
                continue; // its memory could not be allocated: the epoch fails (see error)
        }
        Status st;
        for (int i = c0; i < c1 && st.isOk(); ++i) {
            const uint64_t seed =
                data::mix(options.seed ^ data::mix(uint64_t(f->ep) << 32 ^ uint64_t(f->first + i)));
            st = data::decodeSample(dataset, f->slice[size_t(i)], options, seed, f->b, i);
            decoded.fetch_add(1, std::memory_order_relaxed);
        }
        finishChunk(*f, st);
    }
}

bool BatchLoader::Impl::claimable() const
{
    for (const auto& [k, f] : inflight)
        if (f->nextSample < int(f->slice.size()))
            return true;
    return nextClaim < claimLimit() && nextClaim < consumed + options.prefetch;
}

/// Under the lock: the next chunk of the oldest unfinished batch, or of a new one.
std::shared_ptr<BatchLoader::Impl::InFlight> BatchLoader::Impl::claimChunk(int& c0, int& c1)
{
    std::shared_ptr<InFlight> f;
    for (const auto& [k, g] : inflight)
        if (g->nextSample < int(g->slice.size())) {
            f = g;
            break;
        }
    if (!f && !(f = newBatch()))
        return nullptr;
    const int n = int(f->slice.size());
    const int chunk = std::max(4, (n + options.threads - 1) / options.threads);
    c0 = f->nextSample;
    c1 = std::min(n, c0 + chunk);
    f->nextSample = c1;
    ++f->pending;
    return f;
}

/// Under the lock: claims the next batch and allocates its tensors.
std::shared_ptr<BatchLoader::Impl::InFlight> BatchLoader::Impl::newBatch()
{
    auto f = std::make_shared<InFlight>();
    f->k = nextClaim++;
    f->gen = generation;
    const bool ahead = f->k >= totalBatches;
    const auto& order = ahead ? aheadSamples : samples;
    f->ep = ahead ? aheadEpoch : epoch;
    // This rank's part of global batch k (the whole batch k without sharding).
    const int k = ahead ? f->k - totalBatches : f->k;
    f->first = (ahead ? 0 : firstSample) + (k * shardCount_ + shardRank_) * batchSize_;
    const int last = std::min(int(order.size()), f->first + batchSize_);
    f->slice.assign(order.begin() + f->first, order.begin() + last);
    const int n = int(f->slice.size());
    const int S = options.inputSize;
    data::Batch& b = f->b;
    b.count = n;
    try {
        auto u8 = torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(options.pinned);
        b.pixels = torch::empty({n, S, S, 3}, u8);
        b.bytes = uint64_t(b.pixels.nbytes());
        if (dataset.task == TaskKind::Segment) {
            b.masks = torch::empty({n, S, S}, u8);
            b.bytes += uint64_t(b.masks.nbytes());
        } else if (dataset.task == TaskKind::Classify) {
            b.labels = torch::empty(
                {n}, torch::TensorOptions().dtype(torch::kInt64).pinned_memory(options.pinned));
            b.bytes += uint64_t(b.labels.nbytes());
        }
    } catch (const c10::Error& e) { // host memory exhausted: the epoch fails, the process lives
        if (Status& err = errorFor(f->k); err.isOk())
            err = Status(ErrorCode::OutOfMemory, e.what_without_backtrace());
        ready.emplace(f->k, data::Batch{});
        readyCv.notify_all();
        return nullptr;
    }
    liveBytes += b.bytes;
    peakBytes = std::max(peakBytes, liveBytes);
    for (const auto& smp : f->slice)
        b.items.push_back(smp.item);
    inflight[f->k] = f;
    return f;
}

Status& BatchLoader::Impl::errorFor(int k)
{
    return k < totalBatches ? error : aheadError;
}

/// A chunk is done: the batch is ready once its last chunk is.
void BatchLoader::Impl::finishChunk(InFlight& f, const Status& st)
{
    {
        std::lock_guard<std::mutex> lock(m);
        if (!st.isOk() && f.st.isOk())
            f.st = st;
        --f.pending;
        if (f.gen != generation || f.dropped || stopping) // a start dropped it (and its bytes)
            return;
        if (f.pending > 0 || f.nextSample < int(f.slice.size()))
            return;
        if (Status& err = errorFor(f.k); !f.st.isOk() && err.isOk())
            err = f.st;
        ready.emplace(f.k, std::move(f.b));
        inflight.erase(f.k);
    }
    readyCv.notify_all();
}

bool BatchLoader::Impl::next(data::Batch& out, const CancelToken& cancel)
{
    std::unique_lock<std::mutex> lock(m);
    liveBytes -= held.bytes;
    held = {};
    out = {};
    if (consumed >= totalBatches || cancel.isCancelled())
        return false;
    // Poll so cancellation is seen within a fraction of a second even while workers decode.
    while (!ready.count(consumed)) {
        if (cancel.isCancelled() || stopping)
            return false;
        readyCv.wait_for(lock, std::chrono::milliseconds(20));
    }
    if (!error.isOk())
        return false;
    held = std::move(ready[consumed]);
    ready.erase(consumed);
    ++consumed;
    out = held;
    lock.unlock();
    workCv.notify_all();
    return true;
}

BatchLoader::BatchLoader(const Dataset& dataset, std::vector<int> indices,
                         const LoaderOptions& options)
    : impl_(std::make_unique<Impl>(dataset, std::move(indices), options))
{
}

BatchLoader::~BatchLoader() = default;

int BatchLoader::batchesPerEpoch() const
{
    return impl_->batchesPerEpoch();
}

void BatchLoader::startEpoch(int epoch)
{
    impl_->start(epoch, 0, impl_->options.batchSize);
}

bool BatchLoader::next(BatchView& out, const CancelToken& cancel)
{
    data::Batch b;
    out = {};
    if (!impl_->next(b, cancel))
        return false;
    out.count = b.count;
    out.size = impl_->options.inputSize;
    out.pixels = b.pixels.data_ptr<uint8_t>();
    if (b.labels.defined())
        out.labels = b.labels.data_ptr<int64_t>();
    if (b.masks.defined())
        out.masks = b.masks.data_ptr<uint8_t>();
    out.items = b.items;
    return true;
}

Status BatchLoader::status() const
{
    std::lock_guard<std::mutex> lock(impl_->m);
    return impl_->error;
}

uint64_t BatchLoader::peakBatchBytes() const
{
    std::lock_guard<std::mutex> lock(impl_->m);
    return impl_->peakBytes;
}

uint64_t BatchLoader::samplesDecoded() const
{
    return impl_->decoded.load();
}

uint64_t BatchLoader::batchBytes() const
{
    const uint64_t s = uint64_t(impl_->options.inputSize);
    const uint64_t per = s * s * 3 + (impl_->dataset.task == TaskKind::Segment ? s * s : 0) +
                         (impl_->dataset.task == TaskKind::Classify ? 8 : 0);
    return per * uint64_t(impl_->batchSize());
}

} // namespace fisura

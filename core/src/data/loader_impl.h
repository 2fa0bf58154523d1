// The loader's internals, shared with the trainer: batches are LibTorch host tensors so the
// trainer can copy them to the GPU without another conversion.
#pragma once

#include "compat/torch_compat.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "fisura/dataset.h"

namespace fisura
{

namespace data
{

struct Batch {
    int count = 0;
    torch::Tensor pixels; ///< uint8 N x S x S x 3
    torch::Tensor labels; ///< int64 N (classify)
    torch::Tensor masks;  ///< uint8 N x S x S, 0/1 (segment)
    std::vector<int> items;
    uint64_t bytes = 0;
};

struct Sample {
    int item = 0;
    int x = -1, y = -1; ///< crop origin in the (possibly upscaled) image; -1 = random
};

/// Deterministic 64-bit mixing (splitmix64): seeds per sample, shuffles, independent of thread
/// timing and of the standard library.
uint64_t mix(uint64_t x);

/// Decode one sample into the batch slot `slot`. Throws nothing; returns the failure.
Status decodeSample(const Dataset& d, const Sample& s, const LoaderOptions& o, uint64_t rngSeed,
                    Batch& batch, int slot);

} // namespace data

struct BatchLoader::Impl {
    Impl(const Dataset& d, std::vector<int> idx, const LoaderOptions& o);
    ~Impl();

    /// (Re)start at `firstSample` of `epoch` with `batchSize` (the trainer halves it on OOM).
    /// What was decoded for exactly this start is kept: the look-ahead (LoaderOptions::lookAhead),
    /// or a start that repeats the current one before anything was consumed.
    void start(int epoch, int firstSample, int batchSize);
    bool next(data::Batch& out, const CancelToken& cancel);
    int batchesPerEpoch() const;
    int samplesPerEpoch() const;
    int batchSize() const { return batchSize_; }
    /// Data-parallel training: of every `count` consecutive batches of the epoch's order (one
    /// global batch), this loader yields number `rank` only. Every rank shuffles the same way
    /// (same seed), so the ranks' batches together are the one-process batch of
    /// count x batchSize, sample for sample, augmentation included (seeded by the sample's place
    /// in the epoch). A sharded epoch drops its last incomplete global batch, so every rank
    /// runs the same number of steps. Call before start().
    void setShard(int rank, int count);
    int shardCount() const { return shardCount_; }

    const Dataset& dataset;
    std::vector<int> indices;
    LoaderOptions options;

    mutable std::mutex m;
    std::condition_variable workCv, readyCv;
    std::vector<std::thread> workers;
    std::vector<data::Sample> samples; ///< this epoch's order
    /// Batch keys k >= totalBatches are the look-ahead's: batch k - totalBatches of aheadEpoch
    /// (first sample 0, same batch size and shard), decoded from aheadSamples.
    std::vector<data::Sample> aheadSamples;
    int aheadEpoch = -1; ///< -1: no look-ahead
    int aheadTotal = 0;
    Status aheadError; ///< a look-ahead batch's failure, the epoch's error once it is adopted
    bool started = false;
    std::atomic<uint64_t> decoded{0}; ///< samples decoded since construction
    int batchSize_ = 1;
    int shardRank_ = 0, shardCount_ = 1;
    int firstSample = 0;
    int totalBatches = 0;
    int nextClaim = 0;
    int consumed = 0;
    uint64_t generation = 0;
    int epoch = 0;
    bool stopping = false;
    std::map<int, data::Batch> ready;
    /// A batch whose samples are being decoded, in chunks, by one or more workers.
    struct InFlight {
        int k = 0;
        uint64_t gen = 0;
        int ep = 0, first = 0;
        std::vector<data::Sample> slice;
        data::Batch b;
        int nextSample = 0;   ///< first sample no worker has claimed yet
        int pending = 0;      ///< chunks claimed and not finished
        bool dropped = false; ///< a start() let it go while its chunks were being decoded
        Status st;
    };
    std::map<int, std::shared_ptr<InFlight>> inflight;
    data::Batch held;
    uint64_t liveBytes = 0, peakBytes = 0;
    Status error;

private:
    void work();
    bool claimable() const;
    std::shared_ptr<InFlight> claimChunk(int& c0, int& c1);
    std::shared_ptr<InFlight> newBatch();
    void finishChunk(InFlight& f, const Status& st);
    Status& errorFor(int k); ///< under the lock: where batch k's failure is kept
    std::vector<data::Sample> samplesFor(int epoch) const;
    int batchesFor(int samples) const; ///< under the lock
    int claimLimit() const;            ///< under the lock: this epoch's batches + the look-ahead
    bool repeatsCurrentStart(int epoch, int first, int batchSize) const; ///< under the lock
    bool startsLookAhead(int epoch, int first, int batchSize) const;     ///< under the lock
    void adoptLookAhead(std::vector<data::Sample> following);            ///< under the lock
    void restart(int epoch, int first, int batchSize, std::vector<data::Sample> order,
                 std::vector<data::Sample> following);      ///< under the lock: drops everything
    void setLookAhead(std::vector<data::Sample> following); ///< under the lock
    int lookAheadEpochAfter(int epoch) const;
};

} // namespace fisura

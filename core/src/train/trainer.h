// One training job as a few small pieces (internal; the facade is fisura/train.h's train()).
//
// A Trainer holds the job's state as members and runs it in named steps: prepareData (scan,
// split, policy), setUp (model, optimiser, batch probe, resume, loaders), runEpochs (per epoch:
// trainEpoch of trainSteps, validate, recordEpoch with the best model and the checkpoint), then
// finish. Long jobs read as several small types rather than one function, as libvips' sink_disc
// keeps reader, per-thread work and ordered writer apart.
//
// Data arrives from BatchLoader as uint8 NHWC host batches; the conversion to normalised float
// NCHW (channels-last when the policy says so) happens on the device.
#pragma once

#include "compat/torch_compat.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anomaly/patch_stats.h"
#include "data/loader_impl.h"
#include "device/copy_stream.h"
#include "dist/communicator.h"
#include "dist/grad_buckets.h"
#include "fisura/train.h"
#include "train/train_optim.h"
#include "util/malloc_tuning.h"

namespace fisura::train_detail
{

using Clock = std::chrono::steady_clock;

extern uint64_t g_patchMemoryLimit; ///< testing::limitPatchStatisticsMemory (0 = off)

double secondsSince(Clock::time_point t);
std::string utcNow();

/// Learning rate at `p` in [0, 1] of the whole job (by samples seen, so halving the batch after
/// an out-of-memory does not bend the schedule).
double lrAt(Schedule s, double base, double p);

/// The one JSON form of metrics and policy: results, checkpoints and model metadata share it.
nlohmann::json metricsJson(const EpochMetrics& m);
EpochMetrics metricsFromJson(const nlohmann::json& j);
nlohmann::json policyJson(const ExecutionPolicy& p);

void toChannelsLast(torch::nn::Module& net);

/// Optimiser steps between two loss read-backs on `device` (0: every half second).
int lossReadBackSteps(const torch::Device& device);

/// Dynamic loss scaling for fp16 on ATen's amp kernels (what torch.cuda.amp.GradScaler does).
struct LossScaler {
    bool enabled = false;
    torch::Tensor scale, growthTracker, foundInf;
    void init(const torch::Device& dev);
    /// Unscale gradients in place; returns false when they overflowed (skip the step).
    bool unscale(const std::vector<torch::Tensor>& params);
    void update();
};

/// Notices go both into the result and to the sink.
struct Events {
    TrainSink* sink;
    TrainResult& result;
    void notice(const std::string& code, const std::string& msg);
};

/// A loader batch and its tensors on the training device (the same tensors on the CPU).
struct DeviceBatch {
    data::Batch host;
    torch::Tensor pixels, labels, masks;
    bool uploaded = false;
};

/// Everything a resumed job needs besides weights and optimiser moments.
struct JobState {
    int epochsDone = 0;
    int batchSize = 0;
    double bestScore = -1e300;
    int bestEpoch = -1;
    int badEpochs = 0;
    int oomRecoveries = 0;
    int64_t step = 0;
    std::vector<EpochMetrics> history;
    double lossScale = 65536.0;
};

/// Counters of the epoch being trained. Losses of the steps since the last read-back add up on
/// the device (windowLoss) and reach lossSum when the host reads them.
struct EpochTally {
    int samplesDone = 0, batchIndex = 0;
    double lossSum = 0;
    int lossCount = 0;
    int images = 0;
    torch::Tensor windowLoss; ///< sum of loss x samples since the last read-back (device)
    int windowSamples = 0, windowSteps = 0;
    std::chrono::steady_clock::time_point windowStart;
};

/// Write the checkpoint (weights, optimiser moments, job state, CPU RNG) atomically.
Status saveCheckpoint(const std::string& path, Model& model, torch::optim::Optimizer& opt,
                      const JobState& st, const TrainOptions& o);

class Trainer
{
public:
    Trainer(const TrainOptions& options, const CancelToken& cancel, TrainSink* sink);

    /// Check options, scan the data, load or make the split, choose the policy. No LibTorch yet.
    Status prepareData();
    /// Model, optimiser, batch probe (GPU), resume, loaders; announces the start to the sink.
    Status setUp();
    /// Every remaining epoch, until done, cancelled, stopped early or paused.
    Status runEpochs();
    /// The result with the job's totals.
    TrainResult finish(Clock::time_point started);
    /// A job that wrote no model (it failed, or was cancelled before its first epoch ended)
    /// removes the split file it created: a split the user gave, or an earlier run's, stays.
    void removeSplitWithoutModel();
    /// Instead of setUp and runEpochs for a patch-gaussian model: one pass that fits its
    /// statistics, its threshold and the model file (train_patch.cpp).
    Status fitPatchGaussian();
    bool fitsInsteadOfTraining() const { return mc_.type == ModelType::PatchGaussian; }

private:
    // train_init.cpp: starting from a model (TrainOptions::startFrom)
    Status loadStartingModel();
    void adoptStartingWeights();
    Status reestimateBatchNorm();
    // train_setup.cpp
    Status createModel();
    Status measureBatchSize();
    void chooseCpuMicroBatch();
    void createLoaders();
    void announceStart();
    // train_checkpoint.cpp
    Status resumeFromCheckpoint();
    Status restoreCheckpoint(const nlohmann::json& j, torch::serialize::InputArchive& ar);
    Status recordEpoch(EpochMetrics& m);
    Status saveBestModel(const EpochMetrics& m);
    // trainer.cpp
    Status runEpoch(int epoch);
    void stopEarlyOrPause(int epoch);
    const ExecutionPolicy& pol() const { return res_.policy; }
    // train_step.cpp
    void upload(DeviceBatch& d);
    torch::Tensor toInput(const torch::Tensor& pixels) const;
    torch::Tensor lossOf(const torch::Tensor& out, const torch::Tensor& x, const DeviceBatch& b,
                         torch::Tensor* target) const;
    Status trainEpoch(int epoch, EpochTally& t);
    bool takeBatch(DeviceBatch& d);
    double setLearningRate(int epoch, int samplesDone);
    torch::Tensor trainStep(DeviceBatch& d, bool moreBatches, double lr);
    torch::Tensor eagerStep(DeviceBatch& d, bool moreBatches);
    torch::Tensor backwardInParts(const DeviceBatch& d);
    // train_graph.cpp: the step as one CUDA graph
    struct StepGraph;
    void chooseStepGraph();
    void dropStepGraph();
    bool stepGraphReady(const DeviceBatch& d) const;
    bool stepGraphDue(const DeviceBatch& d) const;
    torch::Tensor replayStep(DeviceBatch& d, double lr, bool moreBatches);
    torch::Tensor captureAfterEagerStep(DeviceBatch& d, bool moreBatches);
    std::string captureStep(const DeviceBatch& d);
    bool readBackDue(const EpochTally& t) const;
    void readBack(int epoch, EpochTally& t, double lr);
    void fetchAhead();
    Status backOffAfterOutOfMemory(int epoch, EpochTally& t, DeviceBatch& d);
    void reportBatch(int epoch, const EpochTally& t, float loss, double lr);
    // train_validate.cpp
    Status validate(int epoch, EpochMetrics& m);
    Status endEpochOnRoot(int epoch, EpochMetrics& m, const EpochTally& t, Clock::time_point te);
    // train_dist.cpp: data-parallel jobs
    bool isRoot() const { return rank_ == 0; }
    Status checkDistributed() const;
    void shareHostCores();
    Status joinJob();
    Status shareStartingPoint();
    void describeDataParallel();
    void zeroGrads();
    void averageGradients();
    double agreeOnReadBack(const torch::Tensor& windowLoss, bool& stopAgreed);
    void shareEpochOutcome();
    bool stopRequested() const;
    void freezeBatchNormIfAsked();
    // train_patch.cpp
    Status choosePatchDevice(torch::Device& statsDevice);
    Status accumulatePatches(const torch::Device& statsDevice, anomaly::PatchStats& stats);
    void reportFit(const EpochTally& t);
    Status patchThreshold(EpochMetrics& m);

    const TrainOptions& o_;
    const CancelToken& cancel_;
    TrainSink* sink_;
    TrainResult res_;
    Events ev_{sink_, res_};
    bool stop_ = false;         ///< cancelled, stopped early or paused: no further epoch
    bool splitCreated_ = false; ///< this job wrote the split file
    bool modelWritten_ = false; ///< this job wrote the model file

    // Data-parallel job (worldSize > 1): the process group and the gradient buckets.
    int rank_ = 0, world_ = 1;
    std::unique_ptr<dist::Communicator> comm_;
    std::unique_ptr<dist::GradBuckets> buckets_;
    /// A data-parallel job on a GPU runs on a stream of its own while the Trainer lives (a
    /// c10::cuda::CUDAStreamGuard; see joinJob).
    std::shared_ptr<void> jobStream_;
    bool stopAgreed_ = false; ///< every rank saw a cancellation at the last read-back

    // Data and policy (prepareData).
    std::optional<Dataset> ds_;
    DatasetSplit split_;
    ModelConfig mc_;
    std::optional<Model> start_; ///< the model training starts from (loadStartingModel)
    std::string startPath_;

    // Model and optimiser (setUp). Declared in the order the job creates them, so they go in
    // the reverse order: loaders (and their threads) first, the model last.
    /// CPU jobs: large blocks go back to the system when freed (util/malloc_tuning.h); ends
    /// after the model and the loaders.
    std::unique_ptr<detail::TrainingMallocScope> mallocScope_;
    torch::Device device_{torch::kCPU};
    Model model_;
    torch::nn::Module* net_ = nullptr;
    std::vector<torch::Tensor> params_;
    std::unique_ptr<torch::optim::AdamW> opt_;
    AdamWKernel adamwKernel_ = AdamWKernel::ForEach;
    /// Steps between loss read-backs; 0 = every half second (GPU).
    int readBackEverySteps_ = 1;
    JobState st_;
    LossScaler scaler_;
    std::unique_ptr<BatchLoader> trainLoader_, valLoader_;
    BatchLoader::Impl* tl_ = nullptr;
    BatchLoader::Impl* vl_ = nullptr;
    int samplesPerEpoch_ = 0;
    int batchesPerEpoch_ = 0;
    int64_t jobSamples_ = 0;

    // Per-batch constants on the device.
    torch::Tensor mean_, stdv_;
    at::ScalarType amp_ = at::kHalf;
    bool useAmp_ = false;
    std::unique_ptr<detail::CopyStream> copies_;
    bool lookahead_ = false;
    /// CPU: a batch larger than this trains in parts of this size (chooseCpuMicroBatch); 0 = whole.
    int microBatch_ = 0;
    std::optional<DeviceBatch> ahead_; ///< fetched (and sent) during the previous step
    std::optional<DeviceBatch>
        reused_;                       ///< testing::reuseFirstBatch: the batch every step trains on
    bool graphPolicy_ = false;         ///< the step may run as a CUDA graph
    std::shared_ptr<StepGraph> graph_; ///< captured at the first full batch after warm-up
    double smoothedRate_ = -1;
    /// Validation and checkpoint time of the last epoch: the ETA adds it once per epoch left
    /// (-1 until an epoch has ended; estimated from the training rate meanwhile).
    double epochOverheadSeconds_ = -1;
};

} // namespace fisura::train_detail

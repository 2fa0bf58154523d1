// The training engine: runs one training job (scan, split, loader, model, optimiser, metrics,
// checkpoints) and reports structured events to a TrainSink, so the CLI prints lines and the GUI
// plots curves from the same numbers. Thread-safe to run off the GUI thread; events arrive on the
// training thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fisura/dataset.h"
#include "fisura/distributed.h"
#include "fisura/job.h"
#include "fisura/model.h"
#include "fisura/policy.h"
#include "fisura/status.h"

namespace fisura
{

enum class Schedule { OneCycle, Cosine };

struct TrainOptions {
    TaskKind task = TaskKind::Segment;
    std::string dataDir;
    std::string outPath;        ///< the model file (best epoch), written atomically
    std::string checkpointPath; ///< empty = outPath + ".ckpt"; rewritten after every epoch
    std::string resumeFrom;     ///< a checkpoint to continue from (same data and options)
    std::string splitPath;      ///< reuse this split when it exists, else save the new one there
    int epochs = 20;
    /// Per process (per GPU): 0 = from the execution policy. A data-parallel job's global batch
    /// is batchSize x distributed.worldSize, and its learning-rate schedule counts global samples.
    int batchSize = 0;
    Precision precision = Precision::Auto;
    bool preferCpu = false;
    /// On the processor: memory a training step may use for the network (weights, gradients,
    /// AdamW's moments and the activations kept for the backward pass, as estimateFootprint
    /// counts them), MiB. A batch that needs more trains in equal parts with its gradients added
    /// up (ModelFootprint::partWithin): the same samples per step, less memory. With the
    /// application's own few hundred MiB the default keeps the GUI within 1.5 GB on the demo loop
    /// (tests/bench/RESULTS.md, bench_gui_memory). Not used on a GPU.
    double cpuMemoryMb = 1024;
    /// Type follows the task, except that the anomaly task takes ModelType::PatchGaussian (fitted
    /// in one pass: epochs, learning rate and schedule do not apply); inputSize is the crop edge.
    ModelConfig model;
    /// The weights training starts from (fine-tuning): "" or "scratch" = seeded random weights;
    /// "starter" = Fisura's starter model (findStarterModel(), fisura/starter.h); otherwise a
    /// Fisura model file (a run of this project, say). The model must serve the task (a
    /// classifier also the data's classes); its architecture and input normalisation replace
    /// `model`'s (only the crop size, model.inputSize, stays the job's), and its BatchNorm
    /// statistics are re-estimated on the training images before the first step, so a new
    /// surface's look does not meet the old surface's statistics. Ignored by a resume, which
    /// takes the checkpoint's weights. See FineTuneDefaults for the front ends' defaults.
    std::string startFrom;
    /// Random crops per epoch (segmentation): 0 = one per training image; a larger number
    /// repeats the training images, each time another crop and augmentation, so that a handful
    /// of labelled images still makes a real epoch.
    int samplesPerEpoch = 0;
    double learningRate = 1e-3;
    double weightDecay = 1e-4;
    Schedule schedule = Schedule::OneCycle;
    double clipNorm = 1.0; ///< <= 0: no clipping
    int patience = 5;      ///< epochs without improvement before stopping (0 = never)
    double valFraction = 0.2;
    uint64_t seed = 1;
    bool augment = true;
    int loaderThreads = 0;      ///< 0 = from the policy
    int intraOpThreads = 0;     ///< LibTorch's intra-op threads; 0 = the policy's (process-wide)
    int interOpThreads = 0;     ///< LibTorch's inter-op threads; 0 = the policy's (once a process)
    int prefetch = 0;           ///< 0 = 2 x loader threads
    int maxBatchesPerEpoch = 0; ///< 0 = the whole training split (benchmarks and tests cap it)
    int stopAfterEpoch = 0;     ///< > 0: stop cleanly after this epoch, as a pause (resume later)
    /// Pause while running: set it from any thread and the job stops cleanly at the end of the
    /// current epoch, as stopAfterEpoch does (the result says paused). Copies share the flag.
    CancelToken pauseRequested;
    ScanOptions scan;
    /// Data-parallel training (one process per GPU, or CPU processes over gloo): this process's
    /// place in the job. Every process runs train() with the same options and its own identity;
    /// the program that starts them fills it in (fisura-cli reads torchrun's and Slurm's
    /// variables with readDistributedEnvironment: the engine itself reads no environment).
    /// Rank 0 alone writes the model, checkpoint and split and reports to its sink; the others
    /// train silently. worldSize 1 (the default): a job on its own.
    DistributedIdentity distributed;
    /// Gradient all-reduce buckets in bytes: 0 = 25 MB (as PyTorch DDP); < 0 = no buckets (every
    /// gradient all-reduced on its own). Only for data-parallel jobs.
    int64_t bucketBytes = 0;
};

/// What the CLI and the Train pane use when a job starts from a model (TrainOptions::startFrom)
/// and the user set nothing else: fewer epochs and a lower peak learning rate than from
/// scratch (the weights are already close; a high rate would throw away what they know), and
/// epochs of at least 64 crops. A fine-tune of a few labelled images then takes minutes on a
/// CPU (README, "Fine-tuning"); tests/bench/starter/few_shot.sh measures it against scratch.
struct FineTuneDefaults {
    static constexpr int epochs = 10;
    static constexpr double learningRate = 3e-4;
    static constexpr int samplesPerEpoch = 64;
};

/// Whether `startFrom` means random weights ("" or "scratch").
inline bool startsFromScratch(const std::string& startFrom)
{
    return startFrom.empty() || startFrom == "scratch";
}

/// Sent once when the job has its data, model and policy.
struct TrainStarted {
    ExecutionPolicy policy;
    std::string datasetJson;
    int trainItems = 0, valItems = 0;
    int batchesPerEpoch = 0;
    int64_t parameters = 0;
    int startEpoch = 0;      ///< > 0 when resumed
    int worldSize = 1;       ///< processes training together (data-parallel job), 1 on its own
    int batchPerProcess = 0; ///< the batch each process (GPU) trains per step
    int globalBatch = 0;     ///< batchPerProcess x worldSize: samples per optimiser step
    std::string startedFrom; ///< the model file the weights came from ("" = scratch)
};

/// Sent after every optimiser step.
struct BatchProgress {
    int epoch = 0; ///< 0-based
    int epochs = 0;
    int batch = 0; ///< 1-based within the epoch
    int batches = 0;
    int batchSize = 0;
    double loss = 0; ///< mean of the steps since the previous event
    double learningRate = 0;
    double imagesPerSecond = 0;                                             ///< smoothed
    double etaSeconds = -1;                                                 ///< whole job
    uint64_t gpuAllocatedBytes = 0, gpuReservedBytes = 0, gpuPeakBytes = 0; ///< 0 on the CPU
};

/// Validation metrics of one epoch. Fields not meaningful for the task stay at -1.
struct EpochMetrics {
    int epoch = 0;
    double trainLoss = -1, valLoss = -1, learningRate = 0, seconds = 0, imagesPerSecond = 0;
    // classify (positive class = cracked)
    double accuracy = -1, precision = -1, recall = -1, f1 = -1;
    // segment: at probability 0.5, and at the validation threshold with the best F1
    double iou = -1, segF1 = -1, segPrecision = -1, segRecall = -1;
    double bestThreshold = -1, iouAtBest = -1, f1AtBest = -1, precisionAtBest = -1,
           recallAtBest = -1;
    // anomaly: per-image reconstruction error (mean squared error) distribution on validation
    double errorMean = -1, errorP50 = -1, errorP95 = -1, errorP99 = -1, errorMax = -1;
    double anomalyThreshold = -1; ///< the 99th percentile
    uint64_t gpuPeakBytes = 0;    ///< peak allocated GPU memory during the epoch (0 on the CPU)
    double score = 0;             ///< what early stopping maximises
    bool improved = false;        ///< best so far: the model file was rewritten
};

/// Receives the job's events. Implementations must be cheap and thread-safe.
class TrainSink
{
public:
    virtual ~TrainSink() = default;
    virtual void started(const TrainStarted&) {}
    /// Progress of training steps. On the CPU once per step; on a GPU the loss is read back
    /// only every half second (so no step waits for the device), and one event then reports
    /// the mean loss of the steps since the previous one: events lag the GPU by up to that.
    virtual void batch(const BatchProgress&) {}
    virtual void epoch(const EpochMetrics&) {}
    /// Something the user should know: "out_of_memory", "early_stop", "resumed", "cancelled".
    virtual void notice(const std::string& code, const std::string& message)
    {
        (void)code, (void)message;
    }
};

struct TrainResult {
    std::string modelPath, checkpointPath, splitPath;
    int epochsRun = 0; ///< epochs completed in total (including before a resume)
    bool cancelled = false;
    bool stoppedEarly = false;
    bool paused = false; ///< stopAfterEpoch reached or pauseRequested: resume from the checkpoint
    int bestEpoch = -1;
    EpochMetrics best;
    std::vector<EpochMetrics> history;
    ExecutionPolicy policy;
    int finalBatchSize = 0;
    int outOfMemoryRecoveries = 0;
    double seconds = 0;
    std::vector<std::string> notices;
};

/// Run a training job. Cancellation is answered within half a second; the last completed epoch's
/// checkpoint and the best model stay intact and the result says cancelled. Errors (bad data,
/// unusable resume file, ...) come back as Status.
Result<TrainResult> train(const TrainOptions& options, const CancelToken& cancel = {},
                          TrainSink* sink = nullptr);

/// The model type a training job with `options` trains: the task's, or PatchGaussian for the
/// anomaly task when asked.
ModelType trainedModelType(const TrainOptions& options);
/// What a training job with `options` asks the execution policy (choosePolicy): the model it
/// trains, its input size and the user's precision, batch, CPU and thread overrides. train()
/// asks this; the Train pane's preview and the System pane show its answer.
PolicyRequest policyRequestFor(const TrainOptions& options);

std::string toJson(const EpochMetrics& m);
std::string toJson(const TrainResult& r, int indent = 2);
std::string toJson(const ExecutionPolicy& p);

} // namespace fisura

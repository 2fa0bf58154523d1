// The policy question of a training job; see fisura/train.h (plain C++, no torch).
#include "fisura/train.h"

#include <algorithm>
#include <cmath>

#include "fisura/evaluate.h"

#include "train/micro_batch.h"

namespace fisura
{

ModelType trainedModelType(const TrainOptions& o)
{
    // The anomaly task has two models; every other task one.
    if (o.task == TaskKind::Anomaly && o.model.type == ModelType::PatchGaussian)
        return ModelType::PatchGaussian;
    return modelTypeFor(o.task);
}

PolicyRequest policyRequestFor(const TrainOptions& o)
{
    PolicyRequest r;
    r.kind = JobKind::Train;
    r.model = modelTypeName(trainedModelType(o));
    r.inputSize = o.model.inputSize;
    r.precision = o.precision;
    r.batchSize = o.batchSize;
    r.preferCpu = o.preferCpu;
    r.intraOpThreads = o.intraOpThreads;
    r.interOpThreads = o.interOpThreads;
    return r;
}

} // namespace fisura

namespace fisura::train_detail
{

int microBatchWithin(int batch, uint64_t fixedBytes, uint64_t bytesPerImage, uint64_t budgetBytes)
{
    if (batch <= 1 || bytesPerImage == 0)
        return std::max(1, batch);
    for (int part = batch; part > 1; --part)
        if (batch % part == 0 && fixedBytes + uint64_t(part) * bytesPerImage <= budgetBytes)
            return part;
    return 1;
}

} // namespace fisura::train_detail

namespace fisura
{

int ModelFootprint::partWithin(int batch, uint64_t budgetBytes) const
{
    return train_detail::microBatchWithin(batch, weightBytes, activationBytesPerImage, budgetBytes);
}

uint64_t cpuTrainingBudgetBytes(double cpuMemoryMb)
{
    return cpuMemoryMb > 0 ? uint64_t(std::llround(cpuMemoryMb * 1048576.0)) : 0;
}

} // namespace fisura

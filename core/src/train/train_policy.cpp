// The policy question of a training job; see fisura/train.h (plain C++, no torch).
#include "fisura/train.h"

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

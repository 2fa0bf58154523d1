// The tile and the policy question of a tiled inference; see fisura/infer.h (plain C++, no
// torch: the GUI's preview asks the same question without loading the network).
#include <algorithm>

#include "fisura/infer.h"

namespace fisura
{

int inferenceTile(const ModelInfo& i, const InferOptions& o)
{
    if (o.tileSize > 0)
        return o.tileSize;
    if (i.tileSize > 0)
        return i.tileSize;
    if (i.config.type != ModelType::UNet)
        return i.config.inputSize;
    // Fully convolutional: larger tiles waste less on overlap and keep the device busy.
    const int unit = 1 << std::max(0, i.config.depth);
    const int t = std::max(i.config.inputSize, 512);
    return (t + unit - 1) / unit * unit;
}

PolicyRequest policyRequestFor(const ModelInfo& i, const InferOptions& o)
{
    PolicyRequest r;
    r.kind = JobKind::Infer;
    r.model = modelTypeName(i.config.type);
    r.inputSize = inferenceTile(i, o);
    r.precision = o.precision;
    r.batchSize = o.batchSize;
    r.preferCpu = o.preferCpu;
    r.intraOpThreads = o.intraOpThreads;
    r.interOpThreads = o.interOpThreads;
    return r;
}

} // namespace fisura

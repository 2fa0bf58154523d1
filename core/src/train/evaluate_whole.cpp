// The crack protocol over whole images: each image through the tiled inference (the tiles,
// overlap and blending `infer` uses on a scan), its map compared with its mask at the
// protocol's tolerance (CrackScoreAccumulator).
#include <algorithm>
#include <string>

#include "fisura/evaluate.h"
#include "fisura/infer.h"
#include "train/evaluate_whole.h"

namespace fisura::eval_detail
{

Status scoreWholeImages(const std::string& modelPath, const Dataset& ds,
                        const std::vector<int>& items, const EvaluateOptions& o,
                        const CancelToken& cancel, ProgressSink* progress, EvaluationReport& report)
{
    if (o.tolerancePx < 0 || o.tolerancePx > 32)
        return Status(ErrorCode::InvalidArgument, "tolerance must be 0..32 px");
    auto model = Model::load(modelPath, o.modelLoad);
    if (!model)
        return model.status();
    const double threshold = model->info().threshold;
    InferOptions io;
    io.preferCpu = o.preferCpu;
    io.batchSize = o.batchSize;
    io.readerThreads = o.threads;
    io.gpus = 1;
    io.modelLoad = o.modelLoad;
    auto engine = TiledInference::create(std::move(*model), io, cancel);
    if (!engine)
        return engine.status();
    if ((*engine)->kind() != MapKind::Probability)
        return Status(ErrorCode::InvalidArgument,
                      "the crack protocol scores segmentation models (crack probability maps)");
    CrackScoreAccumulator acc(o.tolerancePx);
    ProgressTracker tracker(progress, double(items.size()));
    int done = 0;
    for (int index : items) {
        if (cancel.isCancelled())
            return Status(ErrorCode::Cancelled, "evaluation cancelled");
        const DatasetItem& it = ds.items[size_t(index)];
        auto image = readImage(it.image);
        if (!image)
            return image.status();
        auto truth = readImage(it.mask);
        if (!truth)
            return truth.status();
        auto map = (*engine)->runImage(*image, cancel);
        if (!map)
            return map.status();
        if (Status s = acc.add(*map, *truth); !s)
            return Status(s.code(), it.image + ": " + s.detail());
        ++done;
        tracker.update(done, it.image);
    }
    report.crack = acc.scores(threshold);
    report.hasCrackScores = true;
    return Status::ok();
}

} // namespace fisura::eval_detail

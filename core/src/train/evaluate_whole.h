// The crack protocol over whole images (internal to evaluateModel; see fisura/evaluate.h).
#pragma once

#include <string>
#include <vector>

#include "fisura/evaluate.h"

namespace fisura::eval_detail
{

/// Runs the model over the whole images of `items` of `ds` (tiled inference) and fills
/// report.crack / report.hasCrackScores. Errors: the model's, an unreadable image or mask,
/// a mask of another size (InvalidArgument), Cancelled.
Status scoreWholeImages(const std::string& modelPath, const Dataset& ds,
                        const std::vector<int>& items, const EvaluateOptions& o,
                        const CancelToken& cancel, ProgressSink* progress,
                        EvaluationReport& report);

} // namespace fisura::eval_detail

// Proposals and uncertainty ranking from the tiled inference; see fisura/labels.h.
#include "fisura/labels.h"

namespace fisura
{

Result<Image> proposeLabels(const std::string&, const std::string&, const ProposeOptions&,
                            const CancelToken&, ProgressSink*)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}

Result<ProposeFolderResult> proposeFolder(const std::string&, const std::string&,
                                          const std::string&, const ProposeOptions&,
                                          const CancelToken&, ProgressSink*)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}

int proposalByteThreshold(MapKind, double, double)
{
    return 128;
}

Result<std::vector<RankEntry>> rankByUncertainty(const std::string&,
                                                 const std::vector<std::string>&,
                                                 const RankOptions&, const CancelToken&,
                                                 ProgressSink*)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}

RankEntry uncertaintyOfMap(const Image&, double, double)
{
    return {};
}

} // namespace fisura

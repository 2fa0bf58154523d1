// The label layer: tiles, tools, undo, save; see fisura/labels.h.
#include "fisura/labels.h"

namespace fisura
{

uint64_t LabelEdit::bytes() const
{
    uint64_t n = 0;
    for (const Tile& t : tiles)
        n += t.before.size() + t.after.size() + t.originBefore.size() + t.originAfter.size();
    return n;
}

struct LabelLayer::Impl {
    std::string image;
    int width = 0, height = 0, tile = 256;
};

LabelLayer::LabelLayer(std::unique_ptr<Impl> impl) : d_(std::move(impl)) {}
LabelLayer::~LabelLayer() = default;

Result<std::unique_ptr<LabelLayer>> LabelLayer::open(const std::string&, const LabelLayerOptions&)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}

int LabelLayer::width() const
{
    return d_->width;
}
int LabelLayer::height() const
{
    return d_->height;
}
int LabelLayer::tileSize() const
{
    return d_->tile;
}
double LabelLayer::pixelSizeXmm() const
{
    return 0;
}
double LabelLayer::pixelSizeYmm() const
{
    return 0;
}
const std::string& LabelLayer::imagePath() const
{
    return d_->image;
}
LabelPaths LabelLayer::paths() const
{
    return labelPathsFor(d_->image);
}
LabelState LabelLayer::state() const
{
    return labelStateFor(d_->image);
}
Result<LabelEdit> LabelLayer::polyline(const std::vector<LabelPoint>&, double, uint8_t)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
Result<LabelEdit> LabelLayer::brush(const std::vector<LabelPoint>&, double, bool)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
Result<LabelEdit> LabelLayer::fill(LabelPoint, uint8_t)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
Result<LabelEdit> LabelLayer::setRegion(const LabelRect&, uint8_t)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
Result<LabelEdit> LabelLayer::applyProposal(const LabelRect&, const Image&)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
void LabelLayer::undo(const LabelEdit&) {}
void LabelLayer::redo(const LabelEdit&) {}
Result<Image> LabelLayer::readRegion(const LabelRect&) const
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
Result<Image> LabelLayer::overview(int) const
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}
LabelProvenance LabelLayer::provenance() const
{
    return {};
}
bool LabelLayer::modified() const
{
    return false;
}
uint64_t LabelLayer::residentBytes() const
{
    return 0;
}
Result<LabelLayer::SaveStats> LabelLayer::save(const CancelToken&, ProgressSink*)
{
    return Status(ErrorCode::Unsupported, "not implemented yet");
}

} // namespace fisura

// Where labels live and which images of a dataset are labelled; see fisura/labels.h.
#include <algorithm>
#include <filesystem>

#include "fisura/labels.h"

namespace fs = std::filesystem;

namespace fisura
{

namespace
{

bool isFile(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

/// An existing mask of this stem in `masks` (any format Fisura reads), TIFF first; "" if none.
std::string existingMask(const fs::path& masks, const std::string& stem)
{
    for (const char* ext : {".tif", ".tiff", ".TIF", ".TIFF"})
        if (isFile(masks / (stem + ext)))
            return (masks / (stem + ext)).string();
    std::error_code ec;
    if (!fs::is_directory(masks, ec))
        return {};
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(masks, ec))
        if (e.path().stem().string() == stem && hasImageExtension(e.path().string()) &&
            isFile(e.path()))
            found.push_back(e.path().string());
    std::sort(found.begin(), found.end());
    return found.empty() ? std::string() : found.front();
}

} // namespace

const char* labelStateName(LabelState state)
{
    switch (state) {
    case LabelState::Unlabelled:
        return "unlabelled";
    case LabelState::Proposed:
        return "proposed";
    case LabelState::Labelled:
        return "labelled";
    }
    return "unlabelled";
}

LabelPaths labelPathsFor(const std::string& imagePath)
{
    const fs::path image(imagePath);
    const fs::path dir = image.parent_path();
    const std::string stem = image.stem().string();
    LabelPaths p;
    if (dir.filename() == "images") {
        const fs::path root = dir.parent_path();
        p.mask = existingMask(root / "masks", stem);
        if (p.mask.empty())
            p.mask = (root / "masks" / (stem + ".tif")).string();
        p.proposal = (root / "proposals" / (stem + ".tif")).string();
    } else {
        p.mask = (dir / (stem + ".mask.tif")).string();
        p.proposal = (dir / (stem + ".proposal.tif")).string();
    }
    return p;
}

LabelState labelStateFor(const std::string& imagePath)
{
    const LabelPaths p = labelPathsFor(imagePath);
    if (isFile(p.mask))
        return LabelState::Labelled;
    if (isFile(p.proposal))
        return LabelState::Proposed;
    return LabelState::Unlabelled;
}

Result<std::vector<LabelStatusEntry>> labelStatus(const std::string& datasetDir)
{
    const fs::path images = fs::path(datasetDir) / "images";
    std::error_code ec;
    if (!fs::is_directory(images, ec))
        return Status(ErrorCode::NotFound, images.string() + ": no such folder");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(images, ec))
        if (hasImageExtension(e.path().string()) && isFile(e.path()))
            files.push_back(e.path().string());
    if (ec)
        return Status(ErrorCode::IoError, images.string() + ": " + ec.message());
    std::sort(files.begin(), files.end());
    std::vector<LabelStatusEntry> out;
    out.reserve(files.size());
    for (const std::string& f : files) {
        const LabelPaths p = labelPathsFor(f);
        LabelStatusEntry e;
        e.image = f;
        const bool mask = isFile(p.mask), proposal = isFile(p.proposal);
        e.state = mask ? LabelState::Labelled
                       : (proposal ? LabelState::Proposed : LabelState::Unlabelled);
        e.mask = mask ? p.mask : std::string();
        e.proposal = proposal ? p.proposal : std::string();
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace fisura

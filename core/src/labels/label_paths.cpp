// Where labels live and which images of a dataset are labelled; see fisura/labels.h.
#include <algorithm>
#include <filesystem>
#include <map>

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
    // One listing of masks/ for the whole dataset (not one per image).
    std::map<std::string, std::string> masks;
    auto list = [](const fs::path& folder, std::map<std::string, std::string>& byStem) {
        std::error_code e;
        std::vector<std::string> found;
        for (const auto& f : fs::directory_iterator(folder, e))
            if (hasImageExtension(f.path().string()) && isFile(f.path()))
                found.push_back(f.path().string());
        std::sort(found.begin(), found.end()); // .png before .tif: prefer TIFF below
        for (const std::string& f : found) {
            const std::string stem = fs::path(f).stem().string();
            const std::string ext = fs::path(f).extension().string();
            auto it = byStem.find(stem);
            if (it == byStem.end() || ext == ".tif" || ext == ".tiff" || ext == ".TIF" ||
                ext == ".TIFF")
                byStem[stem] = f;
        }
    };
    const fs::path root = fs::path(datasetDir);
    list(root / "masks", masks);
    std::vector<LabelStatusEntry> out;
    out.reserve(files.size());
    for (const std::string& f : files) {
        const std::string stem = fs::path(f).stem().string();
        LabelStatusEntry e;
        e.image = f;
        auto m = masks.find(stem);
        e.mask = m != masks.end() ? m->second : std::string();
        const fs::path proposal = root / "proposals" / (stem + ".tif");
        e.proposal = isFile(proposal) ? proposal.string() : std::string();
        e.state = !e.mask.empty()       ? LabelState::Labelled
                  : !e.proposal.empty() ? LabelState::Proposed
                                        : LabelState::Unlabelled;
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace fisura

// Input rows: scans, dataset folders, masks, model files, TorchScript modules with their sidecar
// and project files that are missing, unreadable, empty, truncated, corrupt, of the wrong type or
// of an absurd size. Opening a bad input must never change it.
#include <torch/script.h>

#include <chrono>
#include <filesystem>

#include "badinput_common.h"
#include "fisura/dataset.h"
#include "fisura/infer.h"
#include "fisura/labels.h"
#include "fisura/model.h"
#include "fisura/project.h"
#include "fisura/tiledimage.h"

namespace badinput
{

namespace
{

namespace fs = std::filesystem;
using namespace fisura;

/// How a file of one input kind goes bad (the bytes it holds instead of a good file).
enum class Damage { Missing, Folder, Empty, Truncated, Corrupt, WrongType };

/// Writes `good` damaged as `d` at `path`; returns the bytes now there ("" for none).
std::string damage(const std::string& path, const std::string& good, Damage d,
                   const std::string& otherType)
{
    std::error_code ec;
    switch (d) {
    case Damage::Missing:
        return {};
    case Damage::Folder: // the closest to "unreadable" a root test can make
        fs::create_directories(path, ec);
        return {};
    case Damage::Empty:
        writeBytes(path, {});
        return {};
    case Damage::Truncated:
        writeBytes(path, good.substr(0, good.size() / 2));
        return good.substr(0, good.size() / 2);
    case Damage::Corrupt: {
        std::string bad = good;
        for (size_t i = 8; i < bad.size(); i += 3) // keep the magic, scramble the rest
            bad[i] = char(bad[i] ^ 0x5a);
        writeBytes(path, bad);
        return bad;
    }
    case Damage::WrongType:
        writeBytes(path, otherType);
        return otherType;
    }
    return {};
}

/// The outcome of opening a damaged file: `open` returns the Status; the file must be unchanged.
Outcome opened(const std::string& path, const std::string& bytes, Damage d, const Status& st)
{
    Outcome o;
    o.status = st;
    o.file = path;
    std::error_code ec;
    if (d != Damage::Missing && d != Damage::Folder && fs::is_regular_file(path, ec))
        o.problems = sameBytes(path, bytes);
    return o;
}

/// A scan row: the file through TiledImage (viewer, inference) and, when that opens, its pixels.
Status openScan(const std::string& path)
{
    if (path.size() > 4 && path.substr(path.size() - 4) != ".tif") {
        auto im = readImage(path);
        return im ? Status::ok() : im.status();
    }
    auto t = TiledImage::open(path);
    if (!t)
        return t.status();
    auto pixels = (*t)->readLevel((*t)->levelCount() - 1);
    return pixels ? Status::ok() : pixels.status();
}

Runner scanRow(const char* ext, Damage d)
{
    return [ext, d](const std::string& dir) {
        const std::string path = join(dir, std::string("scan.") + ext);
        const Image im = pattern(96, 80, 3);
        const std::string good = std::string(ext) == "tif"   ? tiffBytes(im, 32)
                                 : std::string(ext) == "png" ? encodedBytes(im, "PNG")
                                                             : encodedBytes(im, "JPEG");
        const std::string other =
            std::string(ext) == "tif" ? encodedBytes(im, "PNG") : "scan notes, not an image\n";
        if (std::string(ext) != "tif" && !hasImageCodecs()) {
            Outcome o;
            o.skip = "this build reads no PNG/JPEG";
            return o;
        }
        const std::string bytes = damage(path, good, d, other);
        return opened(path, bytes, d, openScan(path));
    };
}

Runner absurdRow(bool tiled)
{
    return [tiled](const std::string& dir) {
        const std::string path = join(dir, "huge.tif");
        const std::string bytes = tiled ? absurdTiff(1u << 30, 1u << 30, true, 64)
                                        : absurdTiff(1u << 31, 1, false, 1u << 31);
        writeBytes(path, bytes);
        const auto start = std::chrono::steady_clock::now();
        const uint64_t before = peakResidentBytes();
        Outcome o = opened(path, bytes, Damage::Corrupt, openScan(path));
        if (o.status.isOk()) // also through the whole-image reader (datasets, masks)
            o.status = readImage(path).status();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > 2.0)
            o.problems += " refusing took " + std::to_string(seconds) + " s";
        if (peakResidentBytes() > before + (256ull << 20))
            o.problems += " peak memory grew by more than 256 MiB";
        return o;
    };
}

/// issue 33: an 8 MB TIFF claiming 10^6 x 10^6 px, every strip pointing at one tiny block.
Runner bombRow()
{
    return [](const std::string& dir) {
        const std::string path = join(dir, "bomb.tif");
        const std::string bytes = bombTiff(1000000);
        writeBytes(path, bytes);
        const auto start = std::chrono::steady_clock::now();
        const uint64_t before = peakResidentBytes();
        Outcome o = opened(path, bytes, Damage::Corrupt, openScan(path));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > 2.0)
            o.problems += " refusing took " + std::to_string(seconds) + " s";
        if (peakResidentBytes() > before + (256ull << 20))
            o.problems += " peak memory grew by more than 256 MiB";
        return o;
    };
}

Runner datasetRow(Damage d)
{
    return [d](const std::string& dir) {
        const std::string root = join(dir, "cracks");
        Outcome o;
        o.file = root;
        std::error_code ec;
        if (d == Damage::WrongType) {
            writeBytes(root, "a file, not a folder\n");
        } else if (d == Damage::Empty) {
            fs::create_directories(root, ec);
        } else if (d == Damage::Corrupt) { // one image is damaged: listed, the rest is used
            fs::create_directories(join(root, "images"), ec);
            fs::create_directories(join(root, "masks"), ec);
            const Image im = pattern(64, 64, 3), mask = pattern(64, 64, 1);
            for (const char* stem : {"a", "b"}) {
                writeBytes(join(root, std::string("images/") + stem + ".tif"), tiffBytes(im));
                writeBytes(join(root, std::string("masks/") + stem + ".tif"), tiffBytes(mask));
            }
            o.file = join(root, "images/b.tif");
            writeBytes(o.file, "II*\0garbage");
        }
        auto ds = scanDataset(root, TaskKind::Segment);
        o.status = ds.status();
        if (ds && d == Damage::Corrupt) {
            bool listed = false;
            for (const DatasetProblem& p : ds->problems)
                listed = listed || p.path == o.file;
            if (!listed || ds->items.size() != 1)
                o.problems = "the damaged image is not listed as a problem";
            else
                o.status = Status(ErrorCode::Corrupt,
                                  ds->problems.front().path + ": " + ds->problems.front().reason);
        }
        return o;
    };
}

Runner maskRow(Damage d)
{
    return [d](const std::string& dir) {
        const std::string image = join(dir, "scan.tif");
        writeBytes(image, tiffBytes(pattern(96, 80, 3), 32));
        const std::string mask = join(dir, "scan.mask.tif");
        const std::string good = tiffBytes(pattern(96, 80, 1), 32);
        const std::string other = tiffBytes(pattern(40, 30, 1)); // wrong type: another size
        const std::string bytes = damage(mask, good, d, other);
        auto layer = LabelLayer::open(image);
        Status st = layer.status();
        if (layer) { // a lazily read mask fails on the first read of its pixels
            auto pixels = (*layer)->readRegion({0, 0, 96, 80});
            st = pixels.status();
        }
        return opened(mask, bytes, d, st);
    };
}

std::string goodModelBytes(const std::string& dir)
{
    ModelConfig c;
    c.inputSize = 32;
    c.depth = 2;
    c.width = 4;
    auto m = Model::create(c, 1);
    const std::string path = join(dir, "good.fisura");
    if (!m || !m->save(path))
        return {};
    std::string bytes = readBytes(path);
    std::error_code ec;
    fs::remove(path, ec);
    return bytes;
}

Runner modelRow(Damage d)
{
    return [d](const std::string& dir) {
        const std::string path = join(dir, "cracks.fisura");
        const std::string bytes =
            damage(path, goodModelBytes(dir), d, tiffBytes(pattern(32, 32, 3)));
        return opened(path, bytes, d, Model::load(path).status());
    };
}

/// TorchScript: a module (good, or damaged as `module`) and a sidecar (good, or `sidecar`).
enum class Script { Good, NoSidecar, EmptySidecar, CorruptSidecar, WrongSidecar, CutModule };

Runner scriptRow(Script what)
{
    return [what](const std::string& dir) {
        const std::string path = join(dir, "exported.pt");
        torch::jit::Module m("BadInputModel");
        m.define("def forward(self, x):\n    return x[:, 0:1]\n");
        m.save(path);
        const std::string good = R"({"format": "fisura-torchscript", "type": "unet",)"
                                 R"( "input_size": 64})";
        std::string sidecar = good;
        if (what == Script::EmptySidecar)
            sidecar.clear();
        else if (what == Script::CorruptSidecar)
            sidecar = R"({"format": "fisura-torchscript", "type": )";
        else if (what == Script::WrongSidecar)
            sidecar = R"({"format": "fisura-torchscript", "type": "banana", "input_size": -3})";
        if (what != Script::NoSidecar)
            writeBytes(path + ".json", sidecar);
        std::string module = readBytes(path);
        if (what == Script::CutModule) {
            module.resize(module.size() / 2);
            writeBytes(path, module);
        }
        Outcome o;
        o.status = Model::load(path).status();
        const bool aboutSidecar = what != Script::NoSidecar && what != Script::CutModule;
        o.file = aboutSidecar ? path + ".json" : path;
        o.problems = sameBytes(path, module);
        if (what != Script::NoSidecar && o.problems.empty())
            o.problems = sameBytes(path + ".json", sidecar);
        return o;
    };
}

Runner projectRow(Damage d, bool newer = false)
{
    return [d, newer](const std::string& dir) {
        const std::string folder = join(dir, "bridge");
        auto p = Project::create(folder, "bridge");
        std::error_code ec;
        const std::string file = join(folder, "project.json");
        std::string good = readBytes(file);
        fs::remove(file, ec);
        if (newer) {
            const std::string key = "\"schema\": 1";
            const size_t at = good.find(key);
            if (at != std::string::npos)
                good.replace(at, key.size(), "\"schema\": 999");
        }
        std::string bytes = good;
        if (newer)
            writeBytes(file, good);
        else
            bytes = damage(file, good, d, "[1, 2, 3]\n");
        return opened(file, bytes, newer ? Damage::Corrupt : d, Project::open(folder).status());
    };
}

} // namespace

void addInputRows(std::map<std::string, Runner>& out)
{
    const std::pair<const char*, Damage> damages[] = {
        {"missing", Damage::Missing}, {"unreadable", Damage::Folder},
        {"empty", Damage::Empty},     {"truncated", Damage::Truncated},
        {"corrupt", Damage::Corrupt}, {"wrong-type", Damage::WrongType}};
    for (const char* ext : {"tif", "png", "jpeg"})
        for (const auto& [name, d] : damages)
            out[std::string("scan-") + ext + "/" + name] = scanRow(ext, d);
    out["scan-tif/absurd-size"] = absurdRow(false);
    out["scan-tif/absurd-tiles"] = absurdRow(true);
    out["scan-tif/bomb"] = bombRow();
    out["dataset/missing"] = datasetRow(Damage::Missing);
    out["dataset/wrong-type"] = datasetRow(Damage::WrongType);
    out["dataset/empty"] = datasetRow(Damage::Empty);
    out["dataset/corrupt"] = datasetRow(Damage::Corrupt);
    for (const auto& [name, d] : damages) {
        if (d != Damage::Missing && d != Damage::Folder)
            out[std::string("mask/") + name] = maskRow(d);
        out[std::string("model/") + name] = modelRow(d);
        out[std::string("project/") + name] = projectRow(d);
    }
    out["project/newer-version"] = projectRow(Damage::Corrupt, true);
    out["torchscript/no-sidecar"] = scriptRow(Script::NoSidecar);
    out["torchscript/empty-sidecar"] = scriptRow(Script::EmptySidecar);
    out["torchscript/corrupt-sidecar"] = scriptRow(Script::CorruptSidecar);
    out["torchscript/wrong-sidecar"] = scriptRow(Script::WrongSidecar);
    out["torchscript/truncated"] = scriptRow(Script::CutModule);
}

} // namespace badinput

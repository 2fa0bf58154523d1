// Output rows: the infer map, a model, a training run's checkpoint, a saved label mask and the
// project file, each written over a previous file of the same name into a folder that is full
// (a small tmpfs), read-only (the tmpfs remounted ro), missing, or whose write is interrupted
// (injected failure or cancel). The previous file must stay byte-identical and open, and no
// temporary may be left beside it.
#include <filesystem>
#include <mutex>

#include <unistd.h>

#include "badinput_common.h"
#include "fisura/infer.h"
#include "fisura/labels.h"
#include "fisura/model.h"
#include "fisura/project.h"
#include "fisura/synth.h"
#include "fisura/testing.h"
#include "fisura/tiledimage.h"
#include "fisura/train.h"

namespace badinput
{

namespace
{

namespace fs = std::filesystem;
using namespace fisura;

enum class Failure { DiskFull, ReadOnly, Interrupted, MissingFolder };

/// One output: what the previous file is, how to write the new one, how to check the old opens.
struct Target {
    std::string file;                ///< name of the output inside the folder
    std::vector<std::string> others; ///< other files that legitimately live in the folder
    std::function<Status(const std::string& dir)> prepare;
    /// Writes the new output into `dir`; `interrupt` asks for an interrupted write.
    std::function<Status(const std::string& dir, bool interrupt)> write;
    std::function<Status(const std::string& path)> opens;
    /// Missing folder: move `dir` to `moved` (the user moved it away) and write into `dir`;
    /// unset: rename, then write().
    std::function<Status(const std::string& dir, const std::string& moved)> writeMoved;
};

ModelConfig tinyUNet()
{
    ModelConfig c;
    c.inputSize = 32;
    c.depth = 2;
    c.width = 4;
    return c;
}

/// A sink that cancels `token` at its first report: a write interrupted once it has begun.
struct CancelOnFirstReport {
    CancelToken token;
    CallbackProgressSink sink{[t = token](const Progress&) mutable { t.cancel(); }};
};

Target mapTarget(const std::string& scratch)
{
    Target t;
    t.file = "map.tif";
    const std::string input = join(scratch, "in.tif");
    t.prepare = [input](const std::string& dir) -> Status {
        if (Status s = writeTiff(input, pattern(96, 80, 3)); !s)
            return s;
        return Status::ok(); // the previous map is written by the first write()
    };
    t.write = [input](const std::string& dir, bool interrupt) -> Status {
        auto model = Model::create(tinyUNet(), interrupt ? 2 : 1);
        if (!model)
            return model.status();
        InferOptions o;
        o.preferCpu = true;
        o.tileSize = 64;
        o.readerThreads = 1;
        o.output.threads = 1;
        auto engine = TiledInference::create(std::move(*model), o);
        if (!engine)
            return engine.status();
        CancelOnFirstReport stop;
        auto r = (*engine)->run(input, join(dir, "map.tif"), interrupt ? stop.token : CancelToken(),
                                interrupt ? &stop.sink : nullptr);
        return r.status();
    };
    t.opens = [](const std::string& path) {
        auto m = TiledImage::open(path);
        return m ? (*m)->readLevel(0).status() : m.status();
    };
    return t;
}

Target modelTarget()
{
    Target t;
    t.file = "cracks.fisura";
    t.prepare = [](const std::string&) { return Status::ok(); };
    t.write = [](const std::string& dir, bool interrupt) -> Status {
        auto m = Model::create(tinyUNet(), 7);
        if (!m)
            return m.status();
        if (interrupt)
            testing::failNextAtomicWriteAfter(1000);
        return m->save(join(dir, "cracks.fisura"));
    };
    t.opens = [](const std::string& path) { return Model::load(path).status(); };
    return t;
}

/// The demo segmentation data (4 small pairs), made once per process.
std::string demoData(const std::string& scratch)
{
    static std::mutex mutex;
    static std::string root;
    std::lock_guard<std::mutex> lock(mutex);
    if (!root.empty() && fs::exists(root))
        return root;
    synth::DemoDatasetOptions o;
    o.segmentationImages = 4;
    o.classificationImages = 2;
    o.patchSize = 64;
    o.scanSize = 0;
    const std::string dir =
        (fs::temp_directory_path() / ("badinput-demo-" + std::to_string(::getpid()))).string();
    if (!synth::writeDemoDataset(dir, o))
        return {};
    root = join(dir, "segmentation");
    return root;
}

Target checkpointTarget(const std::string& scratch)
{
    Target t;
    // A run writes the best model first, then the checkpoint: the model's write is the one that
    // fails; both must survive.
    t.file = "model.fisura";
    t.others = {"checkpoint.ckpt", "model.fisura.split.json"};
    const std::string data = demoData(scratch);
    t.prepare = [](const std::string&) { return Status::ok(); };
    t.write = [data](const std::string& dir, bool interrupt) -> Status {
        TrainOptions o;
        o.task = TaskKind::Segment;
        o.dataDir = data;
        o.outPath = join(dir, "model.fisura");
        o.checkpointPath = join(dir, "checkpoint.ckpt");
        o.epochs = 1;
        o.batchSize = 2;
        o.preferCpu = true;
        o.model = tinyUNet();
        o.loaderThreads = 1;
        o.maxBatchesPerEpoch = 1;
        o.patience = 0;
        o.valFraction = 0.25;
        o.scan.threads = 1;
        o.augment = false;
        if (interrupt)
            testing::failNextAtomicWriteAfter(1000);
        auto r = train(o);
        testing::failNextAtomicWriteAfter(-1);
        return r.status();
    };
    // A checkpoint is opened by resuming from it: its bytes are compared instead (the first
    // training wrote them, so they are a checkpoint that opens).
    t.opens = [](const std::string& path) { return Model::load(path).status(); };
    return t;
}

Target maskTarget()
{
    Target t;
    t.file = "scan.mask.tif";
    t.others = {"scan.tif"};
    t.prepare = [](const std::string& dir) {
        return writeTiff(join(dir, "scan.tif"), pattern(96, 80, 3));
    };
    t.write = [](const std::string& dir, bool interrupt) -> Status {
        LabelLayerOptions lo;
        lo.tileSize = 32;
        auto layer = LabelLayer::open(join(dir, "scan.tif"), lo);
        if (!layer)
            return layer.status();
        auto edit = (*layer)->polyline({{4, 4}, {90, interrupt ? 70.0 : 40.0}}, 3);
        if (!edit)
            return edit.status();
        CancelOnFirstReport stop;
        return (*layer)
            ->save(interrupt ? stop.token : CancelToken(), interrupt ? &stop.sink : nullptr)
            .status();
    };
    t.opens = [](const std::string& path) {
        const std::string image = path.substr(0, path.size() - std::string(".mask.tif").size());
        auto layer = LabelLayer::open(image + ".tif");
        return layer ? (*layer)->readRegion({0, 0, 96, 80}).status() : layer.status();
    };
    return t;
}

Target projectTarget()
{
    Target t;
    t.file = "project.json";
    t.others = {"models", "runs", "maps"};
    t.prepare = [](const std::string& dir) {
        auto p = Project::create(dir, "bridge");
        return p.status();
    };
    t.write = [](const std::string& dir, bool interrupt) -> Status {
        auto p = Project::open(dir);
        if (!p)
            return p.status();
        p->setName("bridge, renamed");
        if (interrupt)
            testing::failNextProjectSaveAt(1);
        return p->save();
    };
    t.opens = [](const std::string& path) { return Project::open(path).status(); };
    t.writeMoved = [](const std::string& dir, const std::string& moved) -> Status {
        auto p = Project::open(dir); // open, then the folder goes away before the next save
        if (!p)
            return p.status();
        fs::rename(dir, moved);
        p->setName("bridge, renamed");
        return p->save();
    };
    return t;
}

Outcome runOutput(const std::string& scratch, const Target& t, Failure f)
{
    Outcome o;
    const std::string dir = join(scratch, "out");
    std::unique_ptr<Tmpfs> mount;
    if (f == Failure::DiskFull || f == Failure::ReadOnly) {
        mount = std::make_unique<Tmpfs>(dir, 2u << 20);
        if (!mount->error().empty()) {
            o.skip = mount->error();
            return o;
        }
    } else {
        fs::create_directories(dir);
    }
    const std::string path = join(dir, t.file);
    o.file = path;
    if (Status s = t.prepare(dir); !s) {
        o.problems = "cannot prepare: " + s.toString();
        return o;
    }
    if (Status s = t.write(dir, false); !s) { // the previous output, written normally
        o.problems = "cannot write the previous output: " + s.toString();
        return o;
    }
    const std::string before = readBytes(path);
    std::map<std::string, std::string> othersBefore; // files beside it must survive too
    for (const std::string& other : t.others)
        if (fs::is_regular_file(join(dir, other)))
            othersBefore[other] = readBytes(join(dir, other));
    std::vector<std::string> expected = t.others;
    expected.push_back(t.file);
    if (f == Failure::DiskFull) {
        mount->fill();
        expected.push_back("filler");
    } else if (f == Failure::ReadOnly) {
        o.problems = mount->makeReadOnly();
    }
    if (f == Failure::MissingFolder) {
        const std::string moved = dir + ".moved";
        if (t.writeMoved) {
            o.status = t.writeMoved(dir, moved);
        } else {
            fs::rename(dir, moved);
            o.status = t.write(dir, false);
        }
        std::error_code ec;
        if (fs::exists(dir, ec))
            o.problems += " " + dir + " was made again";
        o.problems += sameBytes(join(moved, t.file), before);
        return o;
    }
    o.status = t.write(dir, f == Failure::Interrupted);
    o.problems += sameBytes(path, before);
    for (const auto& [other, bytes] : othersBefore)
        o.problems += sameBytes(join(dir, other), bytes);
    if (Status s = t.opens(path); !s)
        o.problems += " the previous output does not open: " + s.toString();
    if (f == Failure::DiskFull || f == Failure::ReadOnly || f == Failure::Interrupted) {
        const std::string extra = leftovers(dir, expected);
        if (!extra.empty())
            o.problems += " " + extra;
    }
    return o;
}

} // namespace

void addOutputRows(std::map<std::string, Runner>& out)
{
    const std::pair<const char*, Failure> failures[] = {{"disk-full", Failure::DiskFull},
                                                        {"read-only", Failure::ReadOnly},
                                                        {"interrupted", Failure::Interrupted},
                                                        {"missing-folder", Failure::MissingFolder}};
    for (const auto& [name, f] : failures) {
        const Failure failure = f;
        out[std::string("out-map/") + name] = [failure](const std::string& s) {
            return runOutput(s, mapTarget(s), failure);
        };
        out[std::string("out-model/") + name] = [failure](const std::string& s) {
            return runOutput(s, modelTarget(), failure);
        };
        out[std::string("out-project/") + name] = [failure](const std::string& s) {
            return runOutput(s, projectTarget(), failure);
        };
        if (failure == Failure::MissingFolder)
            continue; // a checkpoint's and a mask's folders are made by the write itself
        out[std::string("out-checkpoint/") + name] = [failure](const std::string& s) {
            return runOutput(s, checkpointTarget(s), failure);
        };
        out[std::string("out-mask/") + name] = [failure](const std::string& s) {
            return runOutput(s, maskTarget(), failure);
        };
    }
}

} // namespace badinput

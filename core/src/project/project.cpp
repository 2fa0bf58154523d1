// A Fisura project folder: creating, opening, saving (atomically) and copying it, and the records
// of datasets, training runs and analysed scans it keeps.
#include "fisura/project.h"
#include "fisura/testing.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "project/project_paths.h"
#include "util/atomic_file.h"
#include "util/io_error.h"
#include "util/json_bounded.h"

namespace fisura
{

using namespace project_detail;

namespace
{

std::atomic<int> g_failSaveAt{-1};

constexpr const char* kProjectFile = "project.json";

std::string utcStamp(const char* format)
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

/// Write a file the way writeFileAtomic does (temporary, flush, fsync, rename, fsync the folder),
/// with the numbered steps testing::failNextProjectSaveAt() can interrupt.
Status writeProjectFile(const fs::path& path, const std::string& bytes)
{
    const int failAt = g_failSaveAt.exchange(-1);
    const fs::path dir = path.parent_path();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return Status(ErrorCode::NotFound,
                      "no such folder: " + dir.string() + " (to write " + path.string() + ")");
    const auto interrupted = [&](int step) {
        return Status(ErrorCode::IoError, "saving " + path.string() + " was interrupted (step " +
                                              std::to_string(step) + ")");
    };
    if (failAt == 0)
        return interrupted(0);
    removeStaleTemporaries(path.string());
    const std::string tmp = temporaryPathFor(path.string());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int err = errno;
        return writeFailure(path.string(), err,
                            "cannot create " + tmp + " to write " + path.string() + ": " +
                                std::strerror(err));
    }
    const size_t limit = failAt == 1 ? bytes.size() / 2 : bytes.size();
    size_t written = 0;
    int err = 0;
    while (written < limit && !err) {
        const ssize_t n = ::write(fd, bytes.data() + written, limit - written);
        if (n >= 0)
            written += size_t(n);
        else if (errno != EINTR)
            err = errno;
    }
    Status failed;
    if (failAt == 1 || failAt == 2)
        failed = interrupted(failAt);
    else if (!err && ::fsync(fd) != 0)
        err = errno;
    if (::close(fd) != 0 && !err)
        err = errno;
    if (failed.isOk() && !err && failAt == 3)
        failed = interrupted(3);
    if (failed.isOk() && !err && std::rename(tmp.c_str(), path.c_str()) != 0)
        err = errno;
    if (err && failed.isOk())
        failed = writeFailure(path.string(), err,
                              "cannot write " + path.string() + ": " + std::strerror(err));
    if (!failed.isOk()) {
        ::unlink(tmp.c_str());
        return failed;
    }
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return Status::ok();
}

void rebasePath(std::string& p, const fs::path& from, const fs::path& to)
{
    if (p.empty())
        return;
    const fs::path rel = insideOf(normalPath(p), from);
    if (rel.empty())
        return;
    const std::string top = rel.begin()->string();
    if (top == "models" || top == "runs" || top == "maps")
        p = (to / rel).string();
}

/// toJson(ExecutionPolicy) plus each choice's reason id and argument, so the GUI can show the
/// reasons translated when it shows a past run.
std::string policyJson(const ExecutionPolicy& p)
{
    auto parsed = util::parseJson(toJson(p, -1), "execution policy");
    if (!parsed)
        return "{}";
    nlohmann::json& j = *parsed;
    auto& choices = j["choices"];
    for (size_t i = 0; i < p.choices.size() && i < choices.size(); ++i) {
        choices[i]["reason_id"] = p.choices[i].reasonId;
        choices[i]["reason_arg"] = p.choices[i].reasonArg;
    }
    return util::dumpJson(j);
}

} // namespace

void testing::failNextProjectSaveAt(int step)
{
    g_failSaveAt.store(step);
}

const char* runStateName(RunState s)
{
    switch (s) {
    case RunState::Running:
        return "running";
    case RunState::Finished:
        return "finished";
    case RunState::Cancelled:
        return "cancelled";
    case RunState::Paused:
        return "paused";
    case RunState::Failed:
        return "failed";
    }
    return "failed";
}

bool parseRunState(const std::string& text, RunState& out)
{
    for (RunState s : {RunState::Running, RunState::Finished, RunState::Cancelled, RunState::Paused,
                       RunState::Failed})
        if (text == runStateName(s)) {
            out = s;
            return true;
        }
    return false;
}

std::string utcNowIso()
{
    return utcStamp("%Y-%m-%dT%H:%M:%SZ");
}

// ---- the folder ---------------------------------------------------------------------------

Result<Project> Project::create(const std::string& dirText, const std::string& name)
{
    if (dirText.empty())
        return Status(ErrorCode::InvalidArgument, "no project folder given");
    const fs::path dir = normalPath(dirText);
    std::error_code ec;
    if (fs::exists(dir / kProjectFile, ec))
        return Status(ErrorCode::InvalidArgument,
                      "the folder already holds a project: " + (dir / kProjectFile).string());
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        return Status(ErrorCode::InvalidArgument, "not a folder: " + dir.string());
    // What this call creates, deepest last: a failure (a full disk) removes it again, so that
    // no empty project skeleton is left behind. Folders that existed are kept.
    std::vector<fs::path> created;
    for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        created.insert(created.begin(), p);
        if (p == p.parent_path())
            break;
    }
    auto undo = [&](Status s) {
        for (auto it = created.rbegin(); it != created.rend(); ++it)
            fs::remove(*it, ec); // only empty folders go: remove() does not recurse
        return s;
    };
    for (const char* sub : {"models", "runs", "maps"}) {
        if (!fs::exists(dir / sub, ec))
            created.push_back(dir / sub);
        if (fs::create_directories(dir / sub, ec); ec)
            return undo(
                writeFailure((dir / sub).string(), ec.value(),
                             "cannot create " + (dir / sub).string() + ": " + ec.message()));
    }
    Project p;
    p.dir_ = dir.string();
    p.name_ = name.empty() ? dir.filename().string() : name;
    p.createdAt_ = utcNowIso();
    if (Status s = p.save(); !s)
        return undo(s);
    return p;
}

Result<Project> Project::open(const std::string& dirOrFile)
{
    if (dirOrFile.empty())
        return Status(ErrorCode::InvalidArgument, "no project folder given");
    fs::path path = normalPath(dirOrFile);
    std::error_code ec;
    if (fs::is_directory(path, ec))
        path /= kProjectFile;
    if (!fs::exists(path, ec))
        return Status(ErrorCode::NotFound, "no project here: " + path.string());
    if (!fs::is_regular_file(path, ec))
        return Status(ErrorCode::IoError, path.string() + " is not a file");
    auto text = util::readTextFile(path.string());
    if (!text)
        return text.status();
    return fromJson(*text, path.parent_path().string());
}

Status Project::save() const
{
    if (dir_.empty())
        return Status(ErrorCode::InvalidArgument, "the project has no folder");
    std::string text = toJson(2) + "\n";
    if (text.size() > util::kJsonMaxBytes) // never write what open() would refuse
        return Status(ErrorCode::TooLarge, file() + " would be " + std::to_string(text.size()) +
                                               " bytes, more than the " +
                                               std::to_string(util::kJsonMaxBytes) +
                                               " a project file may have; it was not saved");
    return writeProjectFile(fs::path(file()), text);
}

Result<Project> Project::saveAs(const std::string& newDirText) const
{
    if (newDirText.empty())
        return Status(ErrorCode::InvalidArgument, "no project folder given");
    const fs::path from(dir_), to = normalPath(newDirText);
    std::error_code ec;
    if (fs::exists(to / kProjectFile, ec))
        return Status(ErrorCode::InvalidArgument,
                      "the folder already holds a project: " + (to / kProjectFile).string());
    const fs::path inside = insideOf(to, from);
    if (!inside.empty() &&
        (*inside.begin() == "models" || *inside.begin() == "runs" || *inside.begin() == "maps"))
        return Status(ErrorCode::InvalidArgument,
                      "cannot copy a project into its own folders: " + to.string());
    std::vector<fs::path> made; // removed again when the copy fails
    Status failed;
    for (const char* sub : {"models", "runs", "maps"}) {
        if (!fs::exists(to / sub, ec))
            made.push_back(to / sub);
        fs::create_directories(to / sub, ec);
        if (!ec && fs::is_directory(from / sub, ec))
            fs::copy(from / sub, to / sub,
                     fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
        if (ec) {
            failed = writeFailure((to / sub).string(), ec.value(),
                                  "cannot copy " + (from / sub).string() + " to " +
                                      (to / sub).string() + ": " + ec.message());
            break;
        }
    }
    Project copy = *this;
    if (failed.isOk()) {
        copy.dir_ = to.string();
        const auto rebase = [&](std::string& p) { rebasePath(p, from, to); };
        copy.rebaseAll(rebase);
        failed = copy.save();
    }
    if (!failed.isOk()) {
        for (const auto& m : made)
            fs::remove_all(m, ec);
        return failed;
    }
    return copy;
}

void Project::rebaseAll(const std::function<void(std::string&)>& fn)
{
    for (auto& d : datasets_) {
        fn(d.path);
        fn(d.splitPath);
    }
    for (auto& r : runs_) {
        fn(r.datasetPath);
        fn(r.modelPath);
        fn(r.checkpointPath);
        r.optionsJson = mapOptionPaths(r.optionsJson, [&](const std::string& p) {
            std::string q = p;
            fn(q);
            return q;
        });
    }
    for (auto& s : scans_) {
        fn(s.input);
        fn(s.modelPath);
        fn(s.mapPath);
        fn(s.truthPath);
    }
}

std::string Project::file() const
{
    return (fs::path(dir_) / kProjectFile).string();
}

std::string Project::modelsDir() const
{
    return (fs::path(dir_) / "models").string();
}

std::string Project::runsDir() const
{
    return (fs::path(dir_) / "runs").string();
}

std::string Project::mapsDir() const
{
    return (fs::path(dir_) / "maps").string();
}

std::vector<MissingPath> Project::missingPaths() const
{
    std::vector<MissingPath> out;
    std::error_code ec;
    const auto check = [&](const char* kind, const std::string& owner, const std::string& p) {
        if (!p.empty() && !fs::exists(p, ec))
            out.push_back({kind, owner, p});
    };
    for (const auto& d : datasets_) {
        check("dataset", d.id, d.path);
        check("split", d.id, d.splitPath);
    }
    for (const auto& r : runs_) {
        if (r.datasetId.empty() || !findDataset(r.datasetId))
            check("dataset", r.id, r.datasetPath);
        if (r.bestEpoch >= 0) // a model file is written at the first best epoch
            check("model", r.id, r.modelPath);
        if (!r.history.empty()) // a checkpoint is written after every epoch
            check("checkpoint", r.id, r.checkpointPath);
    }
    for (const auto& s : scans_) {
        check("scan", s.id, s.input);
        check("model", s.id, s.modelPath);
        check("map", s.id, s.mapPath);
        check("truth", s.id, s.truthPath);
    }
    return out;
}

// ---- records ------------------------------------------------------------------------------

std::string Project::addDataset(const std::string& pathText, TaskKind task, const std::string& name)
{
    const std::string path = normalPath(pathText).string();
    for (const auto& d : datasets_)
        if (d.path == path && d.task == task)
            return d.id;
    ProjectDataset d;
    do // next_id may lag behind the ids of a hand-edited file
        d.id = "ds-" + std::to_string(nextId_++);
    while (findDataset(d.id));
    d.name = name.empty() ? fs::path(path).filename().string() : name;
    d.path = path;
    d.task = task;
    d.addedAt = utcNowIso();
    datasets_.push_back(d);
    return d.id;
}

ProjectDataset* Project::findDataset(const std::string& id)
{
    auto it = std::find_if(datasets_.begin(), datasets_.end(),
                           [&](const ProjectDataset& d) { return d.id == id; });
    return it == datasets_.end() ? nullptr : &*it;
}

const ProjectDataset* Project::findDataset(const std::string& id) const
{
    return const_cast<Project*>(this)->findDataset(id);
}

ProjectRun* Project::findRun(const std::string& id)
{
    auto it =
        std::find_if(runs_.begin(), runs_.end(), [&](const ProjectRun& r) { return r.id == id; });
    return it == runs_.end() ? nullptr : &*it;
}

const ProjectRun* Project::findRun(const std::string& id) const
{
    return const_cast<Project*>(this)->findRun(id);
}

ProjectScan* Project::findScan(const std::string& id)
{
    auto it = std::find_if(scans_.begin(), scans_.end(),
                           [&](const ProjectScan& s) { return s.id == id; });
    return it == scans_.end() ? nullptr : &*it;
}

std::string Project::beginRun(TrainOptions& o, const std::string& datasetId)
{
    const std::string base = "run-" + utcStamp("%Y%m%d-%H%M%S");
    std::string id = base;
    std::error_code ec;
    for (int n = 2; findRun(id) || fs::exists(fs::path(runsDir()) / id, ec); ++n)
        id = base + "-" + std::to_string(n);
    const fs::path runDir = fs::path(runsDir()) / id;
    fs::create_directories(runDir, ec);
    fs::create_directories(modelsDir(), ec);
    for (std::string* p : {&o.dataDir, &o.outPath, &o.checkpointPath, &o.splitPath, &o.resumeFrom})
        if (!p->empty())
            *p = normalPath(*p).string();
    if (o.outPath.empty())
        o.outPath = (fs::path(modelsDir()) / (id + ".fisura")).string();
    if (o.checkpointPath.empty())
        o.checkpointPath = (runDir / "checkpoint.ckpt").string();
    if (o.splitPath.empty())
        o.splitPath = (runDir / "split.json").string();

    ProjectRun r;
    r.id = id;
    r.datasetId = datasetId;
    if (r.datasetId.empty())
        for (const auto& d : datasets_)
            if (d.path == o.dataDir && d.task == o.task)
                r.datasetId = d.id;
    r.datasetPath = o.dataDir;
    r.task = o.task;
    r.optionsJson = fisura::toJson(o);
    r.modelPath = o.outPath;
    r.checkpointPath = o.checkpointPath;
    r.state = RunState::Running;
    r.startedAt = utcNowIso();
    runs_.push_back(std::move(r));
    return id;
}

bool Project::resumeRun(const std::string& runId, TrainOptions& o)
{
    ProjectRun* r = findRun(runId);
    if (!r || r->checkpointPath.empty())
        return false;
    auto saved = trainOptionsFromJson(r->optionsJson);
    if (!saved)
        return false;
    const int epochs = o.epochs;
    o = *saved;
    o.epochs = std::max(epochs, o.epochs);
    o.resumeFrom = r->checkpointPath;
    o.stopAfterEpoch = 0;
    r->state = RunState::Running;
    r->endedAt.clear();
    r->errorCode.clear();
    r->errorDetail.clear();
    r->optionsJson = fisura::toJson(o);
    return true;
}

void Project::recordEpoch(const std::string& runId, const EpochMetrics& m)
{
    ProjectRun* r = findRun(runId);
    if (!r)
        return;
    auto it = std::find_if(r->history.begin(), r->history.end(),
                           [&](const EpochMetrics& h) { return h.epoch == m.epoch; });
    if (it != r->history.end())
        *it = m;
    else
        r->history.push_back(m);
    if (m.improved) {
        r->bestEpoch = m.epoch;
        r->bestScore = m.score;
    }
}

void Project::finishRun(const std::string& runId, const Result<TrainResult>& result)
{
    ProjectRun* r = findRun(runId);
    if (!r)
        return;
    r->endedAt = utcNowIso();
    if (!result) {
        const Status& s = result.status();
        r->state = s.code() == ErrorCode::Cancelled ? RunState::Cancelled : RunState::Failed;
        r->errorCode = errorCodeName(s.code());
        r->errorDetail = s.detail();
        return;
    }
    const TrainResult& t = *result;
    r->state = t.paused ? RunState::Paused : t.cancelled ? RunState::Cancelled : RunState::Finished;
    r->errorCode.clear();
    r->errorDetail.clear();
    r->history = t.history;
    r->notices = t.notices;
    r->policyJson = policyJson(t.policy);
    r->bestEpoch = t.bestEpoch;
    r->bestScore = t.bestEpoch >= 0 ? t.best.score : -1;
    r->seconds += t.seconds;
    if (!t.modelPath.empty())
        r->modelPath = normalPath(t.modelPath).string();
    if (!t.checkpointPath.empty())
        r->checkpointPath = normalPath(t.checkpointPath).string();
}

std::string Project::recordScan(const ProjectScan& scan)
{
    ProjectScan s = scan;
    for (std::string* p : {&s.input, &s.modelPath, &s.mapPath, &s.truthPath})
        if (!p->empty())
            *p = normalPath(*p).string();
    for (auto& old : scans_)
        if (old.input == s.input && old.modelPath == s.modelPath) {
            s.id = old.id;
            // Analysed again: still the same inspection of the same structure.
            if (s.structure.empty())
                s.structure = old.structure;
            if (s.inspectedOn.empty())
                s.inspectedOn = old.inspectedOn;
            old = s;
            return s.id;
        }
    while (s.id.empty() || findScan(s.id))
        s.id = "scan-" + std::to_string(nextId_++);
    if (s.analysedAt.empty())
        s.analysedAt = utcNowIso();
    scans_.push_back(s);
    return s.id;
}

bool isIsoDate(const std::string& t)
{
    if (t.size() != 10 || t[4] != '-' || t[7] != '-')
        return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (t[i] < '0' || t[i] > '9')
            return false;
    const int y = std::stoi(t.substr(0, 4)), m = std::stoi(t.substr(5, 2)),
              d = std::stoi(t.substr(8, 2));
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return y >= 1900 && m >= 1 && m <= 12 && d >= 1 && d <= days[m - 1] + (m == 2 && leap ? 1 : 0);
}

} // namespace fisura

// Dataset scans and splits: paths, labels and sizes only; pixels are decoded once to verify.
#include "fisura/dataset.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "data/split_text.h"
#include "fisura/image.h"
#include "util/atomic_file.h"
#include "util/json_bounded.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace fisura
{

namespace
{

uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Fisher-Yates with our own generator: the same order with every standard library.
void shuffleSeeded(std::vector<int>& v, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = v.size(); i > 1; --i) {
        s = splitmix(s);
        std::swap(v[i - 1], v[s % i]);
    }
}

std::vector<fs::path> listImages(const fs::path& dir, bool recursive)
{
    std::vector<fs::path> out;
    std::error_code ec;
    if (recursive) {
        for (auto it = fs::recursive_directory_iterator(dir, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec) && hasImageExtension(it->path().string()))
                out.push_back(it->path());
    } else {
        for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
             it.increment(ec))
            if (it->is_regular_file(ec) && hasImageExtension(it->path().string()))
                out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string relDir(const fs::path& file, const fs::path& root)
{
    return file.parent_path().lexically_relative(root).generic_string();
}

const FolderRule* matchRule(const std::vector<FolderRule>& rules, const std::string& rel)
{
    const std::string leaf = fs::path(rel).filename().string();
    for (const auto& r : rules)
        if (r.folder == rel)
            return &r;
    for (const auto& r : rules)
        if (r.folder.find('/') == std::string::npos && r.folder == leaf)
            return &r;
    return nullptr;
}

} // namespace

const char* taskName(TaskKind t)
{
    switch (t) {
    case TaskKind::Classify:
        return "classify";
    case TaskKind::Segment:
        return "segment";
    case TaskKind::Anomaly:
        return "anomaly";
    }
    return "classify";
}

bool parseTask(const std::string& text, TaskKind& out)
{
    for (TaskKind t : {TaskKind::Classify, TaskKind::Segment, TaskKind::Anomaly})
        if (text == taskName(t)) {
            out = t;
            return true;
        }
    return false;
}

std::vector<FolderRule> sdnet2018Rules()
{
    return {{"CD", "cracked"},   {"CP", "cracked"},   {"CW", "cracked"},
            {"UD", "uncracked"}, {"UP", "uncracked"}, {"UW", "uncracked"}};
}

int Dataset::positiveClass() const
{
    for (size_t i = 0; i < classes.size(); ++i)
        if (classes[i] == "cracked" || classes[i] == "crack")
            return int(i);
    return classes.size() > 1 ? 1 : 0;
}

namespace
{

/// Segmentation: images/<stem>.* paired with masks/<stem>.*; the unpaired are listed.
Status listSegmentationPairs(const fs::path& root, const std::string& dir, Dataset& d,
                             std::vector<DatasetItem>& out)
{
    std::error_code ec;
    const fs::path imgDir = root / "images", maskDir = root / "masks";
    if (!fs::is_directory(imgDir, ec) || !fs::is_directory(maskDir, ec))
        return Status(ErrorCode::NotFound,
                      "a segmentation dataset needs images/ and masks/ in " + dir);
    std::map<std::string, fs::path> masks;
    for (const auto& m : listImages(maskDir, false)) {
        const std::string stem = m.stem().string();
        if (masks.count(stem))
            d.problems.push_back({m.generic_string(), "duplicate mask stem"});
        else
            masks[stem] = m;
    }
    std::set<std::string> used;
    for (const auto& im : listImages(imgDir, false)) {
        const std::string stem = im.stem().string();
        auto it = masks.find(stem);
        if (it == masks.end()) {
            d.problems.push_back({im.generic_string(), "image without mask"});
            continue;
        }
        if (!used.insert(stem).second) {
            d.problems.push_back({im.generic_string(), "duplicate image stem"});
            continue;
        }
        DatasetItem item;
        item.image = im.generic_string();
        item.mask = it->second.generic_string();
        out.push_back(item);
    }
    for (const auto& [stem, m] : masks)
        if (!used.count(stem))
            d.problems.push_back({m.generic_string(), "mask without image"});
    return Status::ok();
}

/// Classification: the class of an image comes from its folder (rules, SDNET2018 or the
/// top-level folder name); classes are sorted and labels index them.
void listClassified(const fs::path& root, const ScanOptions& options, Dataset& d,
                    std::vector<DatasetItem>& out)
{
    const auto files = listImages(root, true);
    std::vector<FolderRule> rules = options.rules;
    if (rules.empty()) {
        // SDNET2018 when every image sits in a folder whose name a SDNET2018 rule knows.
        const auto sd = sdnet2018Rules();
        const bool looksSdnet =
            !files.empty() && std::all_of(files.begin(), files.end(), [&](const fs::path& f) {
                return matchRule(sd, relDir(f, root)) != nullptr;
            });
        if (looksSdnet)
            rules = sd;
    }
    std::vector<std::string> labelNames; // per item
    for (const auto& f : files) {
        const std::string rel = relDir(f, root);
        std::string cls;
        if (!rules.empty()) {
            if (const FolderRule* r = matchRule(rules, rel))
                cls = r->className;
        } else if (!rel.empty() && rel != ".") {
            cls = rel.substr(0, rel.find('/'));
        }
        if (cls.empty()) {
            d.problems.push_back({f.generic_string(), "no class folder rule matches"});
            continue;
        }
        DatasetItem item;
        item.image = f.generic_string();
        out.push_back(item);
        labelNames.push_back(cls);
    }
    std::set<std::string> names(labelNames.begin(), labelNames.end());
    d.classes.assign(names.begin(), names.end());
    for (size_t i = 0; i < out.size(); ++i)
        out[i].label = int(std::lower_bound(d.classes.begin(), d.classes.end(), labelNames[i]) -
                           d.classes.begin());
}

/// Why `item` is unusable (empty when it is fine); fills its size.
std::string verifyItem(DatasetItem& item)
{
    auto img = readImage(item.image);
    if (!img)
        return "unreadable: " + img.status().toString();
    item.width = img->width;
    item.height = img->height;
    if (item.mask.empty())
        return {};
    auto mask = readImage(item.mask);
    if (!mask)
        return "unreadable mask: " + mask.status().toString();
    if (mask->width != img->width || mask->height != img->height)
        return "mask size " + std::to_string(mask->width) + "x" + std::to_string(mask->height) +
               " differs from image " + std::to_string(img->width) + "x" +
               std::to_string(img->height);
    return {};
}

/// Decode every file once, on `options.threads` threads: one failure text per item.
Result<std::vector<std::string>> verifyItems(std::vector<DatasetItem>& items,
                                             const ScanOptions& options, const CancelToken& cancel,
                                             ProgressSink* progress)
{
    std::vector<std::string> failure(items.size());
    if (!options.verify || items.empty())
        return failure;
    std::atomic<size_t> nextItem{0}, done{0};
    std::mutex progressMutex;
    ProgressTracker tracker(progress, double(items.size()));
    auto worker = [&] {
        for (size_t i = nextItem++; i < items.size(); i = nextItem++) {
            if (cancel.isCancelled())
                return;
            failure[i] = verifyItem(items[i]);
            const size_t n = ++done;
            std::lock_guard<std::mutex> lock(progressMutex);
            tracker.update(double(n),
                           "scanned " + std::to_string(n) + "/" + std::to_string(items.size()));
        }
    };
    int threads = options.threads > 0 ? options.threads
                                      : int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min<int>(threads, int(items.size()));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    if (cancel.isCancelled())
        return Status(ErrorCode::Cancelled, "scan cancelled");
    tracker.finish("scanned");
    return failure;
}

/// Counts per class and the size statistics of the usable items.
void summarise(Dataset& d)
{
    if (d.task == TaskKind::Classify) {
        d.classCounts.assign(d.classes.size(), 0);
        for (const auto& it : d.items)
            ++d.classCounts[size_t(it.label)];
    } else {
        d.classCounts = {int(d.items.size())};
    }
    SizeStats& s = d.sizes;
    for (const auto& it : d.items) {
        if (it.width <= 0)
            continue;
        if (s.count == 0) {
            s.minWidth = s.maxWidth = it.width;
            s.minHeight = s.maxHeight = it.height;
        }
        ++s.count;
        s.minWidth = std::min(s.minWidth, it.width);
        s.maxWidth = std::max(s.maxWidth, it.width);
        s.minHeight = std::min(s.minHeight, it.height);
        s.maxHeight = std::max(s.maxHeight, it.height);
        s.meanWidth += it.width;
        s.meanHeight += it.height;
    }
    if (s.count) {
        s.meanWidth /= s.count;
        s.meanHeight /= s.count;
    }
}

} // namespace

Result<Dataset> scanDataset(const std::string& dir, TaskKind task, const ScanOptions& options,
                            const CancelToken& cancel, ProgressSink* progress)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return Status(ErrorCode::NotFound, "not a folder: " + dir);
    // Absolute paths: a saved split names files relative to the root, whatever the caller's cwd.
    const fs::path root = fs::absolute(fs::path(dir), ec).lexically_normal();

    Dataset d;
    d.task = task;
    d.root = root.generic_string();
    std::vector<DatasetItem> candidates;
    if (task == TaskKind::Segment) {
        if (Status s = listSegmentationPairs(root, dir, d, candidates); !s)
            return s;
    } else if (task == TaskKind::Anomaly) {
        for (const auto& im : listImages(root, true)) {
            DatasetItem item;
            item.image = im.generic_string();
            candidates.push_back(item);
        }
    } else {
        listClassified(root, options, d, candidates);
    }

    auto failure = verifyItems(candidates, options, cancel, progress);
    if (!failure)
        return failure.status();
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (!(*failure)[i].empty()) {
            d.problems.push_back({candidates[i].image, (*failure)[i]});
            continue;
        }
        d.items.push_back(std::move(candidates[i]));
    }
    if (d.items.empty())
        return Status(ErrorCode::NotFound, std::string("no usable ") + taskName(task) +
                                               " images in " + dir + " (" +
                                               std::to_string(d.problems.size()) + " problems)");
    summarise(d);
    return d;
}

std::string datasetSummaryJson(const Dataset& d, int indent)
{
    json j;
    j["task"] = taskName(d.task);
    j["root"] = d.root;
    j["items"] = d.items.size();
    if (d.task == TaskKind::Classify) {
        json c = json::object();
        for (size_t i = 0; i < d.classes.size(); ++i)
            c[d.classes[i]] = d.classCounts[i];
        j["classes"] = c;
    }
    j["sizes"] = {{"count", d.sizes.count},           {"min_width", d.sizes.minWidth},
                  {"max_width", d.sizes.maxWidth},    {"min_height", d.sizes.minHeight},
                  {"max_height", d.sizes.maxHeight},  {"mean_width", d.sizes.meanWidth},
                  {"mean_height", d.sizes.meanHeight}};
    j["problem_count"] = d.problems.size();
    json p = json::array();
    for (size_t i = 0; i < d.problems.size() && i < 50; ++i)
        p.push_back({{"path", d.problems[i].path}, {"reason", d.problems[i].reason}});
    j["problems"] = p;
    return util::dumpJson(j, indent);
}

DatasetSplit makeSplit(const Dataset& d, double valFraction, double testFraction, uint64_t seed)
{
    DatasetSplit s;
    s.seed = seed;
    s.valFraction = std::clamp(valFraction, 0.0, 1.0);
    s.testFraction = std::clamp(testFraction, 0.0, 1.0 - s.valFraction);
    // Strata: classes for classification, one stratum otherwise.
    std::map<int, std::vector<int>> strata;
    for (size_t i = 0; i < d.items.size(); ++i)
        strata[d.task == TaskKind::Classify ? d.items[i].label : 0].push_back(int(i));
    for (auto& [label, idx] : strata) {
        shuffleSeeded(idx, splitmix(seed ^ (uint64_t(label + 1) * 0x1000193ull)));
        const int n = int(idx.size());
        int nVal = int(std::lround(n * s.valFraction));
        int nTest = int(std::lround(n * s.testFraction));
        if (s.valFraction > 0 && nVal == 0 && n >= 2)
            nVal = 1;
        if (s.testFraction > 0 && nTest == 0 && n - nVal >= 2)
            nTest = 1;
        nTest = std::min(nTest, n - nVal);
        s.val.insert(s.val.end(), idx.begin(), idx.begin() + nVal);
        s.test.insert(s.test.end(), idx.begin() + nVal, idx.begin() + nVal + nTest);
        s.train.insert(s.train.end(), idx.begin() + nVal + nTest, idx.end());
    }
    std::sort(s.train.begin(), s.train.end());
    std::sort(s.val.begin(), s.val.end());
    std::sort(s.test.begin(), s.test.end());
    return s;
}

Status saveSplit(const std::string& path, const Dataset& d, const DatasetSplit& split)
{
    const fs::path root(d.root);
    auto names = [&](const std::vector<int>& idx) {
        json a = json::array();
        for (int i : idx)
            a.push_back(
                fs::path(d.items[size_t(i)].image).lexically_relative(root).generic_string());
        return a;
    };
    json j{{"format", "fisura-split"},          {"version", 1},
           {"task", taskName(d.task)},          {"seed", split.seed},
           {"val_fraction", split.valFraction}, {"test_fraction", split.testFraction},
           {"train", names(split.train)},       {"val", names(split.val)},
           {"test", names(split.test)}};
    return writeFileAtomic(path, util::dumpJson(j, 1));
}

Result<DatasetSplit> loadSplit(const std::string& path, const Dataset& d)
{
    auto text = util::readTextFile(path);
    if (!text)
        return Status(text.status().code(), "split file: " + text.status().detail());
    return parseSplit(*text, d, path);
}

Result<DatasetSplit> parseSplit(const std::string& text, const Dataset& d, const std::string& name)
{
    auto parsed = util::parseJson<json>(text, name);
    if (!parsed)
        return parsed.status();
    const json& j = *parsed;
    if (!j.is_object() || j.value("format", json()) != "fisura-split")
        return Status(ErrorCode::Corrupt, name + " is not a Fisura split file");
    const fs::path root(d.root);
    std::map<std::string, int> byName;
    for (size_t i = 0; i < d.items.size(); ++i)
        byName[fs::path(d.items[i].image).lexically_relative(root).generic_string()] = int(i);
    DatasetSplit s;
    try {
        // A seed beyond uint64 parses as a float, which get<uint64_t>() would convert with UB.
        if (const auto seed = j.find("seed"); seed != j.end()) {
            if (!seed->is_number_unsigned())
                return Status(ErrorCode::Corrupt, name + ": \"seed\" is not a 64-bit seed");
            s.seed = seed->get<uint64_t>();
        }
        s.valFraction = j.value("val_fraction", 0.0);
        s.testFraction = j.value("test_fraction", 0.0);
    } catch (const json::exception& e) {
        return Status(ErrorCode::Corrupt, name + ": " + e.what());
    }
    for (auto [key, out] : {std::pair<const char*, std::vector<int>*>{"train", &s.train},
                            {"val", &s.val},
                            {"test", &s.test}}) {
        if (!j.contains(key) || !j[key].is_array())
            return Status(ErrorCode::Corrupt, name + ": missing \"" + key + "\"");
        for (const auto& entry : j[key]) {
            if (!entry.is_string())
                return Status(ErrorCode::Corrupt, name + ": \"" + key + "\" holds a non-name");
            auto it = byName.find(entry.get<std::string>());
            if (it == byName.end())
                return Status(ErrorCode::Corrupt, name + " names " + entry.get<std::string>() +
                                                      ", which this dataset does not have");
            out->push_back(it->second);
        }
    }
    return s;
}

} // namespace fisura

// Procedural crack scenes. Surfaces are multi-scale noise with surface-specific structure
// (pores, aggregate, brick courses); cracks are branching random walks whose width drifts
// between a minimum and a maximum. The mask is drawn with the very same primitives, so it is
// exact: a pixel is darkened as crack if and only if its mask value is 255.
#include "fisura/synth.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "fisura/version.h"
#include "util/json_bounded.h"
#include "synth/synth_impl.h"

namespace fs = std::filesystem;

namespace fisura::synth
{

const char* surfaceName(Surface s)
{
    switch (s) {
    case Surface::Concrete:
        return "concrete";
    case Surface::Asphalt:
        return "asphalt";
    case Surface::Masonry:
        return "masonry";
    }
    return "concrete";
}

namespace
{

using detail::kPi;
using detail::noiseLayer;

cv::Mat surfaceTexture(cv::RNG& rng, Surface surface, int w, int h)
{
    cv::Mat lum(h, w, CV_32F);
    cv::Vec3f tint;
    switch (surface) {
    case Surface::Concrete: {
        lum.setTo(160.0 + rng.uniform(-15.0, 15.0));
        lum += noiseLayer(rng, w, h, 96, 10) + noiseLayer(rng, w, h, 12, 6) +
               noiseLayer(rng, w, h, 1, 7);
        // Air pores: small dark specks.
        const int pores = w * h / 2500;
        for (int i = 0; i < pores; ++i)
            cv::circle(lum, {rng.uniform(0, w), rng.uniform(0, h)}, rng.uniform(1, 3),
                       cv::Scalar(rng.uniform(95.0, 130.0)), cv::FILLED, cv::LINE_AA);
        tint = {1.00f, 0.98f, 0.94f};
        break;
    }
    case Surface::Asphalt: {
        lum.setTo(92.0 + rng.uniform(-10.0, 10.0));
        lum += noiseLayer(rng, w, h, 64, 6) + noiseLayer(rng, w, h, 1, 10);
        // Aggregate: many small light and dark stones.
        const int stones = w * h / 180;
        for (int i = 0; i < stones; ++i)
            cv::circle(lum, {rng.uniform(0, w), rng.uniform(0, h)}, rng.uniform(1, 4),
                       cv::Scalar(rng.uniform(55.0, 150.0)), cv::FILLED, cv::LINE_AA);
        cv::GaussianBlur(lum, lum, cv::Size(3, 3), 0.6);
        tint = {0.97f, 0.98f, 1.00f};
        break;
    }
    case Surface::Masonry: {
        lum.setTo(120.0);
        const int course = std::max(16, rng.uniform(28, 44));
        const int brick = course * 2 + rng.uniform(0, course);
        for (int y = 0, row = 0; y < h; y += course, ++row) {
            const int offset = (row % 2) * brick / 2;
            for (int x = -offset; x < w; x += brick)
                cv::rectangle(lum, {x + 2, y + 2}, {x + brick - 3, y + course - 3},
                              cv::Scalar(rng.uniform(105.0, 135.0)), cv::FILLED);
            cv::line(lum, {0, y}, {w, y}, cv::Scalar(175.0), 3);
        }
        lum += noiseLayer(rng, w, h, 8, 6) + noiseLayer(rng, w, h, 1, 6);
        tint = {1.25f, 0.85f, 0.70f};
        break;
    }
    }
    cv::Mat rgb(h, w, CV_32FC3);
    for (int y = 0; y < h; ++y) {
        const float* l = lum.ptr<float>(y);
        auto* o = rgb.ptr<cv::Vec3f>(y);
        for (int x = 0; x < w; ++x)
            o[x] = {l[x] * tint[0], l[x] * tint[1], l[x] * tint[2]};
    }
    return rgb;
}

struct Walker {
    cv::Point2d p;
    double angle;
    double width;
    double length; // px still to walk
    int depth;
};

void drawCracks(cv::RNG& rng, const SceneOptions& o, cv::Mat& mask)
{
    const int w = mask.cols, h = mask.rows;
    const double diag = std::hypot(w, h);
    std::vector<Walker> todo;
    for (int i = 0; i < o.cracks; ++i) {
        Walker wk;
        wk.p = {rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h};
        wk.angle = rng.uniform(0.0, 2 * kPi);
        wk.width = rng.uniform(o.minWidthPx, o.maxWidthPx);
        wk.length = rng.uniform(0.35, 0.9) * diag;
        wk.depth = 0;
        todo.push_back(wk);
        // Cracks usually run through the whole field: also walk the other way from the start.
        Walker back = wk;
        back.angle += kPi;
        back.length *= rng.uniform(0.3, 0.8);
        todo.push_back(back);
    }
    const double step = 2.5;
    while (!todo.empty()) {
        Walker wk = todo.back();
        todo.pop_back();
        double heading = wk.angle; // slowly drifting main direction
        while (wk.length > 0) {
            heading += rng.gaussian(0.04);
            wk.angle = 0.75 * wk.angle + 0.25 * heading + rng.gaussian(0.25);
            const cv::Point2d q = wk.p + step * cv::Point2d(std::cos(wk.angle), std::sin(wk.angle));
            wk.width = std::clamp(wk.width + rng.gaussian(0.12), o.minWidthPx, o.maxWidthPx);
            const int thickness = std::max(1, static_cast<int>(std::lround(wk.width)));
            cv::line(mask, wk.p, q, cv::Scalar(255), thickness, cv::LINE_8);
            wk.p = q;
            wk.length -= step;
            if (q.x < -8 || q.y < -8 || q.x > w + 8 || q.y > h + 8)
                break;
            if (wk.depth < 3 && rng.uniform(0.0, 1.0) < o.branchProbability * step / 120.0) {
                Walker b = wk;
                b.angle += (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.35, 1.1);
                b.width = std::max(o.minWidthPx, wk.width * rng.uniform(0.4, 0.8));
                b.length = wk.length * rng.uniform(0.15, 0.5);
                b.depth = wk.depth + 1;
                todo.push_back(b);
            }
        }
    }
}

} // namespace

Result<Scene> generateScene(const SceneOptions& o)
{
    if (o.width < 16 || o.height < 16 || o.width > 16384 || o.height > 16384)
        return Status(ErrorCode::InvalidArgument, "scene size must be 16..16384 px a side");
    if (o.cracks < 0 || o.minWidthPx <= 0 || o.maxWidthPx < o.minWidthPx)
        return Status(ErrorCode::InvalidArgument, "crack count or width range is invalid");
    if (o.style == SceneStyle::Realistic)
        return detail::realisticScene(o);

    cv::RNG rng(o.seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
    cv::Mat rgb = surfaceTexture(rng, o.surface, o.width, o.height);
    cv::Mat mask = cv::Mat::zeros(o.height, o.width, CV_8U);
    drawCracks(rng, o, mask);

    // Crack pixels: dark, slightly noisy interior (shadowed void), darker than any texture.
    cv::Mat shade = noiseLayer(rng, o.width, o.height, 3, 0.05);
    Scene scene;
    scene.image = Image::make(o.width, o.height, 3);
    scene.mask = Image::make(o.width, o.height, 1);
    for (int y = 0; y < o.height; ++y) {
        const auto* src = rgb.ptr<cv::Vec3f>(y);
        const uint8_t* m = mask.ptr<uint8_t>(y);
        const float* s = shade.ptr<float>(y);
        uint8_t* out = scene.image.row(y);
        uint8_t* mo = scene.mask.row(y);
        for (int x = 0; x < o.width; ++x) {
            const float k = m[x] ? std::clamp(0.28f + s[x], 0.15f, 0.40f) : 1.0f;
            for (int c = 0; c < 3; ++c)
                out[3 * x + c] = cv::saturate_cast<uint8_t>(src[x][c] * k);
            mo[x] = m[x];
        }
    }
    return scene;
}

Result<DemoDatasetSummary> writeDemoDataset(const std::string& dir, const DemoDatasetOptions& o,
                                            const CancelToken& cancel, ProgressSink* progress)
{
    if (o.patchSize < 32 || o.patchSize > 2048 || o.segmentationImages < 0 ||
        o.classificationImages < 0 || (o.scanSize != 0 && (o.scanSize < 256 || o.scanSize > 16384)))
        return Status(ErrorCode::InvalidArgument, "demo dataset sizes are out of range");

    const fs::path root(dir);
    const fs::path manifestPath = root / "manifest.json";
    std::error_code ec;
    if (fs::exists(root, ec)) {
        if (!fs::is_directory(root, ec))
            return Status(ErrorCode::InvalidArgument, dir + " exists and is not a folder");
        const bool empty = fs::directory_iterator(root, ec) == fs::directory_iterator();
        bool ours = false;
        if (!empty && fs::exists(manifestPath)) {
            auto text = util::readTextFile(manifestPath.string(), 1 << 20);
            const auto j = text ? util::parseJsonOrNull(*text) : nlohmann::json();
            ours = j.is_object() && j.value("generator", "") == "fisura-demo";
        }
        if (!empty && !ours)
            return Status(ErrorCode::InvalidArgument,
                          dir + " is not empty and holds no Fisura demo dataset");
    }
    for (const char* sub : {"segmentation/images", "segmentation/masks", "classification/cracked",
                            "classification/uncracked", "scan"}) {
        fs::create_directories(root / sub, ec);
        if (ec)
            return Status(ErrorCode::IoError, (root / sub).string() + ": " + ec.message());
    }

    // Work units: one per patch, the scan counts as many patches as its area.
    const double scanUnits =
        o.scanSize ? double(o.scanSize) * o.scanSize / (double(o.patchSize) * o.patchSize) / 4 : 0;
    const double total = o.segmentationImages + 2.0 * o.classificationImages + scanUnits;
    ProgressTracker tracker(progress, total);
    double done = 0;
    DemoDatasetSummary summary;
    summary.root = fs::absolute(root).string();

    auto surfaceFor = [](uint64_t i) { return static_cast<Surface>(i % 3); };
    auto name = [](const char* prefix, int i) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s_%04d.tif", prefix, i);
        return std::string(buf);
    };
    auto step = [&](const std::string& what) -> Status {
        done += 1;
        tracker.update(done, what);
        return cancel.isCancelled() ? Status(ErrorCode::Cancelled, dir) : Status::ok();
    };

    for (int i = 0; i < o.segmentationImages; ++i) {
        SceneOptions so;
        so.width = so.height = o.patchSize;
        so.seed = o.seed * 1000003ull + i;
        so.surface = surfaceFor(i);
        so.cracks = (i % 10 == 9) ? 0 : 1 + i % 3; // one in ten is crack-free
        auto scene = generateScene(so);
        if (!scene)
            return scene.status();
        const std::string stem = name("seg", i);
        if (Status s = writeTiff((root / "segmentation/images" / stem).string(), scene->image); !s)
            return s;
        if (Status s = writeTiff((root / "segmentation/masks" / stem).string(), scene->mask); !s)
            return s;
        ++summary.segmentationPairs;
        if (Status s = step("segmentation " + stem); !s)
            return s;
    }
    for (int cls = 0; cls < 2; ++cls)
        for (int i = 0; i < o.classificationImages; ++i) {
            SceneOptions so;
            so.width = so.height = o.patchSize;
            so.seed = o.seed * 7000003ull + 2 * i + cls + 17;
            so.surface = surfaceFor(i + cls);
            so.cracks = cls == 0 ? 1 + i % 2 : 0;
            auto scene = generateScene(so);
            if (!scene)
                return scene.status();
            const std::string file = name(cls == 0 ? "crk" : "unc", i);
            const fs::path p =
                root / "classification" / (cls == 0 ? "cracked" : "uncracked") / file;
            if (Status s = writeTiff(p.string(), scene->image); !s)
                return s;
            ++(cls == 0 ? summary.cracked : summary.uncracked);
            if (Status s = step("classification " + file); !s)
                return s;
        }
    if (o.scanSize) {
        SceneOptions so;
        so.width = so.height = o.scanSize;
        so.seed = o.seed * 31ull + 5;
        so.surface = Surface::Concrete;
        so.cracks = std::max(2, o.scanSize / 700);
        so.maxWidthPx = 6.0;
        auto scene = generateScene(so);
        if (!scene)
            return scene.status();
        TiffWriteOptions wo;
        wo.tileSize = 256;
        wo.pixelSizeMm = 0.2;
        const fs::path scanPath = root / "scan" / "demo_scan.tif";
        if (Status s = writeTiff(scanPath.string(), scene->image, wo); !s)
            return s;
        if (Status s = writeTiff((root / "scan" / "demo_scan_mask.tif").string(), scene->mask, wo);
            !s)
            return s;
        summary.scanPath = fs::absolute(scanPath).string();
        done += scanUnits - 1;
        if (Status s = step("scan"); !s)
            return s;
    }

    nlohmann::json j;
    j["generator"] = "fisura-demo";
    j["fisura_version"] = version();
    j["seed"] = o.seed;
    j["patch_size"] = o.patchSize;
    j["segmentation_pairs"] = summary.segmentationPairs;
    j["cracked"] = summary.cracked;
    j["uncracked"] = summary.uncracked;
    j["scan"] = o.scanSize ? "scan/demo_scan.tif" : "";
    j["scan_pixel_size_mm"] = o.scanSize ? 0.2 : 0.0;
    const fs::path tmp = manifestPath.string() + ".part";
    {
        std::ofstream out(tmp);
        out << util::dumpJson(j, 2) << '\n';
        if (!out.flush())
            return Status(ErrorCode::IoError, tmp.string());
    }
    fs::rename(tmp, manifestPath, ec);
    if (ec)
        return Status(ErrorCode::IoError, manifestPath.string() + ": " + ec.message());
    tracker.finish("done");
    return summary;
}

} // namespace fisura::synth

// `fisura-cli evaluate --model M --data DIR [--split SPLIT]`: what a trained model does on the
// validation part of its split (precision-recall curve, confusion matrix or error histogram,
// best and worst samples), or on every image of a plain images/ + masks/ folder; segmentation
// models are also scored by the crack protocol (ODS, OIS, mIoU at a pixel tolerance).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli_lang.h"
#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/evaluate.h"
#include "signals.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

struct EvaluateArgs {
    std::string model, data, split;
    int maxItems = 0;
    int gallery = 6;
    int curvePoints = 51;
    int bins = 40;
    int tolerance = 2;
    bool cpu = false;
    bool json = false;
    bool quiet = false;
    fisura::ModelLoadOptions load;
};

nlohmann::json galleryJson(const std::vector<fisura::GallerySample>& v)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto& s : v) {
        nlohmann::json j{
            {"item", s.item}, {"image", fisura::bytesToUtf8(s.image)}, {"quality", s.quality}};
        if (!s.mask.empty())
            j["mask"] = fisura::bytesToUtf8(s.mask);
        if (s.trueLabel >= 0) {
            j["true_label"] = s.trueLabel;
            j["predicted_label"] = s.predictedLabel;
        }
        if (s.trueLabel >= 0 || s.mask.empty())
            j["value"] = s.value;
        a.push_back(std::move(j));
    }
    return a;
}

nlohmann::json crackJson(const fisura::CrackScores& c)
{
    return {{"images", c.images},
            {"tolerance_px", c.tolerancePx},
            {"threshold", c.threshold},
            {"precision", c.precision},
            {"recall", c.recall},
            {"f1", c.f1},
            {"ods_threshold", c.odsThreshold},
            {"ods_precision", c.odsPrecision},
            {"ods_recall", c.odsRecall},
            {"ods_f1", c.odsF1},
            {"ois_precision", c.oisPrecision},
            {"ois_recall", c.oisRecall},
            {"ois_f1", c.oisF1},
            {"miou", c.miou},
            {"crack_iou", c.crackIou}};
}

nlohmann::json reportJson(const fisura::EvaluationReport& r)
{
    nlohmann::json j{{"task", fisura::taskName(r.task)}, {"items", r.items},
                     {"threshold", r.threshold},         {"seconds", r.seconds},
                     {"best", galleryJson(r.best)},      {"worst", galleryJson(r.worst)}};
    if (r.task == fisura::TaskKind::Segment) {
        nlohmann::json c = nlohmann::json::array();
        for (const auto& p : r.prCurve)
            c.push_back({{"threshold", p.threshold},
                         {"precision", p.precision},
                         {"recall", p.recall},
                         {"f1", p.f1},
                         {"iou", p.iou}});
        j["pr_curve"] = std::move(c);
        if (r.hasCrackScores)
            j["crack_scores"] = crackJson(r.crack);
    } else if (r.task == fisura::TaskKind::Classify) {
        j["classes"] = r.classes;
        j["confusion"] = r.confusion;
    } else {
        j["errors"] = r.errors;
        j["histogram_edges"] = r.histogramEdges;
        j["histogram"] = r.histogram;
    }
    return j;
}

/// The curve point nearest to the model's threshold.
const fisura::PrPoint* pointAt(const fisura::EvaluationReport& r)
{
    const fisura::PrPoint* best = nullptr;
    for (const auto& p : r.prCurve)
        if (!best || std::abs(p.threshold - r.threshold) < std::abs(best->threshold - r.threshold))
            best = &p;
    return best;
}

void printCrackScores(const fisura::CrackScores& c)
{
    std::printf("Crack protocol over %d whole images, tolerance %d px (Euclidean):\n", c.images,
                c.tolerancePx);
    std::printf("  at the model's threshold %s: precision %s, recall %s, F1 %s\n",
                num(c.threshold, 2).c_str(), num(c.precision, 3).c_str(), num(c.recall, 3).c_str(),
                num(c.f1, 3).c_str());
    std::printf("  ODS F1 %s (threshold %s: precision %s, recall %s)\n", num(c.odsF1, 3).c_str(),
                num(c.odsThreshold, 2).c_str(), num(c.odsPrecision, 3).c_str(),
                num(c.odsRecall, 3).c_str());
    std::printf("  OIS F1 %s (precision %s, recall %s)\n", num(c.oisF1, 3).c_str(),
                num(c.oisPrecision, 3).c_str(), num(c.oisRecall, 3).c_str());
    std::printf("  mIoU %s, crack IoU %s (pixel-exact, at the ODS threshold)\n",
                num(c.miou, 3).c_str(), num(c.crackIou, 3).c_str());
}

void printText(const fisura::EvaluationReport& r, bool wholeFolder)
{
    std::printf("Evaluated %d %simages (%s) in %s s; threshold %s\n", r.items,
                wholeFolder ? "" : "validation ", fisura::taskName(r.task),
                num(r.seconds, 1).c_str(), numg(r.threshold, 4).c_str());
    if (r.hasCrackScores)
        printCrackScores(r.crack);
    if (wholeFolder)
        return;
    if (r.task == fisura::TaskKind::Segment) {
        if (const auto* p = pointAt(r))
            std::printf("At threshold %s: precision %s, recall %s, F1 %s, IoU %s\n",
                        num(p->threshold, 2).c_str(), num(p->precision, 3).c_str(),
                        num(p->recall, 3).c_str(), num(p->f1, 3).c_str(), num(p->iou, 3).c_str());
        const fisura::PrPoint* top = nullptr;
        for (const auto& p : r.prCurve)
            if (!top || p.f1 > top->f1)
                top = &p;
        if (top)
            std::printf("Best F1 %s at threshold %s\n", num(top->f1, 3).c_str(),
                        num(top->threshold, 2).c_str());
    } else if (r.task == fisura::TaskKind::Classify) {
        std::printf("Confusion matrix (rows: true class, columns: predicted)\n");
        for (size_t t = 0; t < r.confusion.size(); ++t) {
            std::printf("  %-14s", r.classes[t].c_str());
            for (int64_t n : r.confusion[t])
                std::printf(" %8lld", static_cast<long long>(n));
            std::printf("\n");
        }
    } else {
        std::printf("Reconstruction error histogram (%zu bins):\n", r.histogram.size());
        for (size_t i = 0; i < r.histogram.size(); ++i)
            if (r.histogram[i] > 0)
                std::printf("  %s .. %s: %lld\n", numg(r.histogramEdges[i], 4).c_str(),
                            numg(r.histogramEdges[i + 1], 4).c_str(),
                            static_cast<long long>(r.histogram[i]));
    }
    auto list = [](const char* title, const std::vector<fisura::GallerySample>& v) {
        std::printf("%s:\n", title);
        for (const auto& s : v)
            std::printf("  %s  %s\n", num(s.quality, 4).c_str(), s.image.c_str());
    };
    list("Best", r.best);
    list("Worst", r.worst);
}

void run(const EvaluateArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    fisura::EvaluateOptions o;
    o.splitPath = a.split;
    o.maxItems = a.maxItems;
    o.gallery = a.gallery;
    o.curvePoints = a.curvePoints;
    o.histogramBins = a.bins;
    o.preferCpu = a.cpu;
    o.modelLoad = a.load;
    o.tolerancePx = a.tolerance;
    TerminalProgress progress;
    auto r =
        fisura::evaluateModel(a.model, a.data, o, cancel, a.quiet || a.json ? nullptr : &progress);
    if (!r)
        fail(r.status(), "evaluate failed");
    if (a.json)
        std::cout << reportJson(*r).dump(2) << "\n";
    else
        printText(*r, a.split.empty());
}

} // namespace

void registerEvaluateCommand(CLI::App& app)
{
    auto a = std::make_shared<EvaluateArgs>();
    auto* cmd = app.add_subcommand(
        "evaluate", "Evaluate a trained model on the validation part of its split, or a "
                    "segmentation model on every image of a folder (images/ + masks/)");
    addModelOptions(cmd, a->model, a->load);
    cmd->add_option("--data", a->data,
                    "Dataset folder (the run's, or any images/ + masks/ folder without --split)")
        ->required();
    cmd->add_option("--split", a->split,
                    "Split file of the run (its validation part is used); without it every "
                    "image of the folder");
    cmd->add_option("--tolerance", a->tolerance,
                    "Crack protocol: px within which a prediction matches the truth")
        ->capture_default_str()
        ->check(CLI::Range(0, 32));
    cmd->add_option("--max-items", a->maxItems, "Evaluate at most this many images (0 = all)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--gallery", a->gallery, "Best and worst samples to list")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    cmd->add_option("--curve-points", a->curvePoints, "Thresholds on the precision-recall curve")
        ->capture_default_str()
        ->check(CLI::Range(2, 10001));
    cmd->add_option("--bins", a->bins, "Bins of the anomaly error histogram")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    addCpuFlag(cmd, a->cpu);
    addJsonFlag(cmd, a->json, "Print JSON instead of text");
    addQuietFlag(cmd, a->quiet);
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli

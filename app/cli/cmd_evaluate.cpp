// `fisura-cli evaluate --model M --data DIR --split SPLIT`: what a trained model does on the
// validation part of its split (precision-recall curve, confusion matrix or error histogram,
// best and worst samples).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

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

void printText(const fisura::EvaluationReport& r)
{
    std::printf("Evaluated %d validation images (%s) in %.1f s; threshold %.4g\n", r.items,
                fisura::taskName(r.task), r.seconds, r.threshold);
    if (r.task == fisura::TaskKind::Segment) {
        if (const auto* p = pointAt(r))
            std::printf("At threshold %.2f: precision %.3f, recall %.3f, F1 %.3f, IoU %.3f\n",
                        p->threshold, p->precision, p->recall, p->f1, p->iou);
        const fisura::PrPoint* top = nullptr;
        for (const auto& p : r.prCurve)
            if (!top || p.f1 > top->f1)
                top = &p;
        if (top)
            std::printf("Best F1 %.3f at threshold %.2f\n", top->f1, top->threshold);
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
                std::printf("  %.4g .. %.4g: %lld\n", r.histogramEdges[i], r.histogramEdges[i + 1],
                            static_cast<long long>(r.histogram[i]));
    }
    auto list = [](const char* title, const std::vector<fisura::GallerySample>& v) {
        std::printf("%s:\n", title);
        for (const auto& s : v)
            std::printf("  %.4f  %s\n", s.quality, s.image.c_str());
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
    TerminalProgress progress;
    auto r =
        fisura::evaluateModel(a.model, a.data, o, cancel, a.quiet || a.json ? nullptr : &progress);
    if (!r)
        fail(r.status(), "evaluate failed");
    if (a.json)
        std::cout << reportJson(*r).dump(2) << "\n";
    else
        printText(*r);
}

} // namespace

void registerEvaluateCommand(CLI::App& app)
{
    auto a = std::make_shared<EvaluateArgs>();
    auto* cmd = app.add_subcommand("evaluate",
                                   "Evaluate a trained model on the validation part of its split");
    addModelOptions(cmd, a->model, a->load);
    cmd->add_option("--data", a->data, "Dataset folder the model was trained on")->required();
    cmd->add_option("--split", a->split, "Split file of the run (its validation part is used)")
        ->required();
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

// `fisura-cli project new|add-dataset|show|date|series`: the project commands of the GUI's File
// menu for scripts, and inspections over time (a scan's structure and date; the timeline of a
// structure). Runs trained with `fisura-cli train --project DIR` are recorded in the same file.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/dataset.h"
#include "fisura/project.h"
#include "fisura/series.h"
#include "measure_flags.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

fisura::Project openOrFail(const std::string& dir)
{
    auto p = fisura::Project::open(dir);
    if (!p)
        fail(p.status(), "cannot open the project " + dir);
    return std::move(p.value());
}

void printProject(const fisura::Project& p)
{
    std::cout << "Project " << p.name() << " in " << p.dir() << "\n";
    std::cout << "Datasets (" << p.datasets().size() << "):\n";
    for (const auto& d : p.datasets())
        std::cout << "  " << d.id << "  " << fisura::taskName(d.task) << "  " << d.name << "  "
                  << d.path << "\n";
    std::cout << "Runs (" << p.runs().size() << "):\n";
    for (const auto& r : p.runs())
        std::cout << "  " << r.id << "  " << fisura::taskName(r.task) << "  "
                  << fisura::runStateName(r.state) << "  epochs " << r.history.size()
                  << "  best score " << r.bestScore << "  " << r.modelPath << "\n";
    std::cout << "Analysed scans (" << p.scans().size() << "):\n";
    for (const auto& s : p.scans())
        std::cout << "  " << s.id << "  " << s.input << " -> " << s.mapPath
                  << (s.structure.empty() ? "" : "  [" + s.structure + ", ")
                  << (s.structure.empty()
                          ? ""
                          : (s.inspectedOn.empty() ? "no date" : s.inspectedOn) + std::string("]"))
                  << "\n";
    const auto missing = p.missingPaths();
    if (!missing.empty()) {
        std::cout << "Missing paths (moved or deleted):\n";
        for (const auto& m : missing)
            std::cout << "  " << m.kind << " " << m.ownerId << ": " << m.path << "\n";
    }
}

void printSeries(const fisura::Series& s)
{
    std::printf("%s: %zu dates\n", s.structure.c_str(), s.points.size());
    for (const auto& p : s.points) {
        const bool mm = p.lengthMm >= 0;
        std::printf("  %s  %-10s %4d cracks, length %.1f %s, area %.1f %s, widest %.2f %s\n",
                    p.inspectedOn.c_str(), p.scanId.c_str(), p.cracks, mm ? p.lengthMm : p.lengthPx,
                    mm ? "mm" : "px", mm ? p.areaMm2 : double(p.areaPx), mm ? "mm2" : "px",
                    mm ? p.widestMm : p.widestPx, mm ? "mm" : "px");
    }
    for (const auto& k : s.skipped)
        std::printf("  left out: %s\n", k.c_str());
}

/// `project date DIR --scan ID [--structure NAME] [--date YYYY-MM-DD]`.
void registerDate(CLI::App* cmd)
{
    struct Args {
        std::string dir, scan, structure, date;
    };
    auto a = std::make_shared<Args>();
    auto* date = cmd->add_subcommand(
        "date", "Say which structure an analysed scan shows and when it was scanned: the scans "
                "of one structure form a series over time");
    date->add_option("dir", a->dir, "Project folder")->required();
    date->add_option("--scan", a->scan, "The scan's id (see project show)")->required();
    auto* structure = date->add_option("--structure", a->structure, "The structure it shows");
    auto* when = date->add_option("--date", a->date, "When it was scanned, YYYY-MM-DD")
                     ->check(CLI::Validator(
                         [](std::string& t) {
                             return fisura::isIsoDate(t) ? std::string()
                                                         : "must be a date as YYYY-MM-DD, not " + t;
                         },
                         "YYYY-MM-DD"));
    date->callback([a, structure, when] {
        fisura::Project p = openOrFail(a->dir);
        fisura::ProjectScan* s = p.findScan(a->scan);
        if (!s)
            fail(Status(ErrorCode::NotFound, "no scan " + a->scan + " in the project"),
                 "cannot date the scan");
        if (structure->count())
            s->structure = a->structure;
        if (when->count())
            s->inspectedOn = a->date;
        if (const auto st = p.save(); !st)
            fail(st, "cannot save the project");
        std::cout << s->id << ": " << (s->structure.empty() ? "no structure" : s->structure) << ", "
                  << (s->inspectedOn.empty() ? "no date" : s->inspectedOn) << "\n";
    });
}

/// `project series DIR --structure NAME [--json F|-] [--csv F] [measure's options]`.
void registerSeries(CLI::App* cmd)
{
    struct Args {
        std::string dir, structure, json, csv;
        fisura::MeasureOptions o;
        bool limitsGiven = false, quiet = false;
    };
    auto a = std::make_shared<Args>();
    auto* series = cmd->add_subcommand(
        "series", "The timeline of a structure: each dated scan's map measured (crack length, "
                  "cracked area, widest crack), oldest first");
    series->add_option("dir", a->dir, "Project folder")->required();
    series->add_option("--structure", a->structure, "The structure (see project show)")->required();
    auto* json = series->add_option("--json", a->json, "The timeline as JSON ('-' = stdout)");
    wantJsonErrorsWhen([json] { return json->count() > 0 && json->as<std::string>() == "-"; });
    series->add_option("--csv", a->csv, "The timeline as CSV, one row per date");
    addMeasureFlags(series, OptionSet::Measure, "", a->o, a->limitsGiven);
    addQuietFlag(series, a->quiet);
    series->callback([a] {
        const fisura::Project p = openOrFail(a->dir);
        // Nothing the command writes may replace a scan, a map or the project file.
        std::vector<std::string> inputs{p.file()};
        for (const auto& sc : p.scans())
            inputs.insert(inputs.end(), {sc.input, sc.mapPath});
        refuseOverwriting({a->json == "-" ? std::string() : a->json, a->csv}, inputs);
        fisura::MeasureOptions o = a->o;
        o.classes = classesFromFlags(o, a->limitsGiven, "cannot measure the series");
        o.marginPx = std::max(o.marginPx, fisura::minimumMarginPx(o.closingRadiusPx));
        TerminalProgress progress;
        const bool jsonOut = a->json == "-";
        auto s = fisura::measureSeries(p, a->structure, o, {},
                                       a->quiet || jsonOut ? nullptr : &progress);
        if (!s)
            fail(s.status(), "cannot measure the series " + a->structure);
        if (jsonOut)
            std::cout << fisura::toJson(*s) << "\n";
        else if (!a->json.empty())
            if (const auto w = fisura::writeSeriesJson(*s, a->json); !w)
                fail(w, "cannot write " + a->json);
        if (!a->csv.empty())
            if (const auto w = fisura::writeSeriesCsv(*s, a->csv); !w)
                fail(w, "cannot write " + a->csv);
        if (!jsonOut)
            printSeries(*s);
    });
}

} // namespace

void registerProjectCommand(CLI::App& app)
{
    struct Args {
        std::string dir, name, data, task = "segment";
        bool json = false, verify = true;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand(
        "project",
        "Create a project, add datasets, show what it holds, follow a structure over time");
    cmd->require_subcommand(1);
    registerDate(cmd);
    registerSeries(cmd);

    auto* create = cmd->add_subcommand("new", "Create a project folder (models/, runs/, maps/)");
    create->add_option("dir", a->dir, "Project folder (created when missing)")->required();
    create->add_option("--name", a->name, "Project name (default: the folder name)");
    create->callback([a] {
        const std::string name =
            a->name.empty() ? std::filesystem::path(a->dir).filename().string() : a->name;
        auto p = fisura::Project::create(a->dir, name);
        if (!p)
            fail(p.status(), "cannot create a project in " + a->dir);
        std::cout << "Created project " << name << " in " << p->dir() << "\n";
    });

    auto* add = cmd->add_subcommand("add-dataset", "Scan a dataset folder and add it");
    add->add_option("dir", a->dir, "Project folder")->required();
    add->add_option("--data", a->data, "Dataset folder")->required()->check(CLI::ExistingDirectory);
    add->add_option("--task", a->task, "classify | segment | anomaly")
        ->check(CLI::IsMember({"classify", "segment", "anomaly"}))
        ->capture_default_str();
    add->add_option("--name", a->name, "Name shown in Fisura (default: the folder name)");
    add->callback([a] {
        fisura::Project p = openOrFail(a->dir);
        fisura::TaskKind task = fisura::TaskKind::Segment;
        fisura::parseTask(a->task, task);
        TerminalProgress progress;
        auto scanned = fisura::scanDataset(a->data, task, {}, {}, &progress);
        if (!scanned)
            fail(scanned.status(), "cannot read the dataset " + a->data);
        const std::string id = p.addDataset(a->data, task, a->name);
        if (auto* d = p.findDataset(id))
            d->summaryJson = fisura::datasetSummaryJson(*scanned);
        if (const auto s = p.save(); !s)
            fail(s, "cannot save the project");
        std::cout << "Added dataset " << id << ": " << scanned->items.size() << " items, "
                  << scanned->problems.size() << " problems\n";
    });

    auto* show = cmd->add_subcommand("show", "Datasets, runs, analysed scans and missing paths");
    show->add_option("dir", a->dir, "Project folder")->required();
    addJsonFlag(show, a->json, "Print project.json as stored");
    show->callback([a] {
        const fisura::Project p = openOrFail(a->dir);
        if (a->json)
            std::cout << p.toJson(2) << "\n";
        else
            printProject(p);
    });
}

} // namespace fisura::cli

// `fisura-cli project new|add-dataset|show`: the project commands of the GUI's File menu for
// scripts. Runs trained with `fisura-cli train --project DIR` are recorded in the same file.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/dataset.h"
#include "fisura/project.h"
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
        std::cout << "  " << s.id << "  " << s.input << " -> " << s.mapPath << "\n";
    const auto missing = p.missingPaths();
    if (!missing.empty()) {
        std::cout << "Missing paths (moved or deleted):\n";
        for (const auto& m : missing)
            std::cout << "  " << m.kind << " " << m.ownerId << ": " << m.path << "\n";
    }
}

} // namespace

void registerProjectCommand(CLI::App& app)
{
    struct Args {
        std::string dir, name, data, task = "segment";
        bool json = false, verify = true;
    };
    auto a = std::make_shared<Args>();
    auto* cmd = app.add_subcommand("project", "Create a project, add datasets, show what it holds");
    cmd->require_subcommand(1);

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

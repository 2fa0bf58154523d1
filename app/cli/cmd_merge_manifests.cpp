// `fisura-cli merge-manifests FOLDER_OR_FILES... [--expect-in IN] [--json] [--redo-list F]`:
// what the shards of a cluster run did, from their manifests (rules in fisura/manifest.h).
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "fisura/manifest.h"

namespace fs = std::filesystem;

namespace
{

struct MergeArgs {
    std::vector<std::string> paths;
    std::string expectIn;
    std::string redoList;
    bool json = false;
};

std::string upper(const char* s)
{
    std::string u(s);
    for (auto& c : u)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return u;
}

void printText(const fisura::MergeReport& r)
{
    if (!r.modelHash.empty())
        std::cout << "Run: model " << r.model << " (" << r.modelHash << "), " << r.shardCount
                  << (r.shardCount == 1 ? " shard, " : " shards, ") << r.manifestsUsed.size()
                  << (r.manifestsUsed.size() == 1 ? " manifest\n" : " manifests\n");
    for (const auto& s : r.scans) {
        // Done in lower case, everything that needs attention in capitals.
        const std::string state = s.state == fisura::MergedState::Done
                                      ? std::string("done")
                                      : upper(fisura::mergedStateName(s.state));
        std::cout << "  " << std::left << std::setw(10) << state
                  << fs::path(s.input).filename().string();
        if (s.state == fisura::MergedState::Done)
            std::cout << " -> " << s.output << " (" << std::fixed << std::setprecision(1)
                      << s.seconds << " s)";
        else if (s.state == fisura::MergedState::Missing)
            std::cout << ": " << s.reason;
        else
            std::cout << ": " << s.errorCode << ": " << s.message;
        std::cout << "\n";
    }
    for (const auto& [path, why] : r.manifestsOtherRun)
        std::cout << "Not counted, another run: " << path << ": " << why << "\n";
    for (const auto& [path, why] : r.manifestsUnreadable)
        std::cout << "UNREADABLE manifest: " << why << "\n";
    for (int s : r.shardsWithoutManifest)
        std::cout << "NO MANIFEST for shard " << s << "/" << r.shardCount
                  << " (its task did not start, or wrote elsewhere)\n";
    std::cout << "Totals: " << r.scans.size() << " scans: " << r.done << " done, " << r.failed
              << " failed, " << r.cancelled << " cancelled, " << r.missing << " missing\n";
    const auto redo = r.toRedo();
    if (r.complete())
        std::cout << "Complete: every scan is done.\n";
    else if (!redo.empty())
        std::cout << "To redo (" << redo.size()
                  << "): re-submit the array with the same arguments; its tasks skip what is "
                     "done and run only these.\n";
}

} // namespace

void registerMergeManifestsCommand(CLI::App& app)
{
    auto a = std::make_shared<MergeArgs>();
    auto* cmd = app.add_subcommand(
        "merge-manifests",
        "Report what the shards of a cluster run did (done, failed, missing) from their "
        "manifests; exit code 0 only when every scan is done");
    cmd->add_option("paths", a->paths,
                    "Manifest files, or folders holding fisura-manifest*.json (e.g. the maps "
                    "folder)")
        ->required();
    cmd->add_option("--expect-in", a->expectIn,
                    "The run's input folder: every image in it must be done (those in no "
                    "manifest are missing)")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--redo-list", a->redoList,
                    "Write the scans to redo (failed, cancelled, missing) to this file, one "
                    "path a line");
    cmd->add_flag("--json", a->json, "Print JSON instead of text");
    cmd->callback([a] {
        fisura::MergeOptions o;
        o.expectIn = a->expectIn;
        auto r = fisura::mergeManifests(a->paths, o);
        if (!r) {
            std::cerr << "fisura-cli: merge-manifests: " << r.status().toString() << "\n";
            throw CLI::RuntimeError(2);
        }
        if (a->json)
            std::cout << fisura::toJson(*r) << "\n";
        else
            printText(*r);
        if (!a->redoList.empty()) {
            std::ofstream f(a->redoList, std::ios::trunc);
            for (const auto& p : r->toRedo())
                f << p << "\n";
            f.close();
            if (!f) {
                std::cerr << "fisura-cli: cannot write " << a->redoList << "\n";
                throw CLI::RuntimeError(1);
            }
        }
        throw CLI::RuntimeError(r->complete() ? 0 : 1);
    });
}

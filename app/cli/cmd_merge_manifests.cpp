// `fisura-cli merge-manifests FOLDER_OR_FILES... [--expect-in IN] [--json] [--redo-list F]`:
// what the shards of a cluster run did, from their manifests (rules in fisura/manifest.h).
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/manifest.h"
#include "text_escape.h"

namespace fs = std::filesystem;

namespace fisura::cli
{

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
        std::cout << "Run: model " << escapeLine(r.model) << " (" << escapeLine(r.modelHash)
                  << "), " << r.shardCount << (r.shardCount == 1 ? " shard, " : " shards, ")
                  << r.manifestsUsed.size()
                  << (r.manifestsUsed.size() == 1 ? " manifest\n" : " manifests\n");
    for (const auto& s : r.scans) {
        // Done in lower case, everything that needs attention in capitals.
        const std::string state = s.state == fisura::MergedState::Done
                                      ? std::string("done")
                                      : upper(fisura::mergedStateName(s.state));
        std::cout << "  " << std::left << std::setw(10) << state
                  << escapeLine(fs::path(s.input).filename().string());
        if (s.state == fisura::MergedState::Done)
            std::cout << " -> " << escapeLine(s.output) << " (" << std::fixed
                      << std::setprecision(1) << s.seconds << " s)";
        else if (s.state == fisura::MergedState::Missing)
            std::cout << ": " << escapeLine(s.reason);
        else
            std::cout << ": " << escapeLine(s.errorCode) << ": " << escapeLine(s.message);
        std::cout << "\n";
    }
    for (const auto& [path, why] : r.manifestsOtherRun)
        std::cout << "Not counted, another run: " << escapeLine(path) << ": " << escapeLine(why)
                  << "\n";
    for (const auto& [path, why] : r.manifestsUnreadable)
        std::cout << "UNREADABLE manifest: " << escapeLine(why) << "\n";
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

/// Every file the merge read: the manifests, and the scans of --expect-in.
std::vector<std::string> filesRead(const fisura::MergeReport& r)
{
    std::vector<std::string> files = r.manifestsUsed;
    for (const auto& m : {r.manifestsOtherRun, r.manifestsUnreadable})
        for (const auto& [path, why] : m)
            files.push_back(path);
    for (const auto& s : r.scans)
        files.push_back(s.input);
    return files;
}

/// The scans to redo, one a line, escaped (escapeLine) so that no name splits a line.
void writeRedoList(const fisura::MergeReport& r, const std::string& path)
{
    refuseOverwriting({path}, filesRead(r));
    std::ofstream f(path, std::ios::trunc);
    for (const auto& p : r.toRedo())
        f << escapeLine(p) << "\n";
    f.close();
    if (!f)
        fail(fisura::Status(fisura::ErrorCode::IoError, path), "cannot write the redo list");
}

void run(const MergeArgs& a)
{
    fisura::MergeOptions o;
    o.expectIn = a.expectIn;
    auto r = fisura::mergeManifests(a.paths, o);
    if (!r) // nothing to merge: the arguments name no run
        throw CommandError(fisura::errorCodeName(r.status().code()), r.status().detail(),
                           "merge-manifests", kExitUsage);
    if (a.json)
        std::cout << fisura::toJson(*r) << "\n";
    else
        printText(*r);
    if (!a.redoList.empty())
        writeRedoList(*r, a.redoList);
    if (!r->complete())
        exitWith(kExitFailed);
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
                    "path a line; in a path a backslash is written \\\\, a newline \\n, a "
                    "tab \\t, a carriage return \\r and other control characters \\xHH");
    addJsonFlag(cmd, a->json, "Print JSON instead of text");
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli

// `fisura-cli model-info [MODEL] [--json] [--set-provenance FILE]`: what a model file says about
// itself (network, threshold, where it came from and its held-out scores); without MODEL the
// starter model. --set-provenance writes the provenance record (the starter recipe stamps its
// model with the data, licence, recipe, seed, commit and scores this way).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/starter.h"
#include "starter_choice.h"

namespace fisura::cli
{

namespace
{

struct ModelInfoArgs {
    std::string model, provenanceFile;
    bool json = false;
    fisura::ModelLoadOptions load;
};

void printFacts(const std::string& path, const fisura::Model& m)
{
    const fisura::ModelInfo& i = m.info();
    const fisura::ModelProvenance p = fisura::provenanceOf(i);
    std::cout << "Model:      " << path << "\n"
              << "Network:    " << fisura::modelTypeName(i.config.type) << ", width "
              << i.config.width << ", depth " << i.config.depth << ", input " << i.config.inputSize
              << " px, " << m.parameterCount() << " parameters\n"
              << "Threshold:  " << i.threshold << "\n";
    if (!i.trainedAt.empty())
        std::cout << "Trained at: " << i.trainedAt << "\n";
    if (!p.present)
        return;
    if (!p.trainedOn.empty())
        std::cout << "Trained on: " << fisura::cli::trainedOnText(p) << "\n";
    if (!p.licence.empty())
        std::cout << "Licence:    " << p.licence << "\n";
    if (!p.recipe.empty())
        std::cout << "Recipe:     " << p.recipe << " (seed " << p.seed << ", commit "
                  << (p.commit.empty() ? "?" : p.commit) << ")\n";
    if (!p.startedFrom.empty())
        std::cout << "Started from: " << p.startedFrom
                  << (p.startedFromLicence.empty() ? "" : " (" + p.startedFromLicence + ")")
                  << "\n";
    for (const auto& s : p.scores)
        std::cout << "Held out:   " << s.dataset << " (" << s.images << " images): ODS F1 "
                  << s.odsF1 << ", OIS F1 " << s.oisF1 << ", mIoU " << s.miou << " at "
                  << s.tolerancePx << " px\n";
}

void run(const ModelInfoArgs& a)
{
    bool starter = false;
    const std::string path = modelOrStarter(a.model, starter);
    if (path.empty())
        failUsage(noModelText());
    if (!a.provenanceFile.empty()) {
        std::ifstream in(a.provenanceFile, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (Status s = setModelProvenance(path, text.str()); !s) {
            if (s.code() == ErrorCode::InvalidArgument) // the record itself: a bad argument
                failUsage(a.provenanceFile + ": " + s.detail());
            fail(s, "cannot write the provenance of " + path);
        }
    }
    auto m = Model::load(path, a.load);
    if (!m)
        fail(m.status(), "cannot read " + path);
    if (a.json) {
        nlohmann::json j = nlohmann::json::parse(m->metadataJson());
        j["path"] = bytesToUtf8(path);
        j["parameters"] = m->parameterCount();
        std::cout << j.dump(2) << "\n";
    } else {
        printFacts(path, *m);
    }
}

} // namespace

void registerModelInfoCommand(CLI::App& app)
{
    auto a = std::make_shared<ModelInfoArgs>();
    auto* cmd = app.add_subcommand(
        "model-info", "What a model file says about itself: network, threshold, what it was "
                      "trained on, its licence and held-out scores (default: the starter model)");
    cmd->add_option("model", a->model, "Fisura model file (default: the starter model)");
    addModelLoadOptions(cmd, a->load);
    cmd->add_option("--set-provenance", a->provenanceFile,
                    "Write this JSON object as the model's provenance record (trained_on, "
                    "licence, recipe, seed, commit, scores)")
        ->check(CLI::ExistingFile);
    addJsonFlag(cmd, a->json, "Print the metadata as JSON");
    cmd->callback([a] { run(*a); });
}

} // namespace fisura::cli

// --max-model-size and --allow-torchscript: the options of every command that loads a model
// file (infer, propose, rank, evaluate), and what to tell the user when a model is refused.
#pragma once

#include <iostream>

#include <CLI/CLI.hpp>

#include "fisura/model.h"

namespace fisura::cli
{

/// Binds the two options to `o` (defaults: Model::load's safe ones).
inline void addModelLoadOptions(CLI::App* cmd, ModelLoadOptions& o)
{
    cmd->add_option("--max-model-size", o.maxBytes,
                    "Refuse model files larger than this, before reading them (bytes, or with a "
                    "unit: 512MiB, 80GiB)")
        ->transform(CLI::AsSizeValue(false))
        ->default_str("64GiB");
    cmd->add_flag("--allow-torchscript", o.allowTorchScript,
                  "Load a TorchScript module: it runs code stored in the file, so use it only "
                  "for files from someone you trust");
}

/// After a model was refused: how to proceed, when the user can do something about it.
inline void printModelLoadHint(const Status& s)
{
    if (s.code() == ErrorCode::NeedsConsent)
        std::cerr << "fisura-cli: a TorchScript module runs code stored in the file. Load it "
                     "only if it comes from someone you trust, by adding --allow-torchscript\n";
    else if (s.code() == ErrorCode::TooLarge)
        std::cerr << "fisura-cli: if this is a model you trust, raise the limit with "
                     "--max-model-size (for example --max-model-size 100GiB)\n";
}

} // namespace fisura::cli

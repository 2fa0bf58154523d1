// Fuzz target: model metadata (the JSON stored in a Fisura model file) and the JSON sidecar of an
// imported TorchScript module. What parses is written back and must parse again.
#include <string>

#include "fuzz_entry.h"
#include "models/model_meta.h"

FISURA_FUZZ_TARGET(model_meta)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fisura::ModelInfo info;
    if (fisura::models::infoFromJson(text, info)) {
        fisura::ModelInfo again;
        (void)fisura::models::infoFromJson(fisura::models::metadataOf(info, -1), again);
    }
    fisura::ModelInfo side;
    bool probabilities = false;
    (void)fisura::models::sidecarInfoFromText(text, "fuzz.pt.json", side, probabilities);
    fisura::ModelType type;
    (void)fisura::models::parseType(text, type);
    return 0;
}

// Fuzz target: a shard manifest (manifestFromJson, what `infer --shard` resumes from and
// `merge-manifests` reads). What parses is written back and must parse again to the same text.
#include <cstdlib>
#include <string>

#include "fisura/manifest.h"
#include "fuzz_entry.h"

FISURA_FUZZ_TARGET(manifest)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (auto m = fisura::manifestFromJson(text, "fuzz-manifest.json")) {
        const std::string again = fisura::toJson(*m, -1);
        auto m2 = fisura::manifestFromJson(again, "fuzz-manifest.json");
        if (!m2 || fisura::toJson(*m2, -1) != again)
            std::abort(); // a manifest Fisura wrote must read back unchanged
    }
    return 0;
}

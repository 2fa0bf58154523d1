// Fuzz target: training options as a project records them (trainOptionsFromJson) and the epoch
// metrics of a run's history (epochMetricsFromJson). Options that parse are written back and must
// parse again to the same text.
#include <cstdlib>
#include <string>

#include "fisura/project.h"
#include "fuzz_entry.h"

FISURA_FUZZ_TARGET(options)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (auto o = fisura::trainOptionsFromJson(text)) {
        const std::string again = fisura::toJson(*o);
        auto o2 = fisura::trainOptionsFromJson(again);
        if (!o2 || fisura::toJson(*o2) != again)
            std::abort(); // options Fisura wrote must read back unchanged
    }
    if (auto m = fisura::epochMetricsFromJson(text))
        (void)fisura::epochMetricsFromJson(fisura::toJson(*m));
    return 0;
}

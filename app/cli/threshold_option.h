// --threshold on every command is a crack probability 0..1 (fisura/threshold.h); an option of the
// schema (measure's) is held to the schema's range as well. The old map-byte
// form (1..255) is refused with the probability that means the same:
//   --threshold 128 is a map byte; use --threshold 0.5 (a crack probability from 0 to 1)
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "fisura/options.h"
#include "fisura/threshold.h"

namespace fisura::cli
{

/// The check of a --threshold option (CLI11 validator).
inline CLI::Validator probabilityThreshold(const OptionDef* def = nullptr)
{
    return CLI::Validator(
        [def](std::string& text) -> std::string {
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v))
                return text + " is not a number";
            if (!std::isfinite(v))
                return "must be a finite number, not " + text;
            if (isProbability(v) && def && !def->allows(v))
                return "must be a crack probability " + optionRangeText(*def) + ", not " + text;
            if (isProbability(v))
                return {};
            if (const int byte = legacyByteThreshold(v); byte >= 0) {
                char equivalent[32];
                std::snprintf(equivalent, sizeof equivalent, "%g", probabilityOfMapByte(byte));
                return "--threshold " + text + " is a map byte; use --threshold " + equivalent +
                       " (a crack probability from 0 to 1)";
            }
            return "must be a crack probability from 0 to 1, not " + text;
        },
        def ? "PROBABILITY in [" + optionNumberText(*def, def->min) + " - " +
                  optionNumberText(*def, def->max) + "]"
            : std::string("PROBABILITY 0..1"));
}

} // namespace fisura::cli

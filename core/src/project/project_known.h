// What a project keeps of the JSON it embeds (a dataset's summary, a run's options and policy, a
// scan's statistics and score): only the keys Fisura itself writes there, with scalars where it
// writes scalars, arrays of at most kMaxKnownArray elements and strings of at most
// kMaxKnownString bytes. Anything else in a hand-edited or hostile project.json (unknown keys,
// deeper nesting, huge arrays) is dropped when the project is read, so a save never copies it.
//
// The known layout of each kind is taken from Fisura's own writer (toJson of a value with every
// list filled), so a field added to a writer is kept without a change here.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

namespace fisura::project_detail
{

enum class Embedded { Summary, Options, Policy, Stats, Score };

constexpr size_t kMaxKnownArray = 1024;
constexpr size_t kMaxKnownString = 64 * 1024;

/// `value` reduced to the layout Fisura writes for `kind` (null when nothing of it is known).
nlohmann::ordered_json knownOnly(const nlohmann::ordered_json& value, Embedded kind);

} // namespace fisura::project_detail

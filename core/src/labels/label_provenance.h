// The provenance of a label mask (how many pixels were labelled by hand, kept from a proposal,
// added, erased) as the JSON kept in the mask TIFF's ImageDescription. Plain JSON, so the parser
// is fuzzed on its own (tests/fuzz/fuzz_labels.cpp).
#pragma once

#include <string>

#include "fisura/labels.h"

namespace fisura::labels
{

std::string provenanceJson(const LabelProvenance& p);
/// False (and `out` untouched or partly set) when `text` is not a provenance record.
bool parseProvenanceJson(const std::string& text, LabelProvenance& out);

} // namespace fisura::labels

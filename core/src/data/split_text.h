// A saved split from its text (what loadSplit in fisura/dataset.h reads from a file), for the
// fuzz target and tests that have the text in memory.
#pragma once

#include <string>

#include "fisura/dataset.h"

namespace fisura
{

/// Parses a split file's text against `d`; `name` only names it in messages. Corrupt when it is
/// not a Fisura split or names items this dataset does not have.
Result<DatasetSplit> parseSplit(const std::string& text, const Dataset& d, const std::string& name);

} // namespace fisura

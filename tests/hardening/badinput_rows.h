// The rows of the bad-input matrix (MATRIX.md): each builds one bad input (or output folder) in a
// scratch folder, runs the core call the GUI and the CLI make with it and reports what came back,
// so the core test (codes, details, previous files intact) and the widgets test (the translated
// message) run exactly the same cases.
#pragma once

#include <string>
#include <vector>

#include "fisura/status.h"

namespace badinput
{

struct Row {
    std::string tag; ///< "<input>/<failure>", as in MATRIX.md
    fisura::ErrorCode code;
    std::string kind; ///< the detail's stable id ("disk_full", "read_only") or ""
};

struct Outcome {
    fisura::Status status;
    std::string file;     ///< the file or folder the message must name
    std::string problems; ///< anything else that went wrong (a left-over temporary, a lost file)
    std::string skip;     ///< non-empty: the row cannot run here, and why
};

/// Every row, in MATRIX.md's order.
const std::vector<Row>& rows();
/// Runs row `tag` inside `scratch` (an empty folder that the caller removes afterwards).
Outcome run(const std::string& tag, const std::string& scratch);

} // namespace badinput

// The model a command runs when none is given: Fisura's starter model, and the line that says
// so (stderr, so a command's JSON on stdout stays clean).
#pragma once

#include <iostream>
#include <string>

#include "fisura/starter.h"

namespace fisura::cli
{

/// "procedural scenes + UAV75" from a provenance record's data set identifiers.
inline std::string trainedOnText(const ModelProvenance& p)
{
    std::string s;
    for (const auto& d : p.trainedOn)
        s += (s.empty() ? "" : " + ") +
             (d == "fisura-procedural" ? std::string("procedural scenes") : d);
    return s;
}

/// Tells the user which model runs when they named none.
inline void sayStarterUsed(const std::string& command, const std::string& path,
                           const ModelInfo& info)
{
    const ModelProvenance p = provenanceOf(info);
    std::cerr << command << ": no --model given: using Fisura's starter model " << path;
    if (p.present)
        std::cerr << " (trained on " << (p.trainedOn.empty() ? "?" : trainedOnText(p))
                  << ", licence " << (p.licence.empty() ? "?" : p.licence) << ")";
    std::cerr << "\n";
}

/// `given`, or the starter model's path when empty ("" when there is none either; the caller
/// then explains, see noModelText).
inline std::string modelOrStarter(const std::string& given, bool& usedStarter)
{
    usedStarter = given.empty();
    return usedStarter ? findStarterModel() : given;
}

inline std::string noModelText()
{
    std::string dirs;
    for (const auto& d : starterModelSearchPath())
        dirs += (dirs.empty() ? "" : ", ") + d;
    return "no --model given and no starter model is installed (looked for " +
           std::string(kStarterModelFile) + " in " + dirs + ")";
}

} // namespace fisura::cli

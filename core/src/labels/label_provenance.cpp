// The provenance JSON of a label mask; see label_provenance.h.
#include "label_provenance.h"
#include "util/json_bounded.h"
#include "util/json_int.h"

#include <nlohmann/json.hpp>

namespace fisura::labels
{

std::string provenanceJson(const LabelProvenance& p)
{
    nlohmann::json j{{"fisura_labels", 1},
                     {"provenance",
                      {{"labelled", p.labelled},
                       {"from_proposal", p.fromProposal},
                       {"user_added", p.userAdded},
                       {"proposal_erased", p.proposalErased}}}};
    return util::dumpJson(j);
}

bool parseProvenanceJson(const std::string& text, LabelProvenance& out)
{
    const auto j = util::parseJsonOrNull(text);
    if (!j.is_object() || !j.contains("fisura_labels") || !j.contains("provenance") ||
        !j["provenance"].is_object())
        return false;
    const auto& p = j["provenance"];
    try { // counts as floats (1e300) would convert with undefined behaviour
        out.labelled = util::jsonUInt64(p, "labelled", 0);
        out.fromProposal = util::jsonUInt64(p, "from_proposal", 0);
        out.userAdded = util::jsonUInt64(p, "user_added", 0);
        out.proposalErased = util::jsonUInt64(p, "proposal_erased", 0);
    } catch (const nlohmann::json::exception&) {
        return false;
    }
    return true;
}

} // namespace fisura::labels

// Fuzz target: the provenance record a label mask keeps in its TIFF ImageDescription
// (parseProvenanceJson, read whenever a label layer opens a mask). A record that parses is
// written back and must parse again to the same counts.
#include <cstdlib>
#include <string>

#include "fuzz_entry.h"
#include "labels/label_provenance.h"

FISURA_FUZZ_TARGET(labels)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fisura::LabelProvenance p;
    if (fisura::labels::parseProvenanceJson(text, p)) {
        fisura::LabelProvenance q;
        if (!fisura::labels::parseProvenanceJson(fisura::labels::provenanceJson(p), q) ||
            q.labelled != p.labelled || q.fromProposal != p.fromProposal ||
            q.userAdded != p.userAdded || q.proposalErased != p.proposalErased)
            std::abort(); // a record Fisura wrote must read back unchanged
    }
    return 0;
}

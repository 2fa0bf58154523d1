#include "badinput_rows.h"

#include "badinput_common.h"

namespace badinput
{

using fisura::ErrorCode;

const std::vector<Row>& rows()
{
    static const std::vector<Row> all = [] {
        std::vector<Row> r;
        // `unreadable`: as root nothing can be made unreadable by permissions; a folder where
        // the file should be is the closest (and a real mistake: picking the wrong entry).
        const auto file = [&](const std::string& input, ErrorCode unreadable) {
            r.push_back({input + "/missing", ErrorCode::NotFound, ""});
            r.push_back({input + "/unreadable", unreadable, ""});
            r.push_back({input + "/empty", ErrorCode::Corrupt, ""});
            r.push_back({input + "/truncated", ErrorCode::Corrupt, ""});
            r.push_back({input + "/corrupt", ErrorCode::Corrupt, ""});
            r.push_back({input + "/wrong-type", ErrorCode::Corrupt, ""});
        };
        file("scan-tif", ErrorCode::IoError);
        r.push_back({"scan-tif/absurd-size", ErrorCode::Unsupported, ""});
        r.push_back({"scan-tif/absurd-tiles", ErrorCode::Corrupt, ""});
        r.push_back({"scan-tif/bomb", ErrorCode::TooLarge, "too_many_pixels"});
        file("scan-png", ErrorCode::IoError);
        file("scan-jpeg", ErrorCode::IoError);
        // libjpeg decodes what is there and fills the rest with gray, as every viewer does.
        for (Row& row : r)
            if (row.tag == "scan-jpeg/truncated")
                row.code = ErrorCode::Ok;
        r.push_back({"dataset/missing", ErrorCode::NotFound, ""});
        r.push_back({"dataset/wrong-type", ErrorCode::NotFound, ""}); // "not a folder: ..."
        r.push_back({"dataset/empty", ErrorCode::NotFound, ""});
        r.push_back({"dataset/corrupt", ErrorCode::Corrupt, ""});
        r.push_back({"mask/empty", ErrorCode::Corrupt, ""});
        r.push_back({"mask/truncated", ErrorCode::Corrupt, ""});
        r.push_back({"mask/corrupt", ErrorCode::Corrupt, ""});
        r.push_back({"mask/wrong-type", ErrorCode::Corrupt, ""});
        file("model", ErrorCode::NotFound); // "no such model file" (core/src/models)
        r.push_back({"torchscript/no-sidecar", ErrorCode::Corrupt, ""});
        r.push_back({"torchscript/empty-sidecar", ErrorCode::Corrupt, ""});
        r.push_back({"torchscript/corrupt-sidecar", ErrorCode::Corrupt, ""});
        r.push_back({"torchscript/wrong-sidecar", ErrorCode::Unsupported, ""});
        r.push_back({"torchscript/truncated", ErrorCode::Corrupt, ""});
        file("project", ErrorCode::IoError);
        r.push_back({"project/newer-version", ErrorCode::Unsupported, ""});
        for (const char* out :
             {"out-map", "out-model", "out-checkpoint", "out-mask", "out-project"}) {
            const std::string o = out;
            r.push_back({o + "/disk-full", ErrorCode::IoError, "disk_full"});
            r.push_back({o + "/read-only", ErrorCode::IoError, "read_only"});
            const bool cancels = o == "out-map" || o == "out-mask";
            r.push_back({o + "/interrupted", cancels ? ErrorCode::Cancelled : ErrorCode::IoError,
                         o == "out-project" || cancels ? "" : "disk_full"});
            if (o != "out-checkpoint" && o != "out-mask")
                r.push_back({o + "/missing-folder",
                             o == "out-map" ? ErrorCode::IoError : ErrorCode::NotFound, ""});
        }
        r.push_back({"out-project/create-disk-full", ErrorCode::IoError, "disk_full"});
        return r;
    }();
    return all;
}

Outcome run(const std::string& tag, const std::string& scratch)
{
    static const std::map<std::string, Runner> runners = [] {
        std::map<std::string, Runner> m;
        addInputRows(m);
        addOutputRows(m);
        return m;
    }();
    const auto it = runners.find(tag);
    if (it == runners.end()) {
        Outcome o;
        o.problems = "no such row: " + tag;
        return o;
    }
    return it->second(scratch);
}

} // namespace badinput

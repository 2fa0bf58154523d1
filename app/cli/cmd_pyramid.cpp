// `fisura-cli pyramid IN OUT`: tiled pyramidal BigTIFF copy of a scan, streaming.
#include <iostream>
#include <memory>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "command.h"
#include "commands.h"
#include "common_flags.h"
#include "fisura/bytetext.h"
#include "fisura/tiledwriter.h"
#include "image_limit_args.h"
#include "input_notices.h"
#include "signals.h"
#include "terminal_progress.h"

namespace fisura::cli
{

namespace
{

struct PyramidArgs {
    std::string in, out;
    int tile = 256;
    std::string compression = "zstd";
    int level = 0;
    int threads = 0;
    bool json = false;
    bool quiet = false;
    fisura::ImageLimits limits;
};

void run(const PyramidArgs& a)
{
    CancelToken& cancel = cancelOnSignals();
    refuseOverwriting({a.out}, {a.in});
    printInputNotices(a.in);
    TiledWriteOptions o;
    o.tileSize = a.tile;
    o.compression = a.compression == "deflate" ? TileCompression::Deflate : TileCompression::Zstd;
    o.compressionLevel = a.level;
    o.threads = a.threads;
    TerminalProgress progress;
    auto r = makePyramid(a.in, a.out, o, cancel, a.quiet || a.json ? nullptr : &progress, a.limits);
    if (!r)
        fail(r.status(), "pyramid failed");
    if (a.json) {
        nlohmann::json j{{"output", bytesToUtf8(a.out)}, {"width", r->width},
                         {"height", r->height},          {"channels", r->channels},
                         {"levels", r->levels},          {"bytes", r->bytesWritten},
                         {"seconds", r->seconds}};
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << "Wrote " << a.out << ": " << r->width << " x " << r->height << ", "
                  << r->levels << " levels, " << r->bytesWritten / 1048576.0 << " MiB in "
                  << r->seconds << " s\n";
    }
}

} // namespace

void registerPyramidCommand(CLI::App& app)
{
    auto args = std::make_shared<PyramidArgs>();
    auto* cmd = app.add_subcommand(
        "pyramid", "Write a tiled pyramidal BigTIFF copy of a scan (streaming, bounded memory)");
    cmd->add_option("in", args->in, "Input TIFF")->required()->check(CLI::ExistingFile);
    cmd->add_option("out", args->out, "Output TIFF (written atomically)")->required();
    cmd->add_option("--tile", args->tile, "Tile edge in px")
        ->capture_default_str()
        ->check(CLI::IsMember({256, 512}));
    cmd->add_option("--compression", args->compression, "Tile compression")
        ->capture_default_str()
        ->check(CLI::IsMember({"zstd", "deflate"}));
    cmd->add_option("--level", args->level, "Compression level (0 = codec default)")
        ->capture_default_str()
        ->check(CLI::Range(0, 22));
    cmd->add_option("--threads", args->threads, "Worker threads (0 = one per core)")
        ->capture_default_str()
        ->check(CLI::Range(0, 64));
    addJsonFlag(cmd, args->json, "Print a JSON summary");
    addQuietFlag(cmd, args->quiet);
    addImageLimitOptions(cmd, args->limits);
    cmd->callback([args] { run(*args); });
}

} // namespace fisura::cli

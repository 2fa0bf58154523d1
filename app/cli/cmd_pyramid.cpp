// `fisura-cli pyramid IN OUT`: tiled pyramidal BigTIFF copy of a scan, streaming.
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "fisura/bytetext.h"
#include "fisura/tiledwriter.h"
#include "image_limit_args.h"
#include "terminal_progress.h"

namespace
{

fisura::CancelToken g_pyramidCancel;

extern "C" void onPyramidSignal(int)
{
    g_pyramidCancel.cancel();
}

using PyramidProgress = fisura::cli::TerminalProgress;

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
    cmd->add_flag("--json", args->json, "Print a JSON summary");
    cmd->add_flag("--quiet", args->quiet, "No progress output");
    fisura::cli::addImageLimitOptions(cmd, args->limits);
    cmd->callback([args] {
        std::signal(SIGINT, onPyramidSignal);
        std::signal(SIGTERM, onPyramidSignal);
        fisura::TiledWriteOptions o;
        o.tileSize = args->tile;
        o.compression = args->compression == "deflate" ? fisura::TileCompression::Deflate
                                                       : fisura::TileCompression::Zstd;
        o.compressionLevel = args->level;
        o.threads = args->threads;
        PyramidProgress progress;
        auto r = fisura::makePyramid(args->in, args->out, o, g_pyramidCancel,
                                     args->quiet || args->json ? nullptr : &progress, args->limits);
        if (!r) {
            std::cerr << "fisura-cli: pyramid failed: " << r.status().toString() << "\n";
            throw CLI::RuntimeError(r.status().code() == fisura::ErrorCode::Cancelled ? 130 : 1);
        }
        if (args->json) {
            nlohmann::json j{{"output", fisura::bytesToUtf8(args->out)},
                             {"width", r->width},
                             {"height", r->height},
                             {"channels", r->channels},
                             {"levels", r->levels},
                             {"bytes", r->bytesWritten},
                             {"seconds", r->seconds}};
            std::cout << j.dump(2) << "\n";
        } else {
            std::cout << "Wrote " << args->out << ": " << r->width << " x " << r->height << ", "
                      << r->levels << " levels, " << r->bytesWritten / 1048576.0 << " MiB in "
                      << r->seconds << " s\n";
        }
        throw CLI::RuntimeError(0);
    });
}

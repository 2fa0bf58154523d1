// What each ZSTD level costs in size and gains in speed on maps a model wrote: the tiles of the
// maps' full-resolution level, decoded (the horizontal predictor applied again where the file
// has one, as the map writer compresses them), then compressed again one at a time at ZSTD 3 (Fisura's
// level), 2, 1 and the fast levels -1 .. -5 (the adaptive level's range, fisura/tiledwriter.h's
// kAdaptiveFloorLevel), one thread, best of 5 passes. Prints a Markdown table: ratio, bytes
// against level 3, MB/s of raw tile bytes per core.
//   bench_map_levels MAP.tif...   (cpu_map_levels.sh makes the maps)
#include <tiffio.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_map_levels MAP.tif...\n");
        return 2;
    }
    std::vector<std::vector<char>> tiles;
    for (int a = 1; a < argc; ++a) {
        TIFF* t = TIFFOpen(argv[a], "r");
        if (!t || !TIFFIsTiled(t)) {
            std::fprintf(stderr, "bench_map_levels: %s is not a tiled TIFF\n", argv[a]);
            if (t)
                TIFFClose(t);
            return 1;
        }
        const tmsize_t size = TIFFTileSize(t);
        // What the writer compresses: with TIFF's horizontal predictor (2), each sample less the
        // one before it in the row, which TIFFReadEncodedTile has undone.
        uint16_t predictor = 1, samples = 1;
        uint32_t tileWidth = 0;
        TIFFGetFieldDefaulted(t, TIFFTAG_PREDICTOR, &predictor);
        TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &samples);
        TIFFGetField(t, TIFFTAG_TILEWIDTH, &tileWidth);
        const size_t rowBytes = size_t(tileWidth) * samples;
        for (ttile_t i = 0; i < TIFFNumberOfTiles(t); ++i) {
            std::vector<char> b(static_cast<size_t>(size));
            const tmsize_t n = TIFFReadEncodedTile(t, i, b.data(), size);
            if (n > 0) {
                b.resize(size_t(n));
                if (predictor == 2 && rowBytes > 0)
                    for (size_t r = 0; r + rowBytes <= b.size(); r += rowBytes)
                        for (size_t x = rowBytes - 1; x >= samples; --x)
                            b[r + x] = char(uint8_t(b[r + x]) - uint8_t(b[r + x - samples]));
                tiles.push_back(std::move(b));
            }
        }
        TIFFClose(t);
    }
    double raw = 0;
    size_t largest = 0;
    for (const auto& t : tiles) {
        raw += double(t.size());
        largest = std::max(largest, t.size());
    }
    std::vector<char> out(ZSTD_compressBound(largest));
    ZSTD_CCtx* cx = ZSTD_createCCtx();
    std::printf("%zu tiles, %.1f MB\n\n| ZSTD level | ratio | bytes vs level 3 | MB/s per core |\n"
                "|---:|---:|---:|---:|\n",
                tiles.size(), raw / 1e6);
    double base = 0;
    for (int level : {3, 2, 1, -1, -2, -3, -4, -5}) {
        double bytes = 0, best = 1e30;
        for (int pass = 0; pass < 5; ++pass) {
            bytes = 0;
            const auto t0 = std::chrono::steady_clock::now();
            for (const auto& t : tiles)
                bytes += double(
                    ZSTD_compressCCtx(cx, out.data(), out.size(), t.data(), t.size(), level));
            best = std::min(
                best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        if (level == 3)
            base = bytes;
        std::printf("| %d | %.2f:1 | %+.1f %% | %.0f |\n", level, raw / bytes,
                    100 * (bytes / base - 1), raw / best / 1e6);
    }
    ZSTD_freeCCtx(cx);
    return 0;
}

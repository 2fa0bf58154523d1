// Tile codec steps of the tiled writer; see tile_codec.h.
#include "io/tile_codec.h"

#include <cstring>
#include <memory>

#ifdef FISURA_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef FISURA_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#ifdef FISURA_HAVE_ZLIB
#include <zlib.h>
#endif

namespace fisura::io
{

namespace
{

// Row y of a tile (n bytes of the band's row at src; the tile is tileStride bytes wide) with the
// horizontal predictor applied.
void predictRow(const uint8_t* __restrict src, size_t n, size_t tileStride, int channels,
                uint8_t* __restrict d)
{
    for (int c = 0; c < channels; ++c)
        d[c] = src[c];
    for (size_t i = size_t(channels); i < n; ++i)
        d[i] = uint8_t(src[i] - src[i - channels]);
    if (n < tileStride) {
        // The first padding pixel steps back to zero; the rest stays zero.
        for (int c = 0; c < channels; ++c)
            d[n + c] = uint8_t(-src[n - channels + c]);
        std::memset(d + n + channels, 0, tileStride - n - channels);
    }
}

} // namespace

// One tile of a band with the TIFF horizontal predictor applied on the way (differences of
// neighbouring samples, zero padding beyond the image), ready for ZSTD/Deflate.
void extractPredicted(const uint8_t* band, size_t bandStride, int bandRows, int x0, int w,
                      int tileSize, int channels, uint8_t* tile)
{
    extractPredicted(band, bandStride, bandRows, x0, w, tileSize, channels, tile, nullptr, 0);
}

void extractPredicted(const uint8_t* band, size_t bandStride, int bandRows, int x0, int w,
                      int tileSize, int channels, uint8_t* tile, uint8_t* half, size_t halfStride)
{
    const size_t tileStride = size_t(tileSize) * channels;
    const size_t n = size_t(w) * channels;
    const uint8_t* src = band + size_t(x0) * channels;
    for (int y = 0; y < tileSize; ++y) {
        uint8_t* d = tile + size_t(y) * tileStride;
        if (y >= bandRows) {
            std::memset(d, 0, tileStride);
            continue;
        }
        const uint8_t* row = src + size_t(y) * bandStride;
        predictRow(row, n, tileStride, channels, d);
        // Each pair of rows is halved while it is in the cache (the last odd row with itself).
        if (half && (y % 2 == 1 || y + 1 == bandRows)) {
            const uint8_t* r0 = y % 2 == 1 ? row - bandStride : row;
            halveRow(r0, row, half + size_t(y / 2) * halfStride, (w + 1) / 2, w, channels);
        }
    }
}

namespace
{

template <int C>
void halveRowOf(const uint8_t* __restrict r0, const uint8_t* __restrict r1, uint8_t* __restrict d,
                int outWidth, int inWidth)
{
    const int pairs = inWidth / 2;
    for (int x = 0; x < pairs; ++x)
        for (int c = 0; c < C; ++c) {
            const int a = 2 * x * C + c;
            d[x * C + c] = uint8_t((r0[a] + r0[a + C] + r1[a] + r1[a + C] + 2) >> 2);
        }
    if (outWidth > pairs)
        for (int c = 0; c < C; ++c) {
            const int a = 2 * pairs * C + c;
            d[pairs * C + c] = uint8_t((2 * r0[a] + 2 * r1[a] + 2) >> 2);
        }
}

} // namespace

void halveRow(const uint8_t* r0, const uint8_t* r1, uint8_t* d, int outWidth, int inWidth,
              int channels)
{
    if (channels == 1)
        halveRowOf<1>(r0, r1, d, outWidth, inWidth);
    else if (channels == 3)
        halveRowOf<3>(r0, r1, d, outWidth, inWidth);
    else
        halveRowOf<4>(r0, r1, d, outWidth, inWidth);
}

// One predicted tile as a ZSTD frame or a zlib stream (TIFF's Adobe Deflate), with codec state
// kept per thread. libdeflate, where found, writes the same zlib format 2-3x faster than zlib at
// the same level (measured on Fisura maps: tests/bench/RESULTS.md, "Map writer").
bool compressTile(TileCompression codec, int level, const uint8_t* in, size_t n,
                  std::vector<uint8_t>& out)
{
    // The codec writes into this thread's scratch (kept from tile to tile) and `out` gets the
    // compressed bytes only: sized to the codec's bound, a new `out` was zero-filled and
    // faulted in page by page for every tile, most of it never written.
    thread_local std::vector<uint8_t> scratch;
    auto room = [&](size_t bound) {
        if (scratch.size() < bound)
            scratch.resize(bound);
        return scratch.data();
    };
    auto keep = [&](size_t m) {
        out.assign(scratch.data(), scratch.data() + m);
        return true;
    };
#ifdef FISURA_HAVE_ZSTD
    if (codec == TileCompression::Zstd) {
        thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> ctx(ZSTD_createCCtx(),
                                                                            ZSTD_freeCCtx);
        const size_t bound = ZSTD_compressBound(n);
        const size_t m = ZSTD_compressCCtx(ctx.get(), room(bound), bound, in, n, level);
        if (ZSTD_isError(m))
            return false;
        return keep(m);
    }
#endif
#if defined(FISURA_HAVE_LIBDEFLATE)
    struct Compressor {
        int level = -1;
        libdeflate_compressor* c = nullptr;
        ~Compressor() { libdeflate_free_compressor(c); }
    };
    thread_local Compressor state;
    if (state.level != level) {
        libdeflate_free_compressor(state.c);
        state.c = libdeflate_alloc_compressor(level);
        state.level = state.c ? level : -1;
        if (!state.c)
            return false;
    }
    const size_t bound = libdeflate_zlib_compress_bound(state.c, n);
    const size_t m = libdeflate_zlib_compress(state.c, in, n, room(bound), bound);
    if (m == 0)
        return false;
    return codec == TileCompression::Deflate && keep(m);
#elif defined(FISURA_HAVE_ZLIB)
    uLongf m = compressBound(uLong(n));
    if (compress2(room(m), &m, in, uLong(n), level) != Z_OK)
        return false;
    return codec == TileCompression::Deflate && keep(m);
#else
    (void)codec, (void)level, (void)in, (void)n, (void)out, (void)room, (void)keep;
    return false;
#endif
}

} // namespace fisura::io

// The reader's fast path for Deflate tiles; see tile_decode.h.
#include "io/tile_decode.h"

#include <algorithm>
#include <memory>

#ifdef FISURA_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fisura::io
{

namespace
{

// Samples [from, n) of the row, each from the one a pixel before it (already undone).
void undoFrom(uint8_t* row, size_t n, int stride, size_t from)
{
    for (size_t i = std::max(from, size_t(stride)); i < n; ++i)
        row[i] = uint8_t(row[i] + row[i - size_t(stride)]);
}

} // namespace

void undoHorizontalPredictor8Scalar(uint8_t* row, size_t n, int stride)
{
    undoFrom(row, n, stride, 0);
}

#if defined(__SSE2__)
namespace
{

// The undoing is a running sum of each sample along the row. A vector of 16 bytes holds K whole
// pixels (K * S = 16, or 15 for RGB): its running sums within the vector take log2 shifted adds
// (Hillis and Steele's scan); then every pixel gets the sum of all pixels of the vectors before
// it, the "carry": the last pixel of the last vector's sums repeated across a vector. The carry
// of the next vector is this one's plus the last pixel of this vector's own sums, so vectors
// depend on each other through one add only.
template <int S> __m128i scan(__m128i v)
{
    v = _mm_add_epi8(v, _mm_slli_si128(v, S));
    v = _mm_add_epi8(v, _mm_slli_si128(v, 2 * S));
    if constexpr (4 * S < 16)
        v = _mm_add_epi8(v, _mm_slli_si128(v, 4 * S));
    if constexpr (8 * S < 16)
        v = _mm_add_epi8(v, _mm_slli_si128(v, 8 * S));
    return v;
}

// The last whole pixel of v repeated across a vector (for S = 3: bytes 12-14; byte 15 belongs
// to the next pixel and stays out of every result that is kept).
template <int S> __m128i lastPixel(__m128i v)
{
    if constexpr (S == 1) {
        const __m128i b = _mm_unpackhi_epi8(v, v);
        return _mm_shuffle_epi32(_mm_unpackhi_epi16(b, b), 0xFF);
    } else if constexpr (S == 2) {
        const __m128i w = _mm_shufflehi_epi16(v, 0xFF);
        return _mm_unpackhi_epi64(w, w);
    } else if constexpr (S == 4) {
        return _mm_shuffle_epi32(v, 0xFF);
    } else { // 3
        __m128i c = _mm_and_si128(_mm_srli_si128(v, 12), _mm_set_epi32(0, 0, 0, 0x00FFFFFF));
        c = _mm_add_epi8(c, _mm_slli_si128(c, 3));
        c = _mm_add_epi8(c, _mm_slli_si128(c, 6));
        return _mm_add_epi8(c, _mm_slli_si128(c, 12));
    }
}

// Whole vectors of the row; returns where the plain loop takes over. Each vector is loaded
// before the one before it is stored: with S = 3 a store's 16th byte is the next vector's
// first, not yet undone; it is written right by that vector's store, and the last vector's is
// put back for the plain loop.
template <int S> size_t undoVectors(uint8_t* row, size_t n)
{
    constexpr size_t step = S == 3 ? 15 : 16;
    if (n < 16)
        return 0;
    __m128i carry = _mm_setzero_si128();
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row));
    size_t i = 0;
    for (; i + step + 16 <= n; i += step) {
        const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i + step));
        const __m128i sums = scan<S>(v);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i), _mm_add_epi8(sums, carry));
        carry = _mm_add_epi8(carry, lastPixel<S>(sums));
        v = next;
    }
    const uint8_t kept = row[i + 15];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row + i), _mm_add_epi8(scan<S>(v), carry));
    if constexpr (step == 15)
        row[i + 15] = kept;
    return i + step;
}

} // namespace
#endif

void undoHorizontalPredictor8(uint8_t* row, size_t n, int stride)
{
    size_t done = 0;
#if defined(__SSE2__)
    switch (stride) {
    case 1:
        done = undoVectors<1>(row, n);
        break;
    case 2:
        done = undoVectors<2>(row, n);
        break;
    case 3:
        done = undoVectors<3>(row, n);
        break;
    case 4:
        done = undoVectors<4>(row, n);
        break;
    default:
        break;
    }
#endif
    undoFrom(row, n, stride, done);
}

bool directDeflateAvailable()
{
#ifdef FISURA_HAVE_LIBDEFLATE
    return true;
#else
    return false;
#endif
}

bool inflateTile(const uint8_t* raw, size_t rawBytes, uint8_t* out, size_t outBytes,
                 size_t rowBytes, int stride, bool predictor)
{
#ifdef FISURA_HAVE_LIBDEFLATE
    thread_local std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> state(
        libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    if (!state || rowBytes == 0 || outBytes % rowBytes != 0 || stride < 1)
        return false;
    size_t got = 0;
    if (libdeflate_zlib_decompress(state.get(), raw, rawBytes, out, outBytes, &got) !=
            LIBDEFLATE_SUCCESS ||
        got != outBytes)
        return false;
    if (predictor)
        for (size_t r = 0; r < outBytes; r += rowBytes)
            undoHorizontalPredictor8(out + r, rowBytes, stride);
    return true;
#else
    (void)raw, (void)rawBytes, (void)out, (void)outBytes, (void)rowBytes, (void)stride;
    (void)predictor;
    return false;
#endif
}

} // namespace fisura::io

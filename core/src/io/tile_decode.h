// The reader's fast path for the most common scan tiles (8-bit samples, Deflate, with or without
// the horizontal predictor): the tile's zlib stream inflated by libdeflate straight into the
// block, then the predictor undone with SIMD. libtiff does the same work through its general
// codec stack, and its predictor loop (one pixel at a time) was a fifth of the CPU samples of
// reading an 8192² RGB scan written like the benchmark's (tests/bench/RESULTS.md). Anything else,
// and any tile this path cannot decode exactly, is left to libtiff (its errors are the ones a
// user sees).
#pragma once

#include <cstddef>
#include <cstdint>

namespace fisura::io
{

/// Whether this build has the fast path (libdeflate found).
bool directDeflateAvailable();

/// Inflates one zlib stream of exactly `outBytes` bytes into `out` and, if `predictor`, undoes
/// the horizontal predictor on each of its rows of `rowBytes` bytes (`stride` bytes per pixel).
/// False, with `out` in any state, when the stream is not exactly that (the caller then asks
/// libtiff, which says why or copes).
bool inflateTile(const uint8_t* raw, size_t rawBytes, uint8_t* out, size_t outBytes,
                 size_t rowBytes, int stride, bool predictor);

/// The TIFF horizontal predictor undone on one row of `n` bytes, 8-bit samples, `stride` bytes
/// per pixel (each sample becomes the sum of itself and the same sample of the pixels before
/// it, modulo 256). SIMD for strides 1, 2, 3 and 4; exposed for tests.
void undoHorizontalPredictor8(uint8_t* row, size_t n, int stride);
/// The plain loop, for any stride (what undoHorizontalPredictor8 must equal).
void undoHorizontalPredictor8Scalar(uint8_t* row, size_t n, int stride);

} // namespace fisura::io

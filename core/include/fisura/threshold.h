// One meaning of "threshold": a crack probability t in 0..1, everywhere (command lines, options,
// the GUI). Maps are 8-bit: a probability map stores p as the byte round(255 p), so the map's
// value of a pixel is b / 255. A pixel is crack at threshold t when its map value is at least
// t, b / 255 >= t, which for whole bytes is exactly
//
//     b >= ceil(255 t)                                       (mapByteThreshold)
//
// (computed with a millionth of a byte of slack, so t = 51/255 written as 0.2 gives 51, not 52).
// t = 0 takes every pixel, t = 1 only 255. Every t in ((b - 1) / 255, b / 255] gives the same
// byte b; probabilityOfMapByte(b) is the shortest decimal of that interval (0.5 for 128), what a
// person reads for a byte and what the messages refusing the old 1..255 form suggest.
//
// Score maps (autoencoder, PaDiM) keep their own scaling: byte 128 is the model's threshold and
// a score s is the byte 128 s / threshold, with the same ceil rule (scoreMapByteThreshold).
#pragma once

#include "fisura/infer.h"

namespace fisura
{

/// The smallest map byte that counts as crack at `probability` (see above): ceil(255 t),
/// 0..255. Below 0 gives 0, above 1 gives 255; NaN gives 255 (callers validate first).
int mapByteThreshold(double probability);

/// The crack probability that stands for map byte `byte` (0..255, clamped): the shortest decimal
/// t (at most three places) with mapByteThreshold(t) == byte. 128 -> 0.5, 51 -> 0.2, 1 -> 0.003.
double probabilityOfMapByte(int byte);

/// The byte of a score map at `score` (in the model's units) when the map puts the model's
/// `modelThreshold` at 128: ceil(128 score / modelThreshold), 0..255.
int scoreMapByteThreshold(double score, double modelThreshold);

/// The byte of a map of `kind` at `threshold` in the model's own units: a crack probability for
/// U-Net probability maps and classifier heatmaps, a score for score maps. `threshold` < 0 means
/// the model's own: `modelThreshold` for probability maps, 0.5 for heatmaps (a classifier calls
/// a patch cracked from 0.5), 128 for score maps.
int modelMapByteThreshold(MapKind kind, double modelThreshold, double threshold = -1.0);

/// A value given where a probability is expected that reads as the old map-byte form of a
/// threshold (a whole number from 2 to 255): that byte, else -1. The caller refuses it with
/// probabilityOfMapByte(byte) as the equivalent ("--threshold 128 is a map byte; use
/// --threshold 0.5"). 0 and 1 are probabilities.
int legacyByteThreshold(double value);

/// True for a crack probability 0..1 (false for NaN).
bool isProbability(double value);

} // namespace fisura

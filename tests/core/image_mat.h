// Fisura's Image and OpenCV's cv::Mat in the tests: copies both ways (8-bit, any channels), and
// a crack-free surface to align.
#pragma once

#include <algorithm>
#include <cstdint>

#include <opencv2/core.hpp>

#include "fisura/image.h"
#include "fisura/synth.h"

namespace fisura::testing_mat
{

inline cv::Mat asMat(const Image& im)
{
    return cv::Mat(im.height, im.width, CV_8UC(im.channels), const_cast<uint8_t*>(im.pixels.data()),
                   im.stride())
        .clone();
}

inline Image toImage(const cv::Mat& m)
{
    Image im = Image::make(m.cols, m.rows, m.channels());
    for (int y = 0; y < m.rows; ++y)
        std::copy_n(m.ptr<uint8_t>(y), size_t(m.cols) * m.channels(), im.row(y));
    return im;
}

/// A crack-free procedural surface of `size` x `size` px (the scenes of fisura/synth.h): texture
/// for the alignment tests.
inline cv::Mat sceneTexture(uint64_t seed, int size)
{
    synth::SceneOptions o;
    o.width = o.height = size;
    o.seed = seed;
    o.cracks = 0;
    auto s = synth::generateScene(o);
    if (!s)
        return {};
    return asMat(s->image);
}

} // namespace fisura::testing_mat

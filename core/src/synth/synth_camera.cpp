// What the camera and its file format do to a scene: exposure and colour balance, defocus or
// motion blur, sensor noise, and JPEG's block artefacts.
//
// The JPEG step is JPEG's own lossy transform (YCbCr, 4:2:0 chroma, 8 x 8 DCT with the standard
// quantisation tables of ITU-T T.81 Annex K, scaled by quality as the IJG library does) done
// with OpenCV's core cv::dct rather than cv::imencode: builds without OpenCV's imgcodecs (the
// GPU hosts) then generate the very same pixels.
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth::detail
{

namespace
{

// ITU-T T.81 Annex K, tables K.1 (luminance) and K.2 (chrominance).
constexpr int kLuma[64] = {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
                           14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
                           18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
                           49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
constexpr int kChroma[64] = {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
                             24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
                             99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
                             99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

cv::Mat quantTable(const int* base, int quality)
{
    const int q = std::clamp(quality, 1, 100);
    const int scale = q < 50 ? 5000 / q : 200 - 2 * q; // the IJG library's quality scaling
    cv::Mat t(8, 8, CV_32F);
    for (int i = 0; i < 64; ++i)
        t.at<float>(i / 8, i % 8) = float(std::clamp((base[i] * scale + 50) / 100, 1, 255));
    return t;
}

/// One plane through the 8 x 8 DCT, quantised and back (the plane's size a multiple of 8).
void quantisePlane(cv::Mat& plane, const cv::Mat& table)
{
    cv::Mat block, coef;
    for (int y = 0; y < plane.rows; y += 8)
        for (int x = 0; x < plane.cols; x += 8) {
            block = plane(cv::Rect(x, y, 8, 8));
            cv::dct(block - 128.f, coef);
            coef /= table;
            for (int i = 0; i < 64; ++i) {
                float& c = coef.at<float>(i / 8, i % 8);
                c = std::nearbyint(c);
            }
            coef = coef.mul(table);
            cv::idct(coef, block);
            block += 128.f;
        }
}

} // namespace

cv::Mat jpegArtefacts(const cv::Mat& rgb8, int quality)
{
    const int w = rgb8.cols, h = rgb8.rows;
    const int pw = (w + 15) / 16 * 16, ph = (h + 15) / 16 * 16; // whole 16 x 16 macroblocks
    cv::Mat padded, ycc;
    cv::copyMakeBorder(rgb8, padded, 0, ph - h, 0, pw - w, cv::BORDER_REPLICATE);
    cv::cvtColor(padded, ycc, cv::COLOR_RGB2YCrCb);
    std::vector<cv::Mat> p;
    cv::split(ycc, p);
    for (auto& m : p)
        m.convertTo(m, CV_32F);
    quantisePlane(p[0], quantTable(kLuma, quality));
    const cv::Mat chroma = quantTable(kChroma, quality);
    for (int k = 1; k < 3; ++k) { // 4:2:0: chroma at half resolution
        cv::Mat half;
        cv::resize(p[size_t(k)], half, cv::Size(pw / 2, ph / 2), 0, 0, cv::INTER_AREA);
        quantisePlane(half, chroma);
        cv::resize(half, p[size_t(k)], cv::Size(pw, ph), 0, 0, cv::INTER_LINEAR);
    }
    cv::Mat merged, out;
    cv::merge(p, merged);
    merged.convertTo(merged, CV_8U);
    cv::cvtColor(merged, out, cv::COLOR_YCrCb2RGB);
    return out(cv::Rect(0, 0, w, h)).clone();
}

cv::Mat applyCamera(cv::RNG& rng, const SceneOptions& o, const cv::Mat& rgbIn)
{
    cv::Mat rgb = rgbIn.clone();
    // Exposure, contrast and a gamma: cameras and their automatic settings differ.
    const double gain = rng.uniform(0.9, 1.1), gamma = rng.uniform(0.85, 1.2);
    cv::max(rgb, 0.0, rgb);
    rgb *= 1.0 / 255.0;
    cv::pow(rgb, gamma, rgb);
    rgb *= 255.0 * gain;
    if (o.blurSigma > 0.05) {
        if (rng.uniform(0.0, 1.0) < 0.15) { // motion: a short line kernel
            const int len = std::max(3, int(std::lround(o.blurSigma * 4)) | 1);
            cv::Mat k = cv::Mat::zeros(len, len, CV_32F);
            const double a = rng.uniform(0.0, kPi);
            cv::line(k,
                     cv::Point2d(len / 2.0, len / 2.0) -
                         cv::Point2d(std::cos(a), std::sin(a)) * (len / 2.0),
                     cv::Point2d(len / 2.0, len / 2.0) +
                         cv::Point2d(std::cos(a), std::sin(a)) * (len / 2.0),
                     cv::Scalar(1.0), 1, cv::LINE_AA);
            k /= cv::sum(k)[0];
            cv::filter2D(rgb, rgb, -1, k, cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
        } else {
            cv::GaussianBlur(rgb, rgb, cv::Size(), o.blurSigma);
        }
    }
    if (o.noiseSigma > 0) {
        // Mostly in luminance, some in colour; brighter pixels a little noisier (shot noise).
        cv::Mat lum(rgb.rows, rgb.cols, CV_32F), col(rgb.rows, rgb.cols, CV_32FC3);
        rng.fill(lum, cv::RNG::NORMAL, 0.0, o.noiseSigma);
        rng.fill(col, cv::RNG::NORMAL, 0.0, o.noiseSigma * 0.35);
        cv::Mat gray;
        cv::cvtColor(rgb, gray, cv::COLOR_RGB2GRAY);
        cv::max(gray, 1.0, gray);
        cv::sqrt(gray / 128.0, gray);
        addTo(rgb, lum.mul(gray));
        rgb += col;
    }
    cv::Mat out;
    rgb.convertTo(out, CV_8U);
    if (o.jpegQuality > 0)
        out = jpegArtefacts(out, o.jpegQuality);
    return out;
}

} // namespace fisura::synth::detail

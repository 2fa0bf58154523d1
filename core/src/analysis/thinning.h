// Skeletons of binary masks: OpenCV ximgproc's thinning when the build has it, else Fisura's own
// implementation of the same published algorithm (both results are compared in tst_measure).
#pragma once

#include <opencv2/core.hpp>

namespace fisura::analysis
{

/// Guo-Hall thinning of a CV_8U mask (non-zero = foreground) into a CV_8U skeleton of 0 / 255.
/// Guo and Hall, "Parallel thinning with two-subiteration algorithms", CACM 32(3), 1989. Its
/// skeletons are 8-connected without staircase corners, which the length estimator relies on.
cv::Mat thin(const cv::Mat& mask);

/// Fisura's implementation (what thin() uses without ximgproc); exposed for the comparison test.
cv::Mat thinGuoHallFallback(const cv::Mat& mask);

/// "guo-hall (opencv ximgproc)" or "guo-hall (fisura)".
const char* thinningName();

} // namespace fisura::analysis

// Shared by the measurement tests: cracks of known geometry drawn into a mask.
#pragma once

#include <opencv2/imgproc.hpp>

namespace fisura::test
{

// A straight crack of exactly `width` px across its axis (cv::line's thickness draws wider):
// a rotated rectangle with sub-pixel corners; width 1 is an 8-connected one-pixel line.
inline void bar(cv::Mat& m, cv::Point2d a, cv::Point2d b, double width)
{
    if (width <= 1) {
        cv::line(m, cv::Point(cvRound(a.x), cvRound(a.y)), cv::Point(cvRound(b.x), cvRound(b.y)),
                 255, 1, cv::LINE_8);
        return;
    }
    const cv::Point2d d = (b - a) / cv::norm(b - a);
    // Pixel centres on the edges are filled: (width - 1) / 2 gives `width` rows along an axis.
    const cv::Point2d n(-d.y * (width - 1) / 2, d.x * (width - 1) / 2);
    const cv::Point2d c[4] = {a + n, b + n, b - n, a - n};
    cv::Point p[4];
    for (int k = 0; k < 4; ++k)
        p[k] = cv::Point(cvRound(c[k].x * 16), cvRound(c[k].y * 16));
    cv::fillConvexPoly(m, p, 4, 255, cv::LINE_8, 4);
}

} // namespace fisura::test

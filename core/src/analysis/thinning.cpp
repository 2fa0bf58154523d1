#include "analysis/thinning.h"

#include <vector>

#ifdef FISURA_HAVE_XIMGPROC
#include <opencv2/ximgproc.hpp>
#endif

namespace fisura::analysis
{

namespace
{

// One Guo-Hall sub-iteration on a 0/1 image with a zero border; returns whether anything changed.
// The conditions follow Guo and Hall (1989), algorithm A1, as OpenCV contrib writes them.
bool guoHallIteration(cv::Mat& im, int iter, std::vector<uint8_t>& marker)
{
    const int rows = im.rows, cols = im.cols;
    marker.assign(size_t(rows) * cols, 0);
    for (int i = 1; i < rows - 1; ++i) {
        const uint8_t* up = im.ptr<uint8_t>(i - 1);
        const uint8_t* row = im.ptr<uint8_t>(i);
        const uint8_t* down = im.ptr<uint8_t>(i + 1);
        for (int j = 1; j < cols - 1; ++j) {
            if (!row[j])
                continue;
            const int p2 = up[j], p3 = up[j + 1], p4 = row[j + 1], p5 = down[j + 1];
            const int p6 = down[j], p7 = down[j - 1], p8 = row[j - 1], p9 = up[j - 1];
            const int c = ((!p2) & (p3 | p4)) + ((!p4) & (p5 | p6)) + ((!p6) & (p7 | p8)) +
                          ((!p8) & (p9 | p2));
            const int n1 = (p9 | p2) + (p3 | p4) + (p5 | p6) + (p7 | p8);
            const int n2 = (p2 | p3) + (p4 | p5) + (p6 | p7) + (p8 | p9);
            const int n = n1 < n2 ? n1 : n2;
            const int m = iter == 0 ? ((p6 | p7 | (!p9)) & p8) : ((p2 | p3 | (!p5)) & p4);
            if (c == 1 && n >= 2 && n <= 3 && m == 0)
                marker[size_t(i) * cols + j] = 1;
        }
    }
    bool changed = false;
    for (int i = 0; i < rows; ++i) {
        uint8_t* row = im.ptr<uint8_t>(i);
        const uint8_t* mk = marker.data() + size_t(i) * cols;
        for (int j = 0; j < cols; ++j)
            if (mk[j]) {
                row[j] = 0;
                changed = true;
            }
    }
    return changed;
}

} // namespace

cv::Mat thinGuoHallFallback(const cv::Mat& mask)
{
    // A one-pixel zero frame, as ximgproc's loops skip the outermost pixels too.
    cv::Mat im = (mask != 0) / 255;
    std::vector<uint8_t> marker;
    for (;;) {
        const bool a = guoHallIteration(im, 0, marker);
        const bool b = guoHallIteration(im, 1, marker);
        if (!a && !b)
            break;
    }
    return im * 255;
}

cv::Mat thin(const cv::Mat& mask)
{
#ifdef FISURA_HAVE_XIMGPROC
    cv::Mat out;
    cv::ximgproc::thinning(mask, out, cv::ximgproc::THINNING_GUOHALL);
    return out;
#else
    return thinGuoHallFallback(mask);
#endif
}

const char* thinningName()
{
#ifdef FISURA_HAVE_XIMGPROC
    return "guo-hall (opencv ximgproc)";
#else
    return "guo-hall (fisura)";
#endif
}

} // namespace fisura::analysis

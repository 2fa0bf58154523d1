// Line-like things that are not cracks, so a model learns to leave them out: saw-cut and
// construction joints, formwork and planking joints (UAV75's "planking" class), slab edges and
// repair patches, scratches, cables and branch shadows, chalk and paint lines, tining grooves,
// tyre marks and printed markings. None of them is ever written into the mask.
#include <algorithm>
#include <cmath>
#include <string>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth::detail
{

namespace
{

struct Line {
    cv::Point2d a, b;
};

/// A straight line through the image, mostly along its axes (joints are laid out square).
Line acrossImage(cv::RNG& rng, int w, int h, bool axisAligned)
{
    double a = rng.uniform(0.0, kPi);
    if (axisAligned)
        a = (rng.uniform(0, 2) ? 0.0 : kPi / 2) + rng.gaussian(0.02);
    const cv::Point2d d(std::cos(a), std::sin(a));
    const cv::Point2d c(rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h);
    const double reach = std::hypot(w, h);
    return {c - d * reach, c + d * reach};
}

/// Multiplies the image by (1 + k * m): m drawn by the caller, k < 0 darkens.
void shadeBy(cv::Mat& rgb, const cv::Mat& m, double k)
{
    multiplyBy(rgb, 1.0 + m * k);
}

/// Saw-cut, expansion or construction joint: a straight dark groove of constant width, maybe
/// filled with a lighter or darker sealant.
void joint(cv::RNG& rng, cv::Mat& rgb, double s)
{
    cv::Mat m(rgb.size(), CV_32F, cv::Scalar(0));
    const Line l = acrossImage(rng, rgb.cols, rgb.rows, rng.uniform(0.0, 1.0) < 0.8);
    const int width = std::max(2, int(rng.uniform(2.0, 9.0) * s));
    cv::line(m, l.a, l.b, cv::Scalar(1.0), width, cv::LINE_AA);
    cv::GaussianBlur(m, m, cv::Size(), 0.7);
    shadeBy(rgb, m, -rng.uniform(0.3, 0.7));
    if (rng.uniform(0.0, 1.0) < 0.4) { // a lit edge on one side
        cv::Mat e(rgb.size(), CV_32F, cv::Scalar(0));
        const cv::Point2d off(rng.uniform(-1.0, 1.0) * width * 0.6,
                              rng.uniform(-1.0, 1.0) * width * 0.6);
        cv::line(e, l.a + off, l.b + off, cv::Scalar(1.0), std::max(1, width / 3), cv::LINE_AA);
        shadeBy(rgb, e, rng.uniform(0.08, 0.25));
    }
}

/// Formwork or planking joint (as on cast-in-place walls): a thin dark line with a lighter or
/// darker band of cement paste beside it, nearly vertical or horizontal.
void planking(cv::RNG& rng, cv::Mat& rgb, double s)
{
    const Line l = acrossImage(rng, rgb.cols, rgb.rows, true);
    cv::Mat band(rgb.size(), CV_32F, cv::Scalar(0));
    const cv::Point2d off = (l.b - l.a) * (1.0 / cv::norm(l.b - l.a));
    const cv::Point2d side(-off.y, off.x);
    const double bw = rng.uniform(4.0, 16.0) * s;
    cv::line(band, l.a + side * bw / 2, l.b + side * bw / 2, cv::Scalar(1.0), int(bw), cv::LINE_AA);
    cv::GaussianBlur(band, band, cv::Size(), 1.5);
    shadeBy(rgb, band, rng.uniform(-0.15, 0.15));
    cv::Mat core(rgb.size(), CV_32F, cv::Scalar(0));
    cv::line(core, l.a, l.b, cv::Scalar(1.0), std::max(1, int(rng.uniform(1.0, 4.0) * s)),
             cv::LINE_AA);
    shadeBy(rgb, core, -rng.uniform(0.25, 0.75));
}

/// A slab edge, kerb or repair patch: a step in tone and texture along a straight or gently
/// curved boundary.
void edge(cv::RNG& rng, cv::Mat& rgb, double s)
{
    const int w = rgb.cols, h = rgb.rows;
    cv::Mat m(h, w, CV_32F, cv::Scalar(0));
    if (rng.uniform(0.0, 1.0) < 0.5) {
        const Line l = acrossImage(rng, w, h, false);
        const cv::Point2d d = l.b - l.a, n(-d.y, d.x);
        std::vector<cv::Point> pts{l.a, l.b, l.b + n, l.a + n};
        cv::fillPoly(m, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(1.0), cv::LINE_AA);
    } else { // a rectangular patch, slightly rotated
        const cv::RotatedRect r(
            cv::Point2f(float(rng.uniform(0, w)), float(rng.uniform(0, h))),
            cv::Size2f(float(rng.uniform(0.3, 1.0) * w), float(rng.uniform(0.3, 1.0) * h)),
            float(rng.gaussian(8.0)));
        cv::Point2f v[4];
        r.points(v);
        std::vector<cv::Point> pts(v, v + 4);
        cv::fillPoly(m, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(1.0), cv::LINE_AA);
    }
    cv::GaussianBlur(m, m, cv::Size(), rng.uniform(0.4, 1.5));
    cv::Mat texture = 1.0 + noiseLayer(rng, w, h, rng.uniform(1.0, 3.0) * s, 0.05);
    multiplyBy(rgb, 1.0 + m.mul(texture * rng.uniform(0.75, 1.3) - 1.0));
}

/// Scratches: short, thin, nearly straight marks, often a few side by side.
void scratches(cv::RNG& rng, cv::Mat& rgb, double s)
{
    cv::Mat m(rgb.size(), CV_32F, cv::Scalar(0));
    const double a = rng.uniform(0.0, kPi);
    const cv::Point2d start(rng.uniform(0, rgb.cols), rng.uniform(0, rgb.rows));
    for (int i = rng.uniform(1, 6); i > 0; --i) {
        const double len = rng.uniform(15.0, 120.0) * s;
        const double aa = a + rng.gaussian(0.05);
        const cv::Point2d p = start + cv::Point2d(rng.gaussian(8.0 * s), rng.gaussian(8.0 * s));
        cv::line(m, p, p + cv::Point2d(std::cos(aa), std::sin(aa)) * len,
                 cv::Scalar(rng.uniform(0.5, 1.0)), 1, cv::LINE_AA);
    }
    shadeBy(rgb, m, (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.06, 0.25));
}

/// A smooth thin curve: a cable, a branch's shadow, a chalk or paint line. Smooth where cracks
/// are jagged, of even width where cracks taper.
void curve(cv::RNG& rng, cv::Mat& rgb, double s)
{
    const int w = rgb.cols, h = rgb.rows;
    cv::Point2d p[4];
    for (auto& q : p)
        q = {rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h};
    std::vector<cv::Point> pts;
    for (int i = 0; i <= 64; ++i) { // a cubic Bezier
        const double t = i / 64.0, u = 1 - t;
        const cv::Point2d q = p[0] * (u * u * u) + p[1] * (3 * u * u * t) + p[2] * (3 * u * t * t) +
                              p[3] * (t * t * t);
        pts.emplace_back(int(std::lround(q.x * 4)), int(std::lround(q.y * 4)));
    }
    cv::Mat m(h, w, CV_32F, cv::Scalar(0));
    const int width = std::max(1, int(rng.uniform(1.0, 4.0) * s));
    cv::polylines(m, std::vector<std::vector<cv::Point>>{pts}, false, cv::Scalar(1.0), width,
                  cv::LINE_AA, 2);
    const int kind = rng.uniform(0, 3);
    if (kind == 0) { // a shadow: soft
        cv::GaussianBlur(m, m, cv::Size(), rng.uniform(0.5, 2.0));
        shadeBy(rgb, m, -rng.uniform(0.2, 0.5));
    } else if (kind == 1) { // a cable: dark
        shadeBy(rgb, m, -rng.uniform(0.4, 0.8));
    } else { // chalk or paint
        const cv::Vec3f c =
            rng.uniform(0, 3) ? cv::Vec3f(235.f, 235.f, 230.f)
                              : cv::Vec3f(float(rng.uniform(60, 250)), float(rng.uniform(60, 250)),
                                          float(rng.uniform(60, 250)));
        cv::Mat c3(rgb.size(), CV_32FC3, cv::Scalar(c[0], c[1], c[2]));
        cv::Mat a = m * rng.uniform(0.4, 0.9);
        cv::Mat a3;
        cv::merge(std::vector<cv::Mat>{a, a, a}, a3);
        rgb = rgb.mul(cv::Scalar::all(1.0) - a3) + c3.mul(a3); // all(): not just channel 0
    }
}

/// Tining or grooving on pavements: evenly spaced parallel lines.
void grooves(cv::RNG& rng, cv::Mat& rgb, double s)
{
    const int w = rgb.cols, h = rgb.rows;
    cv::Mat m(h, w, CV_32F, cv::Scalar(0));
    const double a = (rng.uniform(0, 2) ? 0.0 : kPi / 2) + rng.gaussian(0.05);
    const cv::Point2d d(std::cos(a), std::sin(a)), n(-d.y, d.x);
    const double pitch = rng.uniform(8.0, 30.0) * s, reach = std::hypot(w, h);
    for (double t = -reach; t < reach; t += pitch * rng.uniform(0.85, 1.15)) {
        const cv::Point2d c = cv::Point2d(w / 2.0, h / 2.0) + n * t;
        cv::line(m, c - d * reach, c + d * reach, cv::Scalar(1.0), std::max(1, int(1.5 * s)),
                 cv::LINE_AA);
    }
    cv::GaussianBlur(m, m, cv::Size(), 0.6);
    shadeBy(rgb, m, -rng.uniform(0.04, 0.15));
}

/// Printed or painted characters: a survey number, a date stamp, a watermark.
void marking(cv::RNG& rng, cv::Mat& rgb, double s)
{
    std::string text;
    for (int i = rng.uniform(2, 9); i > 0; --i) {
        const int k = rng.uniform(0, 14);
        text += k < 10 ? char('0' + k) : "-./A"[k - 10];
    }
    const int faces[] = {cv::FONT_HERSHEY_SIMPLEX, cv::FONT_HERSHEY_PLAIN, cv::FONT_HERSHEY_DUPLEX,
                         cv::FONT_HERSHEY_SCRIPT_SIMPLEX};
    const cv::Scalar colours[] = {{220, 40, 30}, {240, 240, 235}, {240, 200, 40}, {30, 30, 30}};
    const double size = rng.uniform(0.3, 1.6) * s;
    cv::putText(rgb, text, cv::Point(rng.uniform(0, rgb.cols / 2), rng.uniform(10, rgb.rows)),
                faces[rng.uniform(0, 4)], size, colours[rng.uniform(0, 4)],
                std::max(1, int(size * rng.uniform(1.0, 2.5))), cv::LINE_AA);
}

/// A tyre or drag mark: a wide, soft, dark band.
void tyreMark(cv::RNG& rng, cv::Mat& rgb, double s)
{
    cv::Mat m(rgb.size(), CV_32F, cv::Scalar(0));
    const Line l = acrossImage(rng, rgb.cols, rgb.rows, false);
    cv::line(m, l.a, l.b, cv::Scalar(1.0), std::max(4, int(rng.uniform(10.0, 40.0) * s)),
             cv::LINE_AA);
    cv::GaussianBlur(m, m, cv::Size(), rng.uniform(2.0, 6.0));
    m = m.mul(1.0 + noiseLayer(rng, rgb.cols, rgb.rows, 6.0, 0.4));
    shadeBy(rgb, m, -rng.uniform(0.1, 0.3));
}

} // namespace

void drawDistractors(cv::RNG& rng, int count, const SceneOptions& o, cv::Mat& rgb)
{
    const double s = std::clamp(o.scale, 0.25, 4.0);
    for (int i = 0; i < count; ++i) {
        // Weights: what surfaces of each kind carry most often.
        const int k = rng.uniform(0, 100);
        if (k < 18)
            joint(rng, rgb, s);
        else if (k < 32)
            o.surface == Surface::Asphalt ? tyreMark(rng, rgb, s) : planking(rng, rgb, s);
        else if (k < 46)
            edge(rng, rgb, s);
        else if (k < 64)
            scratches(rng, rgb, s);
        else if (k < 82)
            curve(rng, rgb, s);
        else if (k < 92)
            grooves(rng, rgb, s);
        else
            marking(rng, rgb, s);
    }
}

} // namespace fisura::synth::detail

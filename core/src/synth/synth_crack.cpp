// Realistic cracks. Each crack is a jagged path (a random walk around a slowly turning heading,
// as cracks wander around aggregate) whose width tapers towards its ends and varies along it;
// branches leave it at an angle, thinner; now and then a network of cells (map or alligator
// cracking) from the Voronoi edges of random points (cv::Subdiv2D). Paths are drawn
// super-sampled into a coverage map; a pixel is crack in the mask when at least half of it is
// covered, or when a crack's centre line passes through it (so a hairline is never lost).
// Darkening grows with width (a hairline is faint, a wide crack a dark void with a lit rim).
#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "synth/synth_impl.h"

namespace fisura::synth::detail
{

namespace
{

struct Path {
    std::vector<cv::Point2d> pts;
    std::vector<double> widths;
};

/// Smooth 1-D noise in [-1, 1]-ish: random knots every `every` samples, linearly joined.
std::vector<double> wobble(cv::RNG& rng, size_t n, int every)
{
    std::vector<double> knots(n / size_t(every) + 2);
    for (auto& k : knots)
        k = rng.uniform(-1.0, 1.0);
    std::vector<double> out(n);
    for (size_t i = 0; i < n; ++i) {
        const double t = double(i) / every;
        const size_t k = size_t(t);
        out[i] = knots[k] + (knots[k + 1] - knots[k]) * (t - double(k));
    }
    return out;
}

/// Width along a path of n points: wMax in the middle, tapering to `tip` at ends that lie
/// inside the image, wobbling by a third along the way.
std::vector<double> widthProfile(cv::RNG& rng, size_t n, double wMax, double tip, bool taperStart)
{
    std::vector<double> w(n);
    const auto wob = wobble(rng, n, 12);
    const double ta = rng.uniform(0.1, 0.5), tb = rng.uniform(0.15, 0.6);
    for (size_t i = 0; i < n; ++i) {
        const double t = n > 1 ? double(i) / double(n - 1) : 0.5;
        double p = std::min(1.0, (1.0 - t) / tb);
        if (taperStart)
            p = std::min(p, t / ta);
        p = std::pow(std::max(0.0, p), 0.7);
        w[i] = std::max(tip, tip + (wMax - tip) * p * (1.0 + 0.33 * wob[i]));
    }
    return w;
}

struct WalkSpec {
    cv::Point2d start;
    double heading = 0;
    double length = 0;
    double wMax = 1, tip = 0.7;
    bool taperStart = true;
    int depth = 0;
};

/// A jagged random walk; optionally pulled towards `target` (network cells).
std::vector<cv::Point2d> walk(cv::RNG& rng, const WalkSpec& w, double step,
                              const cv::Point2d* target)
{
    std::vector<cv::Point2d> pts{w.start};
    double heading = w.heading, angle = w.heading;
    cv::Point2d p = w.start;
    const double jag = rng.uniform(0.25, 0.6);
    for (double done = 0; done < w.length; done += step) {
        heading += rng.gaussian(0.05);
        if (target) {
            const cv::Point2d d = *target - p;
            if (cv::norm(d) < 1.5 * step)
                break;
            const double want = std::atan2(d.y, d.x);
            heading += 0.3 * std::remainder(want - heading, 2 * kPi);
        }
        angle = 0.55 * angle + 0.45 * (heading + rng.gaussian(jag));
        p += step * cv::Point2d(std::cos(angle), std::sin(angle));
        pts.push_back(p);
    }
    if (target)
        pts.push_back(*target);
    return pts;
}

/// A crack and its branches (recursively, up to depth 3) as paths with widths.
void crack(cv::RNG& rng, const WalkSpec& spec, const SceneOptions& o, double step,
           std::vector<Path>& out)
{
    Path path;
    path.pts = walk(rng, spec, step, nullptr);
    path.widths = widthProfile(rng, path.pts.size(), spec.wMax, spec.tip, spec.taperStart);
    const size_t n = path.pts.size();
    for (size_t i = 2; spec.depth < 3 && i + 2 < n; ++i) {
        if (rng.uniform(0.0, 1.0) >= o.branchProbability * step / 90.0)
            continue;
        const cv::Point2d d = path.pts[i + 1] - path.pts[i - 1];
        WalkSpec b;
        b.start = path.pts[i];
        b.heading = std::atan2(d.y, d.x) + (rng.uniform(0, 2) ? 1 : -1) * rng.uniform(0.35, 1.2);
        b.length = spec.length * (1.0 - double(i) / n) * rng.uniform(0.2, 0.7);
        b.wMax = std::max(spec.tip, path.widths[i] * rng.uniform(0.3, 0.75));
        b.tip = spec.tip;
        b.taperStart = false; // it leaves its parent at the parent's width
        b.depth = spec.depth + 1;
        crack(rng, b, o, step, out);
    }
    out.push_back(std::move(path));
}

/// Map or alligator cracking: the edges of the Voronoi cells of random points.
void network(cv::RNG& rng, const SceneOptions& o, double step, std::vector<Path>& out)
{
    const int w = o.width, h = o.height;
    cv::Subdiv2D sub(cv::Rect(-w / 2, -h / 2, 2 * w, 2 * h));
    const int cells = rng.uniform(4, 14);
    for (int i = 0; i < cells; ++i)
        sub.insert(
            cv::Point2f(float(rng.uniform(0.0, double(w))), float(rng.uniform(0.0, double(h)))));
    std::vector<std::vector<cv::Point2f>> facets;
    std::vector<cv::Point2f> centres;
    sub.getVoronoiFacetList({}, facets, centres);
    const double wMax = rng.uniform(o.minWidthPx, o.maxWidthPx);
    for (const auto& f : facets)
        for (size_t k = 0; k < f.size(); ++k) {
            const cv::Point2d a = f[k], b = f[(k + 1) % f.size()];
            if (a.x > b.x || (a.x == b.x && a.y > b.y)) // each shared edge once
                continue;
            if (std::max(a.x, b.x) < -8 || std::min(a.x, b.x) > w + 8 || std::max(a.y, b.y) < -8 ||
                std::min(a.y, b.y) > h + 8)
                continue;
            WalkSpec s;
            s.start = a;
            s.heading = std::atan2(b.y - a.y, b.x - a.x);
            s.length = 3 * cv::norm(b - a);
            Path p;
            p.pts = walk(rng, s, step, &b);
            p.widths = widthProfile(rng, p.pts.size(), wMax * rng.uniform(0.6, 1.0),
                                    std::min(wMax, 0.8), false);
            out.push_back(std::move(p));
        }
}

WalkSpec mainCrack(cv::RNG& rng, const SceneOptions& o)
{
    const int w = o.width, h = o.height;
    WalkSpec s;
    s.heading = rng.uniform(0.0, 2 * kPi);
    s.wMax = rng.uniform(o.minWidthPx, o.maxWidthPx);
    s.tip = std::max(0.6, std::min(o.minWidthPx, 1.0) * 0.7);
    s.length = rng.uniform(0.4, 1.3) * std::hypot(w, h);
    if (rng.uniform(0.0, 1.0) < 0.6) { // from outside: crosses the field, no tapered start
        s.taperStart = false;
        const cv::Point2d c(w / 2.0, h / 2.0), d(std::cos(s.heading), std::sin(s.heading));
        s.start = c - d * (0.5 * std::hypot(w, h)) +
                  cv::Point2d(-d.y, d.x) * rng.uniform(-0.35, 0.35) * std::min(w, h);
    } else {
        s.start = {rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h};
    }
    return s;
}

/// Wide parts break away irregularly: their outline is pushed in and out by noise a few
/// pixels across (thin parts are left alone, so a hairline is never cut).
void roughen(cv::RNG& rng, cv::Mat& wide, int f)
{
    cv::Mat soft;
    wide.convertTo(soft, CV_32F, 1.0 / 255.0);
    cv::GaussianBlur(soft, soft, cv::Size(), 1.2 * f);
    soft += noiseLayer(rng, wide.cols, wide.rows, 2.5 * f, 0.22);
    cv::compare(soft, 0.5, wide, cv::CMP_GT);
}

/// Coverage of all paths (0..1 per pixel), super-sampled by `f`, and the centre lines.
void rasterise(const std::vector<Path>& paths, int w, int h, int f, cv::RNG& rng, cv::Mat& cover,
               cv::Mat& centre)
{
    cv::Mat hi = cv::Mat::zeros(h * f, w * f, CV_8U), wide = hi.clone();
    bool anyWide = false;
    centre = cv::Mat::zeros(h, w, CV_8U);
    for (const Path& p : paths) {
        for (size_t i = 0; i + 1 < p.pts.size(); ++i) {
            const double wd = (p.widths[i] + p.widths[i + 1]) / 2;
            const int t = std::max(1, int(std::lround(wd * f)));
            anyWide |= wd > 3.0;
            cv::line(wd > 3.0 ? wide : hi, p.pts[i] * f, p.pts[i + 1] * f, cv::Scalar(255), t,
                     cv::LINE_8);
            if (wd > 3.5 && rng.uniform(0.0, 1.0) < 0.12) { // a spalled chip off the edge
                const cv::Point2d d = p.pts[i + 1] - p.pts[i];
                const cv::Point2d n = cv::Point2d(-d.y, d.x) * (1.0 / std::max(1e-6, cv::norm(d)));
                const cv::Point2d c = p.pts[i] + n * ((rng.uniform(0, 2) ? 0.5 : -0.5) * wd);
                cv::circle(wide, c * f, std::max(1, int(rng.uniform(0.2, 0.55) * wd * f)),
                           cv::Scalar(255), cv::FILLED, cv::LINE_8);
            }
            if (wd >= 0.5)
                cv::line(centre, p.pts[i], p.pts[i + 1], cv::Scalar(255), 1, cv::LINE_8);
        }
    }
    if (anyWide) {
        roughen(rng, wide, f);
        hi |= wide;
    }
    cv::resize(hi, cover, cv::Size(w, h), 0, 0, cv::INTER_AREA);
    cover.convertTo(cover, CV_32F, 1.0 / 255.0);
}

/// How dark each pixel's crack is: from faint (hairline) to a dark void (wide).
cv::Mat depthMap(const std::vector<Path>& paths, int w, int h, double contrast)
{
    cv::Mat d = cv::Mat::zeros(h, w, CV_32F);
    for (const Path& p : paths)
        for (size_t i = 0; i + 1 < p.pts.size(); ++i) {
            const double wd = (p.widths[i] + p.widths[i + 1]) / 2;
            const double v = contrast * (0.35 + 0.5 * std::clamp((wd - 1.0) / 5.0, 0.0, 1.0));
            cv::line(d, p.pts[i], p.pts[i + 1], cv::Scalar(v), std::max(1, int(wd) + 2),
                     cv::LINE_8);
        }
    return d;
}

} // namespace

void drawRealisticCracks(cv::RNG& rng, const SceneOptions& o, cv::Mat& rgb, cv::Mat& mask)
{
    const int w = o.width, h = o.height;
    mask = cv::Mat::zeros(h, w, CV_8U);
    if (o.cracks <= 0)
        return;
    const double step = 1.6 * std::clamp(o.scale, 0.5, 2.0);
    std::vector<Path> paths;
    for (int i = 0; i < o.cracks; ++i) {
        const bool cells = rng.uniform(0.0, 1.0) <
                           (o.surface == Surface::Asphalt ? 0.2 : 0.08) * (i == 0 ? 1.0 : 0.3);
        if (cells) {
            network(rng, o, step, paths);
            continue;
        }
        WalkSpec s = mainCrack(rng, o);
        crack(rng, s, o, step, paths);
        if (s.taperStart && rng.uniform(0.0, 1.0) < 0.6) { // it also runs the other way
            s.heading += kPi;
            s.length *= rng.uniform(0.3, 0.9);
            crack(rng, s, o, step, paths);
        }
    }
    const int f = w * h <= 640 * 640 ? 4 : (w * h <= 2048 * 2048 ? 2 : 1);
    cv::Mat cover, centre;
    rasterise(paths, w, h, f, rng, cover, centre);
    const double contrast = std::clamp(o.crackContrast, 0.05, 1.0);
    cv::Mat depth = depthMap(paths, w, h, contrast);
    depth = depth.mul(1.0 + noiseLayer(rng, w, h, 2.0, 0.15));
    // A lit rim on the side facing the light, where the edge of a wide crack breaks away.
    const double la = rng.uniform(0.0, 2 * kPi);
    const cv::Mat shift =
        (cv::Mat_<double>(2, 3) << 1, 0, 1.2 * std::cos(la), 0, 1, 1.2 * std::sin(la));
    cv::Mat shifted;
    cv::warpAffine(cover, shifted, shift, cover.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
    cv::Mat rim = shifted - cover;
    cv::max(rim, 0.0, rim);
    cv::Mat factor = 1.0 - cover.mul(depth) + rim * rng.uniform(0.0, 0.15) * contrast;
    multiplyBy(rgb, factor);
    cv::Mat half;
    cv::compare(cover, 0.5, half, cv::CMP_GE);
    cv::bitwise_or(half, centre, mask);
    // Every mask pixel is darker than it was: the centre line of a sub-pixel crack too.
    cv::Mat faint = (cover < 0.35) & (centre > 0);
    cv::Mat extra(h, w, CV_32F, cv::Scalar(1.0));
    extra.setTo(1.0 - 0.5 * contrast * 0.35, faint);
    multiplyBy(rgb, extra);
}

} // namespace fisura::synth::detail

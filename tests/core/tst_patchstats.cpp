// Per-position patch statistics (core/src/anomaly/patch_stats.h) against a plain per-pixel
// float64 reference written here: means, inverses, shrinkage weights (PACO and Ledoit-Wolf,
// from their definitions, not from the expansions the library uses), chunk boundaries, the
// streaming accumulator, the Mahalanobis distance, a known covariance recovered, error paths.
#include <torch/torch.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "anomaly/patch_stats.h"

using namespace fisura::anomaly;

namespace
{

using Mat = std::vector<double>; // row-major d x d

struct Ref {
    std::vector<double> mean; // [N, d]
    std::vector<Mat> S, C, P; // per position
    std::vector<double> rho;
};

/// Samples [N][T][d] of a [T, C, H, W] stack: patches of radius r, edge pixels repeated.
std::vector<double> refPatches(const torch::Tensor& stack, int r)
{
    const auto s = stack.to(torch::kFloat64).contiguous();
    const auto a = s.accessor<double, 4>();
    const int T = int(s.size(0)), C = int(s.size(1)), H = int(s.size(2)), W = int(s.size(3));
    const int k = 2 * r + 1, d = C * k * k;
    std::vector<double> out(size_t(H) * W * T * d);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            for (int t = 0; t < T; ++t)
                for (int c = 0; c < C; ++c)
                    for (int dy = 0; dy < k; ++dy)
                        for (int dx = 0; dx < k; ++dx) {
                            const int yy = std::clamp(y + dy - r, 0, H - 1);
                            const int xx = std::clamp(x + dx - r, 0, W - 1);
                            const size_t n = size_t(y) * W + x;
                            out[(n * T + t) * d + c * k * k + dy * k + dx] = a[t][c][yy][xx];
                        }
    return out;
}

/// Inverse by Gauss-Jordan elimination with partial pivoting (not the Cholesky route).
Mat invert(Mat a, int d)
{
    Mat inv(size_t(d) * d, 0.0);
    for (int i = 0; i < d; ++i)
        inv[size_t(i) * d + i] = 1.0;
    for (int c = 0; c < d; ++c) {
        int p = c;
        for (int i = c + 1; i < d; ++i)
            if (std::abs(a[size_t(i) * d + c]) > std::abs(a[size_t(p) * d + c]))
                p = i;
        for (int j = 0; j < d; ++j) {
            std::swap(a[size_t(c) * d + j], a[size_t(p) * d + j]);
            std::swap(inv[size_t(c) * d + j], inv[size_t(p) * d + j]);
        }
        const double piv = a[size_t(c) * d + c];
        for (int j = 0; j < d; ++j) {
            a[size_t(c) * d + j] /= piv;
            inv[size_t(c) * d + j] /= piv;
        }
        for (int i = 0; i < d; ++i) {
            if (i == c)
                continue;
            const double f = a[size_t(i) * d + c];
            if (f == 0.0)
                continue;
            for (int j = 0; j < d; ++j) {
                a[size_t(i) * d + j] -= f * a[size_t(c) * d + j];
                inv[size_t(i) * d + j] -= f * inv[size_t(c) * d + j];
            }
        }
    }
    return inv;
}

/// PACO's rho (Flasseur et al. 2018) written out with explicit matrix products.
double pacoRho(const Mat& S, int d, int T)
{
    double trS = 0, trSS = 0, diag2 = 0;
    for (int i = 0; i < d; ++i) {
        trS += S[size_t(i) * d + i];
        diag2 += S[size_t(i) * d + i] * S[size_t(i) * d + i];
        for (int k = 0; k < d; ++k)
            trSS += S[size_t(i) * d + k] * S[size_t(k) * d + i];
    }
    const double rho = (trSS + trS * trS - 2 * diag2) / ((T + 1) * (trSS - diag2));
    return std::clamp(rho, 0.0, 1.0);
}

/// Ledoit-Wolf's rho (2004) from its definitions: m = <Sn, I>, d2 = |Sn - mI|^2,
/// b2 = min(d2, 1/T^2 sum_t |x_t x_t^T - Sn|^2), with <A,B> = tr(A B^T)/d and Sn = S (T-1)/T.
double ledoitWolfRho(const double* x /*[T][d] centred*/, const Mat& S, int d, int T)
{
    Mat Sn(S);
    for (auto& v : Sn)
        v *= double(T - 1) / T;
    double m = 0;
    for (int i = 0; i < d; ++i)
        m += Sn[size_t(i) * d + i] / d;
    double d2 = 0;
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) {
            const double v = Sn[size_t(i) * d + j] - (i == j ? m : 0.0);
            d2 += v * v / d;
        }
    double b2 = 0;
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j) {
                const double v =
                    x[size_t(t) * d + i] * x[size_t(t) * d + j] - Sn[size_t(i) * d + j];
                b2 += v * v / d;
            }
    b2 /= double(T) * T;
    return std::min(b2, d2) / d2;
}

/// The per-position reference: mean, unbiased S, rho, C, C^-1.
Ref reference(const std::vector<double>& samples, int N, int T, int d, Shrinkage shrink)
{
    Ref ref;
    ref.mean.assign(size_t(N) * d, 0.0);
    std::vector<double> xc(size_t(T) * d);
    for (int n = 0; n < N; ++n) {
        const double* x = samples.data() + size_t(n) * T * d;
        double* mu = ref.mean.data() + size_t(n) * d;
        for (int t = 0; t < T; ++t)
            for (int i = 0; i < d; ++i)
                mu[i] += x[size_t(t) * d + i] / T;
        for (int t = 0; t < T; ++t)
            for (int i = 0; i < d; ++i)
                xc[size_t(t) * d + i] = x[size_t(t) * d + i] - mu[i];
        Mat S(size_t(d) * d, 0.0);
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j) {
                double s = 0;
                for (int t = 0; t < T; ++t)
                    s += xc[size_t(t) * d + i] * xc[size_t(t) * d + j];
                S[size_t(i) * d + j] = s / (T - 1);
            }
        double rho = 0;
        Mat C(S);
        if (shrink == Shrinkage::Paco) {
            rho = pacoRho(S, d, T);
            for (int i = 0; i < d; ++i)
                for (int j = 0; j < d; ++j)
                    C[size_t(i) * d + j] = (i == j ? 1.0 : 1.0 - rho) * S[size_t(i) * d + j];
        } else if (shrink == Shrinkage::LedoitWolf) {
            rho = ledoitWolfRho(xc.data(), S, d, T);
            double mu2 = 0;
            for (int i = 0; i < d; ++i)
                mu2 += S[size_t(i) * d + i] / d;
            for (int i = 0; i < d; ++i)
                for (int j = 0; j < d; ++j)
                    C[size_t(i) * d + j] =
                        (1 - rho) * S[size_t(i) * d + j] + (i == j ? rho * mu2 : 0.0);
        }
        ref.S.push_back(S);
        ref.C.push_back(C);
        ref.P.push_back(invert(C, d));
        ref.rho.push_back(rho);
    }
    return ref;
}

std::vector<double> toVector(const torch::Tensor& t)
{
    const auto c = t.to(torch::kCPU, torch::kFloat64).contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

/// |a - b|_F / |b|_F over all entries.
double relError(const std::vector<double>& a, const std::vector<double>& b)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < b.size(); ++i) {
        num += (a[i] - b[i]) * (a[i] - b[i]);
        den += b[i] * b[i];
    }
    return std::sqrt(num / std::max(den, 1e-300));
}

std::vector<double> flatten(const std::vector<Mat>& ms)
{
    std::vector<double> out;
    for (const auto& m : ms)
        out.insert(out.end(), m.begin(), m.end());
    return out;
}

} // namespace

class TestPatchStats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { torch::manual_seed(1234); }
    void patchesMatchReference_data();
    void patchesMatchReference();
    void samplesMatchReference_data();
    void samplesMatchReference();
    void knownCovarianceRecovered();
    void choleskyFactorMultipliesToPrecision();
    void accumulatorEqualsOneShot_data();
    void accumulatorEqualsOneShot();
    void mahalanobisMatchesReference();
    void statisticsBytesCountsTheFit();
    void badInputIsRejected();
};

void TestPatchStats::patchesMatchReference_data()
{
    QTest::addColumn<int>("radius");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("shrink");
    QTest::newRow("r1 C1 paco") << 1 << 1 << int(Shrinkage::Paco);
    // Without shrinkage only r = 0 is invertible everywhere: border patches repeat pixels.
    QTest::newRow("r0 C3 none") << 0 << 3 << int(Shrinkage::None);
    QTest::newRow("r2 C1 lw") << 2 << 1 << int(Shrinkage::LedoitWolf);
    QTest::newRow("r3 C1 paco") << 3 << 1 << int(Shrinkage::Paco);
    QTest::newRow("r1 C3 lw") << 1 << 3 << int(Shrinkage::LedoitWolf);
    QTest::newRow("r2 C3 paco") << 2 << 3 << int(Shrinkage::Paco);
}

void TestPatchStats::patchesMatchReference()
{
    QFETCH(int, radius);
    QFETCH(int, channels);
    QFETCH(int, shrink);
    const int T = 60, H = 6, W = 7, k = 2 * radius + 1, d = channels * k * k, N = H * W;
    const auto stack = torch::rand({T, channels, H, W}, torch::kFloat64);
    const auto samples = refPatches(stack, radius);
    const Ref ref = reference(samples, N, T, d, Shrinkage(shrink));
    PatchStatsOptions o;
    o.radius = radius;
    o.shrinkage = Shrinkage(shrink);
    // Five positions per chunk: chunks straddle the rows (W = 7).
    o.chunkBytes = int64_t(fitBytesPerPosition(T, d) * 5 + 1);
    for (const auto type : {torch::kFloat32, torch::kFloat64}) {
        const double tol = type == torch::kFloat32 ? 1e-4 : 1e-10;
        const auto in = channels == 1 ? stack.squeeze(1).to(type) : stack.to(type);
        const PatchStats st = patchStatistics(in, o);
        QVERIFY(st.mean.sizes() == (torch::IntArrayRef{N, d}));
        QVERIFY(st.precision.sizes() == (torch::IntArrayRef{N, d, d}));
        QVERIFY(st.precision.scalar_type() == type);
        QVERIFY2(relError(toVector(st.mean), ref.mean) < tol, "mean");
        const double e = relError(toVector(st.precision), flatten(ref.P));
        QVERIFY2(e < tol, qPrintable(QStringLiteral("inverse: relative error %1").arg(e)));
        QVERIFY2(relError(toVector(st.rho), ref.rho) < tol, "rho");
    }
}

void TestPatchStats::samplesMatchReference_data()
{
    QTest::addColumn<int>("shrink");
    QTest::newRow("none") << int(Shrinkage::None);
    QTest::newRow("paco") << int(Shrinkage::Paco);
    QTest::newRow("ledoit-wolf") << int(Shrinkage::LedoitWolf);
}

void TestPatchStats::samplesMatchReference()
{
    QFETCH(int, shrink);
    // Correlated samples with an offset: x = 3 + z A.
    const int N = 11, T = 50, d = 8;
    const auto A = torch::randn({d, d}, torch::kFloat64) * 0.5 + torch::eye(d, torch::kFloat64);
    const auto x = 3.0 + torch::matmul(torch::randn({N, T, d}, torch::kFloat64), A);
    const auto v = toVector(x);
    const Ref ref = reference(v, N, T, d, Shrinkage(shrink));
    PatchStatsOptions o;
    o.shrinkage = Shrinkage(shrink);
    o.chunkBytes = int64_t(fitBytesPerPosition(T, d) * 3);
    for (const auto type : {torch::kFloat32, torch::kFloat64}) {
        const double tol = type == torch::kFloat32 ? 1e-4 : 1e-10;
        const PatchStats st = gaussianStatistics(x.to(type), o);
        QVERIFY(relError(toVector(st.mean), ref.mean) < tol);
        QVERIFY(relError(toVector(st.precision), flatten(ref.P)) < tol);
        // rho against the formulas computed independently above.
        const auto rho = toVector(st.rho);
        for (int n = 0; n < N; ++n)
            QVERIFY2(std::abs(rho[n] - ref.rho[n]) <= tol * std::max(1.0, ref.rho[n]),
                     qPrintable(QStringLiteral("rho %1 vs %2").arg(rho[n]).arg(ref.rho[n])));
        if (Shrinkage(shrink) != Shrinkage::None)
            QVERIFY(ref.rho[0] > 0.0 && ref.rho[0] < 1.0); // the test exercises a real blend
    }
}

void TestPatchStats::knownCovarianceRecovered()
{
    // x = mu + A z, z ~ N(0, I): covariance A A^T. With T samples the sample covariance entry
    // S_ij has standard deviation sqrt((s_ii s_jj + s_ij^2) / (T - 1)) and the mean
    // sqrt(s_ii / T) (Gaussian data); 5 of those is a tolerance the seeded data meets and a wrong
    // estimator (biased, transposed, mixed positions) does not: at T = 20000 the relative
    // standard deviation is about 1 %, the bias of 1/T instead of 1/(T-1) far smaller, so the
    // check is on the structure, the exact normalisation is checked against the reference above.
    const int N = 3, T = 20000, d = 4;
    const auto A = torch::tensor({1.0, 0.0, 0.0, 0.0, 0.5, 2.0, 0.0, 0.0, -0.3, 0.4, 0.7, 0.0, 0.2,
                                  -1.0, 0.1, 1.5},
                                 torch::kFloat64)
                       .view({d, d});
    const auto sigma = torch::matmul(A, A.t());
    const auto mu = torch::tensor({1.0, -2.0, 0.5, 10.0}, torch::kFloat64);
    const auto z = torch::randn({N, T, d}, torch::kFloat64);
    const auto x = mu + torch::matmul(z, A.t());
    PatchStatsOptions o;
    o.shrinkage = Shrinkage::None;
    const PatchStats st = gaussianStatistics(x.to(torch::kFloat32), o);
    const auto C = torch::inverse(st.precision.to(torch::kFloat64)); // = S without shrinkage
    for (int n = 0; n < N; ++n) {
        for (int i = 0; i < d; ++i) {
            const double sm = std::sqrt(sigma[i][i].item<double>() / T);
            QVERIFY(std::abs(st.mean[n][i].item<double>() - mu[i].item<double>()) < 5 * sm);
            for (int j = 0; j < d; ++j) {
                const double sii = sigma[i][i].item<double>(), sjj = sigma[j][j].item<double>(),
                             sij = sigma[i][j].item<double>();
                const double sd = std::sqrt((sii * sjj + sij * sij) / (T - 1));
                QVERIFY2(std::abs(C[n][i][j].item<double>() - sij) < 5 * sd,
                         qPrintable(QStringLiteral("S[%1][%2] = %3, expected %4 +- %5")
                                        .arg(i)
                                        .arg(j)
                                        .arg(C[n][i][j].item<double>())
                                        .arg(sij)
                                        .arg(5 * sd)));
            }
        }
    }
}

void TestPatchStats::choleskyFactorMultipliesToPrecision()
{
    const auto stack = torch::rand({30, 5, 5});
    PatchStatsOptions o;
    o.radius = 2;
    const PatchStats full = patchStatistics(stack, o);
    o.cholesky = true;
    const PatchStats fac = patchStatistics(stack, o);
    QVERIFY(fac.choleskyFactor && !full.choleskyFactor);
    QVERIFY(torch::allclose(fac.precision, fac.precision.tril())); // lower triangular
    const auto P = torch::bmm(fac.precision.transpose(1, 2), fac.precision);
    QVERIFY(((P - full.precision).norm() / full.precision.norm()).item<double>() < 1e-5);
}

void TestPatchStats::accumulatorEqualsOneShot_data()
{
    QTest::addColumn<int>("shrink");
    QTest::addColumn<bool>("doubles");
    QTest::newRow("paco f64") << int(Shrinkage::Paco) << true;
    QTest::newRow("lw f64") << int(Shrinkage::LedoitWolf) << true;
    QTest::newRow("none f64") << int(Shrinkage::None) << true;
    QTest::newRow("lw f32") << int(Shrinkage::LedoitWolf) << false;
}

void TestPatchStats::accumulatorEqualsOneShot()
{
    QFETCH(int, shrink);
    QFETCH(bool, doubles);
    const int d = 6, H = 3, W = 4;
    const auto type = doubles ? torch::kFloat64 : torch::kFloat32;
    // Features far from zero: the shifted sums must not lose the covariance to cancellation.
    std::vector<torch::Tensor> batches;
    for (int b : {5, 7, 1, 9})
        batches.push_back((100.0 + torch::randn({b, d, H, W}, torch::kFloat64)).to(type));
    GaussianAccumulator acc(d, H, W, torch::kCPU);
    for (const auto& b : batches)
        acc.add(b);
    QCOMPARE(acc.count(), int64_t(22));
    PatchStatsOptions o;
    o.shrinkage = Shrinkage(shrink);
    const PatchStats s = acc.finish(o);
    QVERIFY(s.precision.scalar_type() == type);
    // One shot on the same data in float64: [B, d, H, W] -> [N, T, d].
    const auto all = torch::cat(batches).to(torch::kFloat64).flatten(2).permute({2, 0, 1});
    const PatchStats ref = gaussianStatistics(all, o);
    const double tol = doubles ? 1e-8 : 1e-4;
    QVERIFY(relError(toVector(s.mean), toVector(ref.mean)) < tol);
    QVERIFY(relError(toVector(s.precision), toVector(ref.precision)) < tol);
    QVERIFY(relError(toVector(s.rho), toVector(ref.rho)) < tol);
}

void TestPatchStats::mahalanobisMatchesReference()
{
    const int d = 5, H = 4, W = 3, N = H * W, T = 40, B = 3;
    const auto train = torch::randn({N, T, d}, torch::kFloat64);
    const auto v = toVector(train);
    const Ref ref = reference(v, N, T, d, Shrinkage::Paco);
    PatchStatsOptions o;
    const auto feats = torch::randn({B, d, H, W}, torch::kFloat64) * 2.0;
    for (bool chol : {false, true}) {
        o.cholesky = chol;
        const PatchStats st = gaussianStatistics(train.to(torch::kFloat32), o);
        const auto dist = mahalanobis(feats.to(torch::kFloat32), st, /*chunkBytes=*/700);
        QVERIFY(dist.sizes() == (torch::IntArrayRef{B, H, W}));
        const auto f = feats.accessor<double, 4>();
        for (int b = 0; b < B; ++b)
            for (int y = 0; y < H; ++y)
                for (int x = 0; x < W; ++x) {
                    const int n = y * W + x;
                    double q = 0;
                    for (int i = 0; i < d; ++i)
                        for (int j = 0; j < d; ++j)
                            q += (f[b][i][y][x] - ref.mean[size_t(n) * d + i]) *
                                 ref.P[n][size_t(i) * d + j] *
                                 (f[b][j][y][x] - ref.mean[size_t(n) * d + j]);
                    const double got = dist[b][y][x].item<double>();
                    QVERIFY2(std::abs(got - std::sqrt(q)) < 1e-4 * std::sqrt(q),
                             qPrintable(QStringLiteral("%1 vs %2").arg(got).arg(std::sqrt(q))));
                }
    }
}

void TestPatchStats::statisticsBytesCountsTheFit()
{
    QCOMPARE(statisticsBytes(10000, 49), uint64_t(10000) * (49 * 49 + 49 + 1) * 4);
    QCOMPARE(statisticsBytes(0, 49), uint64_t(0));
    // What a fit returns is what statisticsBytes says.
    const PatchStats st = patchStatistics(torch::rand({10, 4, 5}), PatchStatsOptions{});
    const uint64_t held = uint64_t(st.mean.nbytes() + st.precision.nbytes() + st.rho.nbytes());
    QCOMPARE(held, statisticsBytes(20, 49));
    QVERIFY(fitBytesPerPosition(252, 49) > uint64_t(49 * 49 * 4));
}

void TestPatchStats::badInputIsRejected()
{
    PatchStatsOptions o;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, patchStatistics(torch::rand({5, 5}), o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, patchStatistics(torch::rand({1, 5, 5}), o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gaussianStatistics(torch::rand({4, 1, 3}), o));
    GaussianAccumulator acc(2, 3, 3, torch::kCPU);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acc.add(torch::rand({1, 3, 3, 3})));
    acc.add(torch::rand({1, 2, 3, 3}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acc.finish(o));
    const PatchStats st = gaussianStatistics(torch::rand({9, 10, 2}), o);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mahalanobis(torch::rand({1, 2, 4, 4}), st));
    // Constant data has no covariance to invert: LibTorch's Cholesky reports it.
    o.shrinkage = Shrinkage::None;
    QVERIFY_THROWS_EXCEPTION(c10::Error, gaussianStatistics(torch::ones({2, 10, 3}), o));
}

QTEST_GUILESS_MAIN(TestPatchStats)
#include "tst_patchstats.moc"

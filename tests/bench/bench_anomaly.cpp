// Pixel AUROC of anomaly models on a real crack set (images/ + masks/ paired by stem):
//   bench_anomaly tiles DATASET OUT SIZE FRACTION   crack-free SIZE x SIZE tiles (empty mask)
//                                                   of the first FRACTION of the images (sorted
//                                                   by name), as TIFF
//   bench_anomaly auroc MODEL DATASET FRACTION      float scores of the tiles (non-overlapping
//                                                   grid) of the images after that first
//                                                   FRACTION, against their masks
// Both models are scored the same way: the model's own score (autoencoder squared error,
// patch-gaussian Mahalanobis distance), in float, per pixel, no blending. Used by
// anomaly_auroc.sh; results in RESULTS.md.
#include "compat/torch_compat.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fisura/image.h"
#include "fisura/model.h"
#include "models/model_impl.h"

namespace fs = std::filesystem;
using namespace fisura;

namespace
{

struct Pair {
    std::string image, mask;
};

std::vector<Pair> pairsOf(const std::string& dir)
{
    std::vector<Pair> out;
    for (const auto& e : fs::directory_iterator(dir + "/images")) {
        const fs::path m = fs::path(dir) / "masks" / (e.path().stem().string() + ".png");
        if (fs::exists(m))
            out.push_back({e.path().string(), m.string()});
    }
    std::sort(out.begin(), out.end(),
              [](const Pair& a, const Pair& b) { return a.image < b.image; });
    return out;
}

Image rgbOf(const Image& im)
{
    if (im.channels == 3)
        return im;
    Image o = Image::make(im.width, im.height, 3);
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x)
            for (int c = 0; c < 3; ++c)
                o.row(y)[x * 3 + c] = im.row(y)[x * im.channels + std::min(c, im.channels - 1)];
    return o;
}

Image crop(const Image& im, int x0, int y0, int s)
{
    Image o = Image::make(s, s, im.channels);
    for (int y = 0; y < s; ++y)
        std::copy_n(im.row(y0 + y) + size_t(x0) * im.channels, size_t(s) * im.channels, o.row(y));
    return o;
}

bool empty(const Image& mask)
{
    return std::all_of(mask.pixels.begin(), mask.pixels.end(), [](uint8_t v) { return v == 0; });
}

size_t trainCount(size_t n, double fraction)
{
    return std::min(n, size_t(double(n) * std::clamp(fraction, 0.0, 1.0) + 0.5));
}

int tiles(const std::string& data, const std::string& out, int size, double fraction)
{
    const auto pairs = pairsOf(data);
    fs::create_directories(out);
    int written = 0, skipped = 0;
    for (size_t i = 0; i < trainCount(pairs.size(), fraction); ++i) {
        auto im = readImage(pairs[i].image);
        auto mk = readImage(pairs[i].mask);
        if (!im || !mk)
            return 1;
        const Image rgb = rgbOf(*im);
        for (int y = 0; y + size <= rgb.height; y += size)
            for (int x = 0; x + size <= rgb.width; x += size) {
                if (!empty(crop(*mk, x, y, size))) {
                    ++skipped;
                    continue;
                }
                const std::string p = out + "/" + fs::path(pairs[i].image).stem().string() + "_" +
                                      std::to_string(y) + "_" + std::to_string(x) + ".tif";
                if (!writeTiff(p, crop(rgb, x, y, size)))
                    return 1;
                ++written;
            }
    }
    std::printf("{\"tiles\": %d, \"skipped_with_crack\": %d}\n", written, skipped);
    return 0;
}

/// Rank AUROC (ties count half).
double auroc(const std::vector<float>& score, const std::vector<uint8_t>& truth)
{
    std::vector<uint32_t> idx(score.size());
    for (size_t i = 0; i < idx.size(); ++i)
        idx[i] = uint32_t(i);
    std::sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return score[a] < score[b]; });
    double pos = 0, neg = 0, rankSum = 0;
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j < idx.size() && score[idx[j]] == score[idx[i]])
            ++j;
        const double rank = 0.5 * double(i + 1 + j);
        for (size_t k = i; k < j; ++k)
            if (truth[idx[k]])
                rankSum += rank;
        i = j;
    }
    for (uint8_t t : truth)
        (t ? pos : neg) += 1;
    return (rankSum - pos * (pos + 1) / 2) / std::max(1.0, pos * neg);
}

int scoreAuroc(const std::string& modelPath, const std::string& data, double fraction)
{
    auto model = Model::load(modelPath);
    if (!model) {
        std::fprintf(stderr, "%s\n", model.status().toString().c_str());
        return 1;
    }
    const ModelInfo& info = model->info();
    const int s = info.config.inputSize;
    const auto mean = torch::tensor(info.mean).view({1, 3, 1, 1});
    const auto stdv = torch::tensor(info.std).view({1, 3, 1, 1});
    model->impl()->eval();
    c10::InferenceMode guard;
    const auto pairs = pairsOf(data);
    std::vector<float> scores;
    std::vector<uint8_t> truth;
    int images = 0;
    for (size_t i = trainCount(pairs.size(), fraction); i < pairs.size(); ++i, ++images) {
        auto im = readImage(pairs[i].image);
        auto mk = readImage(pairs[i].mask);
        if (!im || !mk)
            return 1;
        const Image rgb = rgbOf(*im);
        for (int y = 0; y + s <= rgb.height; y += s)
            for (int x = 0; x + s <= rgb.width; x += s) {
                Image t = crop(rgb, x, y, s);
                auto u8 = torch::from_blob(t.pixels.data(), {1, s, s, 3}, torch::kUInt8);
                auto in = (u8.permute({0, 3, 1, 2}).to(torch::kFloat).div(255.f) - mean) / stdv;
                in = in.contiguous();
                const auto sc =
                    model->impl()->anomalyScore(in, model->impl()->predict(in))[0].contiguous();
                const float* p = sc.data_ptr<float>();
                scores.insert(scores.end(), p, p + sc.numel());
                const Image m = crop(*mk, x, y, s);
                for (int k = 0; k < s * s; ++k)
                    truth.push_back(m.pixels[size_t(k) * m.channels] >= 128 ? 1 : 0);
            }
    }
    size_t cracks = 0;
    for (uint8_t v : truth)
        cracks += v;
    std::printf("{\"model\": \"%s\", \"type\": \"%s\", \"images\": %d, \"pixels\": %zu, "
                "\"crack_pixels\": %zu, \"pixel_auroc\": %.4f}\n",
                modelPath.c_str(), modelTypeName(info.config.type), images, truth.size(), cracks,
                auroc(scores, truth));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<std::string> a(argv + 1, argv + argc);
    if (a.size() == 5 && a[0] == "tiles")
        return tiles(a[1], a[2], std::stoi(a[3]), std::stod(a[4]));
    if (a.size() == 4 && a[0] == "auroc")
        return scoreAuroc(a[1], a[2], std::stod(a[3]));
    std::fprintf(stderr, "usage: bench_anomaly tiles DATASET OUT SIZE FRACTION\n"
                         "       bench_anomaly auroc MODEL DATASET FRACTION\n");
    return 2;
}

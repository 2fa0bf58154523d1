// Model files that cannot hurt the user: a file over the size limit is refused before it is read,
// metadata out of range or not matching the stored weights is refused before the weights are
// loaded (with a message that says so), and a TorchScript module, which runs code from the file,
// loads only with explicit consent. Every model Fisura writes still loads.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "compat/torch_compat.h"

#include "fisura/model.h"
#include "models/model_impl.h"
#include "models/model_meta.h"

using namespace fisura;

namespace
{

std::string s(const QString& q)
{
    return q.toStdString();
}

bool contains(const Status& st, const std::string& text)
{
    return st.detail().find(text) != std::string::npos;
}

ModelLoadOptions trusted()
{
    ModelLoadOptions o;
    o.allowTorchScript = true;
    return o;
}

/// An archive laid out as Model::save writes it, with `metadata` as it is and one small tensor.
void writeArchive(const std::string& path, const std::string& metadata)
{
    torch::serialize::OutputArchive ar;
    ar.write("w", torch::zeros({4}));
    ar.write("fisura_metadata", c10::IValue(metadata));
    ar.save_to(path);
}

std::string unetMetadata(const std::string& depth, const std::string& width,
                         const std::string& extra = "")
{
    return R"({"format": "fisura-model", "format_version": 1, "type": "unet", "input_size": 64,
               "depth": )" +
           depth + R"(, "width": )" + width +
           R"(, "normalization": {"mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]})" + extra +
           "}";
}

/// A TorchScript module (what torch.jit.save writes) returning its input's first channel.
void writeScript(const std::string& path, const std::string& sidecar)
{
    torch::jit::Module m("FisuraTestModel");
    m.define("def forward(self, x):\n    return x[:, 0:1]\n");
    m.save(path);
    if (!sidecar.empty())
        std::ofstream(path + ".json") << sidecar;
}

ModelConfig config(ModelType type, int depth, int width)
{
    ModelConfig c;
    c.type = type;
    c.inputSize = 64;
    c.depth = depth;
    c.width = width;
    return c;
}

uint64_t stateBytes(const Model& m)
{
    uint64_t n = 0;
    for (const auto& p : m.impl()->net->named_parameters(true))
        n += uint64_t(p.value().nbytes());
    for (const auto& b : m.impl()->net->named_buffers(true))
        n += uint64_t(b.value().nbytes());
    return n;
}

} // namespace

class TstModelFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { torch::set_num_threads(1); }

    /// issue 13, bad-input matrix: "model file over the size limit".
    void oversizedFileIsRefusedUnread()
    {
        QTemporaryDir d;
        // A sparse file one byte over the default limit: refused from its size alone (reading
        // 64 GiB of zeros would take minutes and end in Corrupt, not TooLarge).
        const std::string huge = s(d.filePath(QStringLiteral("huge.fisura")));
        std::ofstream(huge).close();
        std::filesystem::resize_file(huge, kDefaultMaxModelBytes + 1);
        auto r = Model::load(huge);
        QCOMPARE(r.status().code(), ErrorCode::TooLarge);
        QVERIFY(contains(r.status(), huge));
        QVERIFY(contains(r.status(), std::to_string(kDefaultMaxModelBytes + 1)));
        QVERIFY(contains(r.status(), std::to_string(kDefaultMaxModelBytes)));
        QCOMPARE(std::string(errorCodeName(r.status().code())), std::string("too_large"));

        // The limit is the caller's: a good model over a small limit, then under it.
        auto m = Model::create(config(ModelType::UNet, 2, 4));
        QVERIFY(m.isOk());
        const std::string path = s(d.filePath(QStringLiteral("small.fisura")));
        QVERIFY(m->save(path).isOk());
        const uint64_t size = std::filesystem::file_size(path);
        ModelLoadOptions tight;
        tight.maxBytes = size - 1;
        QCOMPARE(Model::load(path, tight).status().code(), ErrorCode::TooLarge);
        tight.maxBytes = size;
        QVERIFY(Model::load(path, tight).isOk());
        // TorchScript too, whatever the consent.
        const std::string script = s(d.filePath(QStringLiteral("m.pt")));
        writeScript(script, R"({"type": "unet", "input_size": 64})");
        ModelLoadOptions both = trusted();
        both.maxBytes = 16;
        QCOMPARE(Model::load(script, both).status().code(), ErrorCode::TooLarge);
    }

    /// The default limit is above every model Fisura can make (see kDefaultMaxModelBytes).
    void defaultLimitIsAboveTheLargestModel()
    {
        const uint64_t unet = models::networkBytes(config(ModelType::UNet, 6, 256));
        QVERIFY(unet > (uint64_t(29) << 30) && unet < kDefaultMaxModelBytes);
        for (ModelType t : {ModelType::Classifier, ModelType::Autoencoder})
            QVERIFY(models::networkBytes(config(t, 6, 256)) < unet);
        // A patch-gaussian file over the limit: its fit needs about three times its size.
        ModelConfig pg = config(ModelType::PatchGaussian, 4, 64);
        pg.featureDim = 448;
        pg.pooledPositions = false;
        pg.inputSize = 1024;
        auto size = patchGaussianSize(pg);
        QVERIFY(size.isOk());
        QVERIFY(size->fitBytes > 2 * size->modelBytes);
        QVERIFY(size->modelBytes > kDefaultMaxModelBytes);
        QVERIFY(size->fitBytes > 3 * kDefaultMaxModelBytes); // > 192 GiB: no device Fisura uses
    }

    /// networkBytes (what the metadata promises, checked against the file's size before the
    /// network exists) equals the state of the network built from the same configuration.
    void networkBytesMatchesTheNetworks()
    {
        std::vector<ModelConfig> configs;
        for (ModelType t : {ModelType::Classifier, ModelType::UNet, ModelType::Autoencoder})
            for (int depth : {0, 1, 3})
                for (int width : {2, 4, 6})
                    configs.push_back(config(t, depth, width));
        ModelConfig cls = config(ModelType::Classifier, 2, 4);
        cls.classes = 5;
        configs.push_back(cls);
        for (PatchFeatures f : {PatchFeatures::Cnn, PatchFeatures::Pixels})
            for (bool pooled : {true, false}) {
                ModelConfig pg = config(ModelType::PatchGaussian, 0, 4);
                pg.inputSize = 32;
                pg.patchFeatures = f;
                pg.pooledPositions = pooled;
                pg.featureDim = 6;
                pg.patchRadius = 1;
                configs.push_back(pg);
            }
        for (const ModelConfig& c : configs) {
            auto m = Model::create(c);
            QVERIFY2(m.isOk(), m.status().toString().c_str());
            QCOMPARE(models::networkBytes(m->info().config), stateBytes(*m));
        }
    }

    /// Absurd configurations are refused by the metadata parser, before any network exists.
    void absurdMetadataIsRefused()
    {
        const auto parse = [](const std::string& json) {
            ModelInfo i;
            return models::infoFromJson(json, i);
        };
        QVERIFY(parse(unetMetadata("4", "16")).isOk());
        for (const std::string& bad :
             {unetMetadata("1000", "16"), unetMetadata("4", "1048576"), unetMetadata("4", "-3"),
              unetMetadata("4", "16.5"), unetMetadata("4", "99999999999999999999"),
              unetMetadata("4", "16", R"(, "classes": 100000)"),
              unetMetadata("4", "16", R"(, "threshold": -1)"),
              unetMetadata("4", "16", R"(, "threshold": 1e999)"),
              unetMetadata("4", "16", R"(, "input_channels": 2)"),
              unetMetadata("4", "16", R"(, "inference": {"tile": 100000000})"),
              unetMetadata("4", "16", R"(, "patch_gaussian": {"feature_dim": 5000})"),
              std::string(R"({"format": "fisura-model", "format_version": 1, "type": "unet",
                              "input_size": 1000000,
                              "normalization": {"mean": [0.5, 0.5, 0.5], "std": [1, 1, 1]}})"),
              std::string(R"({"format": "fisura-model", "format_version": 1, "type": "unet",
                              "input_size": 64,
                              "normalization": {"mean": [0.5], "std": [1]}})"),
              std::string(R"({"format": "fisura-model", "format_version": 1, "type": "unet",
                              "input_size": 64,
                              "normalization": {"mean": [0.5, 0.5, 0.5], "std": [1, 0, 1]}})"),
              std::string(R"({"format": 7})"), std::string("[1, 2]")}) {
            const Status st = parse(bad);
            QVERIFY2(st.code() == ErrorCode::Corrupt, bad.c_str());
        }
        // In a model file: refused with the reason, quickly (no 2^20-wide network is built).
        QTemporaryDir d;
        const std::string path = s(d.filePath(QStringLiteral("absurd.fisura")));
        writeArchive(path, unetMetadata("1000", "1048576"));
        auto r = Model::load(path);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY(contains(r.status(), "out of range"));
        QVERIFY(contains(r.status(), path));
        // In range, but promising a network far larger than the file: refused before it is
        // allocated (a U-Net of width 1024 and depth 6 would need about 470 GiB).
        writeArchive(path, unetMetadata("6", "1024"));
        r = Model::load(path);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), "describes a network of"), r.status().detail().c_str());
    }

    /// issue 13, bad-input matrix: "metadata does not match the weights".
    void mismatchedMetadataIsRefused()
    {
        QTemporaryDir d;
        // Weights of a width-8 U-Net under metadata that says width 4.
        auto wide = Model::create(config(ModelType::UNet, 2, 8));
        QVERIFY(wide.isOk());
        wide->info().config.width = 4;
        const std::string path = s(d.filePath(QStringLiteral("lying.fisura")));
        QVERIFY(wide->save(path).isOk());
        auto r = Model::load(path);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), "do not match the network the metadata describes"),
                 r.status().detail().c_str());
        QVERIFY2(contains(r.status(), "body.0.weight"), r.status().detail().c_str());
        QVERIFY(!contains(r.status(), "Exception raised from")); // no LibTorch backtrace
        // A classifier whose metadata has more classes than its head.
        auto cls = Model::create(config(ModelType::Classifier, 2, 4));
        QVERIFY(cls.isOk());
        cls->info().config.classes = 5;
        QVERIFY(cls->save(path).isOk());
        r = Model::load(path);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), "head."), r.status().detail().c_str());
        // Another type's weights entirely.
        auto ae = Model::create(config(ModelType::Autoencoder, 2, 4));
        QVERIFY(ae.isOk());
        ae->info().config.type = ModelType::UNet;
        QVERIFY(ae->save(path).isOk());
        r = Model::load(path);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        QVERIFY2(contains(r.status(), "do not match") ||
                     contains(r.status(), "describes a network"),
                 r.status().detail().c_str());
        // Metadata with one tensor of its own and nothing else.
        writeArchive(path, unetMetadata("1", "4"));
        r = Model::load(path);
        QCOMPARE(r.status().code(), ErrorCode::Corrupt);
    }

    /// issue 13, bad-input matrix: "TorchScript without consent".
    void torchScriptNeedsConsent()
    {
        QTemporaryDir d;
        const std::string p = s(d.filePath(QStringLiteral("exported.pt")));
        writeScript(p, R"({"type": "unet", "input_size": 64, "output": "probabilities"})");
        auto refused = Model::load(p);
        QCOMPARE(refused.status().code(), ErrorCode::NeedsConsent);
        QVERIFY(contains(refused.status(), p));
        QVERIFY(contains(refused.status(), "runs code"));
        QCOMPARE(std::string(errorCodeName(ErrorCode::NeedsConsent)), std::string("needs_consent"));
        auto loaded = Model::load(p, trusted());
        QVERIFY2(loaded.isOk(), loaded.status().toString().c_str());
        QVERIFY(loaded->isTorchScript());
        auto out = loaded->impl()->predict(torch::full({1, 3, 64, 64}, 0.25));
        QCOMPARE(out.size(1), int64_t(1));
        QCOMPARE(out.mean().item<double>(), 0.25);
        // A bad sidecar is reported without asking for consent first.
        std::ofstream(p + ".json") << R"({"type": "unet", "input_size": 64, "tile": -5})";
        QCOMPARE(Model::load(p).status().code(), ErrorCode::InvalidArgument);
        // A module with code under a Fisura metadata attribute is refused, consent or not: a
        // Fisura model never holds code.
        const std::string disguised = s(d.filePath(QStringLiteral("disguised.fisura")));
        torch::jit::Module m("Disguised");
        m.register_attribute("fisura_metadata", c10::StringType::get(), unetMetadata("1", "4"));
        m.define("def forward(self, x):\n    return x\n");
        m.save(disguised);
        for (const ModelLoadOptions& o : {ModelLoadOptions{}, trusted()}) {
            auto r = Model::load(disguised, o);
            QCOMPARE(r.status().code(), ErrorCode::Corrupt);
        }
    }

    /// Every kind of model Fisura writes loads with the default options, weights intact.
    void everyFisuraModelStillLoads()
    {
        QTemporaryDir d;
        std::vector<ModelConfig> configs = {config(ModelType::UNet, 2, 4),
                                            config(ModelType::Classifier, 2, 4),
                                            config(ModelType::Autoencoder, 0, 4)};
        ModelConfig pg = config(ModelType::PatchGaussian, 0, 4);
        pg.pooledPositions = false;
        pg.featureDim = 8;
        configs.push_back(pg);
        for (const ModelConfig& c : configs) {
            auto m = Model::create(c, 7);
            QVERIFY(m.isOk());
            const std::string path = s(d.filePath(QStringLiteral("m.fisura")));
            QVERIFY(m->save(path).isOk());
            auto back = Model::load(path);
            QVERIFY2(back.isOk(), back.status().toString().c_str());
            QCOMPARE(back->parameterCount(), m->parameterCount());
            QCOMPARE(back->metadataJson(), m->metadataJson());
            const auto a = m->impl()->net->named_parameters(true);
            const auto b = back->impl()->net->named_parameters(true);
            for (const auto& p : a)
                QVERIFY(torch::equal(p.value(), b[p.key()]));
        }
        // Not a model at all, and absent.
        const std::string junk = s(d.filePath(QStringLiteral("junk.fisura")));
        std::ofstream(junk) << "not a zip";
        QCOMPARE(Model::load(junk).status().code(), ErrorCode::Corrupt);
        QCOMPARE(Model::load(junk + ".absent").status().code(), ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TstModelFile)
#include "tst_modelfile.moc"

// Replays saved fuzz inputs through the fuzz targets' entry points, in the ordinary build: every
// file under <dir>/<target>/ for each directory given on the command line (regressions/ holds
// the inputs that once crashed or hung, seeds/ a few small valid files). A crash fails the test
// (the process dies); the entry points themselves never fail on bad input.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz_entry.h"

FISURA_FUZZ_TARGET(tiff);
FISURA_FUZZ_TARGET(model_meta);
FISURA_FUZZ_TARGET(project);
FISURA_FUZZ_TARGET(split);
FISURA_FUZZ_TARGET(manifest);
FISURA_FUZZ_TARGET(options);
FISURA_FUZZ_TARGET(container);
FISURA_FUZZ_TARGET(jsontext);
FISURA_FUZZ_TARGET(labels);
#ifdef FISURA_FUZZ_QUEUE
FISURA_FUZZ_TARGET(queue);
#endif

namespace fs = std::filesystem;

int main(int argc, char** argv)
{
    using Entry = int (*)(const uint8_t*, size_t);
    const std::map<std::string, Entry> targets{
        {"tiff", &fisuraFuzz_tiff},           {"model_meta", &fisuraFuzz_model_meta},
        {"project", &fisuraFuzz_project},     {"split", &fisuraFuzz_split},
        {"manifest", &fisuraFuzz_manifest},   {"options", &fisuraFuzz_options},
        {"container", &fisuraFuzz_container}, {"jsontext", &fisuraFuzz_jsontext},
        {"labels", &fisuraFuzz_labels},
#ifdef FISURA_FUZZ_QUEUE
        {"queue", &fisuraFuzz_queue},
#endif
    };
    int files = 0;
    for (int a = 1; a < argc; ++a) {
        for (const auto& [name, entry] : targets) {
            const fs::path dir = fs::path(argv[a]) / name;
            std::error_code ec;
            if (!fs::is_directory(dir, ec))
                continue;
            std::vector<fs::path> inputs;
            for (const auto& e : fs::directory_iterator(dir))
                if (e.is_regular_file() && e.path().filename().string()[0] != '.')
                    inputs.push_back(e.path());
            std::sort(inputs.begin(), inputs.end());
            for (const fs::path& p : inputs) {
                std::ifstream in(p, std::ios::binary);
                const std::string bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
                const auto t0 = std::chrono::steady_clock::now();
                entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
                const double s =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                std::printf("%-10s %-50s %6zu bytes %7.3f s\n", name.c_str(),
                            p.filename().string().c_str(), bytes.size(), s);
                if (s > 5.0) {
                    std::printf("FAIL: %s took %.1f s (a hang the fuzzer found once)\n",
                                p.string().c_str(), s);
                    return 1;
                }
                ++files;
            }
        }
    }
    std::printf("%d inputs replayed\n", files);
    return files > 0 ? 0 : 1;
}

// One entry point per fuzz target. Built with FISURA_FUZZ (clang, libFuzzer) each target is the
// usual LLVMFuzzerTestOneInput of its own executable; built for the regression test
// (fuzz_regressions, any compiler) the four are ordinary functions of one executable that feeds
// them the saved inputs under tests/fuzz/regressions/<target>/ and tests/fuzz/seeds/<target>/.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef FISURA_FUZZ_REGRESSIONS
#define FISURA_FUZZ_TARGET(name) int fisuraFuzz_##name(const uint8_t* data, size_t size)
#else
#define FISURA_FUZZ_TARGET(name)                                                                   \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#endif

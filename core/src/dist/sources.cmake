# Data-parallel training: the rendezvous (plain C++), the communicator over c10d and the
# gradient buckets. c10d's headers need USE_C10D_GLOO / USE_C10D_NCCL, so the files that include
# them compile without the shared precompiled header (whose macros differ).
include(FisuraDistributed)
list(APPEND FISURA_CORE_SOURCES src/dist/rendezvous.cpp)
list(APPEND FISURA_CORE_TORCH_SOURCES
    src/dist/communicator.cpp
    src/dist/grad_buckets.cpp)
set_source_files_properties(src/dist/communicator.cpp PROPERTIES
    SKIP_PRECOMPILE_HEADERS ON
    COMPILE_DEFINITIONS "${FISURA_DIST_DEFINITIONS}"
    INCLUDE_DIRECTORIES "${FISURA_DIST_INCLUDES}")

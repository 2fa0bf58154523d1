# The option schema: every training, inference, measurement and comparison option defined
# once, and validate() (no torch).
list(APPEND FISURA_CORE_SOURCES
    src/options/option_fields.h
    src/options/option_schema.cpp
    src/options/option_validate.cpp)

# QCustomPlot 2.1 compiled for Qt 6 from the distribution's source package, which
# installer/setup-debian.sh fetches into FISURA_QCUSTOMPLOT_DIR (never committed).
if(NOT EXISTS "${FISURA_QCUSTOMPLOT_DIR}/qcustomplot.cpp")
    message(FATAL_ERROR "QCustomPlot source not found in ${FISURA_QCUSTOMPLOT_DIR}. "
                        "Run installer/setup-debian.sh (it fetches Debian's source package) "
                        "or set FISURA_QCUSTOMPLOT_DIR.")
endif()
add_library(qcustomplot STATIC
    "${FISURA_QCUSTOMPLOT_DIR}/qcustomplot.cpp"
    "${FISURA_QCUSTOMPLOT_DIR}/qcustomplot.h")
# Third-party code: its own keywords (signals, emit, foreach) and no warnings of ours.
set_target_properties(qcustomplot PROPERTIES AUTOMOC ON POSITION_INDEPENDENT_CODE ON)
target_include_directories(qcustomplot SYSTEM PUBLIC "${FISURA_QCUSTOMPLOT_DIR}")
target_link_libraries(qcustomplot PUBLIC Qt6::Widgets Qt6::PrintSupport)
target_compile_options(qcustomplot PRIVATE -w)
# Optimised lightly: it draws plots of at most a few thousand points once a second, and at -O1 it
# compiles in half the time of -O3 (80 -> 40 s, the slowest file of the quick start's build).
target_compile_options(qcustomplot PRIVATE $<$<NOT:$<CONFIG:Debug>>:-O1>)

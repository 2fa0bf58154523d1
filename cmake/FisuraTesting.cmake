# fisura_add_qtest(<name> SOURCES ... LIBS ... [LABELS ...] [GUI])
# One Qt Test executable per component, registered with ctest. GUI tests run on the offscreen
# platform; every test gets its own HOME-like sandbox through QStandardPaths' test mode.
function(fisura_add_qtest name)
    cmake_parse_arguments(T "GUI" "" "SOURCES;LIBS;LABELS" ${ARGN})
    add_executable(${name} ${T_SOURCES})
    set_target_properties(${name} PROPERTIES AUTOMOC ON)
    target_link_libraries(${name} PRIVATE Qt6::Test fisura_options ${T_LIBS})
    target_compile_definitions(${name} PRIVATE
        FISURA_SHARED_DATA="${PROJECT_SOURCE_DIR}/../shared/data")
    add_test(NAME ${name} COMMAND ${name})
    # As the executables run themselves (fisura/process.h): LibTorch's OpenMP threads do not
    # spin, so they leave the cores to the loader threads of the tiny test networks.
    set(env "QT_QPA_PLATFORM=offscreen" "GOMP_SPINCOUNT=0")
    # No starter model unless a test brings one (FISURA_MODELS, fisura/starter.h): the shipped
    # one would otherwise change what every pane and training job starts from.
    list(APPEND env "FISURA_MODELS=")
    if(NOT T_LABELS)
        set(T_LABELS quick)
    endif()
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" ENVIRONMENT "${env}" TIMEOUT 300)
endfunction()

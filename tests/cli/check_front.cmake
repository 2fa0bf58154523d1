# fisura-cli, the front door: runs the light commands without LibTorch and hands every other
# command line to fisura-cli-net. -DCLI=<fisura-cli> -DWORK=<scratch folder>
include(${CMAKE_CURRENT_LIST_DIR}/check_common.cmake)

# 1. LibTorch is not among the front door's libraries (what held ~160 MB in every command).
run(readelf -d ${CLI})
expect("rc EQUAL 0" "readelf failed: ${err}")
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*" needed "${out}")
expect("needed" "no NEEDED entries read from ${CLI}")
foreach(lib ${needed})
    expect("NOT lib MATCHES \"torch|c10|gomp\"" "fisura-cli loads ${lib}")
endforeach()

# 2. A light command runs in the front door, with the language option before its name.
run(${CLI} --lang es measure --help)
expect("rc EQUAL 0" "measure --help failed: ${err}")
expect("out MATCHES \"--pixel-size\"" "measure --help does not show its options: ${out}")

# 3. Everything else becomes fisura-cli-net: the version names LibTorch, train's help is train's.
run(${CLI} --version)
expect("out MATCHES \"LibTorch\"" "--version was not answered by fisura-cli-net: ${out}${err}")
run(${CLI} --lang en train --help)
expect("rc EQUAL 0 AND out MATCHES \"--epochs\"" "train --help: ${rc} ${out}${err}")

# 4. Without fisura-cli-net beside it (nor in ../libexec/fisura), the front door says what is
#    missing and fails; a light command still runs.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(COPY ${CLI} DESTINATION ${WORK})
run(${WORK}/fisura-cli infer --help)
expect("NOT rc EQUAL 0" "infer ran without fisura-cli-net")
expect("err MATCHES \"cannot start .*fisura-cli-net\"" "no message naming fisura-cli-net: ${err}")
run(${WORK}/fisura-cli score --help)
expect("rc EQUAL 0" "score --help failed without fisura-cli-net: ${err}")
file(REMOVE_RECURSE ${WORK})

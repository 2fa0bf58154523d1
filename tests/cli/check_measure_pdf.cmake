# fisura-cli measure --pdf: the report written by `fisura` in its headless report mode, in both
# languages, and a clear failure where `fisura` cannot be found.
# -DCLI=<fisura-cli> -DGUI=<fisura> -DWORK=<dir> [-DPYTHON=<python3>]
macro(expect cond msg)
    cmake_language(EVAL CODE "if(NOT (${cond}))\n message(FATAL_ERROR \"${msg}\")\nendif()")
endmacro()

file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CLI}" demo-data "${WORK}/demo" --segmentation 1 --classification 0
                        --patch 256 --scan 0 RESULT_VARIABLE rc OUTPUT_QUIET)
expect("rc EQUAL 0" "demo-data exited ${rc}")
file(GLOB masks "${WORK}/demo/segmentation/masks/*.tif")
file(GLOB images "${WORK}/demo/segmentation/images/*.tif")
list(GET masks 0 mask)
list(GET images 0 image)
expect("EXISTS \"${GUI}\"" "no fisura executable at ${GUI}")

foreach(lang en es)
    set(pdf "${WORK}/report-${lang}.pdf")
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --scan "${image}" --pixel-size 0.2
                            --pdf "${pdf}" --lang ${lang} --quiet
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "measure --pdf (${lang}) exited ${rc}: ${err}")
    expect("EXISTS \"${pdf}\"" "no ${pdf}")
    file(READ "${pdf}" head LIMIT 5 HEX)
    string(COMPARE EQUAL "${head}" "255044462d" isPdf) # "%PDF-"
    expect("isPdf" "${pdf} does not start with %PDF-: ${head}")
    file(SIZE "${pdf}" size)
    expect("size GREATER 20000" "${pdf} is only ${size} bytes")
endforeach()

# --classes: the report names the standard with its tolerable width and flags the cracks over
# it (read back with poppler's pdftotext where it is installed).
find_program(PDFTOTEXT pdftotext)
foreach(lang en es)
    set(pdf "${WORK}/standard-${lang}.pdf")
    execute_process(COMMAND "${CLI}" measure --map "${mask}" --scan "${image}" --pixel-size 0.2
                            --classes aci224r-humid --pdf "${pdf}" --lang ${lang} --quiet
                    OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "measure --classes --pdf (${lang}) exited ${rc}: ${err}")
    if(PDFTOTEXT)
        execute_process(COMMAND "${PDFTOTEXT}" "${pdf}" - OUTPUT_VARIABLE text RESULT_VARIABLE rc)
        expect("rc EQUAL 0" "pdftotext ${pdf} exited ${rc}")
        string(REGEX REPLACE "[ \t\r\n]+" " " text "${text}")
        if(lang STREQUAL "es")
            set(standard "ACI 224R-01, tabla 4.1: anchura tolerable 0,30 mm")
            set(flag "SUPERA")
        else()
            set(standard "ACI 224R-01, Table 4.1: tolerable 0.30 mm")
            set(flag "OVER")
        endif()
        string(FIND "${text}" "${standard}" at)
        expect("at GREATER -1" "${pdf} does not name the standard: ${text}")
        string(REGEX MATCHALL "${flag}" flags "${text}")
        list(LENGTH flags n)
        expect("n GREATER 1" "${pdf} flags no crack (${n}): ${text}")
    endif()
endforeach()

# A PNG map: measure reads it, and so must the report (it once failed with "Not a TIFF").
if(PYTHON)
    set(png "${WORK}/map.png")
    execute_process(COMMAND "${PYTHON}" -c "
import struct, sys, zlib
w, h = 300, 200
rows = [bytes(255 if (60 <= x <= 240 and abs(y - 100 - (x - 150) // 6) <= 2) else 0
              for x in range(w)) for y in range(h)]
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n'
    + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0))
    + chunk(b'IDAT', zlib.compress(b''.join(b'\\x00' + r for r in rows))) + chunk(b'IEND', b''))
" "${png}" RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "cannot write ${png}")
    foreach(lang en es)
        set(pdf "${WORK}/png-${lang}.pdf")
        execute_process(COMMAND "${CLI}" measure --map "${png}" --pixel-size 0.2 --pdf "${pdf}"
                                --lang ${lang} --quiet
                        OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
        expect("rc EQUAL 0" "measure --map PNG --pdf (${lang}) exited ${rc}: ${err}")
        expect("EXISTS \"${pdf}\"" "no ${pdf}")
    endforeach()
endif()

# The report mode refuses bad usage with its own message and exit code 2.
execute_process(COMMAND "${GUI}" --report-pdf "${WORK}/x.pdf" --map "${mask}" --threshold 0
                ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 2" "fisura --report-pdf --threshold 0 exited ${rc}")
expect("err MATCHES \"--threshold\"" "unclear message: ${err}")
expect("NOT EXISTS \"${WORK}/x.pdf\"" "a PDF for bad usage")
# The threshold is a crack probability; the old map-byte form is refused with its equivalent.
execute_process(COMMAND "${GUI}" --report-pdf "${WORK}/x.pdf" --map "${mask}" --threshold 128
                ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 2 AND err MATCHES \"--threshold 128 is a map byte; use --threshold 0.5 \""
       "byte threshold: ${rc} ${err}")
expect("NOT EXISTS \"${WORK}/x.pdf\"" "a PDF for a byte threshold")

# fisura-cli alone (no fisura beside it, none on PATH): a clear message, exit code 1.
file(MAKE_DIRECTORY "${WORK}/alone")
file(COPY "${CLI}" DESTINATION "${WORK}/alone")
get_filename_component(name "${CLI}" NAME)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PATH=/nonexistent "${WORK}/alone/${name}" measure
                        --map "${mask}" --pdf "${WORK}/alone.pdf" --quiet
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
expect("rc EQUAL 1" "without fisura: exit code ${rc}")
expect("err MATCHES \"`fisura`\"" "unclear message: ${err}")
expect("NOT EXISTS \"${WORK}/alone.pdf\"" "a PDF without fisura")

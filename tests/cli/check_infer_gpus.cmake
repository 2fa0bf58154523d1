# fisura-cli infer --gpus on the CPU (--cpu-devices N: the processor acts as N devices): one scan
# split into column bands writes the one-device map byte for byte (--fixed-level: the adaptive
# ZSTD level follows the timing, so it would keep only the pixels); a folder's large scan is
# split, its small ones go one per device, with the same maps and a complete manifest; bad
# --gpus values are refused.
# -DCLI=<exe> -DWORK=<dir>
function(expect)
    cmake_parse_arguments(E "" "" "MESSAGE" ${ARGN})
    if(NOT (${E_UNPARSED_ARGUMENTS}))
        message(FATAL_ERROR "${E_MESSAGE}")
    endif()
endfunction()
macro(cli)
    execute_process(COMMAND "${CLI}" ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err
                    RESULT_VARIABLE rc)
endmacro()

file(REMOVE_RECURSE "${WORK}")
cli(demo-data "${WORK}/demo" --segmentation 3 --classification 0 --patch 64 --scan 640)
expect(rc EQUAL 0 MESSAGE "demo-data exited ${rc}: ${err}")
cli(train --task segment --data "${WORK}/demo/segmentation" --out "${WORK}/m.fisura" --epochs 1
    --batch 4 --size 32 --depth 2 --width 4 --precision fp32 --cpu --quiet)
expect(rc EQUAL 0 MESSAGE "train exited ${rc}: ${err}")
set(SCAN "${WORK}/demo/scan/demo_scan.tif")
set(RUN --model "${WORK}/m.fisura" --tile 32 --overlap 8 --batch 4 --cpu --threads 1
        --readers 2 --fixed-level)

# Bad values.
foreach(bad x 65 -1)
    cli(infer ${RUN} --in "${SCAN}" --out "${WORK}/bad.tif" --gpus ${bad})
    expect(NOT rc EQUAL 0 MESSAGE "--gpus ${bad} exited ${rc}")
    expect(err MATCHES "--gpus: must be all or 0..64 GPUs" MESSAGE "--gpus ${bad}: ${err}")
endforeach()
expect(NOT EXISTS "${WORK}/bad.tif" MESSAGE "a map for a refused --gpus")

# One scan: 1 device, then 3 column bands.
cli(infer ${RUN} --in "${SCAN}" --out "${WORK}/one.tif" --gpus 1 --json)
expect(rc EQUAL 0 MESSAGE "one device exited ${rc}: ${err}")
cli(infer ${RUN} --in "${SCAN}" --out "${WORK}/three.tif" --cpu-devices 3 --json)
expect(rc EQUAL 0 MESSAGE "three devices exited ${rc}: ${err}")
string(JSON devices LENGTH "${out}" devices)
expect(devices EQUAL 3 MESSAGE "the split ran on ${devices} devices: ${out}")
file(SHA256 "${WORK}/one.tif" h1)
file(SHA256 "${WORK}/three.tif" h3)
expect(h1 STREQUAL h3 MESSAGE "the 3-band map differs from the one-device map")
string(JSON n LENGTH "${out}" policy choices)
set(found "")
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
    string(JSON what GET "${out}" policy choices ${i} what)
    if(what STREQUAL "gpus")
        string(JSON found GET "${out}" policy choices ${i} reason)
    endif()
endforeach()
expect(found MATCHES "as 3 devices" MESSAGE "policy choice gpus: '${found}'")

# A folder: the scan (large: split), the small images (one per device); maps as one device
# writes them, every scan done in the manifest.
file(MAKE_DIRECTORY "${WORK}/in")
file(COPY "${SCAN}" DESTINATION "${WORK}/in")
file(GLOB images "${WORK}/demo/segmentation/images/*.tif")
file(COPY ${images} DESTINATION "${WORK}/in")
cli(infer ${RUN} --in "${WORK}/in" --out "${WORK}/maps1" --gpus 1 --quiet)
expect(rc EQUAL 0 MESSAGE "folder on one device exited ${rc}: ${err}")
cli(infer ${RUN} --in "${WORK}/in" --out "${WORK}/maps2" --cpu-devices 2)
expect(rc EQUAL 0 MESSAGE "folder on two devices exited ${rc}: ${err}")
expect(out MATCHES "demo_scan.probability.tif: 640 x 640, [0-9]+ tiles in [^\n]*2 devices"
       MESSAGE "the large scan was not split: ${out}")
expect(out MATCHES "seg_[0-9]+.probability.tif: [^\n]*1 device" MESSAGE "small scans: ${out}")
file(GLOB maps RELATIVE "${WORK}/maps1" "${WORK}/maps1/*.tif")
list(LENGTH maps count)
expect(count EQUAL 4 MESSAGE "${count} maps of one device")
foreach(m ${maps})
    file(SHA256 "${WORK}/maps1/${m}" a)
    file(SHA256 "${WORK}/maps2/${m}" b)
    expect(a STREQUAL b MESSAGE "${m} differs between one and two devices")
endforeach()
file(READ "${WORK}/maps2/fisura-manifest.1-of-1.json" manifest)
string(JSON scans LENGTH "${manifest}" scans)
expect(scans EQUAL 4 MESSAGE "the manifest has ${scans} scans")
math(EXPR last "${scans} - 1")
foreach(i RANGE ${last})
    string(JSON status GET "${manifest}" scans ${i} status)
    expect(status STREQUAL "done" MESSAGE "manifest scan ${i}: ${status}")
endforeach()

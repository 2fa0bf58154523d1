# fisura-cli labels export --as lines|both / import of lines: a demo mask's branches as centre
# lines with their width, read back into a mask; a QuPath line with a width measurement is drawn;
# refused: a negative width (the feature named), an unknown --as.
# -DCLI=<exe> -DWORK=<dir>
include("${CMAKE_CURRENT_LIST_DIR}/check_common.cmake")

file(REMOVE_RECURSE "${WORK}")
run("${CLI}" demo-data "${WORK}/demo" --segmentation 2 --classification 0 --patch 64 --scan 0)
expect("rc EQUAL 0" "demo-data exited ${rc}: ${err}")
file(GLOB masks "${WORK}/demo/segmentation/masks/*")
list(GET masks 0 mask)

run("${CLI}" labels export "${mask}" "${WORK}/lines.geojson" --as lines --quiet)
expect("rc EQUAL 0" "labels export --as lines exited ${rc}: ${err}")
file(READ "${WORK}/lines.geojson" text)
string(JSON n LENGTH "${text}" features)
expect("n GREATER 0" "no features in ${text}")
string(JSON geometry GET "${text}" features 0 geometry type)
string(JSON width GET "${text}" features 0 properties width_px)
string(JSON measured GET "${text}" features 0 properties measurements width_px)
string(JSON vertices LENGTH "${text}" features 0 geometry coordinates)
string(JSON widths LENGTH "${text}" features 0 properties widths_px)
expect("geometry STREQUAL \"LineString\" AND width GREATER 0 AND measured EQUAL width AND vertices EQUAL widths"
       "feature 0: ${geometry}, width ${width} (${measured}), ${vertices} vertices, ${widths} widths")
run("${CLI}" labels import "${WORK}/lines.geojson" --image "${mask}" --out "${WORK}/back.tif"
    --quiet)
expect("rc EQUAL 0 AND EXISTS \"${WORK}/back.tif\"" "import of lines exited ${rc}: ${err}")

run("${CLI}" labels export "${mask}" "${WORK}/both.geojson" --as both --quiet)
expect("rc EQUAL 0" "labels export --as both exited ${rc}: ${err}")
file(READ "${WORK}/both.geojson" both)
string(FIND "${both}" "\"Polygon\"" polygon)
string(FIND "${both}" "\"LineString\"" line)
expect("polygon GREATER -1 AND line GREATER -1" "--as both wrote: ${both}")

# A QuPath line annotation with its width as a measurement.
file(WRITE "${WORK}/qupath.geojson" [=[[{"type": "Feature", "geometry": {"type": "LineString",
  "coordinates": [[4, 10], [60, 50]]}, "properties": {"objectType": "annotation",
  "measurements": {"Width px": 4}}}]]=])
run("${CLI}" labels import "${WORK}/qupath.geojson" --image "${mask}" --out "${WORK}/qp.tif"
    --json)
expect("rc EQUAL 0 AND out MATCHES \"qp.tif\"" "QuPath line: ${rc} ${err}")

file(WRITE "${WORK}/bad.geojson" [=[{"type": "Feature", "geometry": {"type": "LineString",
  "coordinates": [[4, 10], [60, 50]]}, "properties": {"width_px": -3}}]=])
run("${CLI}" labels import "${WORK}/bad.geojson" --image "${mask}" --out "${WORK}/x.tif")
expect("rc EQUAL 1 AND err MATCHES \"feature 0: its width_px of -3 px\"" "bad width: ${rc} ${err}")
expect("NOT EXISTS \"${WORK}/x.tif\"" "a mask was written for a bad width")
run("${CLI}" labels export "${mask}" "${WORK}/x.geojson" --as outlines)
expect("NOT rc EQUAL 0 AND NOT EXISTS \"${WORK}/x.geojson\"" "--as outlines exited ${rc}")

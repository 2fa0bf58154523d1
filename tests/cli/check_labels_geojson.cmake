# fisura-cli labels export / import: a demo mask to QuPath GeoJSON and back; the mask read back
# exports to the same GeoJSON (the round trip is exact); refused input: a Point, a polygon
# outside the image, a missing --image.
# -DCLI=<exe> -DWORK=<dir>
include("${CMAKE_CURRENT_LIST_DIR}/check_common.cmake")

file(REMOVE_RECURSE "${WORK}")
run("${CLI}" demo-data "${WORK}/demo" --segmentation 2 --classification 0 --patch 64 --scan 0)
expect("rc EQUAL 0" "demo-data exited ${rc}: ${err}")
file(GLOB masks "${WORK}/demo/segmentation/masks/*")
list(GET masks 0 mask)

run("${CLI}" labels export "${mask}" "${WORK}/labels.geojson" --class Fisura --json)
expect("rc EQUAL 0" "labels export exited ${rc}: ${err}")
expect("out MATCHES \"labels.geojson\"" "JSON summary: ${out}")
file(READ "${WORK}/labels.geojson" text)
string(JSON type GET "${text}" type)
expect("type STREQUAL \"FeatureCollection\"" "type ${type}")
string(JSON n LENGTH "${text}" features)
expect("n GREATER 0" "no features in ${text}")
string(JSON kind GET "${text}" features 0 properties objectType)
string(JSON name GET "${text}" features 0 properties classification name)
string(JSON geometry GET "${text}" features 0 geometry type)
expect("kind STREQUAL \"annotation\" AND name STREQUAL \"Fisura\" AND geometry STREQUAL \"Polygon\""
       "feature 0: ${kind} ${name} ${geometry}")

run("${CLI}" labels import "${WORK}/labels.geojson" --image "${mask}" --out "${WORK}/back.tif"
    --quiet)
expect("rc EQUAL 0 AND EXISTS \"${WORK}/back.tif\"" "labels import exited ${rc}: ${err}")
run("${CLI}" labels export "${WORK}/back.tif" "${WORK}/again.geojson" --class Fisura --quiet)
expect("rc EQUAL 0" "second export exited ${rc}: ${err}")
file(READ "${WORK}/again.geojson" again)
expect("again STREQUAL text" "the mask read back differs from the mask exported")

# Refused: not a polygon or line (the feature named), outside the 64 x 64 image, no --image.
file(WRITE "${WORK}/point.geojson" [=[{"type": "FeatureCollection", "features": [
  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 1]},
   "properties": {"objectType": "annotation"}}]}]=])
run("${CLI}" labels import "${WORK}/point.geojson" --image "${mask}" --out "${WORK}/x.tif")
expect("rc EQUAL 1 AND err MATCHES \"feature 0 is a Point\"" "point: ${rc} ${err}")
file(WRITE "${WORK}/far.geojson" [=[{"type": "Feature", "geometry": {"type": "Polygon",
  "coordinates": [[[0, 0], [100, 0], [100, 100], [0, 0]]]}, "properties": {}}]=])
run("${CLI}" labels import "${WORK}/far.geojson" --image "${mask}" --out "${WORK}/x.tif")
expect("rc EQUAL 1 AND err MATCHES \"outside the 64 x 64 px image\"" "outside: ${rc} ${err}")
expect("NOT EXISTS \"${WORK}/x.tif\"" "a mask was written for refused input")
run("${CLI}" labels import "${WORK}/labels.geojson" --out "${WORK}/x.tif")
expect("rc EQUAL 2" "no --image exited ${rc}")

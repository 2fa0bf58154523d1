# fisura-cli measure --vector / --overlay / --classes, read back by GDAL's own tools (ogrinfo,
# gdalinfo) and the DXF by a second reader (python3-ezdxf, skipped when absent).
# -DCLI=<exe> -DWORK=<dir> -DOGRINFO=<exe> -DGDALINFO=<exe> -DGDAL_CREATE=<exe>
# -DGDAL_RASTERIZE=<exe> -DGDAL_TRANSLATE=<exe> -DPYTHON=<exe or empty>
include("${CMAKE_CURRENT_LIST_DIR}/check_common.cmake")

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
# Two drawn cracks on a 600 x 420 GeoTIFF, 5 cm pixels, ETRS89 / UTM 30N, top-left corner at
# (440000, 4474000): rows 78..82 from column 60 to 539 (5 px wide), and columns 98..101 from row
# 150 to 369 (4 px wide).
file(WRITE "${WORK}/bars.geojson" [=[
{"type": "FeatureCollection",
 "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::25830"}},
 "features": [
  {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[
    [440003.0, 4473996.1], [440027.0, 4473996.1], [440027.0, 4473995.85],
    [440003.0, 4473995.85], [440003.0, 4473996.1]]]}},
  {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[
    [440004.9, 4473992.5], [440005.1, 4473992.5], [440005.1, 4473981.5],
    [440004.9, 4473981.5], [440004.9, 4473992.5]]]}}]}
]=])
run("${GDAL_CREATE}" -of GTiff -outsize 600 420 -bands 1 -ot Byte -burn 0 -a_srs EPSG:25830
    -a_ullr 440000 4474000 440030 4473979 "${WORK}/scan.tif")
expect("rc EQUAL 0" "gdal_create: ${err}")
run("${GDAL_RASTERIZE}" -burn 255 "${WORK}/bars.geojson" "${WORK}/scan.tif")
expect("rc EQUAL 0" "gdal_rasterize: ${err}")

# GeoPackage in the scan's CRS, a standard's classes, and the overlay.
run("${CLI}" measure --map "${WORK}/scan.tif" --pixel-size 50 --classes aci224r-dry --lang en
    --vector "${WORK}/cracks.gpkg" --overlay "${WORK}/overlay.tif" --model-name drawn)
expect("rc EQUAL 0" "measure --vector exited ${rc}: ${err}")
expect("out MATCHES \"Standard: ACI 224R-01 Table 4.1 [(]aci224r-dry[)], tolerable width 0.41\""
       "standard not named: ${out}")
expect("out MATCHES \"Cracks over 0.41 mm: 2 [(]1, 2[)]\"" "flagged cracks not listed: ${out}")
expect("out MATCHES \"2 branches, 2 cracks, 2 width segments [(]map, EPSG:25830[)]\""
       "vector summary: ${out}")
expect("NOT EXISTS \"${WORK}/overlay.tif.layer.tif\"" "temporary width layer left behind")
run("${CLI}" measure --map "${WORK}/scan.tif" --pixel-size 50 --classes en1992-xc2-xs --lang es)
expect("out MATCHES \"Norma: EN 1992-1-1 Table 7.1N [(]en1992-xc2-xs[)], ancho tolerable 0,30 mm\""
       "standard not named in Spanish: ${out}")
expect("out MATCHES \"Fisuras por encima de 0,30 mm: 2\"" "flags in Spanish: ${out}")
run("${OGRINFO}" -so -al "${WORK}/cracks.gpkg")
expect("rc EQUAL 0" "ogrinfo: ${err}")
string(REGEX MATCHALL "Feature Count: [0-9]+" counts "${out}")
# branches, cracks and width segments (each drawn crack has one width: one segment).
expect("counts STREQUAL \"Feature Count: 2;Feature Count: 2;Feature Count: 2\""
       "feature counts: ${counts}")
expect("out MATCHES \"ID\\\\[.EPSG.,25830\\\\]\"" "CRS not EPSG:25830: ${out}")
expect("out MATCHES \"FISURA_COORDINATES=map\" AND out MATCHES \"FISURA_MODEL=drawn\""
       "metadata: ${out}")
expect("out MATCHES \"w_mean_mm: Real\" AND out MATCHES \"over_limit: Integer\"" "fields: ${out}")
# The horizontal crack lies on row 80 (centre 80.5): Y = 4474000 - 80.5 x 0.05 = 4473995.975.
run("${OGRINFO}" -al -q "${WORK}/cracks.gpkg" branches -where "branch_id = 1")
string(REGEX MATCH "LINESTRING \\(([0-9.]+) ([0-9.]+), ?([0-9.]+) ([0-9.]+)\\)" line "${out}")
expect("line" "no straight line for branch 1: ${out}")
foreach(y ${CMAKE_MATCH_2} ${CMAKE_MATCH_4})
    expect("y GREATER 4473995.925 AND y LESS 4473996.025" "branch 1 at Y ${y}, not 4473995.975")
endforeach()
# Its ends: columns 60 and 540 (X 440003 and 440027), so its 24 m within 1 % (0.24 m).
expect("CMAKE_MATCH_1 GREATER 440002.85 AND CMAKE_MATCH_1 LESS 440003.15" "start X ${CMAKE_MATCH_1}")
expect("CMAKE_MATCH_3 GREATER 440026.85 AND CMAKE_MATCH_3 LESS 440027.15" "end X ${CMAKE_MATCH_3}")
run("${GDALINFO}" "${WORK}/overlay.tif")
expect("out MATCHES \"ColorInterp=Alpha\" AND out MATCHES \"Block=256x256\"" "overlay: ${out}")
expect("out MATCHES \"COMPRESSION=DEFLATE\" AND out MATCHES \"25830\"" "overlay: ${out}")
expect("out MATCHES \"440000[.]0+,4474000[.]0+\"" "overlay origin: ${out}")

# A plain scan (no georeference): millimetres from the top-left corner, y up; DXF for CAD.
run("${GDAL_TRANSLATE}" -co PROFILE=BASELINE "${WORK}/scan.tif" "${WORK}/plain.tif")
file(REMOVE "${WORK}/plain.tif.aux.xml")
run("${CLI}" measure --map "${WORK}/plain.tif" --pixel-size 0.1 --quiet
    --vector "${WORK}/cracks.dxf")
expect("rc EQUAL 0" "measure --vector dxf exited ${rc}: ${err}")
run("${CLI}" measure --map "${WORK}/plain.tif" --pixel-size 0.1 --quiet
    --vector "${WORK}/plain.shp")
expect("rc EQUAL 0 AND EXISTS \"${WORK}/plain_cracks.shp\"" "shapefile: ${rc} ${err}")
run("${OGRINFO}" -al -q "${WORK}/plain.shp" -where "branch_id = 1")
string(REGEX MATCH "LINESTRING \\(([-0-9.]+) ([-0-9.]+), ?([-0-9.]+) ([-0-9.]+)\\)" line "${out}")
expect("line" "no straight line for branch 1: ${out}")
expect("CMAKE_MATCH_2 GREATER -8.1 AND CMAKE_MATCH_2 LESS -8.0" "plain Y ${CMAKE_MATCH_2}, not -8.05")
if(PYTHON)
    # The widths the measurement exported (the same cracks, same pixel size, as a Shapefile).
    run("${OGRINFO}" -al -q "${WORK}/plain.shp")
    string(REGEX MATCHALL "w_mean_mm \\(Real\\) = [0-9.]+" widths "${out}")
    string(REGEX REPLACE "w_mean_mm \\(Real\\) = " "" widths "${widths}")
    list(LENGTH widths nw)
    expect("nw EQUAL 2" "widths in the Shapefile: ${widths}")
    run("${PYTHON}" -c [=[
import sys, ezdxf
doc = ezdxf.readfile(sys.argv[1])
widths = [float(w) for w in sys.argv[2:]]
msp = doc.modelspace()
lines = [e for e in msp if e.dxftype() == "LWPOLYLINE"]
hatches = [e for e in msp if e.dxftype() == "HATCH"]
print("lines", len(lines), "hatches", len(hatches))
print("insunits", doc.header.get("$INSUNITS"), "measurement", doc.header.get("$MEASUREMENT"))
print("layers", sorted({e.dxf.layer for e in msp}), sorted(l.dxf.name for l in doc.layers))
iso = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158,
       200, 211]
want = sorted(min(iso, key=lambda v: abs(v - round(w * 100))) for w in widths)
got = sorted(e.dxf.lineweight for e in lines)
print("weights", got, "for", want, "ok" if got == want else "BAD")
extents = []
for h in hatches:
    xs = [v[0] for p in h.paths for v in getattr(p, "vertices", [])]
    ys = [v[1] for p in h.paths for v in getattr(p, "vertices", [])]
    extents.append(min(max(xs) - min(xs), max(ys) - min(ys)))
ok = sorted(round(e, 2) for e in extents) == sorted(round(w, 2) for w in widths)
print("outline widths", extents, "for", widths, "ok" if ok else "BAD")
]=] "${WORK}/cracks.dxf" ${widths})
    expect("rc EQUAL 0" "ezdxf cannot read the DXF: ${err}")
    expect("out MATCHES \"lines 2 hatches 2\"" "DXF entities: ${out}")
    expect("out MATCHES \"insunits 4 measurement 1\"" "DXF not in millimetres: ${out}")
    expect("out MATCHES \"fisura_medium_outline\"" "CAD layer per class: ${out}")
    expect("out MATCHES \"weights [^\\n]* ok\"" "lineweights: ${out}")
    # The outlines draw the widths to scale.
    expect("out MATCHES \"outline widths [^\\n]* ok\"" "outline widths: ${out}")
else()
    message(STATUS "python3-ezdxf absent: DXF not checked by a second reader")
endif()

# Errors: an unknown extension before any work, an unwritable folder; nothing left behind.
run("${CLI}" measure --map "${WORK}/plain.tif" --pixel-size 0.1 --vector "${WORK}/cracks.kml")
expect("NOT rc EQUAL 0 AND err MATCHES \"unknown vector format\"" "kml accepted: ${rc} ${err}")
run("${CLI}" measure --map "${WORK}/plain.tif" --pixel-size 0.1 --vector "${WORK}/no/dir/c.gpkg")
expect("NOT rc EQUAL 0" "unwritable folder accepted")
run("${CLI}" measure --map "${WORK}/plain.tif" --classes en1992-nope)
expect("NOT rc EQUAL 0" "unknown preset accepted")
file(GLOB left "${WORK}/cracks.kml*" "${WORK}/.*tmp*")
expect("NOT left" "left behind: ${left}")

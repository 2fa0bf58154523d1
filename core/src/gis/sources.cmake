# GIS and CAD: crack vectors and the crack overlay through GDAL/OGR (no torch, no Qt). Without
# GDAL (FISURA_WITH_GDAL=OFF) they say Unsupported and scans are not georeferenced.
if(FISURA_WITH_GDAL)
    list(APPEND FISURA_CORE_SOURCES
        src/gis/gdal_session.cpp
        src/gis/georeference.cpp)
    list(APPEND FISURA_CORE_SOURCES src/gis/overlay_export.cpp)
    # Readers and writers of records (JSON, GeoJSON, DXF): compiled lightly (core/CMakeLists.txt).
    list(APPEND FISURA_CORE_RECORD_SOURCES
        src/gis/label_geojson.cpp
        src/gis/label_lines.cpp
        src/gis/vector_export.cpp
        src/gis/dxf_export.cpp
        src/gis/change_vectors.cpp
        src/gis/vector_common.cpp
        src/gis/vector_files.cpp)
else()
    list(APPEND FISURA_CORE_SOURCES src/gis/no_gdal.cpp)
endif()
list(APPEND FISURA_CORE_RECORD_SOURCES src/gis/gis_names.cpp)

# The tiled viewer, used by Inspect, labelling and the date comparison: the widget, its
# tile-load scheduler and its overlay stack, the overview map and the ruler.
list(APPEND FISURA_WIDGETS_SOURCES
    src/viewer/tiledviewer.cpp src/viewer/tiledviewer.h src/viewer/tiledviewerprivate.h
    src/viewer/tiledviewerload.cpp src/viewer/tiledviewerpaint.cpp src/viewer/tiledviewereditable.cpp
    src/viewer/overviewmap.cpp
    src/viewer/viewerruler.cpp src/viewer/viewerruler.h
)

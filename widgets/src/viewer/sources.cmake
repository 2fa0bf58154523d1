# The tiled viewer, used by Inspect, labelling and the date comparison: the widget (view
# transform, input, painting), its tile-load scheduler and tile cache, its overlay stack (map
# layers, the label layer, decorations), the overview map and the ruler.
list(APPEND FISURA_WIDGETS_SOURCES
    src/viewer/tiledviewer.cpp src/viewer/tiledviewer.h
    src/viewer/tiledviewerinput.cpp src/viewer/tiledviewerload.cpp src/viewer/tiledviewerpaint.cpp
    src/viewer/viewertool.h src/viewer/viewtransform.h
    src/viewer/tileloadscheduler.cpp src/viewer/tileloadscheduler.h
    src/viewer/viewtilecache.cpp src/viewer/viewtilecache.h src/viewer/viewerbudgets.h
    src/viewer/tiledecode.cpp src/viewer/tiledecode.h
    src/viewer/overlaystack.cpp src/viewer/overlaystack.h
    src/viewer/overlaystyle.cpp src/viewer/overlaystyle.h
    src/viewer/editablelayer.cpp src/viewer/editablelayer.h
    src/viewer/overviewmap.cpp src/viewer/overviewmap.h
    src/viewer/viewerruler.cpp src/viewer/viewerruler.h
)

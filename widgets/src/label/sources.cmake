# Labelling in the viewer: the label session (layer, undo stack, save and proposal jobs), the
# tools on the viewer, the Label section of the Inspect pane and its "Propose labels" box, and the
# label mode the Inspect pane delegates to.
list(APPEND FISURA_WIDGETS_SOURCES
    src/label/labelgeojsonbox.cpp src/label/labelgeojsonbox.h
    src/label/labelmodecontroller.cpp src/label/labelmodecontroller.h
    src/label/labelpanel.cpp src/label/labelpanel.h
    src/label/labelpropose.cpp src/label/labelpropose.h
    src/label/labelsession.cpp src/label/labelsession.h
    src/label/labelsource.cpp src/label/labelsource.h
    src/label/labeltool.cpp src/label/labeltool.h
)

# The Inspect pane.
list(APPEND FISURA_WIDGETS_SOURCES src/inspect/inspectpane.cpp src/inspect/inspectpane.h)

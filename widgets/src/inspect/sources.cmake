# The Inspect pane and its Ground truth section.
list(APPEND FISURA_WIDGETS_SOURCES
    src/inspect/inspectpane.cpp src/inspect/inspectpane.h
    src/inspect/comparisonsummary.cpp src/inspect/comparisonsummary.h
    src/inspect/truthpanel.cpp src/inspect/truthpanel.h
)

# The Inspect pane and its Ground truth section.
list(APPEND FISURA_WIDGETS_SOURCES
    src/inspect/inspectpane.cpp src/inspect/inspectpane.h src/inspect/inspectsync.cpp
    src/inspect/comparisonsummary.cpp src/inspect/comparisonsummary.h
    src/inspect/truthpanel.cpp src/inspect/truthpanel.h
)
# Crack measurement: the panel, the crack table, plots, outlines on the viewer, the PDF report.
list(APPEND FISURA_WIDGETS_SOURCES
    src/inspect/crackoverlay.cpp src/inspect/crackoverlay.h
    src/inspect/cracktable.cpp src/inspect/cracktable.h
    src/inspect/cracktablemodel.cpp src/inspect/cracktablemodel.h
    src/inspect/measurepanel.cpp src/inspect/measurepanel.h src/inspect/measureexport.cpp
    src/inspect/measureplots.cpp src/inspect/measureplots.h
    src/inspect/measuretext.cpp src/inspect/measuretext.h
    src/inspect/classpresetbox.cpp src/inspect/classpresetbox.h
    src/inspect/report.cpp src/inspect/report.h src/inspect/reportmodel.cpp
    src/inspect/reportpicture.cpp src/inspect/reportstyle.cpp src/inspect/reportstyle.h
    src/inspect/changereport.cpp src/inspect/changereport.h
)
# Compare dates: a later scan aligned to this one, its cracks compared (fisura/change.h).
list(APPEND FISURA_WIDGETS_SOURCES
    src/inspect/compare/comparedates.cpp src/inspect/compare/comparedates.h
    src/inspect/compare/changeoverlay.cpp src/inspect/compare/changeoverlay.h
    src/inspect/compare/changetable.cpp src/inspect/compare/changetable.h
    src/inspect/compare/changetext.cpp src/inspect/compare/changetext.h
    src/inspect/compare/alignsettings.cpp src/inspect/compare/alignsettings.h
)

# The Data pane, with the label state of a segmentation dataset, the ranking of what to label
# next, and the timeline of a structure's dated scans.
list(APPEND FISURA_WIDGETS_SOURCES
    src/data/datapane.cpp src/data/datapane.h
    src/data/labelranking.cpp src/data/labelranking.h
    src/data/labelstatusmodel.cpp src/data/labelstatusmodel.h
    src/data/labelstatuspanel.cpp src/data/labelstatuspanel.h
    src/data/projectcontents.cpp src/data/projectcontents.h
    src/data/seriestimeline.cpp src/data/seriestimeline.h
    src/data/welcomepage.cpp src/data/welcomepage.h
)

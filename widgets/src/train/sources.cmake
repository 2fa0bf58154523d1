# The train feature of the widgets library.
list(APPEND FISURA_WIDGETS_SOURCES
    src/train/resultsview.cpp src/train/resultsview.h
    src/train/galleryview.cpp src/train/galleryview.h)
list(APPEND FISURA_WIDGETS_SOURCES)
# The Train pane: setup, policy preview, controller, live plot, log, runs and their evaluation.
list(APPEND FISURA_WIDGETS_SOURCES
    src/train/datasetpicker.cpp src/train/datasetpicker.h
    src/train/peerranks.cpp src/train/peerranks.h
    src/train/policypreview.cpp src/train/policypreview.h
    src/train/runevaluator.cpp src/train/runevaluator.h
    src/train/runslist.cpp src/train/runslist.h
    src/train/startfrom.cpp src/train/startfrom.h
    src/train/traincontroller.cpp src/train/traincontroller.h
    src/train/trainlog.cpp src/train/trainlog.h
    src/train/trainmeta.h
    src/train/trainpane.cpp src/train/trainpane.h
    src/train/trainpaneruns.cpp
    src/train/trainplot.cpp src/train/trainplot.h
    src/train/trainsetup.cpp src/train/trainsetup.h
    src/train/trainstatus.cpp src/train/trainstatus.h
)

# The train feature of the widgets library.
list(APPEND FISURA_WIDGETS_SOURCES
    src/train/resultsview.cpp src/train/resultsview.h
    src/train/galleryview.cpp src/train/galleryview.h)
list(APPEND FISURA_WIDGETS_SOURCES)

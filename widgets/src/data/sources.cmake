# The Data pane.
list(APPEND FISURA_WIDGETS_SOURCES src/data/datapane.cpp src/data/datapane.h)

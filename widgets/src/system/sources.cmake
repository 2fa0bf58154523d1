# The System pane.
list(APPEND FISURA_WIDGETS_SOURCES src/system/systempane.cpp src/system/systempane.h)

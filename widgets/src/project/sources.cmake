# The project feature of the widgets library.
list(APPEND FISURA_WIDGETS_SOURCES)

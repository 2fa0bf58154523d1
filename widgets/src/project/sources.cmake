# The project feature of the widgets library.
list(APPEND FISURA_WIDGETS_SOURCES src/project/projectsession.cpp src/project/projectsession.h)

# Projects in the GUI: the session every pane shares, and the File-menu commands.
list(APPEND FISURA_WIDGETS_SOURCES
    src/project/projectactions.cpp src/project/projectactions.h
    src/project/projectsession.cpp src/project/projectsession.h
    src/project/runname.cpp src/project/runname.h
)

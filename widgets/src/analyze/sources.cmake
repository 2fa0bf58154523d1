# The analyze feature of the widgets library: the Analyze pane, its scan queue, the controller
# and worker that run tiled inference, the model chooser and facts, and the advanced options.
list(APPEND FISURA_WIDGETS_SOURCES
    src/analyze/advancedoptions.cpp src/analyze/advancedoptions.h
    src/analyze/analyzecontroller.cpp src/analyze/analyzecontroller.h
    src/analyze/analyzepane.cpp src/analyze/analyzepane.h
    src/analyze/analyzequeue.cpp src/analyze/analyzequeue.h
    src/analyze/queuefile.cpp src/analyze/queuefile.h
    src/analyze/analyzerunner.cpp src/analyze/analyzerunner.h
    src/analyze/modelchooser.cpp src/analyze/modelchooser.h
    src/analyze/modelfacts.cpp src/analyze/modelfacts.h
    src/analyze/pacetext.cpp src/analyze/pacetext.h
)

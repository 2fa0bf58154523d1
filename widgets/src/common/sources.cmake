# Shared widgets: job runner, texts, settings, plots and gauges.
list(APPEND FISURA_WIDGETS_SOURCES
    src/common/errortext.cpp src/common/errortext.h
    src/common/flowlayout.cpp src/common/flowlayout.h
    src/common/wrappedlabel.cpp src/common/wrappedlabel.h
    src/common/imageconvert.cpp src/common/imageconvert.h
    src/common/imageprobe.cpp src/common/imageprobe.h
    src/common/integertext.h
    src/common/jobrunner.cpp src/common/jobrunner.h
    src/common/languagemanager.cpp src/common/languagemanager.h
    src/common/modelconsent.cpp src/common/modelconsent.h
    src/common/optiontexts.cpp src/common/optiontexts.h
    src/common/pane.cpp src/common/pane.h
    src/common/plotlegend.cpp src/common/plotlegend.h
    src/common/plotlocale.cpp src/common/plotlocale.h
    src/common/policytext.cpp src/common/policytext.h
    src/common/provenancetext.cpp src/common/provenancetext.h
    src/common/preference.h
    src/common/progressrelay.cpp src/common/progressrelay.h
    src/common/qcp.h
    src/common/screenfit.cpp src/common/screenfit.h
    src/common/settingscheck.cpp src/common/settingscheck.h
    src/common/settingsdialog.cpp src/common/settingsdialog.h
    src/common/statusmeta.h
    src/common/telemetryplot.cpp src/common/telemetryplot.h
    src/common/thresholdtext.h
    src/common/usagegauge.cpp src/common/usagegauge.h
    src/common/wheelguard.cpp src/common/wheelguard.h
)

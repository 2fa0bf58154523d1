// SIGTERM, SIGINT and SIGHUP (logout, `kill`, Ctrl-C in a terminal) close the window the normal
// way instead of ending the process, without asking: running work is stopped first, so a
// training run is recorded as cancelled with its checkpoint and a scan leaves no partial map.
#pragma once

namespace fisura::app
{

class MainWindow;

/// Install the handlers; the notifier lives as long as `window`.
void quitOnTerminationSignals(MainWindow* window);

} // namespace fisura::app

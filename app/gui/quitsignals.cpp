#include "quitsignals.h"

#include "mainwindow.h"

#include <QSocketNotifier>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace fisura::app
{

namespace
{
int g_pipe[2] = {-1, -1};

// Only async-signal-safe work here: one byte into the pipe; Qt's event loop does the rest (the
// self-pipe pattern from Qt's "Calling Qt Functions From Unix Signal Handlers").
extern "C" void onTerminate(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
}
} // namespace

void quitOnTerminationSignals(MainWindow* window)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_pipe) != 0)
        return; // no handler: the default action stays
    auto* notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, window);
    QObject::connect(notifier, &QSocketNotifier::activated, window, [notifier, window] {
        char byte;
        [[maybe_unused]] const ssize_t n = ::read(g_pipe[0], &byte, 1);
        notifier->setEnabled(false);
        window->stopWorkAndClose();
    });
    struct sigaction sa = {};
    sa.sa_handler = onTerminate;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
}

} // namespace fisura::app

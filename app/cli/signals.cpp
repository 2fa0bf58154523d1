// See signals.h. The handler only stores the signal number and sets the token's atomic flag,
// both async-signal-safe.
#include "signals.h"

#include <csignal>

namespace fisura::cli
{

namespace
{

CancelToken g_token;
volatile std::sig_atomic_t g_signal = 0;
bool g_installed = false;

extern "C" void onCancelSignal(int sig)
{
    if (g_signal == 0)
        g_signal = sig;
    g_token.cancel();
}

} // namespace

CancelToken& cancelOnSignals()
{
    if (!g_installed) {
        g_installed = true;
        struct sigaction sa {
        };
        sa.sa_handler = onCancelSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
            ::sigaction(sig, &sa, nullptr);
    }
    return g_token;
}

int cancellingSignal()
{
    return g_signal;
}

int cancelledExitCode()
{
    return 128 + (g_signal != 0 ? int(g_signal) : SIGINT);
}

} // namespace fisura::cli

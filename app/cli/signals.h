// The one installer of the signals that stop a fisura-cli job: SIGINT (Ctrl-C), SIGTERM (kill,
// Slurm's time limit), SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\). Each cancels the job
// the same way, so none of them leaves a half-written output or a `.part` file, and the process
// then exits with 128 + the signal number, as a shell reports a process the signal ended.
#pragma once

#include "fisura/job.h"

namespace fisura::cli
{

/// Installs the handlers (once; later calls only return the token) and returns the token they
/// cancel. Commands that can stop cleanly call it before their work starts; the others keep the
/// default action (the process ends at once, having nothing to clean up).
CancelToken& cancelOnSignals();

/// The first signal that cancelled the job, or 0.
int cancellingSignal();

/// The exit code of a cancelled job: 128 + cancellingSignal(), or 130 when no signal cancelled
/// it (as if by Ctrl-C).
int cancelledExitCode();

} // namespace fisura::cli

// Starting a thread when the process is short of memory or of threads. std::thread throws
// std::system_error (EAGAIN: no room for the new thread's stack under `ulimit -v`, or the
// thread limit of `ulimit -u`); let through, it reached a destructor with other threads still
// running and ended the process in std::terminate. Every thread core starts goes through
// startThread, and a failure becomes an OutOfMemory Status (or fewer workers, where fewer do).
#pragma once

#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "fisura/status.h"

namespace fisura::util
{

/// The Status a failed thread start becomes (`what`: what the thread was for).
inline Status threadStartFailure(const std::string& what, const char* why)
{
    return Status(ErrorCode::OutOfMemory,
                  "cannot start a thread for " + what + " (" + why +
                      "): the process is short of memory or of threads (ulimit -v, ulimit -u)");
}

/// `t` = std::thread(fn), or the failure as a Status (`t` is left empty).
template <class F> Status startThread(std::thread& t, const std::string& what, F&& fn)
{
    try {
        t = std::thread(std::forward<F>(fn));
        return Status::ok();
    } catch (const std::system_error& e) {
        return threadStartFailure(what, e.what());
    } catch (const std::bad_alloc&) {
        return threadStartFailure(what, "out of memory");
    }
}

} // namespace fisura::util

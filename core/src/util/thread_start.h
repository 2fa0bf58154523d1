// Starting a thread when the process is short of memory or of threads. std::thread throws
// std::system_error (EAGAIN: no room for the new thread's stack under `ulimit -v`, or the
// thread limit of `ulimit -u`); let through, it reached a destructor with other threads still
// running and ended the process in std::terminate. Every thread core starts goes through
// startThread, and a failure becomes an OutOfMemory Status (or fewer workers, where fewer do).
// Each thread is named too (Linux: up to 15 characters), so `top -H`, `perf` and a debugger
// tell a reader from a compressor.
#pragma once

#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#ifdef __linux__
#include <pthread.h>
#endif

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

/// Names the calling thread (`name`: a literal of at most 15 characters; longer is cut).
inline void nameThisThread(const char* name)
{
#ifdef __linux__
    char cut[16] = {};
    for (int i = 0; i < 15 && name[i]; ++i)
        cut[i] = name[i];
    pthread_setname_np(pthread_self(), cut);
#else
    (void)name;
#endif
}

/// `t` = std::thread(fn) named `name`, or the failure as a Status (`t` is left empty; `what`:
/// what the thread is for, in the message).
template <class F>
Status startThread(std::thread& t, const char* name, const std::string& what, F&& fn)
{
    try {
        t = std::thread([name, f = std::forward<F>(fn)]() mutable {
            nameThisThread(name);
            f();
        });
        return Status::ok();
    } catch (const std::system_error& e) {
        return threadStartFailure(what, e.what());
    } catch (const std::bad_alloc&) {
        return threadStartFailure(what, "out of memory");
    }
}

} // namespace fisura::util

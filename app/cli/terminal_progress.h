// Progress for the command line: one updating line on a terminal, one line per report otherwise.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <unistd.h>

#include "cli_lang.h"
#include "fisura/job.h"

namespace fisura::cli
{

class TerminalProgress final : public ProgressSink
{
public:
    void report(const Progress& p) override
    {
        const std::string eta =
            p.etaSeconds < 0 ? "--" : std::to_string(std::lround(p.etaSeconds)) + " s";
        std::fprintf(stderr, "%s%5s%%  ETA %s  %s%s", tty_ ? "\r" : "",
                     num(100.0 * std::max(0.0, p.fraction), 1).c_str(), eta.c_str(),
                     p.message.c_str(), tty_ ? "\x1b[K" : "\n");
        if (tty_ && p.fraction >= 1.0)
            std::fputc('\n', stderr);
    }

private:
    bool tty_ = ::isatty(2) != 0;
};

} // namespace fisura::cli

#include "report_pdf.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fisura::cli
{

namespace fs = std::filesystem;

namespace
{

bool isExecutable(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string formatNumber(double v)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s.precision(10);
    s << v;
    return s.str();
}

} // namespace

std::string findGuiExecutable()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path dir = self.parent_path();
        for (const fs::path& p : {dir / "fisura", dir.parent_path() / "gui" / "fisura"})
            if (isExecutable(p))
                return p.string();
    }
    if (const char* path = std::getenv("PATH")) {
        std::stringstream dirs(path);
        std::string d;
        while (std::getline(dirs, d, ':'))
            if (!d.empty() && isExecutable(fs::path(d) / "fisura"))
                return (fs::path(d) / "fisura").string();
    }
    return {};
}

namespace
{

/// `fisura` with `args` (after the program), waited for: its exit status, or 1 with a message.
int runGui(const std::vector<std::string>& rest)
{
    const std::string exe = findGuiExecutable();
    if (exe.empty()) {
        std::cerr << "fisura-cli: cannot write the PDF report: the `fisura` program (Fisura's "
                     "desktop application, which writes the reports) is neither beside "
                     "fisura-cli nor on PATH. Install it, or export CSV/JSON only.\n";
        return 1;
    }
    std::vector<std::string> args{exe};
    args.insert(args.end(), rest.begin(), rest.end());
    std::vector<char*> argv;
    for (auto& s : args)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    // No display needed: the report mode draws offscreen.
    if (!std::getenv("QT_QPA_PLATFORM"))
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    pid_t pid = 0;
    if (const int err = ::posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv.data(), environ)) {
        std::cerr << "fisura-cli: cannot start " << exe << ": " << std::strerror(err) << "\n";
        return 1;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            std::cerr << "fisura-cli: lost " << exe << ": " << std::strerror(errno) << "\n";
            return 1;
        }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    std::cerr << "fisura-cli: " << exe << " stopped by signal " << WTERMSIG(status) << "\n";
    return 1;
}

/// --pixel-size, --class-limits and --classes as the report modes take them.
void addMeasureArgs(std::vector<std::string>& args, double pixelSize,
                    const std::vector<double>& limits, const std::string& classes)
{
    if (pixelSize > 0)
        args.insert(args.end(), {"--pixel-size", formatNumber(pixelSize)});
    if (!limits.empty()) {
        std::string text;
        for (double v : limits)
            text += (text.empty() ? "" : ",") + formatNumber(v);
        args.insert(args.end(), {"--class-limits", text});
    }
    if (!classes.empty())
        args.insert(args.end(), {"--classes", classes});
}

} // namespace

int writeReportPdf(const ReportPdfArgs& a)
{
    std::vector<std::string> args = {"--report-pdf", a.pdf,         "--map",
                                     a.map,          "--threshold", formatNumber(a.threshold),
                                     "--lang",       a.lang};
    if (!a.scan.empty())
        args.insert(args.end(), {"--scan", a.scan});
    addMeasureArgs(args, a.pixelSize, a.classLimitsMm, a.classes);
    if (!a.model.empty())
        args.insert(args.end(), {"--model", a.model});
    return runGui(args);
}

int writeChangeReportPdf(const ChangeReportPdfArgs& a)
{
    std::vector<std::string> args = {"--change-report-pdf",
                                     a.pdf,
                                     "--before",
                                     a.before,
                                     "--before-map",
                                     a.beforeMap,
                                     "--after",
                                     a.after,
                                     "--after-map",
                                     a.afterMap,
                                     "--threshold",
                                     formatNumber(a.threshold),
                                     "--tolerance",
                                     formatNumber(a.tolerancePx),
                                     "--closing",
                                     std::to_string(a.closingRadiusPx),
                                     "--min-area",
                                     std::to_string(a.minAreaPx),
                                     "--class-by",
                                     a.classBy,
                                     "--model",
                                     a.model,
                                     "--lang",
                                     a.lang};
    if (!a.beforeDate.empty())
        args.insert(args.end(), {"--before-date", a.beforeDate});
    if (!a.afterDate.empty())
        args.insert(args.end(), {"--after-date", a.afterDate});
    addMeasureArgs(args, a.pixelSize, a.classLimitsMm, a.classes);
    return runGui(args);
}

} // namespace fisura::cli

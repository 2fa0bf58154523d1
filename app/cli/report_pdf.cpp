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

int writeReportPdf(const ReportPdfArgs& a)
{
    const std::string exe = findGuiExecutable();
    if (exe.empty()) {
        std::cerr << "fisura-cli: cannot write the PDF report: the `fisura` program (Fisura's "
                     "desktop application, which writes the reports) is neither beside "
                     "fisura-cli nor on PATH. Install it, or export CSV/JSON only.\n";
        return 1;
    }
    std::vector<std::string> args = {
        exe,      "--report-pdf", a.pdf, "--map", a.map, "--threshold", formatNumber(a.threshold),
        "--lang", a.lang};
    if (!a.scan.empty())
        args.insert(args.end(), {"--scan", a.scan});
    if (a.pixelSize > 0)
        args.insert(args.end(), {"--pixel-size", formatNumber(a.pixelSize)});
    if (!a.classLimitsMm.empty()) {
        std::string limits;
        for (double v : a.classLimitsMm)
            limits += (limits.empty() ? "" : ",") + formatNumber(v);
        args.insert(args.end(), {"--class-limits", limits});
    }
    if (!a.classes.empty())
        args.insert(args.end(), {"--classes", a.classes});
    if (!a.model.empty())
        args.insert(args.end(), {"--model", a.model});
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

} // namespace fisura::cli

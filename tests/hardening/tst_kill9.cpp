// kill -9 during the write (MATRIX.md, rows "*/kill-9"): fisura-cli is killed while it writes a
// map, a model and its checkpoint, or a project file over previous ones. The previous file must
// still be the previous one (or, if the rename had already happened, a complete new one) and
// open; the killed process's temporary must not confuse the next run, which removes it.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <torch/serialize.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "fisura/model.h"
#include "fisura/project.h"
#include "fisura/tiledimage.h"

using namespace fisura;
namespace fs = std::filesystem;

namespace
{

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Temporaries: ".<name>.tmp<pid>-<n>" and "<name>.part<pid>[.L<k>]".
bool isTemporary(const std::string& n)
{
    return n.find(".tmp") != std::string::npos || n.find(".part") != std::string::npos;
}

/// The temporaries in `dir`.
std::vector<std::string> temporaries(const std::string& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string n = e.path().filename().string();
        if (isTemporary(n))
            out.push_back(n);
    }
    return out;
}

/// Names created in (or renamed into) a directory, as inotify reports them: a temporary that
/// lives a few milliseconds (a model saved at the end of an epoch) is not missed when the test's
/// thread gets no CPU at that moment, as a poll of the directory could (inotify(7)).
class CreatedNames
{
public:
    explicit CreatedNames(const std::string& dir)
        : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)),
          wd_(fd_ >= 0 ? inotify_add_watch(fd_, dir.c_str(), IN_CREATE | IN_MOVED_TO) : -1)
    {
    }
    ~CreatedNames()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    bool ok() const { return wd_ >= 0; }
    /// Waits up to `ms` for events; the names created since the last call.
    std::vector<std::string> next(int ms)
    {
        std::vector<std::string> names;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, ms) <= 0)
            return names;
        alignas(inotify_event) char buf[16384];
        for (;;) {
            const ssize_t n = ::read(fd_, buf, sizeof buf);
            if (n <= 0)
                break;
            for (ssize_t i = 0; i < n;) {
                const auto* e = reinterpret_cast<const inotify_event*>(buf + i);
                if (e->len > 0)
                    names.emplace_back(e->name);
                i += ssize_t(sizeof(inotify_event) + e->len);
            }
        }
        return names;
    }

private:
    int fd_, wd_;
};

/// The target a temporary belongs to.
std::string targetOf(const std::string& temp)
{
    if (const size_t at = temp.find(".part"); at != std::string::npos)
        return temp.substr(0, at);
    return temp.substr(1, temp.find(".tmp") - 1);
}

Status opens(const std::string& path)
{
    const std::string ext = fs::path(path).extension().string();
    if (ext == ".fisura")
        return Model::load(path).status();
    if (ext == ".json")
        return Project::open(path).status();
    if (ext == ".tif") {
        auto t = TiledImage::open(path);
        return t ? (*t)->readLevel((*t)->levelCount() - 1).status() : t.status();
    }
    try { // a checkpoint: a LibTorch archive
        torch::serialize::InputArchive ar;
        ar.load_from(path);
        return Status::ok();
    } catch (const std::exception& e) {
        return Status(ErrorCode::Corrupt, path + ": " + e.what());
    }
}

} // namespace

class TstKill9 : public QObject
{
    Q_OBJECT
    QTemporaryDir tmp_;
    QString data_;

    static QString cli() { return QStringLiteral(FISURA_CLI); }

    static bool runCli(const QStringList& args, QString* err = nullptr)
    {
        QProcess p;
        p.start(cli(), args);
        const bool ok = p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit &&
                        p.exitCode() == 0;
        if (!ok && err)
            *err = QString::fromLocal8Bit(p.readAllStandardError());
        return ok;
    }

    QStringList trainArgs(int epochs) const
    {
        return {QStringLiteral("train"),
                QStringLiteral("--task"),
                QStringLiteral("segment"),
                QStringLiteral("--data"),
                data_,
                QStringLiteral("--epochs"),
                QString::number(epochs),
                QStringLiteral("--patience"),
                QStringLiteral("0"),
                QStringLiteral("--batch"),
                QStringLiteral("2"),
                QStringLiteral("--size"),
                QStringLiteral("32"),
                QStringLiteral("--depth"),
                QStringLiteral("3"),
                QStringLiteral("--width"),
                QStringLiteral("16"),
                QStringLiteral("--cpu"),
                QStringLiteral("--quiet")};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString demo = tmp_.filePath(QStringLiteral("demo"));
        QString err;
        QVERIFY2(runCli({QStringLiteral("demo-data"), demo, QStringLiteral("--segmentation"),
                         QStringLiteral("4"), QStringLiteral("--classification"),
                         QStringLiteral("0"), QStringLiteral("--patch"), QStringLiteral("64"),
                         QStringLiteral("--scan"), QStringLiteral("1024")},
                        &err),
                 qPrintable(err));
        data_ = demo + QStringLiteral("/segmentation");
    }

    void kill9_data()
    {
        QTest::addColumn<QString>("what");
        QTest::newRow("out-map/kill-9") << QStringLiteral("map");
        QTest::newRow("out-model+checkpoint/kill-9") << QStringLiteral("model");
        QTest::newRow("out-project/kill-9") << QStringLiteral("project");
    }

    void kill9()
    {
        QFETCH(QString, what);
        const QString dir = tmp_.filePath(what);
        QVERIFY(fs::create_directories(dir.toStdString()));
        QStringList args;
        std::vector<std::string> outputs; // the files whose previous version must survive
        const std::string d = dir.toStdString();
        if (what == QLatin1String("map")) {
            QString err;
            QVERIFY2(
                runCli(trainArgs(1) << QStringLiteral("--out") << dir + QStringLiteral("/m.fisura"),
                       &err),
                qPrintable(err));
            args = {QStringLiteral("infer"),
                    QStringLiteral("--model"),
                    dir + QStringLiteral("/m.fisura"),
                    QStringLiteral("--in"),
                    tmp_.filePath(QStringLiteral("demo/scan/demo_scan.tif")),
                    QStringLiteral("--out"),
                    dir + QStringLiteral("/map.tif"),
                    QStringLiteral("--tile"),
                    QStringLiteral("32"),
                    QStringLiteral("--overlap"),
                    QStringLiteral("8"),
                    QStringLiteral("--batch"),
                    QStringLiteral("1"),
                    QStringLiteral("--cpu"),
                    QStringLiteral("--quiet")};
            outputs = {d + "/map.tif"};
        } else if (what == QLatin1String("model")) {
            args = trainArgs(40) << QStringLiteral("--out") << dir + QStringLiteral("/m.fisura");
            outputs = {d + "/m.fisura", d + "/m.fisura.ckpt"};
        } else {
            QVERIFY(Project::create(d, "bridge"));
            args = trainArgs(40) << QStringLiteral("--project") << dir;
            outputs = {d + "/project.json"};
        }
        // The previous outputs: a complete run (one epoch for training).
        QStringList first = args;
        if (what != QLatin1String("map"))
            first[first.indexOf(QStringLiteral("--epochs")) + 1] = QStringLiteral("1");
        QString err;
        QVERIFY2(runCli(first, &err), qPrintable(err));
        std::map<std::string, std::string> before;
        for (const std::string& f : outputs) {
            QVERIFY2(fs::exists(f), f.c_str());
            before[f] = readAll(f);
        }

        // Again, killed as soon as a temporary of one of them appears.
        CreatedNames created(d);
        QVERIFY(created.ok());
        QProcess p;
        p.start(cli(), args);
        QVERIFY(p.waitForStarted());
        std::string caught;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (caught.empty() && std::chrono::steady_clock::now() < deadline &&
               p.state() == QProcess::Running) {
            for (const std::string& t : created.next(20))
                if (isTemporary(t) && before.count(d + "/" + targetOf(t)))
                    caught = t;
        }
        if (!caught.empty())
            ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished(30000);
        QVERIFY2(!caught.empty(), "no temporary seen before the process ended");
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);

        // Every previous output opens; the one caught mid-write is still the previous one
        // unless its rename had already happened (then it is a complete new file).
        const std::string target = d + "/" + targetOf(caught);
        const bool stillWriting = fs::exists(d + "/" + caught);
        for (const std::string& f : outputs) {
            const Status s = opens(f);
            QVERIFY2(s.isOk(), s.toString().c_str());
            if (f == target && stillWriting)
                QVERIFY2(readAll(f) == before[f], (f + " changed").c_str());
        }
        // The next run succeeds, and no temporary of the killed one is left (it removes them).
        QVERIFY2(runCli(first, &err), qPrintable(err));
        for (const std::string& f : outputs)
            QVERIFY2(opens(f).isOk(), f.c_str());
        const std::vector<std::string> left = temporaries(d);
        QVERIFY2(left.empty(), left.empty() ? "" : left.front().c_str());
    }
};

QTEST_GUILESS_MAIN(TstKill9)
#include "tst_kill9.moc"

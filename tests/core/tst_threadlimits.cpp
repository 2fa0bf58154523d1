// Short of memory or threads (issue 33: `ulimit -v 600000` ended infer in an uncaught
// std::system_error): the task pool goes on with the threads it got, a worker that has none
// reports out_of_memory, and the address-space check refuses what would not fit. The limit is
// set in this process for a moment (RLIMIT_AS, soft) and restored.
#include <QtTest>

#include <atomic>

#include <sys/resource.h>

#include "io/serial_worker.h"
#include "io/task_pool.h"
#include "util/address_space.h"
#include "util/thread_start.h"

using namespace fisura;

namespace
{

/// RLIMIT_AS set to what is mapped now plus `extra` bytes, for the object's lifetime.
class AddressLimit
{
public:
    explicit AddressLimit(uint64_t extra)
    {
        getrlimit(RLIMIT_AS, &old_);
        rlimit r = old_;
        r.rlim_cur = rlim_t(util::addressSpaceUsed() + extra);
        ok_ = setrlimit(RLIMIT_AS, &r) == 0;
    }
    ~AddressLimit() { setrlimit(RLIMIT_AS, &old_); }
    bool ok() const { return ok_; }

private:
    rlimit old_{};
    bool ok_ = false;
};

} // namespace

class TstThreadLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("a sanitizer's shadow memory does not live with an address-space limit");
#endif
    }

    // These two come before any test that starts and joins threads: glibc keeps the stacks of
    // joined threads for reuse, and a new thread on a cached stack needs no address space.
    void workerWithoutAThreadSaysWhy()
    {
        AddressLimit limit(1u << 20); // no room for a stack
        QVERIFY(limit.ok());
        io::SerialWorker worker;
        double wait = 0;
        const Status s = worker.push([] { return Status::ok(); }, wait);
        QCOMPARE(s.code(), ErrorCode::OutOfMemory);
        QVERIFY2(s.detail().find("cannot start a thread") != std::string::npos, s.detail().c_str());
        QCOMPARE(worker.drain().code(), ErrorCode::OutOfMemory);
    }

    void startThreadReportsInsteadOfThrowing()
    {
        std::thread t;
        Status s;
        {
            AddressLimit limit(1u << 20);
            QVERIFY(limit.ok());
            s = util::startThread(t, "fisura-test", "a test", [] {});
        }
        QCOMPARE(s.code(), ErrorCode::OutOfMemory);
        QVERIFY(!t.joinable());
        QVERIFY(util::startThread(t, "fisura-test", "a test", [] {}));
        t.join();
    }

    // A started thread carries its name (what `top -H` and `perf` show); a long one is cut.
    void startedThreadIsNamed()
    {
        for (const char* name : {"fisura-test", "fisura-a-name-too-long"}) {
            std::thread t;
            char got[16] = {};
            QVERIFY(util::startThread(t, name, "a test",
                                      [&got] { pthread_getname_np(pthread_self(), got, 16); }));
            t.join();
            QCOMPARE(QByteArray(got), QByteArray(name).left(15));
        }
    }

    void poolGoesOnWithTheThreadsItGot()
    {
        const uint64_t stack = util::threadStackBytes();
        std::atomic<int> ran{0};
        std::atomic<int> indices{0};
        int threads = -1;
        {
            AddressLimit limit(2 * stack + (4u << 20)); // room for about two stacks
            QVERIFY(limit.ok());
            io::TaskPool pool(32); // std::system_error for the third thread, before
            threads = pool.threads();
            for (int i = 0; i < 100; ++i)
                pool.submit([&] { ++ran; });
            pool.parallelFor(50, [&](int) { ++indices; });
        }
        QVERIFY2(threads >= 0 && threads < 32, qPrintable(QString::number(threads)));
        QCOMPARE(ran.load(), 100);
        QCOMPARE(indices.load(), 50);
    }

    void addressSpaceCheck()
    {
        QVERIFY(util::checkAddressSpace(1ull << 40, "a terabyte")); // no limit: nothing to check
        AddressLimit limit(64u << 20);
        QVERIFY(limit.ok());
        QVERIFY(util::checkAddressSpace(16u << 20, "a little"));
        const Status s = util::checkAddressSpace(256u << 20, "too much");
        QCOMPARE(s.code(), ErrorCode::OutOfMemory);
        QVERIFY2(s.detail().find("too much needs about 256 MiB") == 0, s.detail().c_str());
        QVERIFY(s.detail().find("ulimit -v") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstThreadLimits)
#include "tst_threadlimits.moc"

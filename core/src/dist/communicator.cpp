// c10d behind dist::Communicator: the TCP store of the job (rank 0 serves it, as torchrun's
// static rendezvous does), a gloo or NCCL process group on top, and collectives whose failures
// come out as CommError.
#include "compat/torch_compat.h"

#include "dist/communicator.h"

#include <thread>

#if defined(FISURA_HAVE_GLOO) || defined(FISURA_HAVE_NCCL)
#define FISURA_HAVE_C10D 1
#include "compat/c10d_compat.h"
#endif

namespace fisura::dist
{

bool glooBuilt()
{
#ifdef FISURA_HAVE_GLOO
    return true;
#else
    return false;
#endif
}

bool ncclBuilt()
{
#ifdef FISURA_HAVE_NCCL
    return true;
#else
    return false;
#endif
}

} // namespace fisura::dist

std::string fisura::distributedBackends()
{
    std::string s = dist::glooBuilt() ? "gloo" : "";
    if (dist::ncclBuilt())
        s += s.empty() ? "nccl" : ",nccl";
    return s;
}

namespace fisura::dist
{

#ifdef FISURA_HAVE_C10D

namespace
{

/// Collectives wait this long for a slow peer (validation runs on rank 0 alone meanwhile);
/// a dead peer is noticed at once by its closed connection, not by this.
constexpr std::chrono::minutes kCollectiveTimeout{30};

std::string firstLine(const std::string& s)
{
    return s.substr(0, s.find('\n'));
}

bool isLoopback(const std::string& host)
{
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

/// Every rank counts itself in, then waits until all have (polling the store: TCPStore's own
/// wait for workers is not there in every version, and it cannot be cancelled). Returns how
/// many had joined.
int meetAll(c10d::Store& store, int world, std::chrono::milliseconds timeout,
            const CancelToken& cancel)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int64_t joined = store.add("fisura/joined", 1);
    while (joined < world && std::chrono::steady_clock::now() < deadline && !cancel.isCancelled()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        joined = store.add("fisura/joined", 0);
    }
    return int(joined);
}

} // namespace

struct SharedStore {
    c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<c10d::HashStore>();
};

std::shared_ptr<SharedStore> makeInProcessStore()
{
    return std::make_shared<SharedStore>();
}

struct Communicator::Impl {
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<compat::CommBackend> group;
};

struct Communicator::Batch::Work {
    c10::intrusive_ptr<c10d::Work> work;
};

namespace
{

/// The process group for `device` over `store`, or why there is none.
Result<c10::intrusive_ptr<compat::CommBackend>>
makeGroup(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
          const torch::Device& device, const std::string& interface, bool loopback,
          std::string& name)
{
    if (device.is_cuda()) {
#ifdef FISURA_HAVE_NCCL
        name = "nccl";
        return compat::makeNccl(store, rank, size, kCollectiveTimeout, device.index());
#else
        return Status(ErrorCode::Unsupported,
                      "this LibTorch has no NCCL: several GPUs cannot train together");
#endif
    }
#ifdef FISURA_HAVE_GLOO
    name = "gloo";
    return compat::makeGloo(store, rank, size, kCollectiveTimeout, interface, loopback);
#else
    (void)store, (void)rank, (void)size, (void)interface, (void)loopback;
    return Status(ErrorCode::Unsupported,
                  "this LibTorch has no gloo: several processes cannot train on the CPU");
#endif
}

} // namespace

Result<std::unique_ptr<Communicator>> Communicator::connect(const DistributedIdentity& id,
                                                            const torch::Device& device,
                                                            const CancelToken& cancel)
{
    const std::string who =
        "rank " + std::to_string(id.rank) + " of " + std::to_string(id.worldSize);
    const std::string where = id.masterAddr + ":" + std::to_string(id.masterPort);
    const std::chrono::milliseconds timeout{int64_t(id.timeoutSeconds) * 1000};
    std::unique_ptr<Communicator> c(new Communicator);
    c->impl_ = std::make_unique<Impl>();
    c->rank_ = id.rank;
    c->size_ = id.worldSize;
    try {
        // torchrun 2.x serves the store in its agent and gives its workers that address: then
        // every rank is a client, under the prefix of the agent's attempt (as PyTorch's env://
        // rendezvous does). Otherwise rank 0 serves it.
        const bool serve = id.rank == 0 && !id.launcherHostsStore;
        c->impl_->store =
            compat::makeTcpStore(id.masterAddr, id.masterPort, serve, id.worldSize, timeout);
        if (id.launcherHostsStore)
            c->impl_->store = c10::make_intrusive<c10d::PrefixStore>(
                "/worker/attempt_" + std::to_string(id.launcherAttempt), c->impl_->store);
        const int joined = meetAll(*c->impl_->store, id.worldSize, timeout, cancel);
        if (joined < id.worldSize && cancel.isCancelled())
            return Status(ErrorCode::Cancelled, who + ": cancelled while waiting for the others");
        if (joined < id.worldSize)
            throw std::runtime_error(std::to_string(joined) + " of " +
                                     std::to_string(id.worldSize) + " joined");
    } catch (const std::exception& e) {
        return Status(ErrorCode::IoError, who + ": the job's " + std::to_string(id.worldSize) +
                                              " processes did not all meet at " + where +
                                              " within " + std::to_string(id.timeoutSeconds) +
                                              " s (" + firstLine(e.what()) + ")");
    }
    const bool loopback = isLoopback(id.masterAddr) || id.localWorldSize == id.worldSize;
    try {
        auto prefixed = c10::make_intrusive<c10d::PrefixStore>("fisura", c->impl_->store);
        auto g = makeGroup(prefixed, id.rank, id.worldSize, device, id.socketInterface, loopback,
                           c->backend_);
        if (!g)
            return g.status();
        c->impl_->group = *g;
    } catch (const std::exception& e) {
        // A rank that fails right after the meeting (a missing checkpoint, say) closes its
        // connections while the others are still making theirs: that is the same event as a
        // rank stopping during a collective, and is told in the same words.
        return Status(ErrorCode::IoError,
                      who +
                          ": connecting to the other processes failed: another process of "
                          "the job stopped or cannot be reached (" +
                          firstLine(e.what()) + ")");
    }
    return c;
}

Result<std::unique_ptr<Communicator>>
Communicator::overStore(const std::shared_ptr<SharedStore>& store, int rank, int size,
                        const torch::Device& device, std::chrono::milliseconds timeout)
{
    (void)timeout;
    std::unique_ptr<Communicator> c(new Communicator);
    c->impl_ = std::make_unique<Impl>();
    c->rank_ = rank;
    c->size_ = size;
    c->impl_->store = store->store;
    try {
        auto g = makeGroup(c->impl_->store, rank, size, device, "", true, c->backend_);
        if (!g)
            return g.status();
        c->impl_->group = *g;
    } catch (const std::exception& e) {
        return Status(ErrorCode::IoError, "connecting rank " + std::to_string(rank) + " failed (" +
                                              firstLine(e.what()) + ")");
    }
    return c;
}

Communicator::~Communicator() = default;

namespace
{

template <class F> void guarded(const char* what, int rank, F&& fn)
{
    try {
        fn();
    } catch (const std::exception& e) {
        throw CommError(std::string(what) + " on rank " + std::to_string(rank) +
                        " failed: another process of the job stopped or cannot be reached (" +
                        firstLine(e.what()) + ")");
    }
}

void allReduce(compat::CommBackend& g, torch::Tensor& t, c10d::ReduceOp op, int rank)
{
    guarded("an all-reduce", rank, [&] {
        std::vector<at::Tensor> v{t};
        c10d::AllreduceOptions o;
        o.reduceOp = op;
        g.allreduce(v, o)->wait();
    });
}

} // namespace

void Communicator::allReduceSum(torch::Tensor& t)
{
    allReduce(*impl_->group, t, c10d::ReduceOp::SUM, rank_);
}

void Communicator::allReduceMax(torch::Tensor& t)
{
    allReduce(*impl_->group, t, c10d::ReduceOp::MAX, rank_);
}

void Communicator::allReduceMin(torch::Tensor& t)
{
    allReduce(*impl_->group, t, c10d::ReduceOp::MIN, rank_);
}

void Communicator::broadcastFromRoot(torch::Tensor& t)
{
    guarded("a broadcast", rank_, [&] {
        std::vector<at::Tensor> v{t};
        c10d::BroadcastOptions o;
        o.rootRank = 0;
        impl_->group->broadcast(v, o)->wait();
    });
}

void Communicator::barrier()
{
    guarded("a barrier", rank_, [&] { impl_->group->barrier()->wait(); });
}

std::unique_ptr<Communicator::Batch>
Communicator::startAllReduceSums(std::vector<torch::Tensor>& tensors)
{
    auto b = std::make_unique<Batch>();
    b->rank_ = rank_;
    guarded("an all-reduce", rank_, [&] {
        for (auto& t : tensors) {
            std::vector<at::Tensor> v{t};
            auto w = std::make_shared<Batch::Work>();
            w->work = impl_->group->allreduce(v);
            b->works_.push_back(std::move(w));
        }
    });
    return b;
}

void Communicator::Batch::finish()
{
    auto works = std::move(works_);
    works_.clear();
    guarded("an all-reduce", rank_, [&] {
        for (auto& w : works)
            w->work->wait();
    });
}

Communicator::Batch::~Batch()
{
    try {
        for (auto& w : works_)
            w->work->wait();
    } catch (const std::exception&) { // finish() was skipped after another failure
    }
}

#else // no c10d backend in this build: a job on its own only

struct SharedStore {
};

std::shared_ptr<SharedStore> makeInProcessStore()
{
    return std::make_shared<SharedStore>();
}

struct Communicator::Impl {
};

struct Communicator::Batch::Work {
};

Result<std::unique_ptr<Communicator>>
Communicator::connect(const DistributedIdentity&, const torch::Device&, const CancelToken&)
{
    return Status(ErrorCode::Unsupported,
                  "this LibTorch has neither gloo nor NCCL: a job runs as one process");
}

Result<std::unique_ptr<Communicator>> Communicator::overStore(const std::shared_ptr<SharedStore>&,
                                                              int, int, const torch::Device&,
                                                              std::chrono::milliseconds)
{
    return Status(ErrorCode::Unsupported, "this LibTorch has neither gloo nor NCCL");
}

Communicator::~Communicator() = default;
void Communicator::allReduceSum(torch::Tensor&) {}
void Communicator::allReduceMax(torch::Tensor&) {}
void Communicator::allReduceMin(torch::Tensor&) {}
void Communicator::broadcastFromRoot(torch::Tensor&) {}
void Communicator::barrier() {}
std::unique_ptr<Communicator::Batch> Communicator::startAllReduceSums(std::vector<torch::Tensor>&)
{
    return std::make_unique<Batch>();
}
void Communicator::Batch::finish() {}
Communicator::Batch::~Batch() = default;

#endif

namespace
{

/// Collectives want contiguous tensors; a channels-last weight travels as a contiguous copy.
void broadcastInPlace(Communicator& comm, const torch::Tensor& t)
{
    if (t.numel() == 0)
        return;
    if (t.is_contiguous()) {
        auto v = t;
        comm.broadcastFromRoot(v);
        return;
    }
    auto c = t.contiguous();
    comm.broadcastFromRoot(c);
    t.copy_(c);
}

} // namespace

void broadcastModuleState(Communicator& comm, torch::nn::Module& module)
{
    torch::NoGradGuard ng;
    for (auto& p : module.parameters())
        broadcastInPlace(comm, p.detach());
    for (auto& b : module.buffers())
        broadcastInPlace(comm, b.detach());
}

} // namespace fisura::dist

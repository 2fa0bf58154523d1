// LibTorch's thread pools and glibc's malloc settings at the start of a job (see policy.h).
#include "compat/torch_compat.h"

#include <algorithm>
#include <atomic>

#include "fisura/policy.h"
#include "util/malloc_tuning.h"

namespace fisura
{

CpuSettingsApplied applyCpuSettings(const ExecutionPolicy& policy)
{
    CpuSettingsApplied a;
    a.mallocTuning = detail::mallocTuningName(detail::tuneMallocForJobs());

    // Intra-op: a process-wide count, plus (OpenMP builds such as Debian's) the calling thread's
    // own team size, which is why this runs on the thread that runs the network.
    at::set_num_threads(std::max(1, policy.intraOpThreads));
    a.intraOpThreads = at::get_num_threads();

    // Inter-op: LibTorch accepts one size per process, before the pool's first use.
    static std::atomic<bool> interOpSet{false};
    if (!interOpSet.exchange(true)) {
        try {
            at::set_num_interop_threads(std::max(1, policy.interOpThreads));
        } catch (const c10::Error&) {
            a.interOpFixed = true; // the pool already ran (another library started it)
        }
    } else {
        a.interOpFixed = at::get_num_interop_threads() != policy.interOpThreads;
    }
    a.interOpThreads = at::get_num_interop_threads();
    return a;
}

} // namespace fisura

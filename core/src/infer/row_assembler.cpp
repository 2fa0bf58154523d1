// Assembler stage of a split tiled inference; see row_assembler.h.
#include "row_assembler.h"

#include <string>

namespace fisura::detail
{

RowAssembler::RowAssembler(std::vector<RowQueue*> bands, std::vector<int> x0s, int width,
                           RowQueue& out, StopFlag& stop)
    : bands_(std::move(bands)), x0s_(std::move(x0s)), width_(width), out_(out), stop_(stop)
{
}

Status RowAssembler::run()
{
    c10::InferenceMode guard;
    const size_t n = bands_.size();
    for (;;) {
        std::vector<OutRows> parts(n);
        size_t got = 0;
        const auto w0 = PipelineClock::now();
        for (size_t k = 0; k < n; ++k)
            if (bands_[k]->pop(parts[k]))
                ++got;
        inputWait_ += secondsSince(w0);
        for (size_t k = 0; k < n; ++k) // a chunk not joined goes as well
            if (parts[k].bytes.defined() && (got < n || stop_.stopped()))
                bands_[k]->release(parts[k]);
        if (stop_.stopped() || got == 0)
            return Status::ok(); // stopped (the flag has why), or every band is done
        if (got < n)
            return Status(ErrorCode::Internal,
                          "a column band of the split inference ended before the others");
        if (Status s = join(parts); !s)
            return s;
    }
}

/// Chunk i of every band -> one full-width chunk on the writer's queue.
Status RowAssembler::join(std::vector<OutRows>& parts)
{
    const int y0 = parts[0].y0, rows = parts[0].rows;
    bool inStep = true;
    for (const OutRows& p : parts)
        inStep = inStep && p.y0 == y0 && p.rows == rows;
    OutRows o;
    if (inStep) {
        o.y0 = y0;
        o.rows = rows;
        o.size = uint64_t(rows) * uint64_t(width_);
        o.bytes = torch::empty({rows, width_}, torch::TensorOptions().dtype(torch::kUInt8));
    }
    for (size_t k = 0; k < parts.size(); ++k) {
        if (inStep) {
            parts[k].ready->wait(); // its download was queued on its device without waiting
            const int x1 = k + 1 < x0s_.size() ? x0s_[k + 1] : width_;
            o.bytes.narrow(1, x0s_[k], x1 - x0s_[k]).copy_(parts[k].bytes);
        }
        bands_[k]->release(parts[k]);
    }
    if (!inStep)
        return Status(ErrorCode::Internal, "the column bands of the split inference emitted rows "
                                           "out of step (rows " +
                                               std::to_string(y0) + " against " +
                                               std::to_string(parts.back().y0) + ")");
    o.ready = std::make_shared<StreamMark>(torch::Device(torch::kCPU));
    out_.push(std::move(o), outputWait_); // false: stopped, and run() sees it
    return Status::ok();
}

} // namespace fisura::detail

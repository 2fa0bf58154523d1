// Assembler stage of a split tiled inference; see row_assembler.h.
#include "row_assembler.h"

#include <string>

namespace fisura::detail
{

RowAssembler::RowAssembler(std::vector<RowQueue*> bands, std::vector<int> x0s, int width,
                           MapWriter::RowSink sink, StopFlag& stop)
    : bands_(std::move(bands)), x0s_(std::move(x0s)), width_(width), sink_(std::move(sink)),
      stop_(stop)
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
        const auto j0 = PipelineClock::now();
        Status s = join(parts);
        busy_ += secondsSince(j0);
        if (!s)
            return s;
    }
}

/// Chunk i of every band -> the sink, side by side.
Status RowAssembler::join(std::vector<OutRows>& parts)
{
    const int y0 = parts[0].y0, rows = parts[0].rows;
    bool inStep = true;
    for (const OutRows& p : parts)
        inStep = inStep && p.y0 == y0 && p.rows == rows;
    Status s = Status::ok();
    if (inStep) {
        std::vector<TiledRowPart> slices(parts.size());
        for (size_t k = 0; k < parts.size(); ++k) {
            parts[k].ready->wait(); // its download was queued on its device without waiting
            const int x1 = k + 1 < x0s_.size() ? x0s_[k + 1] : width_;
            const torch::Tensor& b = parts[k].bytes;
            if (b.dim() != 2 || b.size(0) != rows || b.size(1) != x1 - x0s_[k] || b.stride(1) != 1)
                s = Status(ErrorCode::Internal, "a column band emitted rows of the wrong shape");
            slices[k] = {x0s_[k], x1 - x0s_[k], b.data_ptr<uint8_t>(), size_t(b.stride(0))};
        }
        if (s)
            s = sink_(rows, slices.data(), int(slices.size()));
    } else {
        s = Status(ErrorCode::Internal, "the column bands of the split inference emitted rows "
                                        "out of step (rows " +
                                            std::to_string(y0) + " against " +
                                            std::to_string(parts.back().y0) + ")");
    }
    for (size_t k = 0; k < parts.size(); ++k)
        bands_[k]->release(parts[k]);
    return s;
}

} // namespace fisura::detail

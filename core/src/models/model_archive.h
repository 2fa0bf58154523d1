// What a model file holds, read without its weights: the zip's records (through LibTorch's
// caffe2::serialize::PyTorchStreamReader), the metadata string and the name, shape and type of
// every stored tensor from the archive's pickle (torch::jit::Unpickler with a record reader that
// hands out no data, so no tensor is materialised). Model::load checks this inventory against
// the network the metadata describes before it loads a single weight.
#pragma once

#include "compat/torch_compat.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "fisura/status.h"

namespace fisura::models
{

struct TensorEntry {
    std::vector<int64_t> shape;
    int scalarType = -1; ///< c10::ScalarType
    bool operator==(const TensorEntry& o) const
    {
        return shape == o.shape && scalarType == o.scalarType;
    }
};

struct ArchiveInventory {
    size_t records = 0;       ///< zip records
    bool hasMetadata = false; ///< a top-level string attribute `fisura_metadata`
    std::string metadata;
    std::map<std::string, TensorEntry> tensors; ///< dotted names, as named_parameters() gives
    std::vector<std::string> missingRecords;    ///< storages the pickle names but the zip lacks
    uint64_t storageBytes = 0;                  ///< bytes of the distinct storages referenced
    bool hasCode = false; ///< a code record defines a method (Fisura's own archives define none)
    /// Why the pickle could not be read (empty when it could). A TorchScript module exported
    /// from PyTorch may hold types this reader does not rebuild: the caller tells them apart.
    std::string pickleError;
};

/// The inventory of the archive at `path`; Corrupt when it is not a LibTorch archive (a zip
/// with a data.pkl record).
Result<ArchiveInventory> inspectArchive(const std::string& path);

/// Names, shapes and types of the parameters and buffers of `net`, as the archive stores them.
std::map<std::string, TensorEntry> stateOf(const torch::nn::Module& net);

/// The first difference between what the network expects and what the archive holds, in words
/// ("" when they agree): a missing or unexpected tensor, or a shape or type that differs.
std::string firstDifference(const std::map<std::string, TensorEntry>& expected,
                            const std::map<std::string, TensorEntry>& found);

} // namespace fisura::models

// A model file's inventory without its weights; see model_archive.h.
// The archive layout is LibTorch's (torch/csrc/jit/serialization/export_module.cpp): a zip with
// data.pkl (the module object, pickled), data/<key> (one record per tensor storage), code/
// (TorchScript source of the module classes) and constants.pkl. The pickle names each storage
// by key and element count (Unpickler's "storage" persistent id), so reading it with a record
// reader that returns no data gives every tensor's shape without reading any tensor.
#include "models/model_archive.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/unpickler.h>

namespace fisura::models
{

namespace
{

std::string shapeText(const std::vector<int64_t>& shape)
{
    std::ostringstream os;
    os << '[';
    for (size_t i = 0; i < shape.size(); ++i)
        os << (i ? ", " : "") << shape[i];
    os << ']';
    return os.str();
}

std::string typeText(int scalarType)
{
    if (scalarType < 0 || scalarType >= int(c10::ScalarType::NumOptions))
        return "unknown type";
    return c10::toString(static_cast<c10::ScalarType>(scalarType));
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Any code record that defines a function: Fisura's archives only declare attributes, while a
/// method (a __setstate__ above all) would run when LibTorch loads the archive.
bool definesCode(caffe2::serialize::PyTorchStreamReader& reader,
                 const std::vector<std::string>& records)
{
    for (const auto& r : records) {
        if (r.rfind("code/", 0) != 0 || !endsWith(r, ".py"))
            continue;
        auto [data, size] = reader.getRecord(r);
        const std::string text(static_cast<const char*>(data.get()), size);
        if (text.find("def ") != std::string::npos)
            return true;
    }
    return false;
}

/// Walks the unpickled module tree: each object is a one-slot holder of its attribute dict.
void collect(const c10::IValue& v, const std::string& prefix, int level, ArchiveInventory& inv,
             std::set<const void*>& storages)
{
    if (!v.isObject() || level > 64)
        return;
    const c10::IValue state = v.toObjectRef().getSlot(0);
    if (!state.isGenericDict())
        return;
    for (const auto& kv : state.toGenericDict()) {
        if (!kv.key().isString())
            continue;
        const std::string& key = kv.key().toStringRef();
        const c10::IValue& value = kv.value();
        if (value.isTensor()) {
            const at::Tensor& t = value.toTensor();
            inv.tensors[prefix + key] = {t.sizes().vec(), int(t.scalar_type())};
            if (t.has_storage() && storages.insert(t.storage().unsafeGetStorageImpl()).second)
                inv.storageBytes += uint64_t(t.storage().nbytes());
        } else if (value.isString() && level == 0 && key == "fisura_metadata") {
            inv.hasMetadata = true;
            inv.metadata = value.toStringRef();
        } else if (value.isObject()) {
            collect(value, prefix + key + ".", level + 1, inv, storages);
        }
    }
}

} // namespace

Result<ArchiveInventory> inspectArchive(const std::string& path)
{
    ArchiveInventory inv;
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> zip;
    try {
        zip = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path);
        if (!zip->hasRecord("data.pkl"))
            return Status(ErrorCode::Corrupt, "the archive has no data.pkl record");
    } catch (const c10::Error& e) {
        return Status(ErrorCode::Corrupt, e.what_without_backtrace());
    }
    caffe2::serialize::PyTorchStreamReader& reader = *zip;
    try {
        const std::vector<std::string> records = reader.getAllRecords();
        inv.records = records.size();
        inv.hasCode = definesCode(reader, records);

        auto [pickle, pickleSize] = reader.getRecord("data.pkl");
        const char* bytes = static_cast<const char*>(pickle.get());
        size_t pos = 0;
        const auto read = [&](char* out, size_t n) {
            n = std::min(n, pickleSize - pos);
            std::memcpy(out, bytes + pos, n);
            pos += n;
            return n;
        };
        // Every class becomes one holder type whose single slot keeps the object's state.
        auto cu = std::make_shared<torch::jit::CompilationUnit>();
        auto holder = c10::ClassType::create(c10::QualifiedName("__fisura__.Inspected"), cu);
        holder->addAttribute("state", c10::AnyType::get());
        const auto resolve = [&](const c10::QualifiedName& name) {
            const std::string q = name.qualifiedName();
            if (q.rfind("__torch__", 0) != 0) {
                try {
                    return c10::StrongTypePtr(cu, torch::jit::Unpickler::defaultTypeParser(q));
                } catch (const c10::Error&) {
                }
            }
            return c10::StrongTypePtr(cu, holder);
        };
        const auto load = [&](const c10::StrongTypePtr&, const c10::IValue& state) {
            auto obj = c10::ivalue::Object::create(c10::StrongTypePtr(cu, holder), 1);
            obj->setSlot(0, state);
            return obj;
        };
        std::set<std::string> keys;
        const auto noData = [&](const std::string& key) {
            keys.insert(key);
            return at::DataPtr(nullptr, c10::Device(c10::kCPU));
        };
        torch::jit::Unpickler unpickler(read, resolve, load, noData, c10::Device(c10::kCPU));
        unpickler.set_version(reader.version());
        const c10::IValue root = unpickler.parse_ivalue();
        std::set<const void*> storages;
        collect(root, "", 0, inv, storages);
        for (const auto& k : keys)
            if (!reader.hasRecord("data/" + k))
                inv.missingRecords.push_back(k);
    } catch (const c10::Error& e) {
        inv.pickleError = e.what_without_backtrace();
    } catch (const std::exception& e) {
        inv.pickleError = e.what();
    }
    return inv;
}

std::map<std::string, TensorEntry> stateOf(const torch::nn::Module& net)
{
    std::map<std::string, TensorEntry> out;
    for (const auto& p : net.named_parameters(true))
        out[p.key()] = {p.value().sizes().vec(), int(p.value().scalar_type())};
    for (const auto& b : net.named_buffers(true))
        out[b.key()] = {b.value().sizes().vec(), int(b.value().scalar_type())};
    return out;
}

std::string firstDifference(const std::map<std::string, TensorEntry>& expected,
                            const std::map<std::string, TensorEntry>& found)
{
    for (const auto& [name, want] : expected) {
        const auto it = found.find(name);
        if (it == found.end())
            return "the file has no tensor " + name;
        if (!(it->second == want))
            return name + " is " + shapeText(it->second.shape) + " " +
                   typeText(it->second.scalarType) + " in the file, the network needs " +
                   shapeText(want.shape) + " " + typeText(want.scalarType);
    }
    for (const auto& [name, entry] : found)
        if (!expected.count(name))
            return "the file has a tensor " + name + " the network does not have";
    return {};
}

} // namespace fisura::models

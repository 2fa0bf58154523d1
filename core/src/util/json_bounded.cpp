// Bounded JSON parsing; see json_bounded.h.
#include "util/json_bounded.h"

#include <filesystem>
#include <fstream>

namespace fisura::util
{

namespace
{

using json = nlohmann::json;

/// Counts nesting and looks for escaped bytes; stops at the first level too deep.
class LimitChecker : public nlohmann::json_sax<json>
{
public:
    explicit LimitChecker(int maxDepth) : maxDepth_(maxDepth) {}

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t& s) override { return see(s); }
    bool binary(binary_t&) override { return true; }
    bool key(string_t& s) override { return see(s); }
    bool start_object(std::size_t) override { return enter(); }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return enter(); }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override
    {
        syntaxError_ = e.what();
        return false;
    }

    bool tooDeep = false;
    bool escaped = false;
    const std::string& syntaxError() const { return syntaxError_; }

private:
    bool see(const string_t& s)
    {
        escaped = escaped || hasEscapedBytes(s);
        return true;
    }
    bool enter()
    {
        if (++depth_ > maxDepth_) {
            tooDeep = true;
            return false;
        }
        return true;
    }
    bool leave()
    {
        --depth_;
        return true;
    }

    int maxDepth_;
    int depth_ = 0;
    std::string syntaxError_;
};

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string plainMessage(const std::string& what)
{
    const size_t close = what.find("] ");
    return what.rfind("[json.exception.", 0) == 0 && close != std::string::npos
               ? what.substr(close + 2)
               : what;
}

} // namespace

Status checkJsonText(std::string_view text, const std::string& what, const JsonLimits& limits,
                     bool* escaped)
{
    if (text.size() > limits.maxBytes)
        return Status(ErrorCode::Corrupt, what + ": " + std::to_string(text.size()) +
                                              " bytes of JSON, more than the " +
                                              std::to_string(limits.maxBytes) + " allowed");
    LimitChecker checker(limits.maxDepth);
    const bool ok = json::sax_parse(text.begin(), text.end(), &checker);
    if (checker.tooDeep)
        return Status(ErrorCode::Corrupt, what + ": arrays or objects nested deeper than " +
                                              std::to_string(limits.maxDepth) +
                                              " levels (no Fisura file is)");
    if (!ok)
        return Status(ErrorCode::Corrupt,
                      what + ": not JSON (" +
                          (checker.syntaxError().empty() ? std::string("syntax error")
                                                         : plainMessage(checker.syntaxError())) +
                          ")");
    if (escaped)
        *escaped = checker.escaped;
    return Status::ok();
}

Result<std::string> readTextFile(const std::string& path, uint64_t maxBytes)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return Status(ErrorCode::NotFound, path);
    if (!std::filesystem::is_regular_file(path, ec))
        return Status(ErrorCode::IoError, path + " is not a file");
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
        return Status(ErrorCode::IoError, path + ": " + ec.message());
    if (size > maxBytes)
        return Status(ErrorCode::TooLarge, path + " is " + std::to_string(size) +
                                               " bytes, more than the " + std::to_string(maxBytes) +
                                               " Fisura reads for a file of its kind");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Status(ErrorCode::IoError, "cannot read " + path);
    std::string text;
    text.resize(size_t(size));
    in.read(text.data(), std::streamsize(size));
    if (in.bad() || size_t(in.gcount()) != size_t(size))
        return Status(ErrorCode::IoError, "cannot read " + path);
    return text;
}

} // namespace fisura::util

// Reading an int from JSON without undefined behaviour: nlohmann's get<int>() converts a float
// such as 1e300 with a plain cast (undefined when out of range) and wraps large integers. These
// throw the library's out_of_range instead, so callers that catch json::exception report the
// file as corrupt. (Found by fuzzing the model metadata and project.json parsers.)
#pragma once

#include <climits>
#include <cmath>
#include <cstdint>
#include <string>

namespace fisura::util
{

/// `v` as an int: an integer, or a float with an integral value, within int's range.
template <class Json> int jsonToInt(const Json& v)
{
    if (v.is_number_float()) {
        const double d = v.template get<double>();
        if (!(d >= double(INT_MIN) && d <= double(INT_MAX)))
            throw Json::out_of_range::create(406, "not an int: " + v.dump(), &v);
        return int(d);
    }
    if (v.is_number_unsigned() &&
        v.template get<unsigned long long>() > (unsigned long long)INT_MAX)
        throw Json::out_of_range::create(406, "not an int: " + v.dump(), &v);
    if (v.is_number_integer()) {
        const long long n = v.template get<long long>();
        if (n < INT_MIN || n > INT_MAX)
            throw Json::out_of_range::create(406, "not an int: " + v.dump(), &v);
    }
    return v.template get<int>(); // non-numbers throw type_error as before
}

/// Object member `key` as an int (see jsonToInt), `fallback` when absent.
template <class Json> int jsonInt(const Json& j, const char* key, int fallback)
{
    if (!j.is_object())
        throw Json::type_error::create(306, "cannot read \"" + std::string(key) + "\"", &j);
    const auto it = j.find(key);
    return it == j.end() ? fallback : jsonToInt(*it);
}

/// `v` as a uint64_t / int64_t: an integer in range, or a float with an integral value in range
/// (nlohmann's get<> would cast 1e300 with undefined behaviour). Throws out_of_range otherwise.
template <class Json> uint64_t jsonToUInt64(const Json& v)
{
    if (v.is_number_float()) {
        const double d = v.template get<double>();
        if (!(d >= 0 && d < 18446744073709551616.0) || d != std::floor(d))
            throw Json::out_of_range::create(406, "not a count: " + v.dump(), &v);
        return uint64_t(d);
    }
    if (v.is_number_integer() && !v.is_number_unsigned() && v.template get<int64_t>() < 0)
        throw Json::out_of_range::create(406, "not a count: " + v.dump(), &v);
    return v.template get<uint64_t>(); // non-numbers throw type_error
}
template <class Json> int64_t jsonToInt64(const Json& v)
{
    if (v.is_number_float()) {
        const double d = v.template get<double>();
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != std::floor(d))
            throw Json::out_of_range::create(406, "not an integer: " + v.dump(), &v);
        return int64_t(d);
    }
    if (v.is_number_unsigned() && v.template get<uint64_t>() > uint64_t(INT64_MAX))
        throw Json::out_of_range::create(406, "not an integer: " + v.dump(), &v);
    return v.template get<int64_t>();
}

/// Object member `key` through jsonToUInt64 / jsonToInt64, `fallback` when absent.
template <class Json> uint64_t jsonUInt64(const Json& j, const char* key, uint64_t fallback)
{
    if (!j.is_object())
        throw Json::type_error::create(306, "cannot read \"" + std::string(key) + "\"", &j);
    const auto it = j.find(key);
    return it == j.end() ? fallback : jsonToUInt64(*it);
}
template <class Json> int64_t jsonInt64(const Json& j, const char* key, int64_t fallback)
{
    if (!j.is_object())
        throw Json::type_error::create(306, "cannot read \"" + std::string(key) + "\"", &j);
    const auto it = j.find(key);
    return it == j.end() ? fallback : jsonToInt64(*it);
}

} // namespace fisura::util

// Reading an int from JSON without undefined behaviour: nlohmann's get<int>() converts a float
// such as 1e300 with a plain cast (undefined when out of range) and wraps large integers. These
// throw the library's out_of_range instead, so callers that catch json::exception report the
// file as corrupt. (Found by fuzzing the model metadata and project.json parsers.)
#pragma once

#include <climits>
#include <cmath>
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

} // namespace fisura::util

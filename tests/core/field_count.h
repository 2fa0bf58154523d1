// The number of fields of an aggregate (a struct of public fields), found at compile time: the
// largest N for which T{x1, ..., xN} compiles, with x convertible to anything. The technique is
// Antony Polukhin's "magic_get" (Boost.PFR). Tests use it to notice a field added to an options
// struct that the option schema does not know yet.
#pragma once

#include <cstddef>
#include <utility>

namespace fisura::test
{

struct AnyField {
    template <class T> operator T() const; // declared only: used in unevaluated contexts
};

template <class T, class... Fields>
constexpr auto bracesWith(int) -> decltype(T{std::declval<Fields>()...}, true)
{
    return true;
}
template <class T, class... Fields> constexpr bool bracesWith(...)
{
    return false;
}

template <class T, class... Fields> constexpr std::size_t fieldCount()
{
    if constexpr (bracesWith<T, Fields..., AnyField>(0))
        return fieldCount<T, Fields..., AnyField>();
    else
        return sizeof...(Fields);
}

} // namespace fisura::test

#pragma once
#include <string>
#include <string_view>

namespace uncompile {

// Joins pieces by appending. Used where `"literal" + std::string(...)` would trip GCC 12's
// -Wrestrict false positive at -O3.
template <class... Parts>
std::string concat(const Parts&... parts) {
    std::string out;
    (out.append(std::string_view(parts)), ...);
    return out;
}

// Appends pieces to `out`, without a temporary string of their join.
template <class... Parts>
void append(std::string& out, const Parts&... parts) {
    (out.append(std::string_view(parts)), ...);
}

}  // namespace uncompile

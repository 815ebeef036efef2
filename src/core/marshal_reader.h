#pragma once
#include <cstdint>
#include <string_view>

#include "py_value.h"
#include "py_version.h"

namespace uncompile {

struct MarshalLimits {
    int max_depth = 2000;  // CPython's own marshal nesting limit; also applies through shared references
    // Objects the data may stand for with shared references expanded, per byte of input. Data
    // without back-references has at most one object per byte (real .pyc files: about 0.15).
    uint64_t max_expanded_per_byte = 16;
};

// Reads one marshalled object (as `marshal.dumps` writes it on `version`) from the start of `data`.
// Throws Error on truncated, malformed, cyclic or too-deeply nested data, and on data whose shared
// references expand it beyond the limits. Trailing bytes are ignored, as `marshal.loads` does.
ObjectRef read_marshal(std::string_view data, PyVersion version, MarshalLimits limits = {});

}  // namespace uncompile

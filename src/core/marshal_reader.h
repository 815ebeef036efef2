#pragma once
#include <string_view>

#include "py_value.h"
#include "py_version.h"

namespace uncompile {

struct MarshalLimits {
    int max_depth = 2000;  // CPython's own marshal nesting limit
};

// Reads one marshalled object (as `marshal.dumps` writes it on `version`) from the start of `data`.
// Throws Error on truncated, malformed, cyclic or too-deeply nested data. Trailing bytes are
// ignored, as `marshal.loads` does.
ObjectRef read_marshal(std::string_view data, PyVersion version, MarshalLimits limits = {});

}  // namespace uncompile

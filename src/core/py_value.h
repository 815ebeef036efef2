#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace uncompile {

struct CodeObject;
struct PyValue;
using ObjectRef = std::shared_ptr<const PyValue>;

// A constant as stored in marshal data. Acyclic by construction: the reader rejects references
// to containers that are still being read.
struct PyValue {
    enum class Kind {
        None, True, False, Ellipsis, StopIteration,
        Int,        // small ints in `small`, larger ones in `big_digits` (base 2^15, least significant first)
        Float, Complex,
        Str,        // UTF-8, with lone surrogates encoded as CPython's "surrogatepass" does
        Bytes,
        Tuple, List, Dict, Set, FrozenSet,  // Dict: items hold key, value, key, value, ...
        Code,
        Placeholder,  // an object marshal could not represent; `text` names it (see the Python binding)
    };

    Kind kind = Kind::None;
    int64_t small = 0;
    bool negative = false;
    std::vector<uint16_t> big_digits;
    double real = 0.0, imag = 0.0;
    std::string text;
    std::vector<ObjectRef> items;
    std::shared_ptr<const CodeObject> code;

    bool is_big_int() const { return kind == Kind::Int && !big_digits.empty(); }
};

}  // namespace uncompile

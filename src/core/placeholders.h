#pragma once
#include <memory>
#include <string>
#include <vector>

#include "code_object.h"

namespace uncompile {

// A constant that marshal could not write (an arbitrary object a bytecode rewriter put into
// co_consts). The writer stored None in its place; `path` leads from the root code object through
// nested code constants (each an index into co_consts) to the code object that holds it.
struct PlaceholderSpec {
    std::vector<size_t> path;
    size_t const_index = 0;
    std::string name;  // how the constant is shown, e.g. "__uncompile_const_0"
};

// A copy of `root` whose constants at the given places are Placeholder objects. Throws Error when a
// path or index does not exist.
std::shared_ptr<const CodeObject> apply_placeholders(const std::shared_ptr<const CodeObject>& root,
                                                     const std::vector<PlaceholderSpec>& specs);

}  // namespace uncompile

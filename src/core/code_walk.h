#pragma once
#include <functional>
#include <vector>

#include "code_object.h"

namespace uncompile {

// Visits `root` and then, depth-first, every code object among its constants: tuples in order,
// (frozen)sets by canonical text, since marshal does not keep a set's iteration order.
void walk_code_objects(const CodeObject& root, const std::function<void(const CodeObject&)>& visit);

// The code objects directly among `code`'s constants, in the order walk_code_objects visits them.
std::vector<const CodeObject*> nested_code_objects(const CodeObject& code);

}  // namespace uncompile

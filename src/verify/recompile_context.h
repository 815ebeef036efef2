#pragma once
// Where a code object decompiled on its own is recompiled. A function's bytecode depends on more
// than its own source: the compiler turns a name of an enclosing function into a free variable
// (LOAD_DEREF instead of LOAD_GLOBAL), gives a method that uses super() or __class__ the implicit
// `__class__` cell of its class, and (3.11+) compiles `mod.f(...)` as a plain attribute call, not
// a method call, when `mod` is imported at module level. None of that is written in the
// function's own text, so verifying it at module level would report a difference that is not
// one. The context rebuilds just that much around the decompiled text, read from the original
// code object; the decompiled output itself is unchanged.
#include <string>

#include "core/code_object.h"

namespace uncompile {

// `source` (the decompiled text of `original`) placed in the context `original` was compiled in:
// `import NAME` lines for the names the original calls attributes of as imported modules, its
// enclosing classes and functions as its qualified name tells them (co_qualname on 3.11+, the
// qualified names of functions made inside it before), free variables bound in the innermost
// enclosing function, a class for its `__class__` cell. A module's code object gives `source`
// unchanged.
std::string source_in_context(const CodeObject& original, const std::string& source);

}  // namespace uncompile

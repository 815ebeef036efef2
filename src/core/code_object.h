#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "py_value.h"
#include "py_version.h"

namespace uncompile {

// Kinds of a "fast local" slot (co_localspluskinds, CPython 3.11+); earlier versions are
// normalized to the same representation when read.
enum LocalKind : uint8_t {
    kLocalArgPositional = 0x02,
    kLocalArgKeyword = 0x04,
    kLocalArgVar = 0x08,
    kLocalHidden = 0x10,
    kLocalPlain = 0x20,
    kLocalCell = 0x40,
    kLocalFree = 0x80,
};

// A code object of any supported version, with one shape for all of them.
struct CodeObject {
    PyVersion version;
    int argcount = 0;
    int posonlyargcount = 0;
    int kwonlyargcount = 0;
    int stacksize = 0;
    uint32_t flags = 0;
    std::string bytecode;
    std::vector<ObjectRef> consts;
    std::vector<std::string> names;
    std::vector<std::string> varnames;
    std::vector<std::string> cellvars;
    std::vector<std::string> freevars;
    // 3.11+: every fast-local slot in order, as the interpreter indexes them.
    std::vector<std::string> localsplus_names;
    std::vector<uint8_t> localsplus_kinds;
    std::string filename;
    std::string name;
    std::string qualname;  // co_name before 3.11, which has no co_qualname
    int firstlineno = 0;
    std::string linetable;  // co_lnotab on 3.8/3.9, co_linetable after
    std::string exceptiontable;

    // The name an instruction of the "free" class (LOAD_DEREF, ...) refers to.
    const std::string* deref_name(uint32_t arg) const;
    // Whether that slot is a free variable (a cell of an enclosing code) rather than one of this
    // code's own cells: a class body may have both under one name (`nonlocal __class__` in a
    // class whose methods use the class's own `__class__` cell).
    bool deref_is_free(uint32_t arg) const;
    // The name an instruction of the "local" class (LOAD_FAST, ...) refers to.
    const std::string* local_name(uint32_t arg) const;
};

}  // namespace uncompile

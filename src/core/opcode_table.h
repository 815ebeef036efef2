#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "generated/opcodes.h"
#include "py_version.h"

namespace uncompile {

// Argument classes of an opcode, as the interpreter's own `opcode` module lists them.
enum OpcodeFlag : uint16_t {
    kHasArg = 1 << 0,
    kHasConst = 1 << 1,
    kHasName = 1 << 2,
    kHasLocal = 1 << 3,
    kHasFree = 1 << 4,
    kHasCompare = 1 << 5,
    kJumpRelative = 1 << 6,
    kJumpAbsolute = 1 << 7,
    kJumpBackward = 1 << 8,
};

struct OpcodeInfo {
    Opcode op;
    uint8_t cache_entries;  // inline CACHE code units after the instruction (3.11+)
    uint8_t arg_flag_bits;  // low bits of the argument that are flags, not index (LOAD_GLOBAL on 3.11+, ...)
    uint16_t flags;
};

struct OpcodeTable {
    PyVersion version;
    uint16_t magic;  // the released .pyc magic number of this version
    uint8_t jump_unit;  // bytes per unit of a jump argument: 1 before 3.10, 2 after
    const OpcodeInfo* ops;  // indexed by the opcode byte
    const std::vector<std::string>& compare_ops;
    const std::vector<std::string>& binary_ops;
    const std::vector<std::string>& intrinsic_1;
    const std::vector<std::string>& intrinsic_2;
    const std::vector<std::string>& make_function_flags;

    const OpcodeInfo& info(uint8_t byte) const { return ops[byte]; }
};

// nullptr when the version (or magic number) is not supported.
const OpcodeTable* opcode_table_for(PyVersion version);
const OpcodeTable* opcode_table_for_magic(uint16_t magic);

}  // namespace uncompile

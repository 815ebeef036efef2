#pragma once
#include <cstdint>
#include <vector>

#include "code_object.h"
#include "line_table.h"
#include "opcode_table.h"

namespace uncompile {

// One decoded instruction, with every version's encoding rules already applied: EXTENDED_ARG
// folded into `arg`, inline caches skipped, jump targets as byte offsets, flag bits split off.
struct Instruction {
    uint32_t offset = 0;  // byte offset of this instruction's own opcode
    uint8_t byte = 0;     // the raw opcode byte
    Opcode op = Opcode::INVALID;
    uint16_t flags = 0;   // OpcodeFlag bits of this version
    bool has_arg = false;
    int64_t arg = 0;      // the full argument as the interpreter sees it
    int64_t index = 0;    // `arg` without its low flag bits: the index into names/consts/locals/compare ops
    int64_t jump_target = -1;  // byte offset, for jumps
    uint8_t cache_entries = 0;
    SourcePosition position;

    bool is(uint16_t flag) const { return (flags & flag) != 0; }
    bool is_jump() const { return is(kJumpRelative) || is(kJumpAbsolute); }
    // The low bits that `index` dropped (LOAD_GLOBAL's "push NULL", LOAD_ATTR's "method", ...).
    int64_t flag_bits(const OpcodeTable& table) const {
        return arg & ((int64_t(1) << table.info(byte).arg_flag_bits) - 1);
    }
};

// Decodes the whole bytecode of `code`. Throws Error for odd-length bytecode or a bad line table.
std::vector<Instruction> decode_instructions(const CodeObject& code, const OpcodeTable& table);

}  // namespace uncompile

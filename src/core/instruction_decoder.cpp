#include "instruction.h"

#include "error.h"

namespace uncompile {

namespace {

// Python's dis keeps a C int: an EXTENDED_ARG prefix that overflows wraps to negative.
int64_t wrap_to_c_int(int64_t value) {
    constexpr int64_t kIntOverflow = int64_t(1) << 31;
    value &= (int64_t(1) << 32) - 1;
    return value >= kIntOverflow ? value - 2 * kIntOverflow : value;
}

int64_t jump_target_of(const Instruction& ins, const OpcodeTable& table) {
    int64_t distance = ins.arg * table.jump_unit;
    if (ins.is(kJumpAbsolute)) return distance;
    // Relative jumps count from the end of the instruction and its inline caches.
    int64_t next = ins.offset + 2 + 2 * int64_t(ins.cache_entries);
    return ins.is(kJumpBackward) ? next - distance : next + distance;
}

}  // namespace

std::vector<Instruction> decode_instructions(const CodeObject& code, const OpcodeTable& table) {
    const std::string& bytes = code.bytecode;
    if (bytes.size() % 2 != 0) fail_bad_input("bytecode of " + code.qualname + " has an odd length");
    std::vector<SourcePosition> positions = decode_positions(code);
    std::vector<Instruction> out;
    out.reserve(bytes.size() / 2);
    int64_t extended = 0;
    for (size_t unit = 0; unit < bytes.size() / 2;) {
        Instruction ins;
        ins.offset = static_cast<uint32_t>(unit * 2);
        ins.byte = static_cast<uint8_t>(bytes[unit * 2]);
        const OpcodeInfo& info = table.info(ins.byte);
        ins.op = info.op;
        ins.flags = info.flags;
        ins.cache_entries = info.cache_entries;
        ins.has_arg = info.flags & kHasArg;
        ins.position = positions[unit];
        if (ins.has_arg) {
            ins.arg = wrap_to_c_int(static_cast<uint8_t>(bytes[unit * 2 + 1]) | extended);
            extended = ins.op == Opcode::EXTENDED_ARG ? ins.arg << 8 : 0;
            ins.index = ins.arg >> info.arg_flag_bits;
            if (ins.is_jump()) ins.jump_target = jump_target_of(ins, table);
        } else {
            extended = 0;
        }
        out.push_back(ins);
        unit += 1 + info.cache_entries;
    }
    return out;
}

}  // namespace uncompile

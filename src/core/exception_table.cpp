#include "exception_table.h"

#include "byte_cursor.h"

namespace uncompile {

namespace {

// Exception-table numbers are big-endian 6-bit groups; bit 6 says another group follows.
uint32_t read_varint(ByteCursor& in) {
    uint8_t b = in.u8();
    uint64_t value = b & 63;
    while (b & 64) {
        b = in.u8();
        value = (value << 6) | (b & 63);
        if (value > UINT32_MAX / 2) fail_bad_input("exception table has an overlong number");
    }
    return static_cast<uint32_t>(value);
}

}  // namespace

std::vector<ExceptionTableEntry> decode_exception_table(const CodeObject& code) {
    std::vector<ExceptionTableEntry> entries;
    ByteCursor in(code.exceptiontable, "exception table");
    while (!in.at_end()) {
        ExceptionTableEntry e;
        e.start = read_varint(in) * 2;
        e.end = e.start + read_varint(in) * 2;
        e.target = read_varint(in) * 2;
        uint32_t depth_lasti = read_varint(in);
        e.depth = depth_lasti >> 1;
        e.lasti = depth_lasti & 1;
        entries.push_back(e);
    }
    return entries;
}

}  // namespace uncompile

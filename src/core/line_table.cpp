#include "line_table.h"

#include <climits>
#include <cstdint>
#include <utility>

#include "byte_cursor.h"

namespace uncompile {

namespace {

size_t code_units(const CodeObject& code) { return code.bytecode.size() / 2; }

// a + b as CPython's C code computes line numbers and columns: in a C int that wraps around
// (CPython is built with -fwrapv). Plain `int` arithmetic would be undefined behaviour here, since
// co_firstlineno and the deltas are arbitrary 32-bit values in a damaged or crafted file.
int wrapping_add(int a, int64_t b) { return static_cast<int>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }

void fill_lines(std::vector<SourcePosition>& out, size_t start_byte, size_t end_byte, int line) {
    for (size_t unit = start_byte / 2; unit < out.size() && unit * 2 < end_byte; ++unit) out[unit].line = line;
}

// 3.8/3.9 co_lnotab: (byte delta, signed line delta) pairs; a line holds until the next one starts
// (the same walk as dis.findlinestarts).
std::vector<SourcePosition> decode_lnotab(const CodeObject& code) {
    std::vector<SourcePosition> out(code_units(code));
    const std::string& table = code.linetable;
    size_t bytecode_len = code.bytecode.size();
    std::vector<std::pair<size_t, int>> starts;
    // dis.findlinestarts adds Python ints here, which never wrap; at most 32767 deltas of -128..127
    // from a 32-bit start fit in int64, and a line that no longer fits an int cannot be shown.
    int64_t line = code.firstlineno;
    size_t addr = 0;
    auto start_line_at = [&](size_t at) {
        if (line < INT_MIN || line > INT_MAX)
            fail_bad_input("co_lnotab of " + code.qualname + " gives a line number out of range: " +
                           std::to_string(line));
        if (starts.empty() || line != starts.back().second) starts.emplace_back(at, static_cast<int>(line));
    };
    bool ran_past_end = false;
    for (size_t i = 0; i + 1 < table.size(); i += 2) {
        uint8_t byte_delta = static_cast<uint8_t>(table[i]);
        int8_t line_delta = static_cast<int8_t>(table[i + 1]);
        if (byte_delta) {
            start_line_at(addr);
            addr += byte_delta;
            if (addr >= bytecode_len) {
                ran_past_end = true;
                break;
            }
        }
        line += line_delta;
    }
    if (!ran_past_end) start_line_at(addr);
    for (size_t k = 0; k < starts.size(); ++k) {
        size_t end = k + 1 < starts.size() ? starts[k + 1].first : bytecode_len;
        fill_lines(out, starts[k].first, end, starts[k].second);
    }
    return out;
}

// 3.10 co_linetable: (unsigned byte delta, signed line delta) pairs; -128 means "no line".
std::vector<SourcePosition> decode_linetable_310(const CodeObject& code) {
    std::vector<SourcePosition> out(code_units(code));
    const std::string& table = code.linetable;
    int computed_line = code.firstlineno;
    size_t end = 0;
    for (size_t i = 0; i + 1 < table.size(); i += 2) {
        size_t start = end;
        end += static_cast<uint8_t>(table[i]);
        int8_t line_delta = static_cast<int8_t>(table[i + 1]);
        int line = -1;
        if (line_delta != -128) {
            computed_line = wrapping_add(computed_line, line_delta);
            line = computed_line;
        }
        if (start != end) fill_lines(out, start, end, line);
    }
    return out;
}

// 3.11+ location table (Objects/locations.md): entries of 1..8 code units with a 4-bit form code.
class LocationTableReader {
public:
    explicit LocationTableReader(std::string_view table) : in_(table, "location table") {}

    bool at_end() const { return in_.at_end(); }
    uint8_t byte() { return in_.u8(); }

    unsigned varint() {
        unsigned read = in_.u8();
        unsigned value = read & 63;
        unsigned shift = 0;
        while (read & 64) {
            read = in_.u8();
            shift += 6;
            if (shift > 30) fail_bad_input("location table has an overlong number");
            value |= (read & 63) << shift;
        }
        return value;
    }

    int signed_varint() {
        unsigned value = varint();
        return (value & 1) ? -static_cast<int>(value >> 1) : static_cast<int>(value >> 1);
    }

private:
    ByteCursor in_;
};

std::vector<SourcePosition> decode_locations(const CodeObject& code) {
    std::vector<SourcePosition> out(code_units(code));
    LocationTableReader in(code.linetable);
    int computed_line = code.firstlineno;
    size_t unit = 0;
    while (!in.at_end()) {
        uint8_t first = in.byte();
        if (!(first & 0x80)) fail_bad_input("location table entry does not start with a marker byte");
        int form = (first >> 3) & 15;
        size_t length = (first & 7) + 1;
        SourcePosition pos;
        if (form == 15) {  // no location
        } else if (form == 14) {  // long form
            computed_line = wrapping_add(computed_line, in.signed_varint());
            pos.line = computed_line;
            pos.end_line = wrapping_add(pos.line, in.varint());
            pos.column = wrapping_add(static_cast<int>(in.varint()), -1);
            pos.end_column = wrapping_add(static_cast<int>(in.varint()), -1);
        } else if (form == 13) {  // line only
            computed_line = wrapping_add(computed_line, in.signed_varint());
            pos.line = pos.end_line = computed_line;
        } else if (form >= 10) {  // one line, delta 0..2, explicit columns
            computed_line = wrapping_add(computed_line, form - 10);
            pos.line = pos.end_line = computed_line;
            pos.column = in.byte();
            pos.end_column = in.byte();
        } else {  // short form: same line, small columns
            uint8_t second = in.byte();
            pos.line = pos.end_line = computed_line;
            pos.column = (form << 3) | ((second >> 4) & 7);
            pos.end_column = pos.column + (second & 15);
        }
        for (size_t k = 0; k < length && unit < out.size(); ++k) out[unit++] = pos;
    }
    return out;
}

}  // namespace

std::vector<SourcePosition> decode_positions(const CodeObject& code) {
    if (code.version >= PyVersion{3, 11}) return decode_locations(code);
    if (code.version >= PyVersion{3, 10}) return decode_linetable_310(code);
    return decode_lnotab(code);
}

}  // namespace uncompile

#include "disassembler.h"

#include <cstdio>

#include "records.h"
#include "concat.h"
#include "value_format.h"

namespace uncompile {

namespace {

std::string number_or_dash(int64_t value) { return value < 0 ? "-" : std::to_string(value); }

void write_records(const CodeRecord& record, std::string& out) {
    const CodeObject& code = *record.code;
    out += "code " + canonical_str(code.qualname) + " " + std::to_string(code.firstlineno) + "\n";
    for (const auto& e : record.exception_table)
        out += "exc " + std::to_string(e.start) + " " + std::to_string(e.end) + " " + std::to_string(e.target) + " " +
               std::to_string(e.depth) + " " + (e.lasti ? "1" : "0") + "\n";
    const bool with_columns = code.version >= PyVersion{3, 11};
    for (const auto& r : record.instructions) {
        const Instruction& ins = r.instruction;
        out += std::to_string(ins.offset) + " " + r.opname + " " + (ins.has_arg ? std::to_string(ins.arg) : "-") + " " +
               r.argval + " " + number_or_dash(ins.position.line);
        if (with_columns)
            out += concat(" ", number_or_dash(ins.position.line), " ", number_or_dash(ins.position.end_line), " ",
                          number_or_dash(ins.position.column), " ", number_or_dash(ins.position.end_column));
        out += "\n";
    }
}

void write_human(const CodeRecord& record, std::string& out) {
    const CodeObject& code = *record.code;
    out += "Disassembly of " + code.qualname + " (" + code.filename + ", line " + std::to_string(code.firstlineno) +
           ", CPython " + code.version.str() + "):\n";
    int last_line = -2;
    char buf[160];
    for (const auto& r : record.instructions) {
        const Instruction& ins = r.instruction;
        bool new_line = ins.position.line != last_line;
        if (new_line && ins.offset > 0) out += "\n";
        last_line = ins.position.line;
        std::string line = new_line ? number_or_dash(ins.position.line) : "";
        std::snprintf(buf, sizeof buf, "%6s %6u %-28s", line.c_str(), ins.offset, r.opname);
        std::string row = buf;
        if (ins.has_arg) row += std::to_string(ins.arg);
        if (!r.argrepr.empty()) row += " (" + r.argrepr + ")";
        while (!row.empty() && row.back() == ' ') row.pop_back();
        out += row + "\n";
    }
    if (!record.exception_table.empty()) {
        out += "ExceptionTable:\n";
        for (const auto& e : record.exception_table)
            out += "  " + std::to_string(e.start) + " to " + std::to_string(e.end) + " -> " + std::to_string(e.target) +
                   " [" + std::to_string(e.depth) + "]" + (e.lasti ? " lasti" : "") + "\n";
    }
}

}  // namespace

std::string disassemble(const CodeObject& root, ListingFormat format) {
    std::string out;
    bool first = true;
    for (const auto& record : code_records(root)) {
        if (format == ListingFormat::Records) {
            write_records(record, out);
        } else {
            if (!first) out += "\n";
            write_human(record, out);
        }
        first = false;
    }
    return out;
}

}  // namespace uncompile

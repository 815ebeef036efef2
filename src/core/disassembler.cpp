#include "disassembler.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "argument.h"
#include "error.h"
#include "exception_table.h"
#include "instruction.h"
#include "value_format.h"

namespace uncompile {

namespace {

std::string number_or_dash(int64_t value) { return value < 0 ? "-" : std::to_string(value); }

// Code objects nested in the constants, in the order the oracle visits them: tuples in order,
// (frozen)sets by canonical text, since a set's iteration order is not kept by marshal.
void collect_nested(const PyObject& value, std::vector<const CodeObject*>& out) {
    switch (value.kind) {
    case PyObject::Kind::Code: out.push_back(value.code.get()); break;
    case PyObject::Kind::Tuple:
        for (const auto& item : value.items) collect_nested(*item, out);
        break;
    case PyObject::Kind::Set:
    case PyObject::Kind::FrozenSet: {
        std::vector<std::pair<std::string, const PyObject*>> sorted;
        for (const auto& item : value.items) sorted.emplace_back(canonical_value(*item), item.get());
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [_, item] : sorted) collect_nested(*item, out);
        break;
    }
    default: break;
    }
}

void write_records(const CodeObject& code, const OpcodeTable& table, std::string& out) {
    out += "code " + canonical_str(code.qualname) + " " +
           std::to_string(code.firstlineno) + "\n";
    for (const auto& e : decode_exception_table(code))
        out += "exc " + std::to_string(e.start) + " " + std::to_string(e.end) + " " + std::to_string(e.target) + " " +
               std::to_string(e.depth) + " " + (e.lasti ? "1" : "0") + "\n";
    const bool with_columns = code.version >= PyVersion{3, 11};
    for (const auto& ins : decode_instructions(code, table)) {
        ResolvedArgument arg = resolve_argument(code, table, ins);
        out += std::to_string(ins.offset) + " " + opcode_name(ins.op) + " " +
               (ins.has_arg ? std::to_string(ins.arg) : "-") + " " + arg.canonical + " " +
               number_or_dash(ins.position.line);
        if (with_columns)
            out += " " + number_or_dash(ins.position.line) + " " + number_or_dash(ins.position.end_line) + " " +
                   number_or_dash(ins.position.column) + " " + number_or_dash(ins.position.end_column);
        out += "\n";
    }
}

void write_human(const CodeObject& code, const OpcodeTable& table, std::string& out) {
    char buf[160];
    out += "Disassembly of " + code.qualname + " (" + code.filename + ", line " + std::to_string(code.firstlineno) +
           ", CPython " + code.version.str() + "):\n";
    int last_line = -2;
    for (const auto& ins : decode_instructions(code, table)) {
        ResolvedArgument arg = resolve_argument(code, table, ins);
        std::string line = ins.position.line != last_line ? number_or_dash(ins.position.line) : "";
        if (ins.position.line != last_line && ins.offset > 0) out += "\n";
        last_line = ins.position.line;
        std::snprintf(buf, sizeof buf, "%6s %6u %-28s", line.c_str(), ins.offset, opcode_name(ins.op));
        std::string row = buf;
        if (ins.has_arg) row += std::to_string(ins.arg);
        if (!arg.display.empty()) row += " (" + arg.display + ")";
        while (!row.empty() && row.back() == ' ') row.pop_back();
        out += row + "\n";
    }
    auto entries = decode_exception_table(code);
    if (!entries.empty()) {
        out += "ExceptionTable:\n";
        for (const auto& e : entries)
            out += "  " + std::to_string(e.start) + " to " + std::to_string(e.end) + " -> " + std::to_string(e.target) +
                   " [" + std::to_string(e.depth) + "]" + (e.lasti ? " lasti" : "") + "\n";
    }
}

}  // namespace

std::string disassemble(const CodeObject& root, ListingFormat format) {
    const OpcodeTable* table = opcode_table_for(root.version);
    if (!table) throw Error(Error::Kind::UnsupportedVersion, "no opcode table for CPython " + root.version.str());
    std::string out;
    std::function<void(const CodeObject&)> visit = [&](const CodeObject& code) {
        if (format == ListingFormat::Records) {
            write_records(code, *table, out);
        } else {
            if (&code != &root) out += "\n";
            write_human(code, *table, out);
        }
        std::vector<const CodeObject*> nested;
        for (const auto& c : code.consts) collect_nested(*c, nested);
        for (const CodeObject* child : nested) visit(*child);
    };
    visit(root);
    return out;
}

}  // namespace uncompile

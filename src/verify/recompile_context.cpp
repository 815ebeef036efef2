#include "recompile_context.h"

#include <set>
#include <sstream>
#include <vector>

#include "core/code_walk.h"
#include "core/instruction.h"
#include "core/opcode_table.h"

namespace uncompile {

namespace {

bool is_identifier(const std::string& name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (unsigned char c : name)
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80))
            return false;
    return true;
}

// Globals whose attribute calls the compiler made plain attribute calls rather than method calls,
// which 3.11+ does exactly when the name is imported at module level (compile.c,
// is_import_originated). A name also seen in a method call was not imported.
//   3.11, 3.12: LOAD_GLOBAL (NULL + name); LOAD_ATTR          (3.12: LOAD_ATTR without its method bit)
//   3.13:       LOAD_GLOBAL name; LOAD_ATTR (no method bit); PUSH_NULL
//   method:     LOAD_GLOBAL name; LOAD_METHOD (3.11) / LOAD_ATTR with its method bit (3.12+)
void collect_imported_names(const CodeObject& code, std::set<std::string>& plain, std::set<std::string>& method) {
    const OpcodeTable* table = opcode_table_for(code.version);
    if (!table || code.version < PyVersion{3, 11}) return;
    std::vector<Instruction> ins = decode_instructions(code, *table);
    for (size_t i = 0; i + 1 < ins.size(); ++i) {
        if (ins[i].op != Opcode::LOAD_GLOBAL || ins[i].index < 0 || size_t(ins[i].index) >= code.names.size()) continue;
        const std::string& name = code.names[size_t(ins[i].index)];
        bool pushes_null = (ins[i].flag_bits(*table) & 1) != 0;
        const Instruction& next = ins[i + 1];
        if (next.op == Opcode::LOAD_METHOD) {
            method.insert(name);
        } else if (next.op == Opcode::LOAD_ATTR) {
            bool method_bit = code.version >= PyVersion{3, 12} && (next.flag_bits(*table) & 1) != 0;
            if (method_bit) {
                method.insert(name);
            } else if (code.version >= PyVersion{3, 13}) {
                if (!pushes_null && i + 2 < ins.size() && ins[i + 2].op == Opcode::PUSH_NULL) plain.insert(name);
            } else if (pushes_null) {
                plain.insert(name);
            }
        }
    }
}

std::string indented(const std::string& text, const std::string& indent) {
    std::ostringstream out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) out << (line.empty() ? "" : indent) << line << "\n";
    return out.str();
}

}  // namespace

std::string source_in_context(const CodeObject& original, const std::string& source) {
    if (original.name == "<module>") return source;
    std::set<std::string> plain, method;
    walk_code_objects(original, [&](const CodeObject& c) { collect_imported_names(c, plain, method); });
    std::string imports;
    for (const std::string& name : plain)
        if (!method.count(name) && is_identifier(name)) imports += "import " + name + "\n";

    bool class_cell = false;
    std::vector<std::string> free;
    for (const std::string& name : original.freevars) {
        if (name == "__class__") class_cell = true;
        else if (is_identifier(name)) free.push_back(name);
        else return imports + source;  // a compiler-made free variable (3.12 `__classdict__`-like scopes): no context
    }
    std::string body = source;
    // A class named only with underscores, so that no name in the text is mangled again.
    if (class_cell) body = "class _:\n" + indented(body, "    ");
    if (!free.empty()) {
        std::string bindings;
        for (const std::string& name : free) bindings += "    " + name + " = None\n";
        body = "def _uncompile_context():\n" + bindings + indented(body, "    ");
    }
    return imports + body;
}

}  // namespace uncompile

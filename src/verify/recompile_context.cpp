#include "recompile_context.h"

#include <optional>
#include <set>
#include <string_view>
#include <sstream>
#include <vector>

#include "core/code_walk.h"
#include "core/instruction.h"
#include "core/opcode_table.h"
#include "core/py_value.h"
#include "core/source_indent.h"

namespace uncompile {

namespace {

bool is_identifier(const std::string& name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (unsigned char c : name)
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80))
            return false;
    return true;
}

// Names whose attribute calls the compiler made plain attribute calls rather than method calls,
// which 3.11+ does exactly when the name is imported at module level (compile.c,
// is_import_originated), whatever the name is bound to where the call is: a global, or a local
// of the same name (`import warnings` inside a function of a module that imports it too). A name
// also seen in a method call was not imported.
//   3.11, 3.12: LOAD_GLOBAL (NULL + name); LOAD_ATTR          (3.12: LOAD_ATTR without its method bit)
//               PUSH_NULL; LOAD_FAST name; LOAD_ATTR         (a local)
//   3.13:       LOAD_GLOBAL name; LOAD_ATTR (no method bit); PUSH_NULL   (a local alike)
//   method:     LOAD_GLOBAL name; LOAD_METHOD (3.11) / LOAD_ATTR with its method bit (3.12+)
void collect_imported_names(const CodeObject& code, std::set<std::string>& plain, std::set<std::string>& method) {
    const OpcodeTable* table = opcode_table_for(code.version);
    if (!table || code.version < PyVersion{3, 11}) return;
    std::vector<Instruction> ins = decode_instructions(code, *table);
    for (size_t i = 0; i + 1 < ins.size(); ++i) {
        const std::string* name = nullptr;
        bool pushes_null = false;
        if (ins[i].op == Opcode::LOAD_GLOBAL) {
            if (ins[i].index < 0 || size_t(ins[i].index) >= code.names.size()) continue;
            name = &code.names[size_t(ins[i].index)];
            pushes_null = (ins[i].flag_bits(*table) & 1) != 0;
        } else if (ins[i].op == Opcode::LOAD_FAST || ins[i].op == Opcode::LOAD_FAST_CHECK) {
            name = code.local_name(uint32_t(ins[i].index));
            pushes_null = i > 0 && ins[i - 1].op == Opcode::PUSH_NULL;
        } else if (ins[i].op == Opcode::LOAD_DEREF) {
            name = code.deref_name(uint32_t(ins[i].index));
            pushes_null = i > 0 && ins[i - 1].op == Opcode::PUSH_NULL;
        }
        if (!name) continue;
        const Instruction& next = ins[i + 1];
        if (next.op == Opcode::LOAD_METHOD) {
            method.insert(*name);
        } else if (next.op == Opcode::LOAD_ATTR) {
            bool method_bit = code.version >= PyVersion{3, 12} && (next.flag_bits(*table) & 1) != 0;
            if (method_bit) {
                method.insert(*name);
            } else if (code.version >= PyVersion{3, 13}) {
                if (!pushes_null && i + 2 < ins.size() && ins[i + 2].op == Opcode::PUSH_NULL) plain.insert(*name);
            } else if (pushes_null) {
                plain.insert(*name);
            }
        }
    }
}

// The comprehension inside the async function that the decompiler shows an async list, set or dict
// comprehension in (`async def f():` and the comprehension, indented), made flush; nullopt for any
// other code object or text.
std::optional<std::string> async_comprehension_body(const CodeObject& code, const std::string& source) {
    constexpr uint32_t kCoCoroutine = 0x80;
    if (!(code.flags & kCoCoroutine) || (code.name != "<listcomp>" && code.name != "<setcomp>" && code.name != "<dictcomp>"))
        return std::nullopt;
    if (source.rfind("async def ", 0) != 0) return std::nullopt;
    size_t first_end = source.find('\n');
    if (first_end == std::string::npos || source.compare(first_end - 3, 3, "():") != 0) return std::nullopt;
    std::ostringstream out;
    std::istringstream in(source.substr(first_end + 1));
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.rfind("    ", 0) != 0) return std::nullopt;
        out << (line.empty() ? line : line.substr(4)) << "\n";
    }
    return out.str();
}

// The qualified name the original was compiled under: co_qualname on 3.11+; before, the qualified
// names of what is made inside it start with it: a function's, which MAKE_FUNCTION takes
// ("Set.__and__.<locals>.<genexpr>"), a nested comprehension's or lambda's inside a comprehension
// ("f.<locals>.<listcomp>.<listcomp>": no <locals> after a comprehension), and a class's, which
// its body stores in __qualname__ (a constant of that body). Just the name when nothing tells.
std::string qualified_name(const CodeObject& code) {
    if (code.version >= PyVersion{3, 11} || code.qualname.find('.') != std::string::npos) return code.qualname;
    auto names_this_code = [&](const std::string& prefix) { return prefix == code.name || prefix.ends_with("." + code.name); };
    for (const ObjectRef& c : code.consts) {
        if (!c || c->kind != PyValue::Kind::Str) continue;
        size_t at = c->text.find(".<locals>.");
        while (at != std::string::npos) {
            std::string prefix = c->text.substr(0, at);
            if (names_this_code(prefix)) return prefix;
            at = c->text.find(".<locals>.", at + 1);
        }
    }
    // The qualified name of something made right inside it (its last part the name of one of the
    // code objects it holds), without that part and the <locals> before it: its own constants,
    // and the constants of the code objects it holds (a class body's __qualname__).
    std::set<std::string> made;
    for (const ObjectRef& c : code.consts)
        if (c && c->kind == PyValue::Kind::Code && c->code) made.insert(c->code->name);
    auto parent_of = [&](const std::string& text) -> std::optional<std::string> {
        size_t dot = text.rfind('.');
        if (dot == std::string::npos || !made.count(text.substr(dot + 1))) return std::nullopt;
        std::string prefix = text.substr(0, dot);
        constexpr std::string_view kLocals = ".<locals>";
        if (prefix.ends_with(kLocals)) prefix.resize(prefix.size() - kLocals.size());
        if (names_this_code(prefix)) return prefix;
        return std::nullopt;
    };
    for (const ObjectRef& c : code.consts) {
        if (!c) continue;
        if (c->kind == PyValue::Kind::Str) {
            if (auto parent = parent_of(c->text)) return *parent;
        } else if (c->kind == PyValue::Kind::Code && c->code) {
            for (const ObjectRef& inner : c->code->consts)
                if (inner && inner->kind == PyValue::Kind::Str)
                    if (auto parent = parent_of(inner->text)) return *parent;
        }
    }
    return code.name;
}

// An enclosing scope of the original, outermost first.
struct Scope {
    std::string name;
    bool is_function = false;
};

// The scopes around the last part of `qualname` ("A.f.<locals>.B.m" -> class A, def f, class B);
// nullopt when one cannot be written as source (a lambda, a comprehension).
std::optional<std::vector<Scope>> enclosing_scopes(const std::string& qualname) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t dot; (dot = qualname.find('.', start)) != std::string::npos; start = dot + 1)
        parts.push_back(qualname.substr(start, dot - start));
    std::vector<Scope> scopes;
    for (size_t k = 0; k < parts.size(); ++k) {
        if (parts[k] == "<locals>") {
            if (scopes.empty() || scopes.back().is_function) return std::nullopt;
            scopes.back().is_function = true;
            continue;
        }
        if (!is_identifier(parts[k])) return std::nullopt;
        scopes.push_back({parts[k], false});
    }
    return scopes;
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
        // __classdict__ (3.12+): the namespace of the class an annotation scope is in (a generic
        // method's or nested class's type parameters, a type alias), a cell that class makes.
        if (name == "__class__" || name == "__classdict__") class_cell = true;
        else if (is_identifier(name)) free.push_back(name);
        else return imports + source;  // a compiler-made free variable (3.12 `__classdict__`-like scopes): no context
    }
    // The scopes it was compiled in, by their names (qualified names of functions made inside it
    // and name mangling depend on them): classes as classes, functions as functions binding the
    // free variables (in the innermost one).
    std::vector<Scope> scopes = enclosing_scopes(qualified_name(original)).value_or(std::vector<Scope>{});
    bool has_class = false, has_function = false;
    for (const Scope& s : scopes) (s.is_function ? has_function : has_class) = true;
    // Fallbacks where the name tells too little: a class named only with underscores (so that no
    // name in the text is mangled again) for the __class__ cell, a function for free variables.
    if (class_cell && !(has_class && !scopes.back().is_function)) scopes.push_back({"_", false});
    if (!free.empty() && !has_function) scopes.insert(scopes.begin(), {"_uncompile_context", true});
    // The decompiled text of an async list, set or dict comprehension is the async function it
    // compiles in, with the comprehension alone inside: that function is the innermost one here.
    std::string body = source;
    bool async_comprehension = false;
    if (std::optional<std::string> inside = async_comprehension_body(original, source)) {
        body = *inside;
        async_comprehension = true;
        if (!has_function) scopes.push_back({"_", true});
    }
    int innermost_function = -1;
    for (size_t k = 0; k < scopes.size(); ++k)
        if (scopes[k].is_function) innermost_function = int(k);
    for (int k = int(scopes.size()) - 1; k >= 0; --k) {
        const Scope& s = scopes[size_t(k)];
        std::string head = (s.is_function ? "def " + s.name + "():\n" : "class " + s.name + ":\n");
        if (k == innermost_function && async_comprehension) head = "async " + head;
        if (k == innermost_function)
            for (const std::string& name : free) head += "    " + name + " = None\n";
        body = head + indent_source(body, "    ");
    }
    return imports + body;
}

}  // namespace uncompile

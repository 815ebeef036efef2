#include "equivalence.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "argument.h"
#include "code_walk.h"
#include "error.h"
#include "exception_table.h"
#include "instruction.h"
#include "records.h"
#include "value_format.h"

namespace uncompile {

namespace {

constexpr uint32_t kCoOptimized = 0x1;
constexpr uint32_t kCoNested = 0x10;

// ---- normalization -------------------------------------------------------------------------

struct NormalInstruction {
    std::string opname;
    std::string key;    // what is compared: the resolved argument, plus any flag bits
    std::string shown;  // how a difference names it
};

struct NormalHandler {  // one exception-table entry, in instruction indices
    size_t start = 0, end = 0, target = 0;
    uint32_t depth = 0;
    bool lasti = false;

    bool same_handler(const NormalHandler& o) const { return target == o.target && depth == o.depth && lasti == o.lasti; }
    bool operator==(const NormalHandler& o) const { return start == o.start && end == o.end && same_handler(o); }
};

struct NormalCode {
    std::vector<NormalInstruction> instructions;
    std::vector<NormalHandler> handlers;
    int64_t firstlineno_const = -1;  // the constant a 3.13+ class body stores as __firstlineno__
};

bool is_ignored(Opcode op) { return op == Opcode::CACHE || op == Opcode::EXTENDED_ARG || op == Opcode::NOP; }

// The index of the first kept instruction at or after `offset` (jumps into a removed NOP land on
// what follows it).
size_t index_at(const std::vector<uint32_t>& offsets, int64_t offset) {
    return static_cast<size_t>(std::lower_bound(offsets.begin(), offsets.end(), offset) - offsets.begin());
}

NormalInstruction normalize_instruction(const CodeObject& code, const OpcodeTable& table, const Instruction& ins,
                                        const std::vector<uint32_t>& offsets) {
    NormalInstruction out{opcode_name(ins.op), "", ""};
    if (!ins.has_arg) return out;
    if (ins.is_jump()) {
        out.key = "to instruction " + std::to_string(index_at(offsets, ins.jump_target));
        out.shown = out.key;
        return out;
    }
    ResolvedArgument arg = resolve_argument(code, table, ins);
    out.key = arg.canonical;
    out.shown = arg.display.empty() ? arg.canonical : arg.display;
    if (int64_t bits = ins.flag_bits(table)) out.key += " [flag bits " + std::to_string(bits) + "]";
    return out;
}

std::vector<NormalHandler> normalize_handlers(const CodeObject& code, const std::vector<uint32_t>& offsets) {
    std::vector<NormalHandler> out;
    for (const auto& e : decode_exception_table(code)) {
        NormalHandler h{index_at(offsets, e.start), index_at(offsets, e.end), index_at(offsets, e.target), e.depth,
                        e.lasti};
        if (h.start == h.end) continue;  // covered only removed instructions
        if (!out.empty() && out.back().end == h.start && out.back().same_handler(h)) {
            out.back().end = h.end;  // split only by a removed instruction
            continue;
        }
        out.push_back(h);
    }
    return out;
}

// 3.13 joins two LOAD_FAST/STORE_FAST into one instruction (LOAD_FAST_LOAD_FAST, ...) only when
// both are on the same line: line numbers aside, the pair is the two instructions it replaces.
std::vector<Instruction> split_local_pairs(std::vector<Instruction> all) {
    std::vector<Instruction> out;
    out.reserve(all.size());
    for (const Instruction& ins : all) {
        Opcode first, second;
        switch (ins.op) {
        case Opcode::LOAD_FAST_LOAD_FAST: first = second = Opcode::LOAD_FAST; break;
        case Opcode::STORE_FAST_LOAD_FAST: first = Opcode::STORE_FAST, second = Opcode::LOAD_FAST; break;
        case Opcode::STORE_FAST_STORE_FAST: first = second = Opcode::STORE_FAST; break;
        default: out.push_back(ins); continue;
        }
        // (Both halves keep the pair's offset: a jump to the pair lands on its first half.)
        Instruction a = ins, b = ins;
        a.op = first;
        a.arg = a.index = ins.arg >> 4;
        b.op = second;
        b.arg = b.index = ins.arg & 15;
        out.push_back(a);
        out.push_back(b);
    }
    return out;
}

NormalCode normalize(const CodeObject& code, const OpcodeTable& table) {
    std::vector<Instruction> all = split_local_pairs(decode_instructions(code, table));
    std::vector<uint32_t> offsets;
    for (const auto& ins : all)
        if (!is_ignored(ins.op)) offsets.push_back(ins.offset);
    NormalCode out;
    std::vector<const Instruction*> kept;
    for (const auto& ins : all)
        if (!is_ignored(ins.op)) {
            out.instructions.push_back(normalize_instruction(code, table, ins, offsets));
            kept.push_back(&ins);
        }
    // 3.13+ class bodies store their first line as `__firstlineno__`: a line number, which is
    // ignored like every other (when it is the code object's own co_firstlineno).
    for (size_t i = 0; i + 1 < kept.size(); ++i) {
        const Instruction& load = *kept[i];
        const Instruction& store = *kept[i + 1];
        if (load.op != Opcode::LOAD_CONST || store.op != Opcode::STORE_NAME || store.index < 0 ||
            size_t(store.index) >= code.names.size() || code.names[size_t(store.index)] != "__firstlineno__" ||
            load.index < 0 || size_t(load.index) >= code.consts.size())
            continue;
        const PyValue& value = *code.consts[size_t(load.index)];
        if (value.kind != PyValue::Kind::Int || value.is_big_int() || value.small != code.firstlineno) continue;
        out.instructions[i].key = out.instructions[i].shown = "<co_firstlineno>";
        out.firstlineno_const = load.index;
        break;
    }
    out.handlers = normalize_handlers(code, offsets);
    return out;
}

// ---- describing differences ----------------------------------------------------------------

std::string flag_names(uint32_t flags) {
    static const char* names[] = {"OPTIMIZED", "NEWLOCALS", "VARARGS", "VARKEYWORDS", "NESTED",
                                  "GENERATOR", "NOFREE", "COROUTINE", "ITERABLE_COROUTINE", "ASYNC_GENERATOR"};
    std::vector<std::string> parts;
    for (int bit = 0; bit < 10; ++bit)
        if (flags & (1u << bit)) parts.emplace_back(names[bit]);
    if (uint32_t rest = flags & ~0x3ffu) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%x", rest);
        parts.emplace_back(hex);
    }
    std::string out;
    for (const auto& part : parts) {
        if (!out.empty()) out += '|';
        out += part;
    }
    return out.empty() ? "0" : out;
}

std::string show(const NormalInstruction& ins) { return ins.shown.empty() ? ins.opname : ins.opname + " " + ins.shown; }

std::string show(const NormalHandler& h) {
    return std::to_string(h.start) + " to " + std::to_string(h.end) + " -> " + std::to_string(h.target) + " [depth " +
           std::to_string(h.depth) + "]" + (h.lasti ? " lasti" : "");
}

std::string show_names(const std::vector<std::string>& names) {
    std::string out = "(";
    for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
    return out + ")";
}

// "instruction 12: original LOAD_FAST x, recompiled LOAD_GLOBAL x"; `what` names the sequence.
template <typename T, typename Same, typename Show>
std::string first_mismatch(const char* what, const std::vector<T>& a, const std::vector<T>& b, Same same, Show shown) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        if (same(a[i], b[i])) continue;
        std::string sa = shown(a[i]), sb = shown(b[i]);
        if (sa == sb) sa += " (differs in a detail not shown)";
        return std::string(what) + " " + std::to_string(i) + ": original " + sa + ", recompiled " + sb;
    }
    if (a.size() == b.size()) return "";
    std::string tail = a.size() > b.size() ? "original " + shown(a[n]) + ", recompiled has no more"
                                           : "original has no more, recompiled " + shown(b[n]);
    return std::string(what) + " " + std::to_string(n) + ": " + tail + " (original has " + std::to_string(a.size()) +
           ", recompiled " + std::to_string(b.size()) + ")";
}

std::string compare_names(const char* field, const std::vector<std::string>& a, const std::vector<std::string>& b) {
    if (a == b) return "";
    return std::string(field) + " differ: original " + show_names(a) + ", recompiled " + show_names(b);
}

// ---- comparing one code object (nested code objects are compared separately) ----------------

std::string first_difference(const CodeObject& a, const CodeObject& b, const OpcodeTable& table) {
    if (a.argcount != b.argcount || a.posonlyargcount != b.posonlyargcount || a.kwonlyargcount != b.kwonlyargcount) {
        auto counts = [](const CodeObject& c) {
            return "(argcount " + std::to_string(c.argcount) + ", posonlyargcount " + std::to_string(c.posonlyargcount) +
                   ", kwonlyargcount " + std::to_string(c.kwonlyargcount) + ")";
        };
        return "argument counts differ: original " + counts(a) + ", recompiled " + counts(b);
    }
    // Scopes first: a variable that is a cell in one and a global in the other explains the rest.
    std::string diff = compare_names("co_cellvars", a.cellvars, b.cellvars);
    if (diff.empty()) diff = compare_names("co_freevars", a.freevars, b.freevars);
    if (!diff.empty()) return diff;
    if ((a.flags & ~kCoNested) != (b.flags & ~kCoNested))
        return "flags differ: original " + flag_names(a.flags & ~kCoNested) + ", recompiled " +
               flag_names(b.flags & ~kCoNested);
    NormalCode na = normalize(a, table), nb = normalize(b, table);
    diff = first_mismatch(
        "instruction", na.instructions, nb.instructions,
        [](const NormalInstruction& x, const NormalInstruction& y) { return x.opname == y.opname && x.key == y.key; },
        [](const NormalInstruction& x) { return show(x); });
    if (!diff.empty()) return diff;
    diff = compare_names("co_names", a.names, b.names);
    if (diff.empty()) diff = compare_names("co_varnames", a.varnames, b.varnames);
    if (!diff.empty()) return diff;
    auto consts_of = [](const CodeObject& c, const NormalCode& n) {
        std::vector<ObjectRef> consts = c.consts;
        if (n.firstlineno_const >= 0) {
            auto line = std::make_shared<PyValue>();
            line->kind = PyValue::Kind::Placeholder;
            line->text = "<co_firstlineno>";
            consts[size_t(n.firstlineno_const)] = line;
        }
        return consts;
    };
    diff = first_mismatch(
        "constant", consts_of(a, na), consts_of(b, nb),
        [](const ObjectRef& x, const ObjectRef& y) { return canonical_value(*x) == canonical_value(*y); },
        [](const ObjectRef& x) { return value_repr(*x); });
    if (!diff.empty()) return diff;
    return first_mismatch(
        "exception table entry", na.handlers, nb.handlers, [](const NormalHandler& x, const NormalHandler& y) { return x == y; },
        [](const NormalHandler& x) { return show(x); });
}

// ---- the recursive walk ------------------------------------------------------------------------

// CPython's qualified name of `code`, which 3.8-3.10 do not store: "outer.<locals>.inner", "C.m".
std::string qualified_name(const CodeObject& code, const CodeObject* parent, const std::string& parent_qualname) {
    if (code.version >= PyVersion{3, 11} || !parent || parent->name == "<module>") return code.qualname;
    return parent_qualname + ((parent->flags & kCoOptimized) ? ".<locals>." : ".") + code.name;
}

class Comparison {
public:
    explicit Comparison(const OpcodeTable& table) : table_(table) {}

    void compare(const CodeObject& a, const CodeObject& b, const CodeObject* parent, const std::string& parent_qualname) {
        std::string qualname = qualified_name(a, parent, parent_qualname);
        std::string diff = first_difference(a, b, table_);
        verdicts.push_back({qualname, a.firstlineno, diff.empty(), diff});
        std::vector<const CodeObject*> na = nested_code_objects(a), nb = nested_code_objects(b);
        for (size_t i = 0; i < na.size(); ++i) {
            if (i < nb.size() && nb[i]->name == na[i]->name) {
                compare(*na[i], *nb[i], &a, qualname);
                continue;
            }
            std::string why = i < nb.size() ? "nested code object " + std::to_string(i) + " of the recompiled " +
                                                  b.name + " is " + nb[i]->name + ", not " + na[i]->name
                                            : "the recompiled " + b.name + " has only " + std::to_string(nb.size()) +
                                                  " nested code objects";
            unmatched(*na[i], &a, qualname, "no counterpart in the recompiled code: " + why);
        }
    }

    void unmatched(const CodeObject& a, const CodeObject* parent, const std::string& parent_qualname,
                   const std::string& why) {
        std::string qualname = qualified_name(a, parent, parent_qualname);
        verdicts.push_back({qualname, a.firstlineno, false, why});
        for (const CodeObject* child : nested_code_objects(a)) unmatched(*child, &a, qualname, why);
    }

    std::vector<CodeVerdict> verdicts;

private:
    const OpcodeTable& table_;
};

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The code object of `module` that a function decompiled on its own became (see compare_code).
const CodeObject* find_counterpart(const CodeObject& original, const CodeObject& module) {
    const CodeObject* best = nullptr;
    int best_rank = 0;
    size_t best_depth = 0;
    std::function<void(const CodeObject&, size_t)> visit = [&](const CodeObject& code, size_t depth) {
        if (depth > 0 && code.name == original.name) {
            int rank = code.qualname == original.qualname ? 3 : ends_with(original.qualname, "." + code.qualname) ? 2 : 1;
            if (!best || rank > best_rank || (rank == best_rank && depth < best_depth)) {
                best = &code;
                best_rank = rank;
                best_depth = depth;
            }
        }
        for (const CodeObject* child : nested_code_objects(code)) visit(*child, depth + 1);
    };
    visit(module, 0);
    return best;
}

}  // namespace

std::vector<CodeVerdict> compare_code(const CodeObject& original, const CodeObject& recompiled) {
    if (original.version != recompiled.version)
        throw Error(Error::Kind::BadInput, "cannot compare code of CPython " + original.version.str() + " with code of " +
                                              recompiled.version.str());
    Comparison comparison(table_for(original));
    const CodeObject* counterpart = &recompiled;
    if (original.name != "<module>" && recompiled.name == "<module>") {
        counterpart = find_counterpart(original, recompiled);
        if (!counterpart) {
            comparison.unmatched(original, nullptr, "",
                                 "no code object named " + original.name + " in the recompiled source");
            return comparison.verdicts;
        }
    }
    comparison.compare(original, *counterpart, nullptr, "");
    return comparison.verdicts;
}

}  // namespace uncompile

#include "decompiler.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ast.h"
#include "block_stack.h"
#include "cfg.h"
#include "core/code_walk.h"
#include "core/error.h"
#include "core/exception_table.h"
#include "core/instruction.h"
#include "core/opcode_table.h"
#include "core/records.h"
#include "match_decoder.h"
#include "normalize.h"
#include "printer.h"
#include "test_polarity.h"
#include "type_params.h"
#include "value_flow.h"
#include "with_exit_call.h"

namespace uncompile {

namespace {

using namespace ast;

// `text` with the stack temporaries it names (`__stack<N>`, see new_temporary)
// renumbered in the order they first occur: two copies of the same code, each given temporaries
// of its own, then read the same.
std::string with_temporaries_in_order(const std::string& text) {
    static constexpr std::string_view kPrefix = "__stack";
    if (text.find(kPrefix) == std::string::npos) return text;
    std::string out;
    std::vector<std::string> seen;
    size_t i = 0;
    while (i < text.size()) {
        size_t at = text.find(kPrefix, i);
        if (at == std::string::npos) break;
        size_t end = at + kPrefix.size();
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
        size_t digits = at + kPrefix.size();
        out.append(text, i, digits - i);
        std::string number = text.substr(digits, end - digits);
        auto it = std::find(seen.begin(), seen.end(), number);
        if (it == seen.end()) it = seen.insert(seen.end(), number);
        out += std::to_string(it - seen.begin());
        i = end;
    }
    out.append(text, i, std::string::npos);
    return out;
}

PrintOptions print_options(PyVersion version) {
    PrintOptions options;
    options.nested_fstring_quotes = version >= PyVersion{3, 12};  // PEP 701
    options.docstrings_cleaned = version >= PyVersion{3, 13};
    return options;
}

// CO_* flags of code objects (Include/cpython/code.h).
constexpr uint32_t kCoOptimized = 0x01;  // a function's code (not a module's or class body's)
constexpr uint32_t kCoVarargs = 0x04;
constexpr uint32_t kCoVarkeywords = 0x08;
constexpr uint32_t kCoCoroutine = 0x80;
constexpr uint32_t kCoAsyncGenerator = 0x200;
constexpr uint32_t kCoFutureAnnotations = 0x1000000;  // `from __future__ import annotations` (3.7+)

[[noreturn]] void unsupported(const std::string& what) { throw Error(Error::Kind::Unsupported, what); }

// The stand-ins only an exception handler's code has: the exception, the one it replaced, its
// match test and the re-raise (folded into except clauses; one left over is a shape not read).
constexpr const char* kException = "<exception>";
constexpr const char* kPreviousException = "<previous exception>";
constexpr const char* kExceptionMatches = "<exception matches>";
constexpr const char* kReraise = "<re-raise>";

ExprPtr marker(const char* what) {
    auto e = make_expr(ExprKind::Name);
    e->id = what;
    return e;
}

// One of a decompiler's own stand-ins, made on first use: a decompiler is made per code object
// (and a host one around a function decompiled on its own), and most use few of them. Until it is
// made, no value is it. It carries the creation serial reserved for it when its decompiler was
// made, so that it orders against other nodes as one made then would.
class LazyMarker {
public:
    explicit LazyMarker(const char* name) : name_(name) {}
    void reserve_serial(uint64_t serial) { serial_ = serial; }
    const ExprPtr& get() {
        if (!node_) {
            node_ = marker(name_);
            node_->serial = serial_;
        }
        return node_;
    }
    bool is(const ExprPtr& v) const { return node_ && v == node_; }

private:
    const char* name_;
    uint64_t serial_ = 0;
    ExprPtr node_;
};

std::vector<std::string> split_dotted(const std::string& path) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t dot; (dot = path.find('.', start)) != std::string::npos; start = dot + 1) parts.push_back(path.substr(start, dot - start));
    parts.push_back(path.substr(start));
    return parts;
}

// A function object being built by MAKE_FUNCTION and its attributes.
struct FunctionValue {
    std::shared_ptr<const CodeObject> code;
    ExprPtr defaults, kwdefaults, annotations;
};

// The module part of `import` / `from ... import` while it is on the stack.
struct ImportValue {
    std::string module;
    int level = 0;
    ObjectRef fromlist;
    // `import a.b.c as x` (fromlist None): the submodule reached by IMPORT_FROM b, IMPORT_FROM c
    // from the top package, one dotted component a step; how many steps were taken.
    size_t attribute_steps = 0;
};

// A target of UNPACK_SEQUENCE / UNPACK_EX being filled by the stores that follow it.
struct PendingUnpack {
    ExprPtr value;
    std::vector<ExprPtr> targets;
    int star_index = -1;
    size_t filled = 0;
    ExprPtr parent_slot;  // the slot this unpack itself fills, for nested targets
    std::vector<const Expr*> slots;  // element k's stand-in on the stack
    std::set<size_t> dropped;  // elements popped instead of stored (named by the store after them)
};

struct Loop {
    int header = -1;
    int latch = -1;
    int exit = -1;        // where normal termination continues
    int break_to = -1;    // where `break` jumps
    std::set<int> blocks;
    // A `while` whose test the compiler repeats at the bottom (3.10+): the header is the test on
    // top (where `continue` jumps), the body starts at `body_start`, and the repeated test starts
    // at `bottom`, which is where the body ends.
    int body_start = -1;
    int bottom = -1;
    // When the repeated test shares its first block with the end of the body: that block, and
    // the first value the test checks, as printed.
    int bottom_jump = -1;
    std::string first_test;
    // A `while test:` without that repeated test where the compiler repeats it: the end of its
    // body was unreachable, so every path back to the test on top is a `continue` statement.
    bool continues_explicit = false;
    // A for loop, and the loop it is nested in (for a `break` the compiler threaded to that loop's
    // next iteration).
    bool is_for = false;
    const Loop* outer = nullptr;
    const ast::Expr* iterator = nullptr;
    bool comprehension = false;  // the loop of a comprehension (its own code, or inlined)
    int breaks = 0;  // `break` statements emitted so far
    // Where the statement goes on when `break` jumps past it (see clause_end_broken_to): the end
    // of the except clause the loop ends, which the `break` copied (-1: where `break` jumps).
    int break_end = -1;
};

class StructuredDecompiler {
public:
    StructuredDecompiler(const CodeObject& code, std::vector<DecompileFailure>& failures, const DecompileOptions& options)
        : code_(code), failures_(failures), options_(options), table_(table_for(code)),
          ops_(normalize(code, decode_instructions(code, table_), table_)), cfg_(ops_) {
        reserve_marker_serials();
        emitted_.assign(cfg_.size(), false);
        keep_alive_.reserve(ops_.size());  // (about one kept node an op: grown from empty it reallocated ~log2(n) times)
        classify_handlers();
        for (const auto& op : ops_)
            if (op.kind == N::Unsupported) unsupported("instruction " + op.name + " is not supported yet");
            else if (op.kind == N::SetupAnnotations) annotations_set_up_ = true;
        for (size_t i = 0; i + 1 < ops_.size(); ++i)
            if (ops_[i].kind == N::LoadConst && ops_[i].value && ops_[i].value->kind == PyValue::Kind::Tuple &&
                ops_[i + 1].kind == N::Store && ops_[i + 1].name == "__static_attributes__") {
                own_static_attributes_.emplace();
                for (const auto& item : ops_[i].value->items)
                    if (item->kind == PyValue::Kind::Str) own_static_attributes_->insert(item->text);
            }
        find_matches();
    }

    // A host for a code object decompiled outside its parent (see decompile()): it has no code of
    // its own (`empty` is an empty code object of the version), so nothing is decoded, normalized
    // or structured; only the definition's own part (arguments, defaults) is read in it.
    struct Host {};
    StructuredDecompiler(Host, const CodeObject& empty, std::vector<DecompileFailure>& failures, const DecompileOptions& options)
        : code_(empty), failures_(failures), options_(options), table_(table_for(empty)) {
        reserve_marker_serials();
    }

    // The stand-ins were made with the decompiler before they were made on first use; their
    // serials are taken now, in the order they were made in.
    void reserve_marker_serials() {
        uint64_t serial = reserve_serials(8);
        for (LazyMarker* m : {&element_marker_, &null_, &build_class_, &assertion_error_, &exception_, &previous_exception_,
                              &exception_matches_, &reraise_})
            m->reserve_serial(serial++);
    }

    Body run() {
        Body body;
        std::vector<ExprPtr> stack;
        stack.reserve(kStackRoom + size_t(std::max(code_.stacksize, 0)));
        if (cfg_.size() > 0) emit_region(0, -1, body, nullptr, stack, 0);
        check_every_block_emitted();
        if (annotations_set_up_ && annotated_assignments_ == 0) unsupported("SETUP_ANNOTATIONS without an annotated assignment");
        std::vector<const Stmt*> for_return, for_jump;
        check_finally_copies(body, for_return, for_jump);
        if (!late_exit_before_tail_.empty()) refuse_code_after_exits(body);
        if (!uncovered_raises_.empty()) refuse_uncovered_raises(body);
        if (!unawaited_comprehensions_.empty()) unsupported("a comprehension coroutine that is not awaited");
        if (!run_after_clause_.empty() && !body_never_goes_on_.empty()) {
            hoist_code_after_only_clause(body);
            require_no_code_after_clause(body);
        }
        if (!run_after_clause_.empty()) hoist_clause_tail_copies(body);
        if (temporaries_ > 0) inline_temporaries(body, "__stack");
        if (const Expr* twice = duplicated_effect(body)) {
            std::string shown = print_expression(*twice);
            if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
            unsupported("a value the bytecode computes once would be computed twice (" + shown + ")");
        }
        if (exits_copied_) {
            restore_else_before_copied_tail(body);
            breaks_for_copied_function_end(body);
            breaks_for_copied_last_line(body);
        }
        if (!else_compiled_after_clauses_) restore_else_of_leaving_clauses(body);
        place_negations(body, none_tests_);
        return body;
    }

public:
    // `global` / `nonlocal` statements for the names this code binds outside itself: a store or
    // `del` of a global (STORE_GLOBAL), or of a free variable (STORE_DEREF of a co_freevars name).
    Body declarations() const {
        std::vector<std::string> globals, nonlocals;
        auto add = [](std::vector<std::string>& names, const std::string& name) {
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        };
        auto declare = [&](Scope scope, const std::string& name) {
            if (scope == Scope::Global) add(globals, name);
            if (scope != Scope::Deref) return;  // (most stores: no need to look through the tables)
            // (A name both free and a cell here is a comprehension variable inlined into this code
            // (3.12+) that shadows a free variable: its stores go to the comprehension's cell.)
            bool free = std::find(code_.freevars.begin(), code_.freevars.end(), name) != code_.freevars.end() &&
                        std::find(code_.cellvars.begin(), code_.cellvars.end(), name) == code_.cellvars.end();
            if (free) add(nonlocals, name);
        };
        for (const auto& op : ops_)
            if ((op.kind == N::Store || op.kind == N::Delete) && op.scope == Scope::Deref) {
                // (By slot: a cell may share the name. An inlined comprehension's variable that
                // shadows a free variable is stored in that free slot, made a new cell for it: it
                // declares nothing; `nonlocal T` is a SyntaxError for a type parameter.)
                if (op.free_slot && !comprehension_scoped_.count(&op)) add(nonlocals, op.name);
            } else if (op.kind == N::Store || op.kind == N::Delete) {
                declare(op.scope, op.name);
            }
        // An assignment expression in a comprehension binds in this code: its store is this
        // code's (a global, or a free variable of this code too: nonlocal here).
        for (const auto& [name, scope] : comprehension_walrus_stores_) declare(scope, name);
        for (const auto& name : globals_shadowed_around()) add(globals, name);
        // A free variable that no op names was declared `nonlocal` and never used (the function
        // still closes over it: types._cell_factory returns that cell). The compiler's own cells
        // (__class__ for super(), __classdict__ and .type_params for 3.12+ generics) are made by
        // what uses them.
        for (const auto& name : code_.freevars) {
            if (is_compiler_cell(name)) continue;
            bool named = std::any_of(ops_.begin(), ops_.end(), [&](const NeutralOp& op) { return op.name == name; });
            if (!named) add(nonlocals, name);
        }
        Body out;
        for (auto [kind, names] : {std::make_pair(StmtKind::Global, &globals), std::make_pair(StmtKind::Nonlocal, &nonlocals)}) {
            if (names->empty()) continue;
            auto d = make_stmt(kind);
            d->identifiers = *names;
            out.push_back(d);
        }
        return out;
    }

    // Names the source must bind in code that never runs. A local that the code reads but never
    // stores or deletes (its only binding was dead code the compiler dropped, `if False: x = 0`):
    // a read of it would compile to a global one. `if False: x = None` binds it, and compiles to
    // nothing. (Cells: below.)
    Body dead_bindings() const {
        if (!(code_.flags & kCoOptimized)) return {};
        size_t args = size_t(code_.argcount + code_.kwonlyargcount) + ((code_.flags & kCoVarargs) ? 1 : 0) +
                      ((code_.flags & kCoVarkeywords) ? 1 : 0);
        auto arg_end = code_.varnames.begin() + std::ptrdiff_t(std::min(args, code_.varnames.size()));
        // (An inlined comprehension's variable is not the local of the same name around it: its
        // loads and stores, the restores after it and in its handler, do not count.)
        std::vector<std::string_view> stored;  // (sorted once, then searched)
        std::vector<std::string> unbound;
        std::vector<bool> in_comprehension_cleanup(ops_.size(), false);
        if (!comprehension_scoped_.empty()) mark_comprehension_cleanups(in_comprehension_cleanup);
        for (size_t k = 0; k < ops_.size(); ++k) {
            const NeutralOp& op = ops_[k];
            if ((op.kind == N::Store || op.kind == N::Delete) && op.scope == Scope::Fast && !comprehension_scoped_.count(&op) &&
                !in_comprehension_cleanup[k])
                stored.push_back(op.name);
        }
        std::sort(stored.begin(), stored.end());
        for (const auto& op : ops_) {
            if (op.kind != N::Load || op.scope != Scope::Fast || comprehension_scoped_.count(&op) ||
                std::binary_search(stored.begin(), stored.end(), std::string_view(op.name)))
                continue;
            // (3.13 loads a cell or free variable to close over it with LOAD_FAST: neither is a plain local.)
            if (std::find(code_.cellvars.begin(), code_.cellvars.end(), op.name) != code_.cellvars.end() ||
                std::find(code_.freevars.begin(), code_.freevars.end(), op.name) != code_.freevars.end())
                continue;
            if (std::find(code_.varnames.begin(), arg_end, op.name) != arg_end) continue;
            if (std::find(unbound.begin(), unbound.end(), op.name) == unbound.end()) unbound.push_back(op.name);
        }
        // A cell the code never stores that no nested code closes over (which may bind it: a
        // comprehension's walrus) but that is passed on as a value or kept for nothing (an empty
        // cell of rewritten code): unbound in the source, its name would be a global of the
        // lambda that spells or keeps it.
        std::vector<std::string_view> stored_cells;
        if (!code_.cellvars.empty())
            for (const auto& op : ops_)
                if ((op.kind == N::Store || op.kind == N::Delete) && op.scope == Scope::Deref) stored_cells.push_back(op.name);
        for (const auto& name : code_.cellvars) {
            if (is_compiler_cell(name)) continue;
            if (std::find(code_.varnames.begin(), arg_end, name) != arg_end) continue;
            if (std::find(stored_cells.begin(), stored_cells.end(), std::string_view(name)) != stored_cells.end()) continue;
            if (captured_by_nested_code(name)) continue;
            if (std::find(unbound.begin(), unbound.end(), name) == unbound.end()) unbound.push_back(name);
        }
        Body out;
        for (const auto& name : unbound) {
            if (!is_identifier(name)) unsupported("a local variable whose name is not an identifier");
            auto store = make_stmt(StmtKind::Assign);
            store->targets.push_back(make_name(name));
            store->value = make_constant(none_value());
            out.push_back(never_run(store));
        }
        // Cells no nested function closes over (a rewriter dropped the comprehension or closure
        // that used them: Dynamo keeps the original's cells): `if False: lambda: (a, b)` makes
        // them cells again, and compiles to nothing.
        if (auto cells = uncaptured_cells(); !cells.empty()) {
            auto lambda = make_expr(ExprKind::Lambda);
            lambda->args = std::make_shared<Arguments>();
            if (cells.size() == 1) {
                lambda->value = make_name(cells[0]);
            } else {
                lambda->value = make_expr(ExprKind::Tuple);
                for (const auto& name : cells) lambda->value->elts.push_back(make_name(name));
            }
            auto use = make_stmt(StmtKind::Expr);
            use->value = lambda;
            out.push_back(never_run(use));
        }
        return out;
    }

    // The ops of the blocks that are inlined comprehensions' handlers (is_comprehension_cleanup).
    void mark_comprehension_cleanups(std::vector<bool>& marked) const {
        for (int b = 0; b < cfg_.size(); ++b) {
            const Block& blk = cfg_.block(b);
            std::vector<const NeutralOp*> ops;
            for (size_t k = blk.first; k < blk.last; ++k) ops.push_back(&ops_[k]);
            if (is_comprehension_cleanup(ops))
                for (size_t k = blk.first; k < blk.last; ++k) marked[k] = true;
        }
    }

    // Names a def reads as globals (itself, or the lambdas and comprehensions in it, which cannot
    // declare) where a function around it binds the same name: printed without `global name`,
    // the read would close over that binding (test__interpreters: `global w` in a nested def).
    std::vector<std::string> globals_shadowed_around() const {
        std::vector<std::string> out;
        // A module or class body reads its names with LOAD_NAME: a LOAD_GLOBAL is a `global`
        // declaration's (but 3.8's asserts load AssertionError so anywhere), which a class inside
        // a function binding the name needs, and which skips the class namespace.
        // (3.12+ inline comprehensions, whose reads of globals stay LOAD_GLOBAL: those are none.)
        if (!(code_.flags & kCoOptimized)) return declared_global_reads_;
        if (enclosing_functions_.empty() || code_.name == "<lambda>" || in_comprehension_code()) return out;
        auto bound_around = [&](const std::string& name) {
            for (const CodeObject* e : enclosing_functions_)
                if (std::find(e->varnames.begin(), e->varnames.end(), name) != e->varnames.end() ||
                    std::find(e->cellvars.begin(), e->cellvars.end(), name) != e->cellvars.end())
                    return true;
            return false;
        };
        auto note = [&](const std::string& name) {
            if (bound_around(name) && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        };
        for (const auto& op : ops_)
            if (op.kind == N::Load && op.scope == Scope::Global) note(op.name);
        // (Only where a name is bound around at all are the nested codes decoded.)
        auto any_bound = [&](const CodeObject& c) {
            return std::any_of(c.names.begin(), c.names.end(), bound_around);
        };
        std::vector<const CodeObject*> work;
        auto push_inline_children = [&](const CodeObject& c) {
            for (const auto& k : c.consts)
                if (k && k->kind == PyValue::Kind::Code && k->code) {
                    const std::string& n = k->code->name;
                    if (n == "<lambda>" || n == "<listcomp>" || n == "<setcomp>" || n == "<dictcomp>" || n == "<genexpr>")
                        work.push_back(k->code.get());
                }
        };
        push_inline_children(code_);
        while (!work.empty()) {
            const CodeObject* c = work.back();
            work.pop_back();
            push_inline_children(*c);
            if (!any_bound(*c)) continue;
            for (const Instruction& ins : decode_instructions(*c, table_for(*c)))
                if (ins.op == Opcode::LOAD_GLOBAL && ins.index >= 0 && size_t(ins.index) < c->names.size()) note(c->names[size_t(ins.index)]);
        }
        return out;
    }

    // The compiler's own cells (__class__ for super(), __classdict__ and .type_params for 3.12+
    // generics), which no source binds: made by what uses them.
    static bool is_compiler_cell(const std::string& name) {
        return name.empty() || name[0] == '.' || name == "__class__" || name == "__classdict__";
    }

    static StmtPtr never_run(const StmtPtr& s) {
        auto dead = make_stmt(StmtKind::If);
        dead->test = make_constant(false_value());
        dead->body.push_back(s);
        return dead;
    }

    // Whether a code object this code loads (to make a function, class body or comprehension) has
    // `name` as a free variable.
    bool captured_by_nested_code(const std::string& name) const {
        return std::any_of(ops_.begin(), ops_.end(), [&](const NeutralOp& op) {
            const ObjectRef& c = op.value;
            return op.kind == N::LoadConst && c && c->kind == PyValue::Kind::Code && c->code &&
                   std::find(c->code->freevars.begin(), c->code->freevars.end(), name) != c->code->freevars.end();
        });
    }

    // A function's cell variables that no code object it loads (to make a function, class body or
    // comprehension) has as a free variable; the compiler's own cells of class bodies and type
    // parameters aside. (Dynamo keeps the original's constants: a comprehension it traced through
    // is still among them, no longer loaded.)
    std::vector<std::string> uncaptured_cells() const {
        std::vector<std::string> out;
        if (!(code_.flags & kCoOptimized)) return out;
        for (const auto& name : code_.cellvars) {
            if (is_compiler_cell(name)) continue;
            if (std::find(code_.freevars.begin(), code_.freevars.end(), name) != code_.freevars.end()) continue;
            // (A cell loaded as a value is spelled by a lambda closing over it: captured too.)
            bool as_value = std::any_of(ops_.begin(), ops_.end(), [&](const NeutralOp& op) {
                return op.kind == N::LoadClosure && op.name == name;
            });
            if (as_value || captured_by_nested_code(name)) continue;
            if (!is_identifier(name)) unsupported("a cell variable whose name is not an identifier");
            out.push_back(name);
        }
        return out;
    }

    // A cell used as a value (LOAD_CLOSURE's, passed on by rewritten bytecode; no closure tuple took
    // it): `(lambda: x).__closure__[0]` is that cell object, and evaluating it runs no user code,
    // as loading the cell did. The stand-in node becomes it in place.
    static void spell_cell(Expr& e, const std::string& name) {
        auto lambda = make_expr(ExprKind::Lambda);
        lambda->args = std::make_shared<Arguments>();
        lambda->value = make_name(name);
        auto closure = make_expr(ExprKind::Attribute);
        closure->value = lambda;
        closure->id = "__closure__";
        auto zero = std::make_shared<PyValue>();
        zero->kind = PyValue::Kind::Int;
        e.kind = ExprKind::Subscript;
        e.id.clear();
        e.value = closure;
        e.index = make_constant(zero);
    }

    // Invariant of a finished body: no value of the simulation's own (names in <angle brackets>,
    // which no identifier can be: a def's function object, an imported module, ...) is left to be
    // printed as if it were code, at any depth of an expression.
    static void check_no_marker_in(const ExprPtr& e) {
        if (e->kind == ExprKind::Name && e->id.compare(0, 6, "<cell ") == 0 && e->id.back() == '>') {
            spell_cell(*e, e->id.substr(6, e->id.size() - 7));
            return;
        }
        if (e->kind == ExprKind::Name && !e->id.empty() && e->id[0] == '<') {
            for (const char* handler_only : {kException, kPreviousException, kExceptionMatches, kReraise})
                if (e->id == handler_only) unsupported("exception handling of an unusual shape (" + e->id + " left over)");
            unsupported("a value of unusual bytecode (" + e->id + ") left in the output");
        }
        for_each_child_slot(*e, [](const ExprPtr& c) { check_no_marker_in(c); });
    }

    static void check_no_marker_in(const PatternPtr& p) {
        if (!p) return;
        for (const ExprPtr* e : {&p->value, &p->cls})
            if (*e) check_no_marker_in(*e);
        for (const ExprPtr& k : p->keys) check_no_marker_in(k);
        for (const PatternPtr& q : p->patterns) check_no_marker_in(q);
        for (const PatternPtr& q : p->kwd_patterns) check_no_marker_in(q);
        check_no_marker_in(p->pattern);
    }

    // (Every body is checked, exception handlers' included: the exception, its match test and the
    // re-raise are such values too, and an except clause that did not fold them in leaves them.)
    static void check_no_markers(const Body& body) {
        for (const StmtPtr& s : body) {
            // (A def's or class's body was checked when it was built; its decorators and defaults are here.)
            for_each_child_body(s, [](const Body& b, bool) { check_no_markers(b); });
            for_each_own_expr(*s, [](const ExprPtr& e) {
                if (e) check_no_marker_in(e);
            });
            for (const MatchCase& c : s->cases) check_no_marker_in(c.pattern);
            for (const TypeParam& t : s->type_params)
                for (const ExprPtr* e : {&t.bound, &t.default_value})
                    if (*e) check_no_marker_in(*e);
        }
    }

private:
    // Invariant between structuring and printing: no reachable code was left out.
    void check_every_block_emitted() const {
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work = work_list(0);
        while (!work.empty() && cfg_.size() > 0) {
            int b = work.back();
            work.pop_back();
            if (b < 0 || seen[b]) continue;
            seen[b] = true;
            if (!emitted_[b])
                unsupported("control flow the structurer did not cover (block at offset " +
                            std::to_string(cfg_.block(b).offset) + ")");
            for (int s : cfg_.block(b).succs) work.push_back(s);
            if (cfg_.block(b).handler >= 0) work.push_back(cfg_.block(b).handler);
        }
    }

    // Bodies of comprehension code objects: `.0` is the iterator argument.
    const CodeObject& code() const { return code_; }

private:
    // ---------------------------------------------------------------- expression helpers
    ExprPtr pop(std::vector<ExprPtr>& stack) {
        if (stack.empty()) unsupported("stack underflow (unusual bytecode)");
        ExprPtr e = stack.back();
        stack.pop_back();
        return e;
    }
    // A work list of blocks for a walk over the graph, starting at `first`, with room for every
    // block once (grown from one element it reallocated on most walks).
    std::vector<int> work_list(int first) const {
        std::vector<int> work;
        work.reserve(size_t(std::max(cfg_.size(), 1)));
        work.push_back(first);
        return work;
    }

    // A copy of a stack that the simulation goes on pushing to, with room to grow: a plain copy
    // has no spare capacity, and its first push reallocated it.
    static constexpr size_t kStackRoom = 8;
    static std::vector<ExprPtr> stack_copy(const std::vector<ExprPtr>& stack) {
        std::vector<ExprPtr> copy;
        copy.reserve(stack.size() + kStackRoom);
        copy.assign(stack.begin(), stack.end());
        return copy;
    }
    std::vector<ExprPtr> pop_n(std::vector<ExprPtr>& stack, int64_t n) {
        if (n < 0 || size_t(n) > stack.size()) unsupported("stack underflow (unusual bytecode)");
        std::vector<ExprPtr> items(stack.end() - n, stack.end());
        stack.resize(stack.size() - n);
        return items;
    }
    bool is_null(const ExprPtr& e) const { return null_.is(e); }
    // Values that print nothing when left as an expression statement.
    bool is_silent(const ExprPtr& e) const {
        return exception_.is(e) || previous_exception_.is(e) || silent_.count(e.get());
    }

    // Side tables are keyed by node address; the node is kept alive so its address is never reused.
    const Expr* keep(const ExprPtr& e) {
        keep_alive_.push_back(e);
        return e.get();
    }

    ExprPtr constant_expr(const ObjectRef& value) { return make_constant(value); }

    static bool is_const_kind(const ExprPtr& e, PyValue::Kind kind) {
        return e && e->kind == ExprKind::Constant && e->constant && e->constant->kind == kind;
    }

    // Constant tuples/frozensets that the compiler folded out of displays become displays again.
    ExprPtr unfold_constant_collection(const ExprPtr& e, ExprKind as) {
        auto display = make_expr(as);
        for (const auto& item : e->constant->items) display->elts.push_back(make_constant(item));
        return display;
    }

    // The negation of a test (only ever used for tests, where the compiler reads `not` the same way).
    // `not e`, as the AST optimizer folds it where `e` is one `is`/`in` comparison (`a is not b`).
    ExprPtr negate_folding(const ExprPtr& e) {
        static const std::map<std::string, std::string> flipped = {
            {"is", "is not"}, {"is not", "is"}, {"in", "not in"}, {"not in", "in"}};
        if (e->kind != ExprKind::Compare || e->ops.size() != 1 || !flipped.count(e->ops[0])) return negate(e);
        auto n = std::make_shared<Expr>(*e);
        n->ops[0] = flipped.at(e->ops[0]);
        return n;
    }

    ExprPtr negate(const ExprPtr& e) {
        if (e->kind == ExprKind::UnaryOp && e->id == "not") return e->value;
        // not (not a or not b) is a and b: the compiler pushes `not` through `and`/`or` when it
        // jumps on a test, so both compile alike. (Never `not` onto a leaf that is not negated
        // already: the AST optimizer folds `not (a is b)` into `a is not b`, another op.)
        if (e->kind == ExprKind::BoolOp &&
            std::all_of(e->elts.begin(), e->elts.end(), [](const ExprPtr& x) { return x->kind == ExprKind::UnaryOp && x->id == "not"; })) {
            auto flipped = make_expr(ExprKind::BoolOp);
            flipped->id = e->id == "and" ? "or" : "and";
            for (const auto& x : e->elts) flipped->elts.push_back(x->value);
            return flipped;
        }
        auto n = make_expr(ExprKind::UnaryOp);
        n->id = "not";
        n->value = e;
        return n;
    }

    ExprPtr bool_op(const std::string& op, const ExprPtr& a, const ExprPtr& b) {
        // `a < b and b < c` over the same `b` is a comparison chain.
        if (op == "and" && a->kind == ExprKind::Compare && b->kind == ExprKind::Compare && !a->elts.empty() &&
            a->elts.back() == b->left && chain_shared_.count(b->left.get())) {
            auto chain = make_expr(ExprKind::Compare);
            chain->left = a->left;
            chain->ops = a->ops;
            chain->elts = a->elts;
            chain->ops.insert(chain->ops.end(), b->ops.begin(), b->ops.end());
            chain->elts.insert(chain->elts.end(), b->elts.begin(), b->elts.end());
            return chain;
        }
        auto e = make_expr(ExprKind::BoolOp);
        e->id = op;
        // (An operand may be a function a lambda made: `key or (lambda x: x)`.)
        for (const auto& side : {lambda_or(a), lambda_or(b)}) {
            if (side->kind == ExprKind::BoolOp && side->id == op) e->elts.insert(e->elts.end(), side->elts.begin(), side->elts.end());
            else e->elts.push_back(side);
        }
        return e;
    }

    // ---------------------------------------------------------------- statements
    void emit_stmt(Body& out, StmtPtr s) {
        // (Code of an except clause's block after its POP_EXCEPT runs after the clause: see
        // require_no_code_after_clause.)
        if (current_stack_ && !open_clauses_.empty() && pops_except_before(cfg_.block_of_op(current_op_), &ops_[current_op_])) {
            run_after_clause_.insert(s.get());
            dropped_copies_.push_back(s);  // (kept alive: its address is a key)
        }
        if (current_stack_) {
            name_shared_operands(out, *current_stack_, *s);
            materialize_deferred(out, *current_stack_, *s);
        }
        if (out.capacity() == 0) out.reserve(4);  // (a body grown from one statement reallocated at two and four)
        out.push_back(std::move(s));
    }

    // ---------------------------------------------------------------- values kept on the stack
    // The simulation defers evaluation: a value stays an expression tree on the stack until a
    // statement uses it. Before a statement is written, every value still waiting on the stack that
    // the statement could change (it rebinds a name the value reads) or that ran effects before the
    // statement's own is written to a temporary first; a value that COPY duplicated is written to
    // a name before it is used twice. The compiler's own shapes (chained and parallel assignment,
    // augmented assignment, comparison chains) never need this; bytecode rewriters' do.
    bool is_marker_value(const ExprPtr& v) const {
        // Every stand-in is a Name node made by marker(), named in <angle brackets> except
        // AssertionError's: most values are not, and are told apart here, inline, without the
        // side tables.
        if (v && (v->kind != ExprKind::Name || ((v->id.empty() || v->id[0] != '<') && !assertion_error_.is(v)))) return false;
        return is_stand_in(v);
    }

    [[gnu::noinline]] bool is_stand_in(const ExprPtr& v) const {
        return !v || is_null(v) || v == for_value_ || is_silent(v) || slots_.count(v.get()) || imports_.count(v.get()) ||
               functions_.count(v.get()) || classes_.count(v.get()) || import_froms_.count(v.get()) ||
               with_context_.count(v.get()) || build_class_.is(v) || assertion_error_.is(v) || exception_.is(v) ||
               previous_exception_.is(v) || reraise_.is(v) || element_marker_.is(v) || generic_defs_.count(v.get()) ||
               type_param_values_.count(v.get()) || generic_functions_.count(v.get());
    }

    // Values whose identity matters when duplicated: everything but names and constants.
    bool is_shareable(const ExprPtr& v) const {
        return !is_marker_value(v) && v->kind != ExprKind::Name && v->kind != ExprKind::Constant;
    }

    // The children evaluated when `e` is evaluated in this scope: a lambda's body and a
    // comprehension's element and conditions run later, in a scope of their own. Only the
    // children there are (most of a node's slots are empty, and this is on the hot path).
    template <class F>
    static void for_each_evaluated_child(const Expr& e, F&& f) {
        auto visit = [&](const ExprPtr& c) {
            if (c) f(c);
        };
        if (is_leaf(e)) return;
        switch (e.kind) {
        case ExprKind::Lambda:
            if (e.args) {
                for (const auto& d : e.args->defaults) visit(d);
                for (const auto& d : e.args->kw_defaults) visit(d);
            }
            return;
        case ExprKind::ListComp: case ExprKind::SetComp: case ExprKind::DictComp: case ExprKind::GeneratorExp:
            if (!e.generators.empty()) visit(e.generators[0].iter);
            return;
        default: break;
        }
        for (const ExprPtr* p : {&e.value, &e.index, &e.left, &e.right, &e.test, &e.body, &e.orelse, &e.lower, &e.upper,
                                 &e.step, &e.elt, &e.format_spec})
            visit(*p);
        for (const auto& x : e.elts) visit(x);
        for (const auto& x : e.values) visit(x);
        for (const auto& k : e.keywords) visit(k.value);
    }

    static void collect_nodes(const ExprPtr& e, std::unordered_set<const Expr*>& out) {
        if (!e || !out.insert(e.get()).second) return;
        for_each_evaluated_child(*e, [&](const ExprPtr& c) { collect_nodes(c, out); });
    }

    // `__stackN = value`, a new temporary; the name is the statement's target.
    StmtPtr temporary_assignment(const ExprPtr& value) {
        auto s = make_stmt(StmtKind::Assign);
        s->targets.push_back(make_name(new_temporary()));
        s->value = lambda_or(value);
        return s;
    }

    std::string new_temporary() {
        for (;;) {
            std::string name = "__stack" + std::to_string(temporaries_++);
            bool taken = false;
            for (const auto* table : {&code_.varnames, &code_.names, &code_.cellvars, &code_.freevars, &code_.localsplus_names})
                for (const auto& n : *table) taken = taken || n == name;
            if (!taken) return name;
        }
    }

    void replace_everywhere(std::vector<ExprPtr>& stack, const ExprPtr& from, const ExprPtr& to) {
        for (auto& e : stack)
            e = replace_node(e, from.get(), to, [&](const Expr* old, const ExprPtr& copy) {
                if (inplace_.count(old)) inplace_.insert(keep(copy));
                if (converted_.count(old)) converted_.insert(keep(copy));
                if (chain_shared_.count(old)) chain_shared_.insert(keep(copy));
            });
    }

    // A statement that uses a value of which COPY left another copy on the stack (an item stored
    // into a list that is used again) must use the same object: the value gets a name first.
    void name_shared_operands(Body& out, std::vector<ExprPtr>& stack, Stmt& s) {
        if (stack.size() <= base_) return;
        std::unordered_set<const Expr*> own;
        for_each_own_expr(s, [&](const ExprPtr& e) { collect_nodes(e, own); });
        for (size_t k = base_; k < stack.size(); ++k) {
            ExprPtr v = stack[k];
            if (!is_shareable(v) || v == s.value || !own.count(v.get()) || consumed_after_cleanup_.count(v.get())) continue;
            if (s.kind == StmtKind::Assign && !s.targets.empty() && chain_assign_.count(v.get()) && chained_store_follows()) continue;
            ExprPtr name = materialize(out, stack, v);
            std::function<ExprPtr(const ExprPtr&)> sub = [&](const ExprPtr& e) {
                return replace_node(e, v.get(), name, [](const Expr*, const ExprPtr&) {});
            };
            for (ExprPtr* p : {&s.target, &s.value, &s.test, &s.iter, &s.cause, &s.msg})
                if (*p) *p = sub(*p);
            for (auto& t : s.targets) t = sub(t);
        }
    }

    void materialize_deferred(Body& out, std::vector<ExprPtr>& stack, const Stmt& s) {
        if (stack.size() <= base_) return;
        std::unordered_set<const Expr*> own;
        for_each_own_expr(s, [&](const ExprPtr& e) { collect_nodes(e, own); });
        uint64_t last_effect = 0, first_effect = UINT64_MAX;
        for (const Expr* n : own)
            if (has_own_effect(*n)) {
                last_effect = std::max(last_effect, n->serial);
                first_effect = std::min(first_effect, n->serial);
            }
        // `del name` has no expression but is an action of its own (rewriters put them between a
        // call and the store of its result to free memory early): values computed with effects
        // before it keep their place.
        if (s.kind == StmtKind::Delete) last_effect = first_effect = UINT64_MAX;
        std::set<std::string> bound = names_bound_by(s);
        // A store to a name other code can read (a global, a cell, a module or class namespace)
        // is itself an action, after the statement's own effects: a value with effects computed
        // before it (a subscript may run __getitem__, which may read that name) keeps its place.
        if (binds_shared_name(bound)) last_effect = UINT64_MAX;
        std::vector<ExprPtr> spill;
        auto ordered = [&](const Expr& n) { return has_own_effect(n) || rebindable_reads_.count(&n); };
        uint64_t spilled_last = 0;  // the last effect of the values written so far
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t k = base_; k < stack.size(); ++k) {
                const ExprPtr& v = stack[k];
                if (is_marker_value(v) || v == s.value || own.count(v.get()) || consumed_after_cleanup_.count(v.get()) ||
                    std::find(parallel_values_.begin(), parallel_values_.end(), v) != parallel_values_.end() ||
                    std::find(spill.begin(), spill.end(), v) != spill.end())
                    continue;
                std::unordered_set<const Expr*> nodes;
                collect_nodes(v, nodes);
                bool needed = false;
                uint64_t last = 0;
                for (const Expr* n : nodes) {
                    if (own.count(n)) continue;
                    if (n->kind == ExprKind::Name && bound.count(n->id)) needed = true;
                    if (n->kind == ExprKind::NamedExpr) needed = true;  // its binding came before the statement
                    if (ordered(*n) && n->serial < std::max(last_effect, spilled_last)) needed = true;
                    if (ordered(*n)) last = std::max(last, n->serial);
                }
                if (!needed) continue;
                // A value written now goes before the statement: one whose effects came before its
                // own is written too (an assignment expression is written whatever the statement).
                spill.push_back(v);
                if (last > spilled_last) spilled_last = last, grew = true;
            }
        }
        if (spill.empty()) return;
        std::stable_sort(spill.begin(), spill.end(), [](const ExprPtr& a, const ExprPtr& b) { return a->serial < b->serial; });
        uint64_t previous_last = 0;
        for (const auto& v : spill) {
            std::unordered_set<const Expr*> nodes;
            collect_nodes(v, nodes);
            uint64_t lo = UINT64_MAX, hi = 0;
            for (const Expr* n : nodes)
                if (!own.count(n) && has_own_effect(*n)) {
                    lo = std::min(lo, n->serial);
                    hi = std::max(hi, n->serial);
                }
            if (hi && (lo < previous_last || hi > first_effect))
                unsupported("values computed in an order no statement sequence can show (unusual bytecode)");
            if (hi) previous_last = hi;
            StmtPtr assign_stmt = temporary_assignment(v);
            out.push_back(assign_stmt);
            replace_everywhere(stack, v, assign_stmt->targets[0]);
        }
    }

    bool is_stable_global(const std::string& name) const {
        return std::any_of(options_.stable_global_prefixes.begin(), options_.stable_global_prefixes.end(),
                           [&](const std::string& prefix) { return name.compare(0, prefix.size(), prefix) == 0; });
    }

    // Whether one of `names` is bound where code outside this frame sees it: everything in a module
    // or class body (a namespace), and in a function a global (a name of co_names that is no local)
    // or a cell or free variable. (The decompiler's own temporaries are in no table: locals.)
    bool binds_shared_name(const std::set<std::string>& names) const {
        if (names.empty()) return false;
        if (!(code_.flags & kCoOptimized)) return true;
        auto in = [](const std::vector<std::string>& table, const std::string& name) {
            return std::find(table.begin(), table.end(), name) != table.end();
        };
        for (const auto& name : names)
            if (in(code_.cellvars, name) || in(code_.freevars, name) || (in(code_.names, name) && !in(code_.varnames, name)))
                return true;
        return false;
    }

    // Writes `value` to a name (its alias if a store already named it) and puts the name in its
    // place on the stack; returns the name.
    ExprPtr materialize(Body& out, std::vector<ExprPtr>& stack, const ExprPtr& value) {
        ExprPtr name;
        if (auto it = alias_.find(value.get()); it != alias_.end()) {
            name = it->second;
        } else {
            StmtPtr s = temporary_assignment(value);
            name = s->targets[0];
            emit_stmt(out, s);
        }
        replace_everywhere(stack, value, name);
        return name;
    }

    static size_t references(const std::vector<ExprPtr>& stack, const Expr* node, bool* nested) {
        size_t n = 0;
        for (const auto& e : stack) count_references(e, node, false, n, nested);
        return n;
    }

    static void count_references(const ExprPtr& e, const Expr* node, bool inner, size_t& n, bool* nested) {
        if (!e) return;
        if (e.get() == node) {
            ++n;
            if (inner && nested) *nested = true;
            return;
        }
        for_each_evaluated_child(*e, [&](const ExprPtr& c) { count_references(c, node, true, n, nested); });
    }

    // Stack values that COPY duplicated (more than one slot holds the same node).
    std::vector<ExprPtr> shared_values(const std::vector<ExprPtr>& stack) const {
        std::vector<ExprPtr> out;
        if (stack.size() < 2) return out;  // (runs before every op: fewer than two values repeat none)
        for (size_t i = 0; i < stack.size(); ++i) {
            if (!is_shareable(stack[i]) || std::find(out.begin(), out.end(), stack[i]) != out.end()) continue;
            for (size_t j = i + 1; j < stack.size(); ++j)
                if (stack[j] == stack[i]) {
                    out.push_back(stack[i]);
                    break;
                }
        }
        return out;
    }

    // Whether the ops after the current one load an item, slice or attribute and update it in place
    // (`x[i] += v`, `x[a:b] += v`, `x.a += v` duplicate x, i, a and b with COPY and use them twice
    // by design).
    bool augmented_update_follows() const {
        for (size_t i = current_op_ + 1; i < ops_.size(); ++i) {
            const NeutralOp& op = ops_[i];
            if (op.kind == N::BinaryOp && op.inplace) return true;
            if (is_block_terminator(op.kind) || op.kind == N::Store || op.kind == N::StoreAttr || op.kind == N::StoreSubscr ||
                op.kind == N::Delete || op.kind == N::Pop)
                return false;
        }
        return false;
    }

    // ---------------------------------------------------------------- assignment expressions
    // `(name := value)`: the value is duplicated (COPY 1 / DUP_TOP right before, in the same block),
    // one copy stored to a name and the other left for an enclosing expression. Not when another
    // store takes that copy (`a = b = value`), nor for the class body's `__classcell__` store
    // (its copy is returned), nor when a value still waiting below reads the name: it was read
    // before the binding, and would be printed after it.
    bool is_walrus_store(const NeutralOp& store, const ExprPtr& value, const std::vector<ExprPtr>& stack) const {
        if (current_op_ == 0 || ops_[current_op_ - 1].kind != N::Copy || ops_[current_op_ - 1].arg != 1 ||
            cfg_.block_of_op(current_op_ - 1) != cfg_.block_of_op(current_op_))
            return false;
        auto function = functions_.find(value.get());
        bool lambda = function != functions_.end() && function->second.code->name == "<lambda>";
        if (stack.size() <= base_ || stack.back() != value || (is_marker_value(value) && !lambda) || store.name == "__classcell__")
            return false;
        if (store.scope == Scope::ClassDeref || copy_stored_again()) return false;
        for (size_t k = base_; k + 1 < stack.size(); ++k)
            if (reads_name(stack[k], store.name)) return false;
        return true;
    }

    // Whether the next store in this block takes the copy left below the current op's value as
    // the value it stores (`a = b[i] = v`: the loads of b and i sit above the copy), rather than
    // as an operand (`b[(a := v)] = w`: the copy is the index).
    bool copy_stored_again() const {
        int above = 0;  // values the ops after the store pushed above the copy
        for (size_t i = current_op_ + 1; i < ops_.size() && cfg_.block_of_op(i) == cfg_.block_of_op(current_op_); ++i) {
            switch (ops_[i].kind) {
            case N::Load: case N::LoadConst: ++above; continue;
            case N::Nop: continue;
            // Copied once more for the next target of a chain (`a = b = c = v`): stored again too,
            // unless every store takes a copy (`(y := (x := v))`, see chained_store_follows).
            case N::Copy: return above == 0 && ops_[i].arg == 1 && chained_store_follows();
            case N::LoadAttr: case N::UnaryOp: if (above < 1) return false; continue;
            case N::Subscr: case N::BinaryOp: if (above < 2) return false; --above; continue;
            case N::Store: return above == 0;
            case N::StoreAttr: return above == 1;
            case N::StoreSubscr: return above == 2;
            case N::StoreSlice: return above == 3;
            default: return false;
            }
        }
        return false;
    }

    static bool reads_name(const ExprPtr& e, const std::string& name) {
        std::unordered_set<const Expr*> nodes;
        collect_nodes(e, nodes);
        for (const Expr* n : nodes)
            if (n->kind == ExprKind::Name && n->id == name) return true;
        return false;
    }

    ExprPtr named_expr(const NeutralOp& store, const ExprPtr& value) {
        auto e = make_expr(ExprKind::NamedExpr);
        e->left = make_name(store.name);
        e->value = lambda_or(value);
        walrus_stores_.push_back({store.name, store.scope});
        return e;
    }

    // A store followed by loads and another store of the same value: `a = b.c = value`.
    // (`a = b = c = v` copies the value again before each store but the last, which takes it; nested
    // assignment expressions, `(y := (x := v))`, store copies only and leave the value.)
    bool chained_store_follows() const {
        bool copied = false;
        for (size_t i = current_op_ + 1; i < ops_.size(); ++i) {
            switch (ops_[i].kind) {
            case N::Load: case N::LoadConst: case N::LoadAttr: case N::Subscr: case N::BuildSlice: case N::Nop: continue;
            case N::Copy:
                if (ops_[i].arg != 1) return false;
                copied = true;
                continue;
            case N::Store: case N::StoreAttr: case N::StoreSubscr: case N::StoreSlice:
                if (!copied) return true;
                copied = false;
                continue;
            default: return false;
            }
        }
        return false;
    }

    // A store of one value while other values of the same statement wait is one target of a
    // parallel assignment (`a, b = b, a + b`) only in the compiler's shape: at most three values,
    // the stored one not a COPY of another, then stored with only swaps and target loads in between.
    bool parallel_stores_follow(size_t pending) const {
        if (pending > 2) return false;
        for (size_t i = current_op_; i-- > 0;) {
            N kind = ops_[i].kind;
            if (kind == N::Copy) return false;
            if (!is_target_load(kind)) break;
        }
        size_t stores = 0;
        for (size_t i = current_op_ + 1; i < ops_.size() && stores < pending; ++i) {
            N kind = ops_[i].kind;
            if (kind == N::Store || kind == N::StoreAttr || kind == N::StoreSubscr || kind == N::StoreSlice) ++stores;
            else if (!is_target_load(kind) && !is_target_call(kind) && kind != N::Swap && kind != N::UnpackSequence && kind != N::UnpackEx)
                return false;
        }
        return stores >= pending;
    }

    // Calls, comparisons, lambdas and displays inside a target (`x[f(i, key=lambda v: v)]`): a
    // target is computed after the values and the stores before it, as the bytecode computes it.
    static bool is_target_call(N kind) {
        switch (kind) {
        case N::Call: case N::CallKw: case N::CallEx: case N::PushNull: case N::Compare: case N::MakeFunction:
        case N::LoadClosure: case N::BuildTuple: case N::BuildList: case N::BuildMap: case N::BuildConstKeyMap:
        case N::BuildString: case N::FormatValue: case N::GetIter:
            return true;
        default: return false;
        }
    }

    // Ops that compute the parts of an assignment target (`self.a`, `x[n - i - 1]`, `x[1:2]`).
    static bool is_target_load(N kind) {
        switch (kind) {
        case N::Load: case N::LoadConst: case N::LoadAttr: case N::Subscr: case N::BinaryOp: case N::UnaryOp: case N::BuildSlice:
        case N::Slice3: case N::Nop:
            return true;
        default: return false;
        }
    }

    // A value that only names temporaries and builds displays: dropping it changes nothing (bytecode
    // rewriters discard such scratch values with POP_TOP).
    static bool is_scratch(const ExprPtr& e) {
        if (!e) return true;
        switch (e->kind) {
        case ExprKind::Name: return e->id.compare(0, 7, "__stack") == 0;
        case ExprKind::Constant: return true;
        case ExprKind::Tuple: case ExprKind::List:
            for (const auto& x : e->elts) {
                const ExprPtr& item = x && x->kind == ExprKind::Starred && x->value &&
                                              (x->value->kind == ExprKind::List || x->value->kind == ExprKind::Tuple)
                                          ? x->value : x;
                if (!is_scratch(item)) return false;
            }
            return true;
        default: return false;
        }
    }

    void emit_expr_stmt(Body& out, const ExprPtr& e) {
        if (is_null(e) || e == for_value_ || is_silent(e)) return;
        if (e->kind != ExprKind::Constant && is_scratch(e)) return;
        // LOAD_CONST None; POP_TOP (a rewriter's placeholder) does nothing; no source compiles to it.
        if (is_const_kind(e, PyValue::Kind::None)) return;
        auto s = make_stmt(StmtKind::Expr);
        s->value = lambda_or(e);
        emit_stmt(out, s);
    }

    // Assigns `value` to `target`, folding markers: loop variables, unpacking slots, imports,
    // function and class definitions, augmented and chained assignments.
    // True when values of the statement being built are still on the stack: then a store is one
    // target of a parallel assignment (`a, b = b, a + b` stores while `b`'s value waits below).
    bool values_pending(const std::vector<ExprPtr>& stack, const ExprPtr& stored) const {
        return pending_count(stack, stored) > 0;
    }

    size_t pending_count(const std::vector<ExprPtr>& stack, const ExprPtr& stored) const {
        size_t n = 0;
        for_each_pending(stack, stored, [&](const ExprPtr&) { ++n; });
        return n;
    }

    template <class F>
    void for_each_pending(const std::vector<ExprPtr>& stack, const ExprPtr& stored, F&& f) const {
        for (size_t k = base_; k < stack.size(); ++k) {
            const ExprPtr& v = stack[k];
            // (A value a try or with body returns waits below its finally or __exit__ copy's statements.)
            if (v == stored || is_null(v) || v == for_value_ || is_silent(v) || slots_.count(v.get()) || imports_.count(v.get()) ||
                functions_.count(v.get()) || classes_.count(v.get()) || import_froms_.count(v.get()) ||
                consumed_after_cleanup_.count(v.get()))
                continue;
            f(v);
        }
    }

    void assign(Body& out, const ExprPtr& target, const ExprPtr& value, std::vector<ExprPtr>& stack) {
        // (An unpacked element fills its slot; the whole unpacking, once filled, may be one target.)
        if (auto it = slots_.find(value.get()); it != slots_.end()) {
            fill_slot(out, it->second, value, target);
            return;
        }
        if (parallel_targets_.empty() && value != for_value_ && values_pending(stack, value) &&
            !parallel_stores_follow(pending_count(stack, value))) {
            // Not a parallel assignment: an ordinary store while other values wait (bytecode
            // rewriters); those values are kept or written to temporaries by emit_stmt.
            assign_keeping_copies(out, target, value, stack);
            return;
        }
        if (parallel_targets_.size() || (value != for_value_ && values_pending(stack, value))) {
            // The values its stores take are those that waited when the first one came: a value
            // computed between the stores (rewritten bytecode) would print before them.
            if (parallel_targets_.empty()) {
                parallel_pending_.clear();
                for_each_pending(stack, value, [&](const ExprPtr& v) { parallel_pending_.push_back(v.get()); });
            } else if (std::find(parallel_pending_.begin(), parallel_pending_.end(), value.get()) == parallel_pending_.end()) {
                unsupported("values computed in an order no statement sequence can show (unusual bytecode)");
            }
            parallel_targets_.push_back(target);
            parallel_values_.push_back(value);
            if (values_pending(stack, value)) return;
            // Stores may come in any order (swaps or reordered stores); the source lists values in
            // the order they were computed.
            std::vector<size_t> order(parallel_values_.size());
            for (size_t k = 0; k < order.size(); ++k) order[k] = k;
            std::stable_sort(order.begin(), order.end(),
                             [&](size_t x, size_t y) { return parallel_values_[x]->serial < parallel_values_[y]->serial; });
            auto targets = make_expr(ExprKind::Tuple);
            auto values = make_expr(ExprKind::Tuple);
            for (size_t k : order) {
                targets->elts.push_back(parallel_targets_[k]);
                values->elts.push_back(parallel_values_[k]);
            }
            parallel_targets_.clear();
            parallel_values_.clear();
            auto s = make_stmt(StmtKind::Assign);
            s->targets.push_back(targets);
            s->value = values;
            emit_stmt(out, s);
            return;
        }
        assign_keeping_copies(out, target, value, stack);
    }

    // An assignment whose value COPY may have left on the stack as well: unless another store of
    // the same value follows (a chained assignment), the copy becomes a load of the stored name.
    void assign_keeping_copies(Body& out, const ExprPtr& target, const ExprPtr& value, std::vector<ExprPtr>& stack) {
        if (!current_stack_ || !is_shareable(value) || !references(stack, value.get(), nullptr) || chained_store_follows()) {
            assign(out, target, value);
            return;
        }
        if (target->kind == ExprKind::Name) {
            assign(out, target, value);
            auto name = make_name(target->id);
            alias_[keep(value)] = name;
            replace_everywhere(stack, value, name);
            return;
        }
        ExprPtr name = materialize(out, stack, value);
        assign(out, target, name);
    }

    void assign(Body& out, const ExprPtr& target, const ExprPtr& value) {
        if (value == for_value_) {
            for_target_ = target;
            return;
        }
        if (auto it = with_context_.find(value.get()); it != with_context_.end()) {
            with_target_[value.get()] = target;
            return;
        }
        if (auto it = slots_.find(value.get()); it != slots_.end()) {
            fill_slot(out, it->second, value, target);
            return;
        }
        if (auto it = imports_.find(value.get()); it != imports_.end()) return assign_import(out, target, value, it->second);
        if (auto it = import_froms_.find(value.get()); it != import_froms_.end()) {
            if (target->kind != ExprKind::Name) unsupported("from-import into a non-name target");
            auto& [module, name] = it->second;
            add_from_import(out, module, name, target->id);
            return;
        }
        if (target->kind == ExprKind::Name && try_definition(out, target->id, value)) return;
        if (inplace_.count(value.get()) && same_target(value->left, target)) {
            auto s = make_stmt(StmtKind::AugAssign);
            s->target = target;
            s->name = value->id;
            s->value = value->right;
            emit_stmt(out, s);
            return;
        }
        // (A chained assignment of a lambda: one function object, bound to every target.)
        if (!out.empty() && out.back()->kind == StmtKind::Assign && is_value(out.back()->value, value) && chain_assign_.count(value.get())) {
            out.back()->targets.push_back(target);
            return;
        }
        auto s = make_stmt(StmtKind::Assign);
        s->targets.push_back(target);
        s->value = lambda_or(value);
        emit_stmt(out, s);
    }

    static bool same_target(const ExprPtr& loaded, const ExprPtr& stored) {
        if (!loaded || !stored || loaded->kind != stored->kind) return false;
        switch (loaded->kind) {
        case ExprKind::Name: return loaded->id == stored->id;
        case ExprKind::Attribute: return loaded->id == stored->id && loaded->value == stored->value;
        case ExprKind::Subscript: return loaded->value == stored->value && same_index(loaded->index, stored->index);
        default: return false;
        }
    }

    // 3.12+ read and store `x[a:b]` with BINARY_SLICE / STORE_SLICE, each making its own slice of
    // the same (copied) bounds: `x[a:b] += v` stores to a slice equal to the one it read.
    static bool same_index(const ExprPtr& loaded, const ExprPtr& stored) {
        if (loaded == stored) return true;
        return loaded && stored && loaded->kind == ExprKind::Slice && stored->kind == ExprKind::Slice &&
               loaded->lower == stored->lower && loaded->upper == stored->upper && loaded->step == stored->step;
    }

    // The compiler's code stores the elements of an unpacked value first to last: `a, b = v` is
    // UNPACK_SEQUENCE 2; STORE a; STORE b. An element taken out of that order (a rewriter's SWAP
    // between the stores) would print as another assignment.
    size_t take_slot_in_order(PendingUnpack& unpack, const ExprPtr& slot) {
        size_t index = unpack.filled++;
        if (index >= unpack.targets.size()) unsupported("unpacking with more stores than targets");
        if (unpack.slots[index] != slot.get()) unsupported("unpacked values stored out of order (unusual bytecode)");
        return index;
    }

    void fill_slot(Body& out, const std::shared_ptr<PendingUnpack>& unpack, const ExprPtr& slot, const ExprPtr& target) {
        size_t index = take_slot_in_order(*unpack, slot);
        unpack->targets[index] = (int(index) == unpack->star_index) ? starred(target) : target;
        // Elements dropped right before this store went to the same name (3.13 drops the first of
        // two stores to one name: `_, _, x = ...`).
        for (size_t k = index; k-- > 0 && unpack->dropped.count(k) && !unpack->targets[k];) {
            if (target->kind != ExprKind::Name || int(k) == unpack->star_index) unsupported("unusual unpacking");
            unpack->targets[k] = target;
        }
        if (unpack->filled < unpack->targets.size()) return;
        for (const auto& t : unpack->targets)
            if (!t) unsupported("an unpacked element dropped without a store after it");
        auto tuple = make_expr(ExprKind::Tuple);
        tuple->elts = unpack->targets;
        // `(a, b), (c, d) = p(), q()` unpacks p() while q() waits (the compiler swaps the two
        // values instead of building and unpacking a tuple): one target of a parallel assignment,
        // not a statement of its own, which would call q() after unpacking p().
        if (current_stack_ && (!parallel_targets_.empty() || values_pending(*current_stack_, unpack->value))) {
            assign(out, tuple, unpack->value, *current_stack_);
            return;
        }
        assign(out, tuple, unpack->value);
    }

    static ExprPtr starred(const ExprPtr& e) {
        auto s = make_expr(ExprKind::Starred);
        s->value = e;
        return s;
    }

    void push_unpack(std::vector<ExprPtr>& stack, const ExprPtr& value, size_t count, int star_index) {
        auto unpack = std::make_shared<PendingUnpack>();
        unpack->value = value;
        unpack->targets.resize(count);
        unpack->star_index = star_index;
        // The first element ends up on top of the stack, so it is stored first.
        for (size_t k = 0; k < count; ++k) {
            auto slot = marker("<unpack slot>");
            slots_[keep(slot)] = unpack;
            unpack->slots.push_back(slot.get());
            stack.push_back(slot);
        }
        std::reverse(stack.end() - count, stack.end());
    }

    // Whether the `count` values the unpack at ops_[at] pushes are taken as the compiler's code
    // takes them: each by a store, a nested unpack or a drop, first element first, with nothing
    // else reading or moving them before. False when the ops that follow provably use one as an
    // ordinary value (rewritten bytecode: returned, shuffled, an operand). Where control flow
    // starts before they are all taken, the answer is true: the stores themselves check the order.
    bool unpacked_values_stored(size_t at, size_t count) const {
        constexpr int kOther = -1;
        std::vector<int> stack;  // above the unpacked value: element numbers, or kOther
        for (size_t k = count; k-- > 0;) stack.push_back(int(k));
        size_t next = 0;
        // Takes `n` values off the top; false if one is an element (an operand, not a target).
        auto pop_operands = [&](size_t n) {
            for (size_t k = 0; k < n; ++k) {
                if (stack.empty() || stack.back() != kOther) return false;
                stack.pop_back();
            }
            return true;
        };
        // Takes the value stored or unpacked: an element must be the next one.
        auto take_target_value = [&]() {
            if (stack.empty()) return false;
            int v = stack.back();
            stack.pop_back();
            if (v == kOther) return true;
            return size_t(v) == next++;
        };
        for (size_t i = at + 1; i < ops_.size() && next < count; ++i) {
            const NeutralOp& op = ops_[i];
            switch (op.kind) {
            case N::Store: case N::Pop:
                if (!take_target_value()) return false;
                continue;
            case N::StoreAttr: case N::StoreSubscr: case N::StoreSlice: {
                size_t operands = op.kind == N::StoreAttr ? 1 : op.kind == N::StoreSubscr ? 2 : 3;
                if (!pop_operands(operands) || !take_target_value()) return false;
                continue;
            }
            case N::UnpackSequence: case N::UnpackEx: {
                if (!take_target_value()) return false;
                stack.insert(stack.end(), size_t(*stack_effect(op) + 1), kOther);  // the elements it pushes
                continue;
            }
            case N::Swap: case N::Copy: {
                size_t depth = size_t(op.arg);
                if (depth == 0 || depth > stack.size()) return false;
                if (stack.back() != kOther || stack[stack.size() - depth] != kOther) return false;
                if (op.kind == N::Swap) std::swap(stack.back(), stack[stack.size() - depth]);
                else stack.push_back(kOther);
                continue;
            }
            case N::Return: case N::Yield:  // the last op looked at: the value on top leaves
                // (a type parameter's default `*Ts = *tuple[int]`: its function returns the one
                // element, which the slot machinery reads: type_params.h)
                return stack.empty() || stack.back() == kOther || (count == 1 && op.kind == N::Return);
            case N::BuildTuple:  // `*args: *Ts`: the one element goes into the annotations tuple,
                                 // which the slot machinery reads (is_starred_annotation)
                if (count == 1 && std::find(stack.end() - std::min(stack.size(), size_t(op.arg)), stack.end(), 0) != stack.end())
                    return true;
                break;
            case N::Raise:
                return pop_operands(size_t(op.arg));
            default: break;
            }
            if (op.target >= 0 || op.kind == N::ForIter) return true;  // control flow: the stores decide
            std::optional<int> effect = stack_effect(op);
            if (!effect) return true;
            // An operation computing one value from the ones on top (what target expressions are).
            int operands = 1 - *effect;
            if (operands < 0) operands = 0;
            if (!pop_operands(size_t(operands))) return false;
            stack.push_back(kOther);
        }
        return true;
    }

    // UNPACK_SEQUENCE / UNPACK_EX of the value on top into `count` elements (`star_index`: the
    // starred one, or -1): pending targets the stores that follow fill, or temporaries where the
    // bytecode goes on to use the elements otherwise.
    void unpack(Body& out, std::vector<ExprPtr>& stack, size_t count, int star_index) {
        if (unpacked_values_stored(current_op_, count)) push_unpack(stack, pop(stack), count, star_index);
        else unpack_into_temporaries(out, stack, pop(stack), count, star_index);
    }

    // An unpacked value whose elements rewritten bytecode uses as ordinary values: unpacked into
    // temporaries where the bytecode unpacks it, the temporaries pushed in the elements' places.
    void unpack_into_temporaries(Body& out, std::vector<ExprPtr>& stack, const ExprPtr& value, size_t count, int star_index) {
        auto tuple = make_expr(ExprKind::Tuple);
        std::vector<std::string> names;
        for (size_t k = 0; k < count; ++k) {
            names.push_back(new_temporary());
            ExprPtr name = make_name(names.back());
            tuple->elts.push_back(int(k) == star_index ? starred(name) : name);
        }
        auto s = make_stmt(StmtKind::Assign);
        s->targets.push_back(tuple);
        s->value = lambda_or(value);
        emit_stmt(out, s);
        for (size_t k = count; k-- > 0;) stack.push_back(make_name(names[k]));
    }

    void assign_import(Body& out, const ExprPtr& target, const ExprPtr& value, const ImportValue& imp) {
        if (target->kind != ExprKind::Name) unsupported("import into a non-name target");
        auto s = make_stmt(StmtKind::Import);
        std::string top = imp.module.substr(0, imp.module.find('.'));
        Alias alias{imp.module, ""};
        if (imp.level != 0 || (imp.fromlist && imp.fromlist->kind != PyValue::Kind::None)) unsupported("unusual import");
        if (imp.attribute_steps > 0) {
            // `import a.b.c as x` stores the innermost module, reached by one step per component.
            if (imp.attribute_steps + 1 != split_dotted(imp.module).size()) unsupported("import of part of a dotted module path");
            alias.asname = target->id;
            s->aliases.push_back(alias);
            emit_stmt(out, s);
            return;
        }
        if (target->id != top) alias.asname = target->id;
        else if (import_attr_chain_.count(value.get())) unsupported("unusual import");
        s->aliases.push_back(alias);
        emit_stmt(out, s);
    }

    void add_from_import(Body& out, const ExprPtr& module_value, const std::string& name, const std::string& as) {
        auto& imp = imports_.at(module_value.get());
        StmtPtr s;
        if (!out.empty() && out.back()->kind == StmtKind::ImportFrom && open_from_.count(out.back().get()) &&
            open_from_.at(out.back().get()) == module_value.get()) {
            s = out.back();
        } else {
            s = make_stmt(StmtKind::ImportFrom);
            s->name = imp.module;
            s->level = imp.level;
            open_from_[s.get()] = keep(module_value);
            keep_stmt_.push_back(s);
            emit_stmt(out, s);
        }
        s->aliases.push_back({name, name == as ? "" : as});
    }

    // `*args: *Ts` (3.11+, PEP 646): the annotation is the one value unpacked from Ts
    // (UNPACK_SEQUENCE 1), an element of the annotations tuple instead of a store's.
    bool is_starred_annotation(const ExprPtr& e) const {
        auto it = e ? slots_.find(e.get()) : slots_.end();
        return it != slots_.end() && it->second->targets.size() == 1 && it->second->filled == 0;
    }

    // A function a `def` makes (not a lambda's), or a class.
    bool is_def_value(const ExprPtr& e) const {
        auto it = functions_.find(e.get());
        return (it != functions_.end() && it->second.code->name != "<lambda>") || classes_.count(e.get()) ||
               generic_defs_.count(e.get());
    }

    // `decorator(x)` where x is a def's function, a class or such a call itself (decorators stack).
    bool is_decorated(const ExprPtr& e) const {
        return e->kind == ExprKind::Call && e->elts.size() == 1 && e->keywords.empty() &&
               (is_def_value(e->elts[0]) || is_decorated(e->elts[0]));
    }

    // A name as the compiler stores it inside a class: a private `__name` becomes `_Class__name`
    // (the innermost class's name without its leading underscores).
    std::string mangled(const std::string& name) const {
        if (name.size() < 3 || name.compare(0, 2, "__") != 0 || name.compare(name.size() - 2, 2, "__") == 0 ||
            name.find('.') != std::string::npos)
            return name;
        size_t start = private_name_.find_first_not_of('_');
        if (start == std::string::npos) return name;
        return "_" + private_name_.substr(start) + name;
    }

    // `type X = v`: the alias is made from (name, type parameters, a function returning v) and
    // stored under the name (the statement, recognized in try_definition).
    ExprPtr type_alias(const std::vector<ExprPtr>& args) {
        if (!is_const_kind(args[0], PyValue::Kind::Str)) unsupported("a type alias of unusual bytecode");
        auto it = functions_.find(args[2].get());
        if (it == functions_.end() || it->second.code->name != args[0]->constant->text || it->second.defaults ||
            it->second.kwdefaults || it->second.annotations)
            unsupported("a type alias of unusual bytecode");
        Body body;
        nested_body(*it->second.code, body, false);
        if (body.size() != 1 || body[0]->kind != StmtKind::Return || !body[0]->value) unsupported("a type alias whose value is not one expression");
        auto s = make_stmt(StmtKind::TypeAlias);
        s->name = args[0]->constant->text;
        s->value = body[0]->value;
        if (!is_const_kind(args[1], PyValue::Kind::None)) s->type_params = type_params_of(args[1]);  // in its generic parameters' code
        auto m = marker("<type alias>");
        type_aliases_[keep(m)] = s;
        return m;
    }

    // ---------------------------------------------------------------- type parameters (PEP 695)
    // The ops of a `<generic parameters of X>` code object (type_params.h): type parameters are
    // markers until the definition they belong to is read back (generic_definition).
    void type_param_step(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        switch (op.kind) {
        case N::TypeParam: {
            ExprPtr lazy = op.name.empty() ? nullptr : pop(stack);
            ExprPtr name = pop(stack);
            if (!is_const_kind(name, PyValue::Kind::Str)) unsupported("a type parameter of unusual bytecode");
            TypeParam p;
            p.kind = TypeParamKind(op.arg);
            p.name = name->constant->text;
            if (lazy) {
                p.bound = lazy_value(lazy, p.name, false);
                check_type_param_bound(p, op.name == "constraints");
            }
            auto m = marker("<type parameter>");
            type_param_values_[keep(m)] = p;
            stack.push_back(m);
            return;
        }
        case N::TypeParamDefault: {
            ExprPtr lazy = pop(stack);
            auto it = type_param_values_.find(stack.empty() ? nullptr : stack.back().get());
            if (it == type_param_values_.end() || it->second.default_value) unsupported("a type parameter default of unusual bytecode");
            it->second.default_value = lazy_value(lazy, it->second.name, it->second.kind == TypeParamKind::TypeVarTuple);
            return;
        }
        case N::BindTypeParam: {
            auto it = type_param_values_.find(stack.empty() ? nullptr : stack.back().get());
            const std::string* name = it == type_param_values_.end() ? nullptr : &it->second.name;
            // Mangled in a class; by a class of its own when this code is decompiled on its own.
            bool mangled_unknown = private_name_.empty() && name && mangled_by_some_class(op.name, *name);
            if (!name || (op.name != *name && op.name != mangled(*name) && !mangled_unknown))
                unsupported("a type parameter stored under another name");
            return;
        }
        case N::SetFunctionTypeParams: {
            ExprPtr params = pop(stack), function = pop(stack);
            auto it = functions_.find(function.get());
            if (it == functions_.end()) unsupported("type parameters of something not a function");
            auto m = marker("<generic function>");
            generic_functions_[keep(m)] = {it->second, params};
            stack.push_back(m);
            return;
        }
        case N::GenericBase: {
            ExprPtr params = pop(stack);
            if (params->kind != ExprKind::Name || params->id != ".type_params") unsupported("a generic class of unusual bytecode");
            stack.push_back(marker("<generic base>"));
            return;
        }
        default: unsupported("operation not supported yet");
        }
    }

    // `_Class__name` for a private `__name`, whatever the class.
    static bool mangled_by_some_class(const std::string& stored, const std::string& name) {
        if (name.size() < 3 || name.compare(0, 2, "__") != 0 || name.compare(name.size() - 2, 2, "__") == 0) return false;
        return stored.size() > name.size() + 1 && stored[0] == '_' && stored[1] != '_' &&
               stored.compare(stored.size() - name.size(), name.size(), name) == 0;
    }

    // A bound, constraints or default: the value a function of its own (named after the type
    // parameter) returns when it is first needed. A TypeVarTuple's default may be starred
    // (`*Ts = *tuple[int]`: the function unpacks the value into one).
    ExprPtr lazy_value(const ExprPtr& function, const std::string& name, bool may_be_starred) {
        auto it = functions_.find(function.get());
        if (it == functions_.end() || it->second.code->name != name || it->second.defaults || it->second.kwdefaults ||
            it->second.annotations)
            unsupported("a type parameter of unusual bytecode");
        StructuredDecompiler inner(*it->second.code, failures_, options_);
        inner.private_name_ = private_name_;
        Body body = inner.run();
        if (body.size() != 1 || body[0]->kind != StmtKind::Return || !body[0]->value)
            unsupported("a type parameter whose bound or default is not one expression");
        if (auto slot = inner.slots_.find(body[0]->value.get()); may_be_starred && slot != inner.slots_.end()) {
            const PendingUnpack& unpack = *slot->second;
            if (unpack.targets.size() != 1 || unpack.filled != 0) unsupported("a type parameter default of unusual bytecode");
            body[0]->value = starred(unpack.value);
        }
        check_no_markers(body);
        return body[0]->value;
    }

    // The type parameter tuple of a generic definition, as the source lists them.
    std::vector<TypeParam> type_params_of(const ExprPtr& tuple) const {
        std::vector<TypeParam> out;
        if (tuple->kind != ExprKind::Tuple || tuple->elts.empty()) unsupported("type parameters of unusual bytecode");
        for (const ExprPtr& e : tuple->elts) {
            auto it = type_param_values_.find(e.get());
            if (it == type_param_values_.end()) unsupported("type parameters of unusual bytecode");
            out.push_back(it->second);
        }
        return out;
    }

    // The call of a `<generic parameters of X>` function, with the definition's default values
    // (a null one: unknown, `...` stands for it): the def, class or type statement X it makes.
    ExprPtr generic_definition(const FunctionValue& wrapper, const std::vector<ExprPtr>& args) {
        const CodeObject& code = *wrapper.code;
        if (int64_t(args.size()) != code.argcount || code.varnames.size() < args.size()) unsupported("generic parameters of unusual bytecode");
        StructuredDecompiler inner(code, failures_, options_);
        inner.private_name_ = private_name_;
        inner.own_static_attributes_ = own_static_attributes_;  // a generic method's class's
        Body body = inner.run();
        GenericScope scope = read_generic_scope(body);
        StmtPtr def;
        if (auto g = inner.generic_functions_.find(scope.result.get()); g != inner.generic_functions_.end() && !scope.type_params) {
            FunctionValue f = g->second.first;
            // The wrapper passes its arguments on, in order: the defaults and keyword-only
            // defaults there are (its first local is `.defaults` even when it holds the latter).
            size_t k = 0;
            for (ExprPtr* slot : {&f.defaults, &f.kwdefaults}) {
                if (!*slot) continue;
                if (k >= args.size() || (*slot)->kind != ExprKind::Name || (*slot)->id != code.varnames[k])
                    unsupported("generic parameters of unusual bytecode");
                *slot = args[k] ? args[k] : placeholder_defaults(*f.code, slot == &f.defaults);
                ++k;
            }
            if (k != args.size()) unsupported("generic parameters of unusual bytecode");
            def = inner.function_def(f);
            def->type_params = inner.type_params_of(g->second.second);
        } else if (auto c = inner.classes_.find(scope.result.get()); c != inner.classes_.end() && args.empty() && scope.type_params &&
                   scope.generic_base && scope.generic_base->kind == ExprKind::Name && scope.generic_base->id == "<generic base>") {
            def = c->second;
            strip_generic_class(*def);
            def->type_params = inner.type_params_of(scope.type_params);
        } else if (auto a = inner.type_aliases_.find(scope.result.get()); a != inner.type_aliases_.end() && args.empty() && !scope.type_params) {
            def = a->second;
        } else {
            unsupported("generic parameters of unusual bytecode");
        }
        if (def->name != generic_subject(code) || def->type_params.empty()) unsupported("generic parameters of unusual bytecode");
        auto m = marker("<generic definition>");
        generic_defs_[keep(m)] = def;
        return m;
    }

    // A wrapper refused is a refusal of its own, as a function's body is: the definition is a stub
    // that raises where it is used (a function's when called; a class body runs at once).
    ExprPtr generic_definition_or_stub(const FunctionValue& wrapper, const std::vector<ExprPtr>& args) {
        try {
            return generic_definition(wrapper, args);
        } catch (const Error& e) {
            if (e.kind() != Error::Kind::Unsupported) throw;
            const CodeObject& code = *wrapper.code;
            failures_.push_back({code.qualname, code.firstlineno, e.what()});
            bool function = makes_generic_function(code, table_);
            auto def = make_stmt(function ? StmtKind::FunctionDef : StmtKind::ClassDef);
            def->name = generic_subject(code);
            def->body = failure_stub(code, e.what());
            if (function) {
                def->args = std::make_shared<Arguments>();
                def->args->vararg = Arg{"args", nullptr};
                def->args->kwarg = Arg{"kwargs", nullptr};
            }
            auto m = marker("<generic definition>");
            generic_defs_[keep(m)] = def;
            return m;
        }
    }

    // Default values standing for unknown ones: `...` for the last positional parameter, or for
    // the first keyword-only one (the wrapper's code is the same whatever they are).
    static ExprPtr placeholder_defaults(const CodeObject& function, bool positional) {
        auto ellipsis = std::make_shared<PyValue>();
        ellipsis->kind = PyValue::Kind::Ellipsis;
        if (positional) {
            auto t = make_expr(ExprKind::Tuple);
            t->elts.push_back(make_constant(ellipsis));
            return t;
        }
        size_t first = size_t(function.argcount);
        if (function.kwonlyargcount < 1 || function.varnames.size() <= first) unsupported("generic parameters of unusual bytecode");
        auto name = std::make_shared<PyValue>();
        name->kind = PyValue::Kind::Str;
        name->text = function.varnames[first];
        auto d = make_expr(ExprKind::Dict);
        d->elts.push_back(make_constant(name));
        d->values.push_back(make_constant(ellipsis));
        return d;
    }

    // A module or class body (with SETUP_ANNOTATIONS) stores the annotation of `name: annotation`
    // as `__annotations__['name'] = annotation`, after the assignment of `name: annotation = value`.
    bool annotated_assignment(Body& out, const ExprPtr& container, const ExprPtr& key, const ExprPtr& annotation) {
        if (!annotations_set_up_ || container->kind != ExprKind::Name || container->id != "__annotations__" ||
            !is_const_kind(key, PyValue::Kind::Str) || !is_identifier(key->constant->text))
            return false;
        auto s = make_stmt(StmtKind::AnnAssign);
        s->target = make_name(key->constant->text);
        s->annotation = source_annotation(annotation);
        if (!out.empty() && out.back()->kind == StmtKind::Assign && out.back()->targets.size() == 1 &&
            out.back()->targets[0]->kind == ExprKind::Name && out.back()->targets[0]->id == key->constant->text) {
            s->value = out.back()->value;
            out.pop_back();
        }
        emit_stmt(out, s);
        ++annotated_assignments_;
        return true;
    }

    // Under `from __future__ import annotations` an annotation is stored as its source text: print
    // that text itself (as the string constant, it would become the text of a string).
    ExprPtr source_annotation(const ExprPtr& annotation) const {
        if (!(code_.flags & kCoFutureAnnotations)) return annotation;
        if (!is_const_kind(annotation, PyValue::Kind::Str)) unsupported("an annotation that is not a string under from __future__ import annotations");
        return make_name(annotation->constant->text);
    }

    // An attribute as written inside a class: `obj.__x`, which the compiler mangled to `_Class__x`
    // (3.13 records the written names of `self.` stores in __static_attributes__).
    std::string as_written(const std::string& name) const {
        size_t start = private_name_.find_first_not_of('_');
        if (start == std::string::npos) return name;
        std::string prefix = "_" + private_name_.substr(start);
        if (name.size() <= prefix.size() + 2 || name.compare(0, prefix.size(), prefix) != 0) return name;
        std::string written = name.substr(prefix.size());
        return mangled(written) == name ? written : name;
    }

    // `def`, `class` and decorated forms, recognized when their value is stored under their name.
    bool try_definition(Body& out, const std::string& name, const ExprPtr& value) {
        std::vector<ExprPtr> decorators;
        ExprPtr inner = value;
        while (is_decorated(inner)) {
            decorators.push_back(inner->value);
            inner = inner->elts[0];
        }
        if (auto it = functions_.find(inner.get()); it != functions_.end()) {
            const FunctionValue& f = it->second;
            if (mangled(f.code->name) != name || name == "<lambda>") return false;
            auto def = function_def(f);
            def->decorators = decorators;
            emit_stmt(out, def);
            return true;
        }
        if (auto it = type_aliases_.find(inner.get()); it != type_aliases_.end() && decorators.empty()) {
            if (mangled(it->second->name) != name) return false;
            emit_stmt(out, it->second);
            return true;
        }
        if (auto it = generic_defs_.find(inner.get()); it != generic_defs_.end()) {
            StmtPtr def = it->second;
            if (mangled(def->name) != name || (def->kind == StmtKind::TypeAlias && !decorators.empty())) return false;
            def->decorators = decorators;
            emit_stmt(out, def);
            return true;
        }
        if (auto it = classes_.find(inner.get()); it != classes_.end()) {
            StmtPtr cls = it->second;
            if (mangled(cls->name) != name) return false;
            cls->decorators = decorators;
            emit_stmt(out, cls);
            return true;
        }
        return false;
    }

    std::shared_ptr<Arguments> arguments_of(const FunctionValue& f) {
        const CodeObject& c = *f.code;
        auto args = std::make_shared<Arguments>();
        const auto& names = c.varnames;
        size_t positional = size_t(c.argcount), kwonly = size_t(c.kwonlyargcount);
        size_t needed = positional + kwonly + ((c.flags & kCoVarargs) ? 1 : 0) + ((c.flags & kCoVarkeywords) ? 1 : 0);
        if (names.size() < needed) unsupported("code object with fewer local names than arguments");
        std::map<std::string, ExprPtr> annotations = annotation_map(f.annotations);
        auto arg = [&](const std::string& n) {
            Arg a{n, nullptr};
            if (auto it = annotations.find(n); it != annotations.end()) a.annotation = it->second;
            return a;
        };
        size_t k = 0;
        for (; k < positional; ++k) (int(k) < c.posonlyargcount ? args->posonlyargs : args->args).push_back(arg(names[k]));
        size_t kw_start = k;
        k += kwonly;
        if (c.flags & kCoVarargs) args->vararg = arg(names[k++]);
        for (const auto& [name, annotation] : annotations)
            if (is_starred_annotation(annotation) && !(args->vararg && args->vararg->name == name))
                unsupported("a starred annotation of a parameter other than *args");
        if (args->vararg && is_starred_annotation(args->vararg->annotation))
            args->vararg->annotation = starred(slots_.at(args->vararg->annotation.get())->value);
        for (size_t j = kw_start; j < kw_start + kwonly; ++j) {
            args->kwonlyargs.push_back(arg(names[j]));
            args->kw_defaults.push_back(nullptr);
        }
        if (c.flags & kCoVarkeywords) args->kwarg = arg(names[k++]);
        if (f.defaults) {
            if (is_const_kind(f.defaults, PyValue::Kind::Tuple))
                for (const auto& item : f.defaults->constant->items) args->defaults.push_back(make_constant(item));
            else if (f.defaults->kind == ExprKind::Tuple) args->defaults = f.defaults->elts;
            else unsupported("unusual default arguments");
        }
        if (f.kwdefaults) {
            if (f.kwdefaults->kind != ExprKind::Dict) unsupported("unusual keyword defaults");
            for (size_t j = 0; j < f.kwdefaults->elts.size(); ++j) {
                const ExprPtr& key = f.kwdefaults->elts[j];
                if (!is_const_kind(key, PyValue::Kind::Str)) unsupported("unusual keyword defaults");
                for (size_t a = 0; a < args->kwonlyargs.size(); ++a)
                    if (args->kwonlyargs[a].name == key->constant->text) args->kw_defaults[a] = f.kwdefaults->values[j];
            }
        }
        return args;
    }

    std::map<std::string, ExprPtr> annotation_map(const ExprPtr& annotations) {
        std::map<std::string, ExprPtr> out;
        if (!annotations) return out;
        auto add = [&](const ExprPtr& key, const ExprPtr& value) {
            if (!is_const_kind(key, PyValue::Kind::Str)) unsupported("unusual annotations");
            out[key->constant->text] = source_annotation(value);
        };
        if (annotations->kind == ExprKind::Dict) {
            for (size_t j = 0; j < annotations->elts.size(); ++j) add(annotations->elts[j], annotations->values[j]);
        } else if (annotations->kind == ExprKind::Tuple && annotations->elts.size() % 2 == 0) {
            for (size_t j = 0; j < annotations->elts.size(); j += 2) add(annotations->elts[j], annotations->elts[j + 1]);
        } else if (is_const_kind(annotations, PyValue::Kind::Tuple) && annotations->constant->items.size() % 2 == 0) {
            const auto& items = annotations->constant->items;
            for (size_t j = 0; j < items.size(); j += 2) add(make_constant(items[j]), make_constant(items[j + 1]));
        } else {
            unsupported("unusual annotations");
        }
        return out;
    }

    StmtPtr function_def(const FunctionValue& f) {
        auto def = make_stmt(StmtKind::FunctionDef);
        def->name = f.code->name;
        def->args = arguments_of(f);
        if (auto ann = annotation_map(f.annotations); ann.count("return")) def->annotation = ann["return"];
        def->is_async = (f.code->flags & 0x80) || (f.code->flags & 0x200);  // CO_COROUTINE, CO_ASYNC_GENERATOR
        nested_body(*f.code, def->body, true);
        // A generator whose every yield the compiler dropped as dead code (`while False: yield`)
        // is still a generator: `if False: yield`, which compiles to nothing, keeps it one.
        if ((f.code->flags & (0x20 | 0x200)) && !yields_in(def->body)) {  // CO_GENERATOR, CO_ASYNC_GENERATOR
            auto never = make_stmt(StmtKind::If);
            auto false_value = std::make_shared<PyValue>();
            false_value->kind = PyValue::Kind::False;
            never->test = make_constant(false_value);
            auto y = make_stmt(StmtKind::Expr);
            y->value = make_expr(ExprKind::Yield);
            never->body.push_back(y);
            drop_lone_pass(def->body);
            def->body.push_back(never);
        }
        return def;
    }

    // Whether the body's own code yields (nested definitions are skipped: missing a yield only
    // adds a harmless `if False: yield`).
    static bool yields_in(const Body& body) {
        for (const auto& st : body) {
            if (st->kind == StmtKind::FunctionDef || st->kind == StmtKind::ClassDef) continue;
            bool found = false;
            for_each_own_expr(*st, [&](const ExprPtr& e) {
                std::unordered_set<const Expr*> nodes;
                collect_nodes(e, nodes);
                for (const Expr* n : nodes) found = found || n->kind == ExprKind::Yield || n->kind == ExprKind::YieldFrom;
            });
            if (found || yields_in(st->body) || yields_in(st->orelse) || yields_in(st->finalbody)) return true;
            for (const auto& h : st->handlers)
                if (yields_in(h.body)) return true;
            for (const auto& c : st->cases)
                if (yields_in(c.body)) return true;
        }
        return false;
    }

    void nested_body(const CodeObject& code, Body& body, bool may_have_docstring, const std::string* class_name = nullptr) {
        Body declared;
        try {
            StructuredDecompiler inner(code, failures_, options_);
            inner.enclosing_functions_ = enclosing_functions_;
            if (code_.flags & kCoOptimized) inner.enclosing_functions_.push_back(&code_);
            inner.private_name_ = class_name ? *class_name : private_name_;
            inner.class_static_attributes_ = own_static_attributes_;
            declared = inner.declarations();  // for the stub, should the body be refused
            body = inner.run();
            string_statement_not_docstring(body);
            Body dead = inner.dead_bindings();
            body.insert(body.begin(), dead.begin(), dead.end());
            if (class_name) class_cell_loads_ = inner.class_cell_loads_;
            declared = inner.declarations();  // now with the names a comprehension's walrus binds here
            check_no_markers(body);
            if (auto why = unprintable_reason(body, print_options(code.version))) unsupported(*why);
            strip_implicit_return(body, inner.written_returns_);
            if (code.flags & kCoAsyncGenerator) bare_returns(body);
            if (may_have_docstring && !code.consts.empty() && code.consts[0]->kind == PyValue::Kind::Str &&
                !starts_with_docstring(body)) {
                auto doc = make_stmt(StmtKind::Expr);
                doc->value = make_constant(code.consts[0]);
                body.insert(body.begin(), doc);
            }
            body.insert(body.begin() + (starts_with_docstring(body) ? 1 : 0), declared.begin(), declared.end());
        } catch (const Error& e) {
            if (e.kind() != Error::Kind::Unsupported) throw;
            failures_.push_back({code.qualname, code.firstlineno, e.what()});
            body = failure_stub(code, e.what());
            // A refused function still declares its globals: `global x` in any function makes the
            // module's own stores of x STORE_GLOBAL.
            body.insert(body.begin(), declared.begin(), declared.end());
        }
        if (body.empty()) body.push_back(make_stmt(StmtKind::Pass));
    }

    // A docstring is no code (a function's is its first constant, a module's or class's a store to
    // __doc__), so a string statement decoded from code (LOAD_CONST, POP_TOP: 3.11 and earlier
    // keep `f'text'` so) is not one: written first as a plain string, it would become the docstring.
    static void string_statement_not_docstring(Body& body) {
        if (!starts_with_docstring(body)) return;
        auto fstring = make_expr(ExprKind::JoinedStr);
        fstring->elts.push_back(body[0]->value);
        auto s = make_stmt(StmtKind::Expr);
        s->value = fstring;
        body[0] = s;
    }

    // ---------------------------------------------------------------- one block's straight-line ops
    // Runs the ops of `block` except its terminator; returns the terminator (or nullptr).
    // A match statement's first op ends the straight-line run like a terminator (see emit_match).
    // Runs `block`'s ops on `stack`, statements to `out`; returns the op that ends the block, or
    // null when it falls through. `stop_at_statement`: a probe that only wants pure expressions
    // gives up (null) at the first statement instead of simulating the rest of a body block.
    const NeutralOp* simulate(int block, std::vector<ExprPtr>& stack, Body& out, bool stop_at_statement = false) {
        const Block& b = cfg_.block(block);
        auto resume = resume_at_.find(block);
        for (size_t i = resume == resume_at_.end() ? b.first : resume->second; i < b.last; ++i) {
            const NeutralOp& op = ops_[i];
            if (is_block_terminator(op.kind) || (matches_.count(i) && i != guard_at_)) return &op;
            step(op, stack, out);
            if (stop_at_statement && !out.empty()) return nullptr;
        }
        return nullptr;
    }

    void step(const NeutralOp& op, std::vector<ExprPtr>& stack, Body& out) {
        // (Put back however the step ends: a probe catches the refusal of a step it simulates, and
        // its stack, a copy, is gone when the structuring goes on; emit_stmt must not use it.)
        struct Restore {
            std::vector<ExprPtr>*& at;
            std::vector<ExprPtr>* was;
            ~Restore() { at = was; }
        } restore{current_stack_, current_stack_};
        current_stack_ = &stack;
        current_op_ = size_t(&op - ops_.data());
        std::vector<ExprPtr> shared = shared_values(stack);
        if (!shared.empty()) before_shared_use(op, stack, out);
        size_t depth = stack.size();
        const Expr* top = depth ? stack.back().get() : nullptr;
        step_op(op, stack, out);
        if (!shared.empty()) after_shared_use(op, shared, stack, out);
        if (!stack.empty() && (stack.size() != depth || stack.back().get() != top) && is_shareable(stack.back()))
            keep_evaluation_order(stack.back(), out);
    }

    // Effect serials (creation order of nodes that run code) of a tree: [lowest, highest], {0, 0}
    // when it runs none.
    std::pair<uint64_t, uint64_t> effect_span(const ExprPtr& e) {
        if (!e) return {0, 0};
        if (e->span.owner == scope_number_) return {e->span.first, e->span.last};
        return compute_effect_span(e);
    }

    // (Out of line: the memoized answer above is the common one, inlined at the callers.)
    [[gnu::noinline]] std::pair<uint64_t, uint64_t> compute_effect_span(const ExprPtr& e) {
        std::pair<uint64_t, uint64_t> span{0, 0};
        auto add = [&](std::pair<uint64_t, uint64_t> s) {
            if (!s.second) return;
            span.first = span.second ? std::min(span.first, s.first) : s.first;
            span.second = std::max(span.second, s.second);
        };
        for_each_evaluated_child(*e, [&](const ExprPtr& c) { add(effect_span(c)); });
        if ((has_own_effect(*e) || ordered_reads_.count(e.get())) && !is_marker_value(e)) add({e->serial, e->serial});
        keep(e);
        e->span.owner = scope_number_;
        e->span.first = span.first;
        e->span.last = span.second;
        return span;
    }

    // The operands of a node just built are printed in Python's evaluation order; when stack
    // shuffles (SWAP) made the bytecode compute them in another order, the operands are written to
    // temporaries in the order they were computed.
    void keep_evaluation_order(const ExprPtr& node, Body& out) {
        // (Checked over the slots as they are visited: almost every node is in order, and a
        // vector of its slots per node built cost an allocation each.)
        size_t count = 0;
        for_each_evaluation_slot(*node, [&](ExprPtr&) { ++count; });
        if (count < 2) return;
        uint64_t last = 0;
        bool ordered = true;
        for_each_evaluation_slot(*node, [&](ExprPtr& slot) {
            auto span = effect_span(*ordered_part(slot));
            if (!span.second) return;
            if (span.first < last) ordered = false;
            last = std::max(last, span.second);
        });
        if (ordered) return;
        std::vector<ExprPtr*> slots;
        for_each_evaluation_slot(*node, [&](ExprPtr& slot) { slots.push_back(ordered_part(slot)); });
        std::vector<ExprPtr*> effectful;
        for (ExprPtr* slot : slots)
            if (effect_span(*slot).second && !is_marker_value(*slot)) effectful.push_back(slot);
        std::stable_sort(effectful.begin(), effectful.end(),
                         [&](ExprPtr* a, ExprPtr* b) { return effect_span(*a).second < effect_span(*b).second; });
        // The node itself is not a value waiting beside these statements: its operands are.
        std::vector<ExprPtr>* stack = current_stack_;
        ExprPtr held;
        if (stack && !stack->empty() && stack->back() == node) {
            held = stack->back();
            stack->pop_back();
        }
        for (ExprPtr* slot : effectful) {
            StmtPtr s = temporary_assignment(*slot);
            emit_stmt(out, s);
            *slot = s->targets[0];
        }
        if (held) stack->push_back(held);
        node->span.owner = 0;  // (its operands changed)
    }

    // The part of an operand whose effects take place where the operand stands. A starred item of
    // 3.8's BUILD_*_UNPACK is iterated by that op, after every item is computed, and so it is when
    // the display (or call) is compiled from source: only its value takes place in order.
    ExprPtr* ordered_part(ExprPtr& slot) const {
        return slot->kind == ExprKind::Starred && iterated_by_build_.count(slot.get()) ? &slot->value : &slot;
    }

    // Calls f on the operand slots of a node (those that hold one) in the order Python evaluates them.
    template <class F>
    static void for_each_evaluation_slot(Expr& e, F&& f) {
        auto one = [&](ExprPtr& p) {
            if (p) f(p);
        };
        switch (e.kind) {
        case ExprKind::Call:
            one(e.value);
            // `f(*a, **k)`: a lone starred argument is iterated by the call itself (the compiler
            // passes `a` as it is, CALL_FUNCTION_EX makes the tuple), after `k` is evaluated.
            if (e.elts.size() == 1 && e.elts[0]->kind == ExprKind::Starred) one(e.elts[0]->value);
            else for (auto& x : e.elts) one(x);
            for (auto& k : e.keywords) one(k.value);
            break;
        case ExprKind::BinOp: one(e.left); one(e.right); break;
        case ExprKind::Subscript: one(e.value); one(e.index); break;
        case ExprKind::Slice: one(e.lower); one(e.upper); one(e.step); break;
        case ExprKind::Compare:
            one(e.left);
            for (auto& x : e.elts) one(x);
            break;
        case ExprKind::Tuple: case ExprKind::List: case ExprKind::Set: case ExprKind::JoinedStr:
            for (auto& x : e.elts) one(x);
            break;
        case ExprKind::Dict:
            for (size_t i = 0; i < e.values.size(); ++i) {
                if (i < e.elts.size()) one(e.elts[i]);
                one(e.values[i]);
            }
            break;
        case ExprKind::FormattedValue: one(e.value); one(e.format_spec); break;
        default: break;
        }
    }

    // In-place updates (LIST_EXTEND and friends) of a display that COPY duplicated must update
    // one object, so the display gets a name first.
    void before_shared_use(const NeutralOp& op, std::vector<ExprPtr>& stack, Body& out) {
        switch (op.kind) {
        case N::ListExtend: case N::SetUpdate: case N::DictUpdate: case N::DictMerge: case N::ListAppend: case N::SetAdd:
        case N::MapAdd: {
            int64_t depth = op.arg + 1;  // the update's target, below the item it adds
            if (op.kind == N::MapAdd) ++depth;
            if (depth < 1 || size_t(depth) > stack.size()) return;
            ExprPtr target = stack[stack.size() - size_t(depth)];
            if (is_shareable(target) && references(stack, target.get(), nullptr) > 1) materialize(out, stack, target);
            return;
        }
        default: return;
        }
    }

    // After an op consumed one copy of a duplicated value into a larger expression while another
    // copy waits on the stack, the value gets a name: printing it twice would evaluate it twice.
    void after_shared_use(const NeutralOp& op, const std::vector<ExprPtr>& shared, std::vector<ExprPtr>& stack, Body& out) {
        if (op.kind == N::Copy || op.kind == N::Swap || op.kind == N::Nop || op.kind == N::Pop) return;
        if (op.kind == N::Compare) return;  // comparison chains share the middle operand by design
        if ((op.kind == N::Subscr || op.kind == N::Slice3 || op.kind == N::LoadAttr) && augmented_update_follows()) return;
        for (const auto& v : shared) {
            bool nested = false;
            size_t n = references(stack, v.get(), &nested);
            if (n >= 2 && nested) materialize(out, stack, v);
        }
    }

    void step_op(const NeutralOp& op, std::vector<ExprPtr>& stack, Body& out) {
        switch (op.kind) {
        case N::Nop: return;
        case N::SetupAnnotations: return;
        case N::TypeAlias: stack.push_back(type_alias(pop_n(stack, 3))); return;
        case N::TypeParam: case N::TypeParamDefault: case N::BindTypeParam: case N::SetFunctionTypeParams: case N::GenericBase:
            return type_param_step(op, stack);  // implied by the annotated assignments (annotated_assignment)
        case N::Pop: {
            ExprPtr v = pop(stack);
            if (accumulators_.count(v.get())) unsupported("an inlined comprehension whose result is dropped before its loop ends");
            if (auto it = slots_.find(v.get()); it != slots_.end()) {  // an unpacked element whose store was dropped
                const auto& unpack = it->second;
                size_t index = take_slot_in_order(*unpack, v);
                if (index + 1 >= unpack->targets.size()) unsupported("an unpacked element dropped without a store after it");
                unpack->dropped.insert(index);
                return;
            }
            // An enclosing loop's iterator, dropped by `break`/`return` (below the value returned, after a SWAP).
            // (A return leaving the loop may run the copies of finally bodies next, statements below
            // the region's stack it keeps.)
            if (loop_iterators_.count(v.get())) {
                if (!open_handlers_.empty() && return_through_branching_copies(current_op_ + 1, copies_after_exit_)) note_returned(stack);
                return;
            }
            // A value a try body returns, dropped in the compiler's copy of its finally body (a
            // `return`, `continue` or `break` there discards the return): the source's `return v`,
            // which ran the copy. Marked here, before the copy's way out, and put in the copy's place
            // when the copy is matched (see strip_final_copies); no statement of its own.
            if (consumed_after_cleanup_.count(v.get())) {
                auto r = make_stmt(StmtKind::Return);
                r->value = v;
                dropped_returns_.insert(r.get());
                dropped_copies_.push_back(r);  // (kept alive: its address is a key)
                out.push_back(r);
                return;
            }
            // (Below the region's own stack: a value of an enclosing statement's, such as its
            // iterator. A value computed here that is dropped there is a statement the region
            // would lose: the region ran past its end. Not in the copies of finally bodies that a
            // return runs after leaving with statements or for loops around the region, but for the
            // value it returns: see note_returned.)
            if (stack.size() < base_ && (!copies_after_exit_.count(cfg_.block_of_op(current_op_)) || returned_through_copies_.count(v.get()))) {
                if (!is_marker_value(v) && effect_span(v).second) unsupported("a statement below the stack of its region (unusual control flow)");
                return;
            }
            if (is_shareable(v) && references(stack, v.get(), nullptr)) return;  // one copy dropped, another still waits
            if (imports_.count(v.get())) {
                if (!import_used_.count(v.get())) unsupported("import whose module is discarded");
                return;
            }
            emit_expr_stmt(out, v);
            return;
        }
        case N::Copy: {
            if (op.arg < 1 || size_t(op.arg) > stack.size()) unsupported("stack underflow (unusual bytecode)");
            ExprPtr v = stack[stack.size() - op.arg];
            chain_assign_.insert(keep(v));
            chain_shared_.insert(v.get());
            stack.push_back(v);
            return;
        }
        case N::Swap: {
            if (op.arg < 2 || size_t(op.arg) > stack.size()) unsupported("stack underflow (unusual bytecode)");
            std::swap(stack.back(), stack[stack.size() - op.arg]);
            return;
        }
        case N::PushNull: stack.push_back(null_.get()); return;
        case N::LoadConst: stack.push_back(constant_expr(op.value)); return;
        case N::Load: case N::LoadClosure: {
            // LOAD_CLOSURE pushes the cell itself, which a closure tuple takes (MAKE_FUNCTION drops
            // it: a def closes over its names by itself); one used anywhere else (rewritten
            // bytecode) stays a stand-in until the body is finished, then is spelled
            // `(lambda: x).__closure__[0]` (spell_cell; printed as the name, it passed the value).
            // A class body's own cells are read below.
            bool cell = op.kind == N::LoadClosure && op.name != "__class__" && op.name != "__classdict__";
            ExprPtr name = make_name(cell ? "<cell " + op.name + ">" : op.name);
            // LOAD_CLOSURE, or 3.13's LOAD_FAST of the cell: a class body's own code cannot load it.
            if (op.name == "__class__" && (op.kind == N::LoadClosure || op.scope == Scope::Fast)) class_cell_loads_.push_back(name);
            if (op.kind == N::Load && (op.scope == Scope::Deref || op.scope == Scope::ClassDeref ||
                                       (op.scope == Scope::Global && !is_stable_global(op.name))))
                rebindable_reads_.insert(keep(name));
            for (const auto& w : walrus_stores_)
                if (op.kind == N::Load && w.first == op.name) ordered_reads_.insert(keep(name));
            if (op.kind == N::Load) note_if_comprehension_scoped(op, stack);
            if (op.kind == N::Load && op.scope == Scope::Global && !(code_.flags & kCoOptimized)) note_declared_global_read(op, stack);
            if (assert_loads_global_ && op.kind == N::Load && op.scope == Scope::Global && op.name == "AssertionError") {
                // A module or class body loads a written name with LOAD_NAME: a LOAD_GLOBAL of it is an assert's.
                if (!(code_.flags & kCoOptimized)) {
                    stack.push_back(assertion_error_.get());
                    return;
                }
                global_assertion_errors_.insert(name.get());
            }
            stack.push_back(name);
            return;
        }
        case N::LoadAndClear: {
            auto saved = marker("<saved binding>");
            saved_bindings_[keep(saved)] = op.name;
            silent_.insert(saved.get());
            stack.push_back(saved);
            return;
        }
        case N::Store: {
            ExprPtr value = pop(stack);
            if (auto it = saved_bindings_.find(value.get()); it != saved_bindings_.end()) {
                // The comprehension's end restores what its variable was bound to before.
                if (op.scope != Scope::Fast || it->second != op.name) unsupported("an inlined comprehension restoring another name");
                comprehension_scoped_.insert(&op);
                return;
            }
            note_if_comprehension_scoped(op, stack);
            if (is_walrus_store(op, value, stack)) {
                stack.back() = named_expr(op, value);
                return;
            }
            assign(out, make_name(op.name), value, stack);
            return;
        }
        case N::Delete: {
            auto s = make_stmt(StmtKind::Delete);
            s->targets.push_back(make_name(op.name));
            emit_stmt(out, s);
            return;
        }
        case N::LoadAttr: {
            ExprPtr obj = lambda_or(pop(stack));
            if (imports_.count(obj.get())) {
                import_attr_chain_.insert(keep(obj));
                unsupported("import of a dotted module under another name");
            }
            auto e = make_expr(ExprKind::Attribute);
            e->value = obj;
            e->id = as_written(op.name);
            stack.push_back(e);
            return;
        }
        case N::StoreAttr: {
            ExprPtr obj = pop(stack);
            ExprPtr value = pop(stack);
            auto t = make_expr(ExprKind::Attribute);
            t->value = obj;
            t->id = as_written(op.name);
            // 3.13 lists a method's `self.` stores as written: a mangled name written out stays so.
            if (t->id != op.name && class_static_attributes_ && class_static_attributes_->count(op.name) &&
                !class_static_attributes_->count(t->id))
                t->id = op.name;
            assign(out, t, value, stack);
            return;
        }
        case N::DeleteAttr: {
            auto t = make_expr(ExprKind::Attribute);
            t->value = pop(stack);
            t->id = as_written(op.name);
            auto s = make_stmt(StmtKind::Delete);
            s->targets.push_back(t);
            emit_stmt(out, s);
            return;
        }
        case N::LoadAssertionError: stack.push_back(assertion_error_.get()); return;
        case N::LoadBuildClass: stack.push_back(build_class_.get()); return;
        case N::LoadLocals: stack.push_back(null_.get()); return;
        case N::LoadSuperAttr: {
            auto self = pop(stack), cls = pop(stack), super_fn = pop(stack);
            auto call = make_expr(ExprKind::Call);
            call->value = super_fn;
            if (op.arg & 2) call->elts = {cls, self};
            auto e = make_expr(ExprKind::Attribute);
            e->value = call;
            e->id = as_written(op.name);
            stack.push_back(e);
            return;
        }
        case N::BinaryOp: {
            auto right = lambda_or(pop(stack)), left = lambda_or(pop(stack));
            auto e = make_expr(ExprKind::BinOp);
            e->id = op.name;
            e->left = left;
            e->right = right;
            if (op.inplace) inplace_.insert(keep(e));
            stack.push_back(e);
            return;
        }
        case N::UnaryOp: {
            auto e = make_expr(ExprKind::UnaryOp);
            e->id = op.name;
            e->value = lambda_or(pop(stack));
            stack.push_back(e);
            return;
        }
        case N::Compare: {
            auto right = lambda_or(pop(stack)), left = lambda_or(pop(stack));
            if ((op.name == "in" || op.name == "not in") && is_const_kind(right, PyValue::Kind::FrozenSet))
                right = unfold_constant_collection(right, ExprKind::Set);
            auto e = make_expr(ExprKind::Compare);
            e->left = left;
            e->ops.push_back(op.name);
            e->elts.push_back(right);
            stack.push_back(e);
            return;
        }
        case N::Subscr: {
            auto index = lambda_or(pop(stack)), value = lambda_or(pop(stack));
            stack.push_back(subscript(value, index));
            return;
        }
        case N::StoreSubscr: {
            auto index = lambda_or(pop(stack)), container = lambda_or(pop(stack)), value = pop(stack);
            if (annotated_assignment(out, container, index, value)) return;
            assign(out, subscript(container, index), value, stack);
            return;
        }
        case N::DeleteSubscr: {
            auto index = lambda_or(pop(stack)), container = lambda_or(pop(stack));
            auto s = make_stmt(StmtKind::Delete);
            s->targets.push_back(subscript(container, index));
            emit_stmt(out, s);
            return;
        }
        case N::Slice3: {
            auto stop = pop(stack), start = pop(stack), container = pop(stack);
            stack.push_back(subscript(container, slice(start, stop, nullptr)));
            return;
        }
        case N::StoreSlice: {
            auto stop = pop(stack), start = pop(stack), container = pop(stack), value = pop(stack);
            assign(out, subscript(container, slice(start, stop, nullptr)), value, stack);
            return;
        }
        case N::BuildSlice: {
            ExprPtr step_e = op.arg == 3 ? pop(stack) : nullptr;
            auto stop = pop(stack), start = pop(stack);
            stack.push_back(slice(start, stop, step_e));
            return;
        }
        case N::BuildList: case N::BuildSet: case N::BuildMap:
            if (!op.comprehension) return build_display(op, stack);
            return push_accumulator(op.kind == N::BuildList ? ExprKind::ListComp : op.kind == N::BuildSet ? ExprKind::SetComp
                                                                                                        : ExprKind::DictComp, stack);
        case N::BuildTuple: return build_display(op, stack);
        case N::BuildUnpack: return build_unpack(op, stack);
        case N::ListToTuple: {
            auto list = pop(stack);
            if (list->kind != ExprKind::List) unsupported("LIST_TO_TUPLE of a non-list");
            auto e = make_expr(ExprKind::Tuple);
            e->elts = list->elts;
            stack.push_back(e);
            return;
        }
        case N::ListExtend: case N::SetUpdate: {
            auto iterable = pop(stack);
            if (op.arg < 1 || size_t(op.arg) > stack.size()) unsupported("stack underflow (unusual bytecode)");
            ExprPtr& target = stack[stack.size() - op.arg];
            if (target->kind != ExprKind::List && target->kind != ExprKind::Set) {
                if (target->kind != ExprKind::Name) materialize(out, stack, target);
                update_in_place(out, stack[stack.size() - op.arg], op.kind == N::ListExtend ? "extend" : "update", iterable);
                return;
            }
            auto updated = std::make_shared<Expr>(*target);
            if (updated->elts.empty() && (is_const_kind(iterable, PyValue::Kind::Tuple) || is_const_kind(iterable, PyValue::Kind::FrozenSet)))
                for (const auto& item : iterable->constant->items) updated->elts.push_back(make_constant(item));
            else
                updated->elts.push_back(starred(iterable));
            target = updated;
            return;
        }
        case N::BuildConstKeyMap: {
            auto keys = pop(stack);
            auto values = pop_n(stack, op.arg);
            if (!is_const_kind(keys, PyValue::Kind::Tuple) || keys->constant->items.size() != values.size())
                unsupported("BUILD_CONST_KEY_MAP without a key tuple");
            auto e = make_expr(ExprKind::Dict);
            for (size_t k = 0; k < values.size(); ++k) {
                e->elts.push_back(make_constant(keys->constant->items[k]));
                e->values.push_back(lambda_or(values[k]));
            }
            stack.push_back(e);
            return;
        }
        case N::DictUpdate: case N::DictMerge: {
            auto mapping = pop(stack);
            if (op.arg < 1 || size_t(op.arg) > stack.size()) unsupported("stack underflow (unusual bytecode)");
            ExprPtr& target = stack[stack.size() - op.arg];
            if (target->kind == ExprKind::Name && op.kind == N::DictUpdate) {
                update_in_place(out, target, "update", mapping);
                return;
            }
            auto updated = std::make_shared<Expr>(*target);
            if (updated->kind != ExprKind::Dict) unsupported("dict merge into a non-dict");
            if (op.kind == N::DictUpdate && op.arg == 1 && merge_dict_chunk(target, mapping)) {
                updated->elts.insert(updated->elts.end(), mapping->elts.begin(), mapping->elts.end());
                updated->values.insert(updated->values.end(), mapping->values.begin(), mapping->values.end());
                if (chunked_dicts_.count(mapping.get())) chunked_dicts_.insert(keep(updated));
                target = updated;
                return;
            }
            updated->elts.push_back(nullptr);
            updated->values.push_back(mapping);
            target = updated;
            return;
        }
        case N::BuildString: {
            auto parts = pop_n(stack, op.arg);
            auto e = make_expr(ExprKind::JoinedStr);
            for (const auto& p : parts) {
                if (p->kind == ExprKind::JoinedStr) e->elts.insert(e->elts.end(), p->elts.begin(), p->elts.end());
                else e->elts.push_back(p);
            }
            stack.push_back(e);
            return;
        }
        case N::ConvertValue: {
            auto fv = make_expr(ExprKind::FormattedValue);
            fv->value = lambda_or(pop(stack));
            fv->conversion = op.conversion;
            converted_.insert(keep(fv));
            stack.push_back(fv);
            return;
        }
        case N::FormatValue: {
            ExprPtr spec = op.arg ? pop(stack) : nullptr;
            ExprPtr value = lambda_or(pop(stack));
            ExprPtr fv;
            if (converted_.count(value.get())) {
                fv = value;
            } else {
                fv = make_expr(ExprKind::FormattedValue);
                fv->value = value;
                fv->conversion = op.conversion;
            }
            if (spec) {
                if (spec->kind == ExprKind::JoinedStr) {
                    fv->format_spec = spec;
                } else {
                    auto js = make_expr(ExprKind::JoinedStr);
                    js->elts.push_back(spec);
                    fv->format_spec = js;
                }
            }
            auto js = make_expr(ExprKind::JoinedStr);
            js->elts.push_back(fv);
            stack.push_back(js);
            return;
        }
        case N::UnpackSequence:
            // `[] = value` (UNPACK_SEQUENCE 0) stores nothing, but it iterates the value and checks
            // that it is empty: an assignment to an empty target, not a value dropped.
            if (op.arg == 0) return assign(out, make_expr(ExprKind::List), pop(stack), stack);
            return unpack(out, stack, size_t(op.arg), -1);
        case N::UnpackEx: return unpack(out, stack, size_t(op.arg & 0xff) + 1 + size_t(op.arg >> 8), int(op.arg & 0xff));
        case N::Call: case N::CallKw: return call(op, stack);
        case N::CallEx: return call_ex(op, stack);
        case N::MakeFunction: return make_function(op, stack);
        case N::SetFunctionAttribute: {
            auto func = pop(stack), value = pop(stack);
            auto it = functions_.find(func.get());
            if (it == functions_.end()) unsupported("SET_FUNCTION_ATTRIBUTE on a non-function");
            set_function_attribute(it->second, op.arg, value);
            stack.push_back(func);
            return;
        }
        case N::GetIter: {
            auto e = lambda_or(pop(stack));
            if (op.arg == 1) async_iterables_.insert(keep(e));  // GET_AITER
            stack.push_back(e);
            return;
        }
        case N::ImportName: {
            auto fromlist = pop(stack), level = pop(stack);
            if (!is_const_kind(level, PyValue::Kind::Int) || fromlist->kind != ExprKind::Constant) unsupported("unusual import");
            auto m = marker("<module>");
            imports_[keep(m)] = ImportValue{op.name, int(level->constant->small), fromlist->constant};
            stack.push_back(m);
            return;
        }
        case N::ImportFrom: {
            ExprPtr module = stack.empty() ? nullptr : stack.back();
            if (!module || !imports_.count(module.get())) unsupported("IMPORT_FROM without a module");
            import_used_.insert(keep(module));
            if (const ImportValue& imp = imports_.at(module.get()); !imp.fromlist || imp.fromlist->kind == PyValue::Kind::None) {
                // No fromlist: not `from m import name` but a step down `import a.b.c as x`'s path.
                std::vector<std::string> parts = split_dotted(imp.module);
                if (imp.level != 0 || imp.attribute_steps + 1 >= parts.size() || parts[imp.attribute_steps + 1] != op.name)
                    unsupported("IMPORT_FROM of a module imported without a fromlist");
                ImportValue next = imp;
                next.attribute_steps += 1;
                auto m = marker("<module>");
                imports_[keep(m)] = next;
                stack.push_back(m);
                return;
            }
            auto m = marker("<imported name>");
            import_froms_[keep(m)] = {module, op.name};
            stack.push_back(m);
            return;
        }
        case N::ImportStar: {
            auto module = pop(stack);
            auto it = imports_.find(module.get());
            if (it == imports_.end()) unsupported("IMPORT_STAR without a module");
            auto s = make_stmt(StmtKind::ImportFrom);
            s->name = it->second.module;
            s->level = it->second.level;
            s->aliases.push_back({"*", ""});
            emit_stmt(out, s);
            return;
        }
        case N::ListAppend: case N::SetAdd: {
            if (add_inlined_element(op, stack, out)) return;
            if (add_display_item(op, stack)) return;
            require_comprehension_code();
            element_ = {lambda_or(pop(stack))};
            emit_expr_stmt(out, element_marker_.get());
            return;
        }
        case N::MapAdd: {
            if (add_inlined_element(op, stack, out)) return;
            if (add_display_entry(op, stack)) return;
            require_comprehension_code();
            auto value = pop(stack), key = pop(stack);
            element_ = {lambda_or(key), lambda_or(value)};
            emit_expr_stmt(out, element_marker_.get());
            return;
        }
        case N::Yield: {
            auto e = make_expr(ExprKind::Yield);
            e->value = lambda_or(pop(stack));
            if (is_const_kind(e->value, PyValue::Kind::None)) e->value = nullptr;
            stack.push_back(e);
            return;
        }
        case N::YieldFrom: case N::Await: {
            // An async with's __aexit__(None, None, None) is awaited on the normal path.
            if (op.kind == N::Await && !stack.empty() && async_exit_results_.count(stack.back().get()) && op.arg != 1) return;
            if (op.kind == N::Await && op.arg != 0) unsupported("an await of __aenter__ or __aexit__ outside async with");
            // A comprehension that awaits (a coroutine code object before 3.12) is awaited where it
            // is built; the source says neither.
            if (op.kind == N::Await && !stack.empty() && unawaited_comprehensions_.erase(stack.back().get())) return;
            auto e = make_expr(op.kind == N::Await ? ExprKind::Await : ExprKind::YieldFrom);
            e->value = lambda_or(pop(stack));
            stack.push_back(e);
            return;
        }
        case N::PushExcInfo: {
            ExprPtr exc = pop(stack);
            if (!exception_.is(exc)) unsupported("PUSH_EXC_INFO outside an exception handler");
            stack.push_back(previous_exception_.get());
            stack.push_back(exc);
            return;
        }
        case N::PopExcept: {
            if (!previous_exception_.is(pop(stack))) unsupported("POP_EXCEPT of an unusual stack");
            pop_except_serial_ = make_expr(ExprKind::Name)->serial;
            return;
        }
        case N::CheckExcMatch: {
            ExprPtr type = pop(stack);
            if (stack.empty() || !exception_.is(stack.back())) unsupported("CHECK_EXC_MATCH of an unusual stack");
            auto test = make_expr(ExprKind::Call);
            test->value = exception_matches_.get();
            test->elts.push_back(type);
            stack.push_back(test);
            return;
        }
        case N::BeforeWith: {
            ExprPtr context = pop(stack);
            auto exit = marker("<with exit>");
            auto entered = marker("<with enter>");
            silent_.insert(keep(exit));
            silent_.insert(keep(entered));
            with_context_[keep(entered)] = context;
            with_exits_.insert(exit.get());
            exit_of_entered_[entered.get()] = exit.get();
            // (Its handler calls __exit__ too, where an exception leaves the body: see with_exit_called_before.)
            if (&op >= ops_.data() && &op + 1 < ops_.data() + ops_.size() && (&op + 1)->handler >= 0)
                handler_of_exit_[exit.get()] = cfg_.block_at_offset((&op + 1)->handler);
            if (op.arg == 1) async_withs_.insert({exit.get(), entered.get()});  // BEFORE_ASYNC_WITH and the await of __aenter__
            stack.push_back(exit);
            stack.push_back(entered);
            return;
        }
        case N::MatchSequence: case N::MatchMapping: case N::MatchClass: case N::MatchKeys: case N::GetLen:
        case N::CopyDictWithoutKeys:
            unsupported("a match statement the pattern decoder cannot read (an or-pattern that binds names?)");
        default: unsupported("operation not supported yet");
        }
    }

    // LIST_EXTEND / SET_UPDATE / DICT_UPDATE on a value that has a name: the method call it performs.
    void update_in_place(Body& out, const ExprPtr& target, const char* method, const ExprPtr& argument) {
        if (target->kind != ExprKind::Name) unsupported("in-place update of an unusual value");
        auto attr = make_expr(ExprKind::Attribute);
        attr->value = target;
        attr->id = method;
        auto call = make_expr(ExprKind::Call);
        call->value = attr;
        call->elts.push_back(argument);
        emit_expr_stmt(out, call);
    }

    static ExprPtr subscript(const ExprPtr& value, const ExprPtr& index) {
        auto e = make_expr(ExprKind::Subscript);
        e->value = value;
        e->index = index;
        return e;
    }

    ExprPtr slice(const ExprPtr& start, const ExprPtr& stop, const ExprPtr& step_e) {
        auto e = make_expr(ExprKind::Slice);
        auto none_to_null = [](const ExprPtr& x) {
            return x && x->kind == ExprKind::Constant && x->constant->kind == PyValue::Kind::None ? nullptr : x;
        };
        e->lower = none_to_null(start);
        e->upper = none_to_null(stop);
        e->step = none_to_null(step_e);
        return e;
    }

    void set_function_attribute(FunctionValue& f, int64_t flag, const ExprPtr& value) {
        if (flag == 1) f.defaults = value;
        else if (flag == 2) f.kwdefaults = value;
        else if (flag == 4) f.annotations = value;
        else if (flag == 8) return;  // closure cells: implied by the nested code's free variables
        else unsupported("unknown function attribute");
    }

    void make_function(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        if (op.with_qualname) pop(stack);
        ExprPtr code_expr = pop(stack);
        if (!is_const_kind(code_expr, PyValue::Kind::Code)) unsupported("MAKE_FUNCTION without a code constant");
        FunctionValue f;
        f.code = code_expr->constant->code;
        if (op.arg & 8) pop(stack);
        if (op.arg & 4) f.annotations = pop(stack);
        if (op.arg & 2) f.kwdefaults = pop(stack);
        if (op.arg & 1) f.defaults = pop(stack);
        auto m = marker("<function>");
        functions_[keep(m)] = f;
        stack.push_back(m);
    }

    // ---------------------------------------------------------------- calls
    void build_display(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        if (op.kind == N::BuildMap) {
            auto items = pop_n(stack, 2 * op.arg);
            auto e = make_expr(ExprKind::Dict);
            for (size_t k = 0; k < items.size(); k += 2) {
                e->elts.push_back(lambda_or(items[k]));
                e->values.push_back(lambda_or(items[k + 1]));
            }
            stack.push_back(e);
            return;
        }
        auto e = make_expr(op.kind == N::BuildTuple ? ExprKind::Tuple : op.kind == N::BuildList ? ExprKind::List : ExprKind::Set);
        e->elts = pop_n(stack, op.arg);
        // `class C(*bases)` or `class C(**kw)` passes __build_class__ its arguments as a list or tuple:
        // the class body's function first.
        size_t below = stack.size() - (!stack.empty() && is_null(stack.back()) ? 1 : 0);  // 3.13 pushes NULL after the callable
        bool class_arguments = op.kind != N::BuildSet && below > 0 && build_class_.is(stack[below - 1]);
        for (auto& x : e->elts) {
            if ((op.kind == N::BuildTuple && is_starred_annotation(x)) || (class_arguments && x == e->elts[0])) continue;
            if (slots_.count(x.get()) || x == for_value_) unsupported("unusual tuple of pending targets");
            x = lambda_or(x);
        }
        stack.push_back(e);
    }

    // ---------------------------------------------------------------- inlined comprehensions (PEP 709)
    // 3.12+ compiles list/set/dict comprehensions into the enclosing code: the iteration variables'
    // bindings are saved (LoadAndClear) and restored after the loop, an empty accumulator is built,
    // and the loop appends to it. The accumulator is a marker until its outermost loop ends; then
    // the loop statement becomes the comprehension expression, as a comprehension code object's would.
    void push_accumulator(ExprKind kind, std::vector<ExprPtr>& stack) {
        auto acc = marker("<comprehension>");
        accumulators_[keep(acc)] = kind;
        silent_.insert(acc.get());
        stack.push_back(acc);
    }

    // Outside an inlined comprehension, LIST_APPEND/SET_ADD/MAP_ADD only make sense in the body of
    // a comprehension code object (before 3.12, and generator expressions).
    void require_comprehension_code() const {
        if (!in_comprehension_code())
            unsupported("adding to a container outside a comprehension (an inlined comprehension without saved variables?)");
    }

    // The body of a comprehension's own code object: its accumulator waits below every iterator.
    bool in_comprehension_code() const {
        const std::string& n = code_.name;
        return n == "<listcomp>" || n == "<setcomp>" || n == "<dictcomp>" || n == "<genexpr>";
    }

    // A condition of a comprehension. An `if` laid out with its body (a false test jumping forward
    // to the jump back) rather than as a `continue` guard (a true test jumping over the jump back)
    // is where a compiler that threads jumps only within a line saw the test on another line than
    // the element (`own_line`).
    static void add_comprehension_if(ast::Comprehension& g, const ExprPtr& test, bool own_line) {
        g.ifs.push_back(test);
        g.ifs_on_own_line.resize(g.ifs.size() - 1, false);
        g.ifs_on_own_line.push_back(own_line);
    }

    static bool is_continue_guard(const StmtPtr& s) {
        return s->kind == StmtKind::If && s->orelse.empty() && s->body.size() == 1 && s->body[0]->kind == StmtKind::Continue;
    }

    // The test under which a comprehension goes on past `s`, a condition laid out as statements:
    // `if c: continue` goes on when `not c`, and an `if t:` without else holding only such
    // statements when `not t` or all of theirs (3.12 lays `a or (b and c)` out as `if not a: if not
    // b: continue ...`). Null for anything else.
    ExprPtr filter_test(const StmtPtr& s) {
        if (is_continue_guard(s)) return negate(s->test);
        if (s->kind != StmtKind::If || !s->orelse.empty() || s->body.empty()) return nullptr;
        ExprPtr all;
        for (const StmtPtr& inner : s->body) {
            ExprPtr test = filter_test(inner);
            if (!test) return nullptr;
            all = all ? bool_op("and", all, test) : test;
        }
        return bool_op("or", negate(s->test), all);
    }

    // `for y in [f(x)]` after a comprehension's first loop, which 3.9+ compile as `y = f(x)`: an
    // assignment to the comprehension's own variables (`own`; an assignment expression's target
    // lives in the enclosing scope), as a loop over a one-item list.
    template <class Own>
    static std::optional<ast::Comprehension> one_item_loop(const StmtPtr& s, Own&& own) {
        if (s->kind != StmtKind::Assign || s->targets.size() != 1) return std::nullopt;
        std::function<bool(const ExprPtr&)> binds_own = [&](const ExprPtr& t) {
            if (t->kind == ExprKind::Name) return own(t->id);
            if (t->kind == ExprKind::Starred) return binds_own(t->value);
            if (t->kind != ExprKind::Tuple && t->kind != ExprKind::List) return false;
            return std::all_of(t->elts.begin(), t->elts.end(), binds_own);
        };
        if (!binds_own(s->targets[0])) return std::nullopt;
        auto items = make_expr(ExprKind::List);
        items->elts.push_back(s->value);
        return ast::Comprehension{s->targets[0], items, {}, false, {}};
    }

    // A comprehension's loop or `if` whose body is empty: a condition that is always false (`if
    // False`, `if x and 0`) made the compiler drop the element (and any loop after it). Any element
    // says the same: the loop's target, read back.
    static bool is_dropped_element(const Body& b) { return b.empty() || (b.size() == 1 && b[0]->kind == StmtKind::Pass); }

    // A comprehension's `if` with an empty body before the rest: a condition that is always true
    // but evaluates its test (`x or True`, `1 if 0 else 2`), both ways going on to the rest.
    static ExprPtr always_true_condition(const StmtPtr& s) {
        if (s->kind != StmtKind::If || !s->orelse.empty() || !is_dropped_element(s->body)) return nullptr;
        ExprPtr yes = make_constant(true_value());
        if (s->test->kind == ExprKind::UnaryOp && s->test->id == "not") {  // jumps on when true
            auto e = make_expr(ExprKind::BoolOp);
            e->id = "or";
            e->elts = {s->test->value, yes};
            return e;
        }
        auto e = make_expr(ExprKind::IfExp);
        e->test = s->test;
        e->body = yes;
        e->orelse = yes;
        return e;
    }

    static void drop_element(ast::Comprehension& g, std::vector<ExprPtr>& element, bool dict) {
        add_comprehension_if(g, make_constant(false_value()), false);
        const ExprPtr& t = g.target;
        if (dict && t->kind == ExprKind::Tuple && t->elts.size() == 2) element = {t->elts[0], t->elts[1]};
        else if (dict) element = {t, t};
        else element = {t};
    }

    bool is_element_stmt(const StmtPtr& s, const ExprPtr& acc) const {
        return s->kind == StmtKind::Expr && s->value && s->value->kind == ExprKind::Name && s->value->id == "<element>" &&
               s->value->value == acc;
    }

    // 3.9+: `[*a, x]` extends an empty display and then appends the plain items right below them
    // (a comprehension's own append reaches past its iterator: arg >= 2).
    bool add_display_item(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        if (op.arg != 1 || stack.size() < 2) return false;
        ExprPtr& target = stack[stack.size() - 2];
        ExprKind kind = op.kind == N::ListAppend ? ExprKind::List : ExprKind::Set;
        if (target->kind != kind || accumulators_.count(target.get())) return false;
        auto updated = std::make_shared<Expr>(*target);
        updated->elts.push_back(lambda_or(pop(stack)));
        stack.back() = updated;
        return true;
    }

    // 3.10+: a dict display of more than 16 entries is built as an empty dict and a MAP_ADD 1 for
    // each entry of its first chunk (a comprehension's own MAP_ADD reaches past its iterator).
    bool add_display_entry(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        if (op.arg != 1 || stack.size() < 3) return false;
        ExprPtr& target = stack[stack.size() - 3];
        if (target->kind != ExprKind::Dict || accumulators_.count(target.get())) return false;
        auto updated = std::make_shared<Expr>(*target);
        auto value = pop(stack), key = pop(stack);
        updated->elts.push_back(lambda_or(key));
        updated->values.push_back(lambda_or(value));
        chunked_dicts_.insert(keep(updated));
        stack.back() = updated;
        return true;
    }

    // The next chunk of such a display (DICT_UPDATE 1): a display of plain entries, either a full
    // chunk built the same way or the last chunk (at most 16 entries, after which the display
    // ends). Merging it prints the display the compiler split; `**{...}` would compile alike.
    bool merge_dict_chunk(const ExprPtr& target, const ExprPtr& mapping) const {
        if (target->kind != ExprKind::Dict || mapping->kind != ExprKind::Dict || !chunked_dicts_.count(target.get())) return false;
        for (const auto& k : mapping->elts)
            if (!k) return false;
        return chunked_dicts_.count(mapping.get()) ? mapping->elts.size() == 17 : mapping->elts.size() <= 16;
    }

    // LIST_APPEND/SET_ADD/MAP_ADD into an accumulator: an element statement, `<element>` holding
    // the accumulator (value) and the element (elts: the item, or key and value).
    bool add_inlined_element(const NeutralOp& op, std::vector<ExprPtr>& stack, Body& out) {
        size_t popped = op.kind == N::MapAdd ? 2 : 1;
        if (op.arg < 1 || size_t(op.arg) + popped > stack.size()) return false;
        const ExprPtr& acc = stack[stack.size() - popped - size_t(op.arg)];
        if (!accumulators_.count(acc.get())) return false;
        if ((op.kind == N::MapAdd) != (accumulators_.at(acc.get()) == ExprKind::DictComp) ||
            (op.kind == N::ListAppend) != (accumulators_.at(acc.get()) == ExprKind::ListComp))
            unsupported("an inlined comprehension adding to an accumulator of another kind");
        auto element = marker("<element>");
        element->value = acc;
        for (const auto& e : pop_n(stack, int64_t(popped))) element->elts.push_back(lambda_or(e));
        auto s = make_stmt(StmtKind::Expr);
        s->value = element;
        emit_stmt(out, s);
        return true;
    }

    // The loop statement of an inlined comprehension, as the comprehension. Its body must be the
    // compiler's shape: `if c: continue` guards, then one nested `for`, one `if` without else, or
    // the element, and nothing after.
    ExprPtr inlined_comprehension(const Stmt& loop, const ExprPtr& acc, const std::set<std::string>& saved) {
        if (!loop.orelse.empty()) unsupported("an inlined comprehension loop with else");
        auto comp = make_expr(accumulators_.at(acc.get()));
        comp->generators.push_back({loop.target, loop.iter, {}, loop.is_async, {}});
        bool found = false;
        auto own = [&](const std::string& name) { return saved.count(name) > 0; };
        // (Its statements' tests are not yet placed, as the function's are at its end: see run.)
        auto placed = [&](const ExprPtr& test) { return placed_test(test, none_tests_); };
        std::function<void(const Body&)> walk = [&](const Body& body) {
            if (is_dropped_element(body) && !found) {
                std::vector<ExprPtr> element;
                drop_element(comp->generators.back(), element, comp->kind == ExprKind::DictComp);
                found = true;
                comp->elt = element[0];
                if (element.size() == 2) comp->value = element[1];
                return;
            }
            // Consecutive `if c: continue` guards: one condition each, or `not (a or b)` where a
            // guard's own negation cannot be written (`not x in y`, which the optimizer folds into
            // `x not in y`): both compile to the same jumps.
            std::vector<ExprPtr> guards;
            auto add_guards = [&] {
                bool each = std::all_of(guards.begin(), guards.end(),
                                        [&](const ExprPtr& g) { return test_placeable(negate(g), none_tests_); });
                if (each || guards.size() == 1) {
                    for (const ExprPtr& g : guards) add_comprehension_if(comp->generators.back(), placed(negate(g)), false);
                } else {
                    ExprPtr any = guards[0];
                    for (size_t i = 1; i < guards.size(); ++i) any = bool_op("or", any, guards[i]);
                    add_comprehension_if(comp->generators.back(), placed(negate(any)), false);
                }
                guards.clear();
            };
            for (size_t k = 0; k < body.size(); ++k) {
                const StmtPtr& s = body[k];
                bool last = k + 1 == body.size();
                if (is_continue_guard(s) && !last) {
                    guards.push_back(s->test);
                    continue;
                }
                if (!guards.empty()) add_guards();
                if (ExprPtr test = always_true_condition(s); test && !last) {
                    add_comprehension_if(comp->generators.back(), test, false);
                } else if (ExprPtr test = filter_test(s); test && !last) {
                    add_comprehension_if(comp->generators.back(), placed(test), false);
                } else if (auto loop_over_one = one_item_loop(s, own); loop_over_one && !last) {
                    comp->generators.push_back(*loop_over_one);
                } else if (!last) {
                    unsupported("an inlined comprehension of an unusual shape");
                } else if (s->kind == StmtKind::For && s->orelse.empty()) {
                    comp->generators.push_back({s->target, s->iter, {}, s->is_async, {}});
                    walk(s->body);
                } else if (s->kind == StmtKind::If && s->orelse.empty()) {
                    add_comprehension_if(comp->generators.back(), placed(s->test), comprehension_jumps_by_line_);
                    walk(s->body);
                } else if (is_element_stmt(s, acc) && !found) {
                    found = true;
                    comp->elt = s->value->elts[0];
                    if (s->value->elts.size() == 2) comp->value = s->value->elts[1];
                } else {
                    unsupported("an inlined comprehension of an unusual shape");
                }
            }
        };
        walk(loop.body);
        if (!found) unsupported("an inlined comprehension without its element");
        return comp;
    }

    // The callable below a call's arguments. With two slots, a non-NULL "self" slot is the first
    // argument (a method call, or 3.11's call of a comprehension with its iterator).
    ExprPtr pop_callable(const NeutralOp& op, std::vector<ExprPtr>& stack, std::vector<ExprPtr>& args) {
        if (op.call_slots == 1) return pop(stack);
        ExprPtr upper = pop(stack), lower = pop(stack);
        ExprPtr callable = op.null_first ? (is_null(lower) ? upper : lower) : lower;
        ExprPtr self = op.null_first ? (is_null(lower) ? nullptr : upper) : (is_null(upper) ? nullptr : upper);
        if (is_null(callable)) unsupported("a call of NULL (unusual bytecode)");
        if (self) args.insert(args.begin(), self);
        return callable;
    }

    void call(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        std::vector<std::string> kwnames = op.kwnames;
        if (op.kind == N::CallKw) {
            auto names = pop(stack);
            if (!is_const_kind(names, PyValue::Kind::Tuple)) unsupported("keyword names that are not a constant tuple");
            for (const auto& n : names->constant->items) kwnames.push_back(n->text);
        }
        auto args = pop_n(stack, op.arg);
        auto callable = pop_callable(op, stack, args);
        if (kwnames.size() > args.size()) unsupported("more keyword names than arguments");
        size_t npos = args.size() - kwnames.size();
        std::vector<ExprPtr> positional(args.begin(), args.begin() + npos);
        if (with_exits_.count(callable.get())) {  // a `with` statement's __exit__(None, None, None)
            auto done = marker("<with exit result>");
            with_exit_serial_ = done->serial;
            with_exit_offset_ = op.offset;
            with_exit_called_ = callable.get();
            with_exit_block_ = &op >= ops_.data() && &op < ops_.data() + ops_.size() ? cfg_.block_of_op(size_t(&op - ops_.data())) : -1;
            // (The __exit__ of a with statement around the region: a return leaving it may run the
            // copies of finally bodies next, statements below the region's stack it keeps. So may
            // one of a value computed in the with statement, whose way out leaves the region's stack
            // after the call, popping the except clauses around it.)
            if (with_exit_block_ >= 0 && op.kind == N::Call) {
                size_t next = size_t(&op - ops_.data()) + 1;
                if (next < ops_.size() && ops_[next].kind == N::Await) ++next;  // (__aexit__'s result)
                if (next + 1 < ops_.size() && ops_[next].kind == N::Pop &&
                    !(stack.size() < base_ && returns_through_finally_copies(next + 1, copies_after_exit_)) && !open_handlers_.empty() &&
                    return_through_branching_copies(next + 1, copies_after_exit_))
                    note_returned(stack);
            }
            silent_.insert(keep(done));
            if (async_withs_.count(callable.get())) async_exit_results_.insert(done.get());
            return stack.push_back(done);
        }
        if (build_class_.is(callable)) {
            std::vector<Keyword> keywords;
            for (size_t k = 0; k < kwnames.size(); ++k) keywords.push_back({kwnames[k], args[npos + k]});
            return stack.push_back(class_definition(positional, keywords));
        }
        if (auto it = functions_.find(callable.get()); it != functions_.end() && kwnames.empty() && !generic_subject(*it->second.code).empty())
            return stack.push_back(generic_definition_or_stub(it->second, positional));
        if (auto it = functions_.find(callable.get()); it != functions_.end() && kwnames.empty() && positional.size() == 1) {
            const std::string& n = it->second.code->name;
            if (n == "<listcomp>" || n == "<setcomp>" || n == "<dictcomp>" || n == "<genexpr>") {
                ExprPtr comp = comprehension(it->second, positional[0]);
                bool async_iter = async_iterables_.count(positional[0].get());
                if (comp->generators.empty() || comp->generators[0].is_async != async_iter)
                    unsupported("a comprehension whose first loop is async in one place and not in the other");
                if (it->second.code->flags & kCoCoroutine) unawaited_comprehensions_.insert(keep(comp));
                return stack.push_back(comp);
            }
        }
        auto e = make_expr(ExprKind::Call);
        e->value = lambda_or(callable);
        // A decorator applied to a def: the function stays a value of its own until the result is
        // stored under its name (try_definition); used anywhere else it is refused (check_no_markers).
        if (positional.size() == 1 && kwnames.empty() && is_def_value(positional[0])) {
            e->elts.push_back(positional[0]);
            return stack.push_back(e);
        }
        for (auto& a : positional) e->elts.push_back(lambda_or(a));
        for (size_t k = 0; k < kwnames.size(); ++k) e->keywords.push_back({kwnames[k], lambda_or(args[npos + k])});
        stack.push_back(e);
    }

    // 3.8 packs the plain items between starred ones into a tuple (a set, a dict) of their own and
    // concatenates the packs with the starred values: a pack's items are the display's own (two
    // packs are never next to each other), anything else was starred.
    void build_unpack(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        std::vector<ExprPtr> parts = pop_n(stack, op.arg);
        const bool dict = op.name == "dict";
        auto e = make_expr(dict ? ExprKind::Dict : op.name == "list" ? ExprKind::List : op.name == "set" ? ExprKind::Set
                                                                                                        : ExprKind::Tuple);
        bool after_pack = false;
        for (const ExprPtr& part : parts) {
            bool pack = !after_pack && is_unpack_pack(part, op);
            if (dict && pack) {
                e->elts.insert(e->elts.end(), part->elts.begin(), part->elts.end());
                e->values.insert(e->values.end(), part->values.begin(), part->values.end());
            } else if (dict) {
                e->elts.push_back(nullptr);
                e->values.push_back(part);
            } else if (pack && part->kind == ExprKind::Constant) {
                for (const auto& item : part->constant->items) e->elts.push_back(make_constant(item));
            } else if (pack) {
                e->elts.insert(e->elts.end(), part->elts.begin(), part->elts.end());
            } else {
                e->elts.push_back(starred(part));
                iterated_by_build_.insert(keep(e->elts.back()));
            }
            after_pack = pack;
        }
        // `{**a, **b}` passed as `f(**{**a, **b})` keeps duplicate keys that `f(**a, **b)` rejects;
        // `f(*(*a, b))` is a display too, not the call's own packing.
        if (!op.for_call && (dict || e->kind == ExprKind::Tuple)) merged_displays_.insert(keep(e));
        stack.push_back(e);
    }

    bool is_unpack_pack(const ExprPtr& part, const NeutralOp& op) const {
        if (op.name == "set") return part->kind == ExprKind::Set && !has_starred(part);
        if (op.name != "dict") return (part->kind == ExprKind::Tuple && !has_starred(part)) || is_const_kind(part, PyValue::Kind::Tuple);
        if (part->kind != ExprKind::Dict || merged_displays_.count(part.get())) return false;
        for (const ExprPtr& key : part->elts) {
            if (!key) return false;
            if (op.for_call && !(is_const_kind(key, PyValue::Kind::Str) && is_identifier(key->constant->text))) return false;
        }
        return true;
    }

    static bool has_starred(const ExprPtr& display) {
        return std::any_of(display->elts.begin(), display->elts.end(),
                           [](const ExprPtr& x) { return x && x->kind == ExprKind::Starred; });
    }

    // A name a keyword argument (or a variable) may be written with: not a keyword.
    static bool is_identifier(const std::string& s) {
        static constexpr std::string_view kKeywords[] = {
            "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
            "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
            "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};
        if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
        if (std::find(std::begin(kKeywords), std::end(kKeywords), s) != std::end(kKeywords)) return false;
        return std::all_of(s.begin(), s.end(), [](char ch) {
            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || static_cast<unsigned char>(ch) >= 0x80;
        });
    }

    // A dict display passed as `**` whose items can be written as keyword arguments: string keys
    // that are identifiers, each once (`f(**{'"': 1})`, `f(**{'a': 1, 'a': 2})` cannot).
    static bool spells_keywords(const Expr& dict) {
        std::vector<std::string_view> seen;
        for (const ExprPtr& key : dict.elts) {
            if (!key) continue;  // (`**mapping` inside: stays one)
            if (!is_const_kind(key, PyValue::Kind::Str) || !is_identifier(key->constant->text)) return false;
            if (std::find(seen.begin(), seen.end(), key->constant->text) != seen.end()) return false;
            seen.push_back(key->constant->text);
        }
        return true;
    }

    void call_ex(const NeutralOp& op, std::vector<ExprPtr>& stack) {
        ExprPtr kwargs = (op.arg & 1) ? pop(stack) : nullptr;
        ExprPtr args = pop(stack);
        std::vector<ExprPtr> self;
        auto callable = pop_callable(op, stack, self);
        if (!self.empty()) unsupported("CALL_FUNCTION_EX with a bound self (unusual bytecode)");
        auto e = make_expr(ExprKind::Call);
        e->value = callable;
        if (build_class_.is(callable) && !(args->kind == ExprKind::Tuple || args->kind == ExprKind::List))
            unsupported("a class of unusual bytecode");
        // The compiler packs a call's own positional arguments into a tuple, and calls with
        // CALL_FUNCTION_EX only for a star or for `**`: a list, or a tuple without a starred item
        // in a call without `**`, was a display under a star (`f(*[a, b])`, `f(*(0, 1))`).
        const bool starless_tuple = (args->kind == ExprKind::Tuple && !has_starred(args)) || is_const_kind(args, PyValue::Kind::Tuple);
        bool star_display = !build_class_.is(callable) &&
                            (args->kind == ExprKind::List ||
                             (args->kind == ExprKind::Tuple && merged_displays_.count(args.get())) || (!kwargs && starless_tuple));
        if (star_display) e->elts.push_back(starred(args));
        else if (args->kind == ExprKind::Tuple || args->kind == ExprKind::List) e->elts = args->elts;
        else if (is_const_kind(args, PyValue::Kind::Tuple))
            for (const auto& item : args->constant->items) e->elts.push_back(make_constant(item));
        else e->elts.push_back(starred(args));
        if (kwargs) {
            // (3.8: keyword arguments without a star before them compile to a call with keyword
            // names, so a dict here with none was written as one; later versions merge a written
            // one into an empty dict, and pack many keyword arguments into a dict themselves.)
            bool star_before = !star_display && !starless_tuple;
            bool written_dict = kwargs_display_passed_as_is_ && !star_before &&
                                std::none_of(kwargs->elts.begin(), kwargs->elts.end(), [](const ExprPtr& k) { return !k; });
            if (kwargs->kind == ExprKind::Dict && !merged_displays_.count(kwargs.get()) && spells_keywords(*kwargs) && !written_dict) {
                for (size_t k = 0; k < kwargs->elts.size(); ++k) {
                    const ExprPtr& key = kwargs->elts[k];
                    if (!key) e->keywords.push_back({std::nullopt, kwargs->values[k]});
                    else e->keywords.push_back({key->constant->text, kwargs->values[k]});
                }
            } else {
                e->keywords.push_back({std::nullopt, kwargs});
            }
        }
        if (build_class_.is(callable)) return stack.push_back(class_definition(e->elts, e->keywords));
        stack.push_back(e);
    }

    // A function value used as an expression: a lambda (anything else is not expressible inline).
    ExprPtr lambda_or(const ExprPtr& e) {
        auto it = functions_.find(e.get());
        if (it == functions_.end()) return e;
        const FunctionValue& f = it->second;
        if (f.code->name != "<lambda>") unsupported("a function object used as a value");
        Body body;
        nested_body(*f.code, body, false);
        ExprPtr lam = lambda_of(f, body);
        if (!lam) unsupported("lambda whose body is not one expression");
        lambda_made_from_[keep(lam)] = keep(e);
        return lam;
    }

    // The lambda whose body is `body` (the decompiled code of f), or null where it is not one expression.
    ExprPtr lambda_of(const FunctionValue& f, const Body& body) {
        ExprPtr result;
        if (body.size() == 1 && body[0]->kind == StmtKind::Return) result = body[0]->value;
        else if (ExprPtr chosen = returned_expression(body)) result = chosen;
        else if (body.size() == 1 && body[0]->kind == StmtKind::Expr && body[0]->value->kind == ExprKind::Yield) result = body[0]->value;
        else if (body.size() == 1 && body[0]->kind == StmtKind::Pass && !(f.code->flags & 0x20)) result = nullptr;  // `return None`, stripped
        else return nullptr;
        auto lam = make_expr(ExprKind::Lambda);
        lam->args = arguments_of(f);
        lam->value = result ? result : make_constant(std::make_shared<PyValue>());
        return lam;
    }

    // A body that only returns, choosing what by tests, as one expression: the returns of a
    // lambda's conditional expression, which 3.12+ copies into both branches.
    static ExprPtr returned_expression(const Body& body, size_t from = 0) {
        if (from >= body.size()) return nullptr;
        const StmtPtr& s = body[from];
        if (s->kind == StmtKind::Return) return from + 1 == body.size() && s->value ? s->value : nullptr;
        if (s->kind != StmtKind::If) return nullptr;
        ExprPtr then = returned_expression(s->body);
        ExprPtr other = s->orelse.empty() ? returned_expression(body, from + 1)
                                          : (from + 1 == body.size() ? returned_expression(s->orelse) : nullptr);
        if (!then || !other) return nullptr;
        auto e = make_expr(ExprKind::IfExp);
        e->test = s->test;
        e->body = then;
        e->orelse = other;
        return e;
    }

    ExprPtr class_definition(const std::vector<ExprPtr>& positional, const std::vector<Keyword>& keywords) {
        if (positional.size() < 2) unsupported("__build_class__ without body and name");
        auto it = functions_.find(positional[0].get());
        if (it == functions_.end() || !is_const_kind(positional[1], PyValue::Kind::Str)) unsupported("unusual class");
        auto cls = make_stmt(StmtKind::ClassDef);
        cls->name = positional[1]->constant->text;
        cls->bases.assign(positional.begin() + 2, positional.end());
        cls->keywords = keywords;
        class_body(*it->second.code, cls->body);
        auto m = marker("<class>");
        classes_[keep(m)] = cls;
        return m;
    }

    static bool is_assign_to(const StmtPtr& s, const char* name) {
        return s->kind == StmtKind::Assign && s->targets.size() == 1 && s->targets[0]->kind == ExprKind::Name &&
               s->targets[0]->id == name;
    }

    // The stores that end a class body (3.13's __static_attributes__, __classcell__), which the
    // compiler copies into the branches of a trailing if or try with the body's end. Each once, and
    // only with the compiler's value: a class may assign these names itself.
    void strip_class_tail(Body& body, bool may_empty) const {
        restore_module_else(body);
        bool cell = false, attributes = false;
        while (!body.empty()) {
            const StmtPtr& last = body.back();
            if (is_class_return(last)) {
            } else if (!cell && !attributes && is_assign_to(last, "__classcell__") &&
                       std::find(class_cell_loads_.begin(), class_cell_loads_.end(), last->value) != class_cell_loads_.end()) {
                cell = true;
            } else if (!attributes && code_.version >= PyVersion{3, 13} && is_assign_to(last, "__static_attributes__") &&
                       is_const_kind(last->value, PyValue::Kind::Tuple)) {  // new in 3.13
                attributes = true;
            } else {
                break;
            }
            body.pop_back();
        }
        if (body.empty()) {
            if (!may_empty) body.push_back(make_stmt(StmtKind::Pass));
            return;
        }
        for_each_tail_branch(*body.back(), [this](Body& branch, bool may_be_empty) { strip_class_tail(branch, may_be_empty); });
    }

    // A class body has no `return` of its own: a branch that ends in one ends the body, where the
    // compiler copied the body's end (3.10+ copies it into an if's branch that the rest follows).
    void strip_copied_class_ends(Body& body) const {
        // `if t: A` (A ending in a copy of the end) followed by B: B runs only when t is false, so
        // it is the if's else, as written (with the copy gone, B would run after A too).
        for (size_t i = 0; i + 1 < body.size(); ++i) {
            Stmt& s = *body[i];
            if (s.kind == StmtKind::If && s.orelse.empty() && leaves_on_every_path(s.body) && returns_in(s.body)) {
                s.orelse.assign(body.begin() + std::ptrdiff_t(i) + 1, body.end());
                body.resize(i + 1);
                break;
            }
        }
        for (const StmtPtr& s : body) {
            auto visit = [this](Body& b, bool may_be_empty) {
                if (!b.empty() && is_class_return(b.back())) strip_class_tail(b, may_be_empty);
                strip_copied_class_ends(b);
            };
            if (s->kind == StmtKind::FunctionDef || s->kind == StmtKind::ClassDef) continue;
            visit(s->body, false);
            visit(s->orelse, true);
            for (ExceptHandler& h : s->handlers) visit(h.body, false);
            for (auto& c : s->cases) visit(c.body, false);
        }
    }

    // The stores that start every class body: __module__ = __name__, __qualname__ = 'Name', 3.13's
    // __firstlineno__ = N, a generic class's type parameters. Each once: later ones are the class's own.
    static size_t class_prologue_length(const Body& body, size_t from) {
        bool module = false, qualname = false, firstlineno = false;
        size_t n = from;
        for (; n < body.size(); ++n) {
            const StmtPtr& s = body[n];
            if (!module && is_assign_to(s, "__module__") && s->value->kind == ExprKind::Name && s->value->id == "__name__") module = true;
            else if (!qualname && is_assign_to(s, "__qualname__") && is_const_kind(s->value, PyValue::Kind::Str)) qualname = true;
            else if (!firstlineno && is_assign_to(s, "__firstlineno__") && is_const_kind(s->value, PyValue::Kind::Int)) firstlineno = true;
            else if (!is_type_params_store(*s)) break;
        }
        return n - from;
    }

    // The branches of a body's last statement that end where the body ends - a trailing if's two
    // sides, a try's body (or its else) and except clauses, a with's body, where the compiler copies
    // the code's end - each with whether it may be left empty.
    template <class F>
    static void for_each_tail_branch(Stmt& last, F&& f) {
        if (last.kind == StmtKind::If) {
            f(last.body, false);
            f(last.orelse, true);
        } else if (last.kind == StmtKind::Try && last.finalbody.empty()) {
            if (last.orelse.empty()) f(last.body, false);
            else f(last.orelse, true);
            for (ExceptHandler& h : last.handlers) f(h.body, false);
        } else if (last.kind == StmtKind::With) {
            f(last.body, false);
        }
    }

    // A class body's end: `return None`, or `return __class__` where methods use the class cell.
    static bool is_class_return(const StmtPtr& s) {
        return is_return_none(s) || (s->kind == StmtKind::Return && s->value && s->value->kind == ExprKind::Name &&
                                     s->value->id == "__class__");
    }

    void class_body(const CodeObject& code, Body& body) {
        nested_body(code, body, false, &code.name);
        // Drop what the compiler adds to every class body.
        while (!body.empty() && body.back()->kind == StmtKind::Return) body.pop_back();  // `return __class__` or None
        strip_class_tail(body, true);
        strip_copied_class_ends(body);
        // (nested_body put the class's global / nonlocal declarations first, before the prologue;
        // they go back after the docstring.)
        size_t declared = 0;
        while (declared < body.size() && (body[declared]->kind == StmtKind::Global || body[declared]->kind == StmtKind::Nonlocal))
            ++declared;
        Body cleaned;
        for (size_t i = declared + class_prologue_length(body, declared); i < body.size(); ++i) {
            const StmtPtr& s = body[i];
            if (is_assign_to(s, "__doc__") && cleaned.empty() && s->value->kind == ExprKind::Constant) {
                auto doc = make_stmt(StmtKind::Expr);
                doc->value = s->value;
                cleaned.push_back(doc);
                continue;
            }
            if (s->kind == StmtKind::Return) continue;  // `return __class__` or the implicit None
            cleaned.push_back(s);
        }
        cleaned.insert(cleaned.begin() + (starts_with_docstring(cleaned) ? 1 : 0), body.begin(), body.begin() + std::ptrdiff_t(declared));
        if (cleaned.empty()) cleaned.push_back(make_stmt(StmtKind::Pass));
        body = cleaned;
    }

    ExprPtr comprehension(const FunctionValue& f, const ExprPtr& iterable) {
        const CodeObject& c = *f.code;
        Body body;
        StructuredDecompiler inner(c, failures_, options_);
        body = inner.run();
        // Shape: [result = BUILD_*] for target in .0: [if ...:] ... append(elt); return result
        const std::string& n = c.name;
        ExprKind kind = n == "<listcomp>" ? ExprKind::ListComp : n == "<setcomp>" ? ExprKind::SetComp
                        : n == "<dictcomp>" ? ExprKind::DictComp : ExprKind::GeneratorExp;
        auto comp = make_expr(kind);
        const Body* level = &body;
        size_t start = 0;
        while (start < level->size() && (*level)[start]->kind == StmtKind::Expr && is_null((*level)[start]->value)) ++start;
        if (start >= level->size() || (*level)[start]->kind != StmtKind::For) unsupported("unusual comprehension");
        bool dropped = false;
        auto own = [&c](const std::string& name) {
            return std::find(c.varnames.begin(), c.varnames.end(), name) != c.varnames.end() ||
                   std::find(c.cellvars.begin(), c.cellvars.end(), name) != c.cellvars.end();
        };
        std::function<void(const Body&)> walk = [&](const Body& b) {
            if (is_dropped_element(b) && !comp->generators.empty() && inner.element_.empty()) {
                drop_element(comp->generators.back(), inner.element_, kind == ExprKind::DictComp);
                dropped = true;
                return;
            }
            for (size_t k = 0; k < b.size(); ++k) {
                const StmtPtr& s = b[k];
                if (s->kind == StmtKind::For) {
                    comp->generators.push_back({s->target, s->iter, {}, s->is_async, {}});
                    walk(s->body);
                } else if (is_continue_guard(s) && k + 1 < b.size()) {  // `if c: continue` then the rest
                    if (comp->generators.empty()) unsupported("unusual comprehension");
                    add_comprehension_if(comp->generators.back(), negate(s->test), false);
                } else if (ExprPtr test = always_true_condition(s); test && k + 1 < b.size()) {
                    if (comp->generators.empty()) unsupported("unusual comprehension");
                    add_comprehension_if(comp->generators.back(), test, false);
                } else if (ExprPtr test = filter_test(s); test && k + 1 < b.size()) {
                    if (comp->generators.empty()) unsupported("unusual comprehension");
                    add_comprehension_if(comp->generators.back(), test, false);
                } else if (auto loop_over_one = one_item_loop(s, own); loop_over_one && !comp->generators.empty()) {
                    comp->generators.push_back(*loop_over_one);
                } else if (s->kind == StmtKind::If && s->orelse.empty()) {
                    if (comp->generators.empty()) unsupported("unusual comprehension");
                    add_comprehension_if(comp->generators.back(), s->test, comprehension_jumps_by_line_);
                    walk(s->body);
                } else if (s->kind == StmtKind::Expr && inner.element_marker_.is(s->value)) {
                } else if (s->kind == StmtKind::Expr && s->value->kind == ExprKind::Yield && kind == ExprKind::GeneratorExp && !dropped) {
                    // (`(None for _ in xs)` yields the constant, printed as a bare `yield`.)
                    inner.element_ = {s->value->value ? s->value->value : make_constant(std::make_shared<PyValue>())};
                } else if (s->kind == StmtKind::Return) {
                } else {
                    unsupported("unusual comprehension body");
                }
            }
        };
        walk(Body(level->begin() + start, level->end()));
        // An assignment expression in a comprehension binds in the enclosing function: the
        // comprehension's code stores to a free variable (or a global); any other store is not one.
        for (const auto& [name, scope] : inner.walrus_stores_) {
            bool free = std::find(c.freevars.begin(), c.freevars.end(), name) != c.freevars.end();
            if (!(scope == Scope::Global || (scope == Scope::Deref && free)))
                unsupported("an assignment expression binding a comprehension's own variable");
            comprehension_walrus_stores_.insert({name, scope});
        }
        comprehension_walrus_stores_.insert(inner.comprehension_walrus_stores_.begin(), inner.comprehension_walrus_stores_.end());
        if (inner.element_.empty()) unsupported("comprehension without an element");
        if (comp->generators.empty()) unsupported("comprehension without a loop");
        auto& first = comp->generators.front();
        if (first.iter->kind != ExprKind::Name || first.iter->id != ".0") unsupported("unusual comprehension");
        first.iter = iterable;
        if (kind == ExprKind::DictComp) {
            comp->elt = inner.element_[0];
            comp->value = inner.element_[1];
        } else {
            comp->elt = inner.element_[0];
        }
        return comp;
    }

    // ---------------------------------------------------------------- conditions
    struct Condition {
        ExprPtr test;  // true -> `then_block`
        int then_block = -1, else_block = -1;
        int first_block = -1, last_block = -1;  // the first and last blocks that make up the condition
        // Blocks merged in after the first; marked emitted only once the condition is used (a probe
        // that reads a condition and drops it must leave no trace).
        std::vector<int> merged_blocks;
        ExprPtr first_value;  // the value the first block tests
        // The false side was written as `else:` (a comparison chain's clean-up falls into it where
        // the compiler would have copied it had it been code after the `if`).
        bool else_written = false;
        // The last test is a comparison chain's: its clean-up's layout shows which way it jumps, so
        // it was never the first operand of `or` as itself, nor of `and` negated.
        bool chain = false;
    };

    // Reads the condition that ends `block`; `then` is the fallthrough side when it can be.
    Condition read_condition(int block, const NeutralOp& jump, std::vector<ExprPtr>& stack) {
        ExprPtr value = pop(stack);
        int fall = cfg_.block(block).succs.size() > 1 ? cfg_.block(block).succs[0] : -1;
        int target = cfg_.block_at_offset(jump.target);
        Condition c;
        c.first_value = value;
        c.first_block = c.last_block = block;
        c.then_block = fall;
        c.else_block = target;
        switch (jump.condition) {
        case JumpCondition::IfFalse: c.test = value; break;
        case JumpCondition::IfTrue: c.test = negate(value); break;
        case JumpCondition::IfNone: c.test = none_test(value, "is not"); break;
        case JumpCondition::IfNotNone: c.test = none_test(value, "is"); break;
        }
        if (jump.condition == JumpCondition::IfFalse) read_rest_of_chain(c, stack);
        return c;
    }

    // A comparison chain as a condition: `a < b < c` tests `a < b` with a copy of `b` kept below
    // and jumps, when false, to a clean-up block that drops the copy; then `b < c` ends with the
    // chain's own jump. The clean-up goes where the chain goes when false (by a jump, by falling
    // through, or through its own copy of that code: 3.10+ copy small exit blocks), so the blocks
    // read as one condition. Anything else leaves `c` as it was.
    void read_rest_of_chain(Condition& c, std::vector<ExprPtr>& stack) {
        int cleanup = c.else_block;
        if (stack.empty() || !chain_shared_.count(stack.back().get()) || !starts_with_pop(cleanup)) return;
        size_t base = stack.size() - 1;
        std::vector<ExprPtr> s = stack_copy(stack);
        ExprPtr test = c.test;
        std::vector<int> blocks;
        for (int cur = c.then_block; cur >= 0 && blocks.size() < 64;) {
            // (3.13 leaves a link's conditional jump, which cannot raise, outside the exception
            // table's range around the rest: a block of its own, with no handler.)
            if (seen_emitted(cur) || cfg_.block(cur).preds.size() != 1 ||
                (cfg_.block(cur).handler != cfg_.block(c.last_block).handler && !is_lone_conditional_jump(cur)))
                return;
            Body scratch;
            const NeutralOp* term = nullptr;
            try {
                term = simulate(cur, s, scratch);
            } catch (const Error&) {
                return;
            }
            // (A link that falls into its own conditional jump goes on there.)
            if (!term && scratch.empty() && cur + 1 < cfg_.size() && is_lone_conditional_jump(cur + 1)) {
                blocks.push_back(cur);
                cur = cur + 1;
                continue;
            }
            if (!term || term->kind != N::JumpIf || !scratch.empty() || s.size() < base + 1 || !same_prefix(s, stack, base)) return;
            blocks.push_back(cur);
            if (s.size() == base + 2 && term->condition == JumpCondition::IfFalse && cfg_.block_at_offset(term->target) == cleanup &&
                chain_shared_.count(s[base].get())) {  // a middle link: `b < c` of `a < b < c < d`
                test = bool_op("and", test, pop(s));
                cur = cfg_.block(cur).succs[0];
                continue;
            }
            if (s.size() != base + 1) return;
            bool on_false = term->condition != JumpCondition::IfTrue;
            ExprPtr last = pop(s);
            // 3.12+ fold a last link `is None` / `is not None` into the jump (the shared operand is
            // what it tests): POP_JUMP_IF_NOT_NONE is `x is None` jumping when false.
            if (term->condition == JumpCondition::IfNone || term->condition == JumpCondition::IfNotNone)
                last = compare(last, term->condition == JumpCondition::IfNotNone ? "is" : "is not", make_constant(std::make_shared<PyValue>()));
            ExprPtr whole = bool_op("and", test, last);
            if (whole->kind != ExprKind::Compare) return;
            int fall = cfg_.block(cur).succs[0], target = cfg_.block_at_offset(term->target);
            std::vector<int> cleanup_blocks;
            // (A chain jumping when true goes on, when false, after its clean-up: 3.10+ copy that code
            // into the fall-through when it is a short exit.)
            if (!on_false) fall = past_copy_of_cleanup_exit(cleanup, fall, cur, cleanup_blocks);
            if (!cleanup_goes_to(cleanup, on_false ? target : fall, cleanup_blocks)) return;
            c.else_written = on_false && falls_into_short_exit(cleanup, target);
            c.test = on_false ? whole : negate(whole);
            c.then_block = over_jump_past(fall, cleanup, cur, cleanup_blocks);
            c.else_block = over_jump_past(target, cleanup, cur, cleanup_blocks);
            c.last_block = cur;
            c.chain = true;
            c.merged_blocks.insert(c.merged_blocks.end(), blocks.begin(), blocks.end());
            c.merged_blocks.insert(c.merged_blocks.end(), cleanup_blocks.begin(), cleanup_blocks.end());
            stack = s;
            return;
        }
    }

    bool is_lone_conditional_jump(int block) const {
        const Block& blk = cfg_.block(block);
        return blk.last - blk.first == 1 && ops_[blk.first].kind == N::JumpIf;
    }

    // `cleanup` is only the POP_TOP and falls into `side`, a short block ending the function: 3.10+
    // copy such a block into the jump to it that code after an `if` takes, but lay out an `else:`
    // arm right after the clean-up.
    bool falls_into_short_exit(int cleanup, int side) const {
        const Block& blk = cfg_.block(cleanup);
        if (!exits_copied_ || blk.last - blk.first != 1 || cleanup + 1 != side) return false;
        std::vector<const NeutralOp*> ops = straight_ops(side);
        return !ops.empty() && ops.size() <= 4;
    }

    bool starts_with_pop(int block) const {
        return block >= 0 && cfg_.block(block).last > cfg_.block(block).first && ops_[cfg_.block(block).first].kind == N::Pop;
    }

    // The first `n` values of `a` and `b` are the same.
    static bool same_prefix(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b, size_t n) {
        if (a.size() < n || b.size() < n) return false;
        for (size_t k = 0; k < n; ++k)
            if (a[k] != b[k]) return false;
        return true;
    }

    // Whether the chain's clean-up block `cleanup` (its first op drops the shared operand) goes on
    // where `side` goes: through jumps to the same block, or through a copy of the same code ending
    // the function. Its blocks go to `blocks`.
    bool cleanup_goes_to(int cleanup, int side, std::vector<int>& blocks) const {
        if (cfg_.block(cleanup).preds.empty()) return false;
        const Block& blk = cfg_.block(cleanup);
        bool only_jumps = true;
        for (size_t i = blk.first + 1; i < blk.last; ++i)
            if (ops_[i].kind != N::Jump && ops_[i].kind != N::Nop) only_jumps = false;
        int dest = through_jumps(side);
        if (only_jumps) {
            if (blk.succs.size() != 1) return false;
            if (through_jumps(blk.succs[0]) != dest) {
                // (3.13 copies a short block that goes on, an except clause's end (POP_EXCEPT and
                // the jump past the try statement), into the clean-up's way out.)
                if (!copies_block_going_on(blk.succs[0], dest)) return false;
                blocks.push_back(cleanup);
                blocks.push_back(blk.succs[0]);
                return true;
            }
            blocks.push_back(cleanup);
            // (Its jump may be a block of its own, outside the exception table's range, 3.13.)
            for (int k = blk.succs[0]; k != dest && cfg_.block(k).preds.size() == 1 && blocks.size() < 64;
                 k = cfg_.block(k).succs[0]) {
                const Block& j = cfg_.block(k);
                if (j.last - j.first != 1 || ops_[j.first].kind != N::Jump) break;
                blocks.push_back(k);
            }
            return true;
        }
        std::vector<const NeutralOp*> a = straight_ops(cleanup), b = straight_ops(dest);
        if (!exits_copied_ || !same_copied_ops(a, b, 1)) return false;
        for (int k = cleanup; k >= 0; k = cfg_.block(k).succs.size() == 1 ? cfg_.block(k).succs[0] : -1) {
            if (k != cleanup && cfg_.block(k).preds.size() != 1) return false;
            blocks.push_back(k);
            if (cfg_.block(k).succs.empty() || blocks.size() > 64) break;
        }
        return true;
    }

    // `copy`, reached from one block only, is the compiler's copy of the short block `original`
    // that goes on elsewhere by a jump or ends the function: the same ops under the same handler,
    // a jump to the same place.
    bool copies_block_going_on(int copy, int original) const {
        if (copy == original || cfg_.block(copy).preds.size() != 1) return false;
        const Block& a = cfg_.block(copy);
        const Block& b = cfg_.block(original);
        if (a.handler != b.handler || a.last - a.first != b.last - b.first || a.last - a.first < 2) return false;
        const NeutralOp& end = ops_[a.last - 1];
        if (end.kind != N::Jump && end.kind != N::Return) return false;
        for (size_t k = 0; k < a.last - a.first; ++k) {
            const NeutralOp& x = ops_[a.first + k];
            const NeutralOp& y = ops_[b.first + k];
            if (x.kind == N::Jump && y.kind == N::Jump) {
                if (through_jumps(cfg_.block_at_offset(x.target)) != through_jumps(cfg_.block_at_offset(y.target))) return false;
            } else if (!same_op(x, y)) {
                return false;
            }
        }
        return true;
    }

    // The fall-through `side` of a chain's last test (reached from `from` only) that is the
    // compiler's copy of the short exit block its clean-up (a lone POP_TOP) falls into: that block,
    // with the copy's blocks joining `blocks`; otherwise `side`.
    int past_copy_of_cleanup_exit(int cleanup, int side, int from, std::vector<int>& blocks) const {
        const Block& blk = cfg_.block(cleanup);
        if (!exits_copied_ || blk.last - blk.first != 1 || blk.succs.size() != 1 || side < 0 || side == cleanup) return side;
        int dest = blk.succs[0];
        std::vector<int> copy_path;
        std::vector<const NeutralOp*> copy = straight_ops(side, &copy_path), original = straight_ops(dest);
        if (dest == side || !same_copied_ops(copy, original, 0)) return side;
        for (int k : copy_path)
            if (emitted_[k] || cfg_.block(k).preds.size() != 1 || cfg_.block(k).preds[0] != (k == side ? from : k - 1) || k >= cleanup) return side;
        blocks.insert(blocks.end(), copy_path.begin(), copy_path.end());
        return dest;
    }

    // A side of a chain that is the compiler's jump over the clean-up (a block holding only a jump,
    // reached only from the chain's last test) is where that jump goes; the block joins `blocks`.
    int over_jump_past(int side, int cleanup, int from, std::vector<int>& blocks) const {
        if (side < 0 || side == cleanup) return side;
        const Block& blk = cfg_.block(side);
        if (blk.preds.size() != 1 || blk.preds[0] != from || blk.last - blk.first != 1 || ops_[blk.first].kind != N::Jump) return side;
        int to = cfg_.block_at_offset(ops_[blk.first].target);
        if (to <= cleanup) return side;
        blocks.push_back(side);
        return to;
    }

    // `value is None` / `value is not None` read from a jump on None: either operator compiles to
    // it (with the jump's sense flipped), so a negation may flip the operator (FreeComparisons).
    ExprPtr none_test(const ExprPtr& value, const char* op) {
        ExprPtr e = compare(value, op, make_constant(std::make_shared<PyValue>()));
        none_tests_.insert(keep(e));
        return e;
    }

    ExprPtr compare(const ExprPtr& left, const char* op, const ExprPtr& right) {
        auto e = make_expr(ExprKind::Compare);
        e->left = left;
        e->ops.push_back(op);
        e->elts.push_back(right);
        return e;
    }

    // A block holding nothing but a condition that only the blocks of `owner` reach (so they decide
    // whether it runs).
    std::optional<Condition> pure_condition(int block, const std::vector<ExprPtr>& stack, const Condition& owner) {
        if (block < 0 || seen_emitted(block) || cfg_.block(block).preds.empty()) return std::nullopt;
        for (int p : cfg_.block(block).preds)
            if (!in_condition(owner, p)) return std::nullopt;
        // (A test whose conditional jump sits in a block of its own, uncovered, is under the
        // handler of the block before that jump.)
        int before = cfg_.block(block).preds[0];
        if (cfg_.block(before).handler < 0 && before > 0 && is_lone_jump_after(before - 1)) --before;
        if (cfg_.block(block).handler != cfg_.block(before).handler) return std::nullopt;
        operand_sides_.emplace_back(owner.then_block, owner.else_block);
        struct PopSides {  // (however the probe ends)
            std::vector<std::pair<int, int>>& sides;
            ~PopSides() { sides.pop_back(); }
        } pop{operand_sides_};
        return probe_condition(block, stack);
    }

    static bool in_condition(const Condition& c, int block) {
        return block == c.first_block || block == c.last_block ||
               std::find(c.merged_blocks.begin(), c.merged_blocks.end(), block) != c.merged_blocks.end();
    }

    // The condition that `block` computes and tests, read on a copy of `stack`, when the block
    // holds nothing else and leaves `stack` as it was (a comparison chain's first test leaves its
    // shared operand too, which the rest of the chain takes).
    std::optional<Condition> probe_condition(int block, const std::vector<ExprPtr>& stack) {
        ProbeKey key{block, stack, operand_sides_.empty() ? std::pair{-2, -2} : operand_sides_.back()};
        if (auto hit = probe_memo_.find(key); hit != probe_memo_.end()) {
            if (still_holds(hit->second.reads)) {
                note_reads(hit->second.reads);
                return hit->second.result;
            }
            probe_memo_.erase(hit);
        }
        probe_reads_.emplace_back();
        std::optional<Condition> c;
        try {
            c = probe_condition_uncached(block, stack);
        } catch (...) {
            probe_reads_.pop_back();
            throw;
        }
        std::vector<std::pair<int, bool>> reads = std::move(probe_reads_.back());
        probe_reads_.pop_back();
        // Each read once: a probe takes in the reads of the probes under it, memoized ones too, so
        // with repeats a chain of elifs whose branches start with a test (`elif ...: if not b:
        // raise`) doubled them at each level (a million-entry list at 20 branches; torch's
        // GuardBuilder.get_guard_manager_from_source ran out of memory).
        // (Marks instead of sort and unique: in a function of hundreds of asserts each probe takes
        // in the reads of the probes of all the tests after it, and sorting them was a third of
        // the time.)
        if (++read_mark_serial_ == 0) {
            read_marks_.assign(read_marks_.size(), 0);
            read_mark_serial_ = 1;
        }
        read_marks_.resize(2 * size_t(cfg_.size()), 0);
        std::erase_if(reads, [&](const std::pair<int, bool>& r) {
            uint32_t& mark = read_marks_[2 * size_t(r.first) + r.second];
            if (mark == read_mark_serial_) return true;
            mark = read_mark_serial_;
            return false;
        });
        note_reads(reads);
        probe_memo_.emplace(std::move(key), ProbeResult{c, std::move(reads)});
        return c;
    }

    // Whether block `b` is emitted, noted for the probes under way (their results depend on it).
    bool seen_emitted(int b) const {
        if (!probe_reads_.empty()) probe_reads_.back().emplace_back(b, bool(emitted_[b]));
        return emitted_[b];
    }

    void note_reads(const std::vector<std::pair<int, bool>>& reads) const {
        if (!probe_reads_.empty()) probe_reads_.back().insert(probe_reads_.back().end(), reads.begin(), reads.end());
    }

    bool still_holds(const std::vector<std::pair<int, bool>>& reads) const {
        for (auto [b, was] : reads)
            if (emitted_[b] != was) return false;
        return true;
    }

    // Whether `block` can end in a test at all: a conditional jump ending it (a terminator ends
    // its block), a match's first op in it (which ends a run like one), or a lone conditional jump
    // after it. (Most blocks probed are bodies; this spares simulating their first ops.)
    bool may_end_in_test(int block) const {
        const Block& b = cfg_.block(block);
        N last = ops_[b.last - 1].kind;
        if (last == N::JumpIf || last == N::JumpIfOrPop) return true;
        auto match = matches_.lower_bound(b.first);
        return (match != matches_.end() && match->first < b.last) || is_lone_jump_after(block);
    }

    std::optional<Condition> probe_condition_uncached(int block, const std::vector<ExprPtr>& stack) {
        if (!may_end_in_test(block)) return std::nullopt;
        std::vector<ExprPtr> copy = stack_copy(stack);
        Body scratch;
        const NeutralOp* term;
        int last = block;
        std::vector<int> inner;  // the right side of a short circuit inside the tested value
        try {
            term = simulate(block, copy, scratch, true);
            if (term && term->kind == N::JumpIfOrPop && scratch.empty()) {
                if (!read_inner_short_circuit(last, *term, copy, inner)) return std::nullopt;
                term = simulate(last = inner.back() + 1, copy, scratch, true);
            }
            if (!term && scratch.empty() && is_lone_jump_after(last)) term = simulate(last = last + 1, copy, scratch, true);
        } catch (const Error&) {
            return std::nullopt;
        }
        if (!term || term->kind != N::JumpIf || !scratch.empty() || copy.size() <= stack.size()) return std::nullopt;
        Condition c = read_condition(last, *term, copy);
        c.first_block = block;
        c.merged_blocks.insert(c.merged_blocks.end(), inner.begin(), inner.end());
        // (And the block after the short circuit's right side, where the test goes on: a `while`
        // header's test taken whole leaves no block of it to the walk.)
        if (!inner.empty()) c.merged_blocks.push_back(last);
        if (copy.size() != stack.size() || !same_prefix(copy, stack, stack.size())) return std::nullopt;
        return reduce_condition(c, stack);
    }

    // A tested value that holds `x or y` / `x and y` (`(x or y) is z`), whose jump-or-pop ends
    // `block`: its right side, one block of pure code reached only from `block`, falls into the
    // target, where the test goes on. Replaces `x` on `stack` with the whole value; the right
    // side's block goes to `inner`.
    bool read_inner_short_circuit(int block, const NeutralOp& jump, std::vector<ExprPtr>& stack, std::vector<int>& inner) {
        int right = block + 1, target = cfg_.block_at_offset(jump.target);
        if (stack.empty() || target != right + 1 || !is_only(cfg_.block(right).preds, block) ||
            cfg_.block(target).preds.size() != 2 || seen_emitted(right) || seen_emitted(target) || is_chain_cleanup(target) ||
            cfg_.block(right).handler != cfg_.block(block).handler || cfg_.block(target).handler != cfg_.block(block).handler)
            return false;
        ExprPtr left = pop(stack);
        size_t size = stack.size();
        Body scratch;
        if (simulate(right, stack, scratch, true) || !scratch.empty() || stack.size() != size + 1) return false;
        ExprPtr value = pop(stack);
        stack.push_back(bool_op(jump.condition == JumpCondition::IfTrue ? "or" : "and", left, value));
        inner.push_back(right);
        return true;
    }

    // Whether `block` falls into a block of its own holding only a conditional jump: 3.12+ leave
    // a jump that cannot raise outside the exception table's range around it (a handler of its
    // own starts a block), though it tests the value `block` computed.
    static bool is_only(std::span<const int> edges, int block) { return edges.size() == 1 && edges[0] == block; }

    bool is_lone_jump_after(int block) const {
        if (block + 1 >= cfg_.size()) return false;
        const Block& next = cfg_.block(block + 1);
        return is_only(cfg_.block(block).succs, block + 1) && is_only(next.preds, block) &&
               next.last - next.first == 1 && ops_[next.first].kind == N::JumpIf;
    }

    // Merges conditions of following blocks into `c` as `and` / `or` while they share a target.
    // (Copies of `return None` join too (3.10+): the false sides of `if a and b or c and d:` at the
    // end of a function each go to one, and so do the exits of a `while` ending the function.)
    // (Never with the test at `barrier`: a rotated while's repeated test, where its body ends. A
    // test in the body whose side is a copy of the loop's exit (3.12+: `break`) would otherwise join
    // it, and the loop test would run twice.)
    Condition reduce_condition(Condition c, const std::vector<ExprPtr>& stack, int barrier = -1) {
        for (bool changed = true; changed;) {
            changed = false;
            for (int side : {c.then_block, c.else_block}) {
                if (side == barrier) continue;
                auto next = pure_condition(side, stack, c);
                if (!next) continue;
                if (starts_loop_after(c, side, *next, stack)) continue;
                int other = side == c.then_block ? c.else_block : c.then_block;
                Condition merged = *next;
                merged.first_value = c.first_value;
                merged.first_block = c.first_block;
                // `other` may be the compiler's copy of the code a side of `next` goes to.
                std::vector<int> copy_blocks;
                // Or (3.8/3.9, whose peephole threads a jump to a block holding only a jump, a
                // `break`, through to its target: `if a or b: break`) such a block.
                auto joins = [&](int to) {
                    copy_blocks.clear();
                    if (other == to || is_exit_copy(other, to, c, copy_blocks, true)) return true;
                    // (Copies of the implicit `return None` of other lines, in an operand going on
                    // where its owner does: see is_implicit_return_copy.)
                    int rest = to == next->else_block ? next->then_block : next->else_block;
                    if (!operand_sides_.empty() && (rest == operand_sides_.back().first || rest == operand_sides_.back().second) &&
                        is_exit_copy(other, to, c, copy_blocks, true, true))
                        return true;
                    // (Not from a loop's own test, whose exit the break leaves by too.)
                    if (dead_code_kept_ && to >= 0 && is_lone_jump(to) && through_jumps(to) == other &&
                        !is_back_edge_target(c.first_block))
                        return true;
                    // And a lone jump back to a loop's header (3.10+ thread a jump to a jump only
                    // where both have the same line: the tests of a condition written over several
                    // lines jump to the loop's jump back, its last one on the jump's line past it).
                    // (Only a jump that other code reaches too: one that only the tests reach is
                    // a `continue` of its own, `if a: continue` before `if b: break`.)
                    if (to >= 0 && other >= 0 && is_lone_jump(other) && through_jumps_once(other) == to && is_loop_edge(other, to) &&
                        !is_back_edge_target(c.first_block)) {
                        const auto& preds = cfg_.block(other).preds;
                        return std::any_of(preds.begin(), preds.end(), [&](int p) { return !in_condition(c, p) && !in_condition(*next, p); });
                    }
                    return false;
                };
                if (side == c.then_block && joins(next->else_block)) {
                    merged.test = bool_op("and", c.test, next->test);
                } else if (side == c.else_block && !c.chain && joins(next->then_block)) {
                    merged.test = bool_op("or", c.test, next->test);
                } else if (side == c.then_block && joins(next->then_block)) {
                    merged.test = bool_op("or", negate(c.test), next->test);
                } else if (side == c.else_block && !c.chain && joins(next->else_block)) {
                    merged.test = bool_op("and", negate(c.test), next->test);
                } else {
                    continue;
                }
                merged.merged_blocks = c.merged_blocks;
                merged.merged_blocks.insert(merged.merged_blocks.end(), copy_blocks.begin(), copy_blocks.end());
                merged.merged_blocks.insert(merged.merged_blocks.end(), next->merged_blocks.begin(), next->merged_blocks.end());
                for (int k = side; k <= next->last_block && k < cfg_.size(); ++k) merged.merged_blocks.push_back(k);
                c = merged;
                changed = true;
                break;
            }
            if (!changed) changed = merge_conditional_test(c, stack);
        }
        return c;
    }

    // `if c:` whose body starts with `while t:`: both tests jump past the loop, but `t` is the
    // loop's test (jumped back to, or repeated at its bottom without `c`), not part of `c`.
    bool starts_loop_after(const Condition& c, int side, const Condition& next, const std::vector<ExprPtr>& stack) {
        if (is_back_edge_target(side) && !is_back_edge_target(c.first_block)) return true;
        if (!while_test_repeated_ || !match_rotated_while(side, next, stack)) return false;
        Condition whole = c;
        whole.last_block = next.last_block;
        whole.then_block = next.then_block;
        whole.else_block = next.else_block;
        return !match_rotated_while(c.first_block, whole, stack);
    }

    // `if (x if c else y):` tests x after c and y after `not c`: when both sides of `c` are
    // conditions only `c` reaches, laid out as the compiler writes the expression (x; its jump
    // when false; a jump over y; y; its jump to the same place), `c` becomes the conditional
    // expression of the two.
    bool merge_conditional_test(Condition& c, const std::vector<ExprPtr>& stack) {
        auto t = pure_condition(c.then_block, stack, c);
        if (!t) return false;
        auto e = pure_condition(c.else_block, stack, c);
        if (!e || e->first_block <= t->last_block) return false;
        auto [t_fall, t_jump] = fall_and_jump_sides(*t);
        auto [e_fall, e_jump] = fall_and_jump_sides(*e);
        if (t_fall < 0 || e_fall < 0) return false;
        std::vector<int> blocks;
        if (!same_jump_side(t_jump, *t, e_jump, *e, blocks) || !falls_past(t_fall, *t, e_fall, *e, blocks)) return false;
        // Which side of each test is the jump decides whether y's test reads the other way round.
        bool flipped = (t_fall == t->then_block) != (e_fall == e->then_block);
        auto test = make_expr(ExprKind::IfExp);
        test->test = c.test;
        test->body = t->test;
        test->orelse = flipped ? negate(e->test) : e->test;
        Condition merged = *e;
        merged.test = test;
        if (flipped) std::swap(merged.then_block, merged.else_block);
        merged.first_value = c.first_value;
        merged.first_block = c.first_block;
        merged.else_written = false;
        merged.merged_blocks = c.merged_blocks;
        for (const Condition* side : {&*t, &*e}) {
            merged.merged_blocks.insert(merged.merged_blocks.end(), side->merged_blocks.begin(), side->merged_blocks.end());
            for (int k = side == &*t ? c.then_block : c.else_block; k <= side->last_block; ++k) merged.merged_blocks.push_back(k);
        }
        merged.merged_blocks.insert(merged.merged_blocks.end(), blocks.begin(), blocks.end());
        c = merged;
        return true;
    }

    // The side of `c` that its last test falls through to and the side it jumps to (-1: not a
    // test of that shape). 3.12+ write a conditional jump back as a jump forward over a block
    // holding only the jump back: that block is the jump side.
    std::pair<int, int> fall_and_jump_sides(const Condition& c) const {
        const Block& last = cfg_.block(c.last_block);
        if (last.succs.size() != 2 || (last.succs[0] != c.then_block && last.succs[0] != c.else_block)) return {-1, -1};
        int fall = last.succs[0], jump = fall == c.then_block ? c.else_block : c.then_block;
        int back = jump_only_target(fall, c);
        if (back >= 0 && back <= fall) std::swap(fall, jump);
        return {fall, jump};
    }

    // The jumps of both tests of a conditional expression go to the same place: the same block,
    // or (3.12+, where a conditional jump only goes forward) blocks holding only a jump back to
    // the same place, one each. Blocks of `t` passed go to `blocks`.
    bool same_jump_side(int t_jump, const Condition& t, int e_jump, const Condition& e, std::vector<int>& blocks) const {
        if (t_jump == e_jump) return true;
        int to = jump_only_target(t_jump, t);
        if (to < 0 || to > t_jump || to != jump_only_target(e_jump, e)) return false;
        blocks.push_back(t_jump);
        return true;
    }

    // After x's test the compiler jumps over y to the code after y's test (`e_fall`): a block
    // holding only that jump (threaded on when that code is a jump itself), or (3.10+) its copy of
    // that code when it is a short exit. Blocks of `t` passed go to `blocks`.
    bool falls_past(int t_fall, const Condition& t, int e_fall, const Condition& e, std::vector<int>& blocks) const {
        int to = jump_only_target(t_fall, t);
        if (to >= 0 && (to == e_fall || to == jump_only_target(e_fall, e))) {
            blocks.push_back(t_fall);
            return true;
        }
        return is_exit_copy(t_fall, e_fall, t, blocks);
    }

    // Where `block` jumps when it holds only a jump and only `owner` reaches it (else -1).
    int jump_only_target(int block, const Condition& owner) const {
        const Block& blk = cfg_.block(block);
        if (seen_emitted(block) || blk.last - blk.first != 1 || ops_[blk.first].kind != N::Jump) return -1;
        for (int p : blk.preds)
            if (!in_condition(owner, p)) return -1;
        return cfg_.block_at_offset(ops_[blk.first].target);
    }

    // Whether `copy` (reached only from the blocks of `owner`) is the compiler's copy of the short
    // code at `original` that ends the function (3.10+ copy small exit blocks into each path that
    // reaches them): the same ops under the same handler. Its blocks go to `blocks`.
    bool is_exit_copy(int copy, int original, const Condition& owner, std::vector<int>& blocks, bool return_none_too = false,
                      bool other_lines = false) const {
        if (!exits_copied_ || copy < 0 || original < 0 || copy == original || seen_emitted(copy)) return false;
        for (int p : cfg_.block(copy).preds)
            if (!in_condition(owner, p)) return false;
        std::vector<int> copy_path, original_path;
        std::vector<const NeutralOp*> a = straight_ops(copy, &copy_path), b = straight_ops(original, &original_path);
        // (Copies of `return None` only where the caller joins them: see reduce_condition; with
        // `other_lines`, copies of the implicit one with lines of their own too, and so where they
        // end the function, see has_line_of_jump_in.)
        bool returns_none = is_return_none_block(original);
        bool copies = returns_none && ((other_lines && is_implicit_return_copy(copy) && is_implicit_return_copy(original)) ||
                                       (return_none_too && has_line_of_jump_in(copy) && has_line_of_jump_in(original)));
        if ((returns_none && !return_none_too) || !(same_copied_ops(a, b, 0) || copies)) return false;
        int handler = cfg_.block(copy).handler;
        for (int k : copy_path)
            if (cfg_.block(k).handler != handler || seen_emitted(k) || (k != copy && cfg_.block(k).preds.size() != 1)) return false;
        for (int k : original_path)
            if (cfg_.block(k).handler != handler) return false;
        blocks = copy_path;
        return true;
    }

    // Whether `copy` (from op `skip` on) holds the same ops as `original` with the same lines, as the
    // compiler's copy of an exit block has (the same code written twice has lines of its own).
    // (An original without a line, the implicit `return None` 3.12+ leave line-less, gives its
    // copies the line of the jump they replace.)
    static bool same_copied_ops(const std::vector<const NeutralOp*>& copy, const std::vector<const NeutralOp*>& original, size_t skip) {
        if (original.empty() || copy.size() != original.size() + skip) return false;
        for (size_t i = 0; i < original.size(); ++i)
            if (!same_op(*copy[i + skip], *original[i]) || (copy[i + skip]->line != original[i]->line && original[i]->line >= 0)) return false;
        return true;
    }

    // `copy` does op for op what `original`, the end of a loop's way out, does, as the compiler's
    // copy of it in place of a `break`'s jump: the ops that leave the statements around the loop
    // (those with the line the original starts with) take the `break`'s line; the rest keep theirs.
    static bool same_break_copy_ops(const std::vector<const NeutralOp*>& copy, const std::vector<const NeutralOp*>& original) {
        if (original.empty() || copy.size() != original.size()) return false;
        bool leading = true;
        for (size_t i = 0; i < original.size(); ++i) {
            if (!same_op(*copy[i], *original[i])) return false;
            leading = leading && original[i]->line == original[0]->line;
            if (leading ? copy[i]->line != copy[0]->line : copy[i]->line != original[i]->line && original[i]->line >= 0) return false;
        }
        return true;
    }

    // Whether the code from block `from` ends in the last block before the function's own
    // `return None` (which nothing reaches), with a return or raise that only the block before it
    // falls into (or `from` itself): one simple statement, not the end of a compound one.
    bool ends_before_dead_implicit_return(int from) const {
        int n = cfg_.size(), last = n - 2;
        if (from < 0 || last < from || !is_return_none_block(n - 1) || reachable_at_all(n - 1)) return false;
        const Block& blk = cfg_.block(last);
        if (blk.last == blk.first) return false;
        N kind = ops_[blk.last - 1].kind;
        if (kind != N::Return && kind != N::Raise) return false;
        return last == from || (blk.preds.size() == 1 && blk.preds[0] == last - 1 && cfg_.block(last - 1).succs.size() == 1 &&
                                cfg_.block(last - 1).succs[0] == last);
    }

    // A copy of the implicit `return None` that took the line of the jump it replaces, not a
    // `return` written on a line of its own: 3.10+ give each copy its jump's line, so the tests of
    // a condition over several lines at the end of a function go to copies of different lines
    // (`if (a and b) or (c and (d or e)):` over three lines). Nested ifs (`if a:` then `if b:` on
    // the next line) compile alike, so they join only in an operand of a condition that goes on
    // where that condition does (which no if of its own would). (`lone`: reached from one
    // conditional jump; else from any jumps, each with the copy's line.)
    bool is_implicit_return_copy(int block, bool lone = true) const {
        const Block& blk = cfg_.block(block);
        if (!is_return_none_block(block) || blk.preds.empty() || (lone && blk.preds.size() != 1)) return false;
        for (int p : blk.preds) {
            const NeutralOp& jump = ops_[cfg_.block(p).last - 1];
            if ((jump.kind != N::JumpIf && (lone || jump.kind != N::Jump)) || cfg_.block_at_offset(jump.target) != block ||
                jump.line != ops_[blk.first].line)
                return false;
        }
        return true;
    }

    // `block` is a `return None` that only jumps reach, each with its line: 3.10+ give each copy of
    // the implicit return the line of the jump it replaces, so copies reached from tests on
    // different lines (a condition split over lines) are still the one end of the function. (An
    // explicit `return`, even one on the line of its test, is reached by falling into it.)
    // (Only where nothing but such ends follows: a condition ending the then-side of an `if` whose
    // else-side comes after reads as the compiler's layout only with that `else`, which the copies
    // show only apart.)
    bool has_line_of_jump_in(int block) const {
        for (int k = block + 1; k < cfg_.size(); ++k)
            if (!is_return_none_block(k)) return false;
        return is_implicit_return_copy(block, false);
    }

    // `block` is a `return None` written in the source (`return` ending a function after an if):
    // 3.10+ copy the implicit return, which has no line, into each way that reaches it, so one
    // reached from two places, with a line none of them has, is a statement of its own. Printed
    // (not stripped as the implicit return), or the compiler would copy it.
    bool is_written_return_none(int block) const {
        if (!exits_copied_ || !is_return_none_block(block)) return false;
        int line = ops_[cfg_.block(block).first].line;
        std::span<const int> preds = cfg_.block(block).preds;
        // (Reached from two places, or jumped to from one: where the implicit return would be
        // copied, or laid out at that place.)
        bool jumped_to = preds.size() == 1 && (preds[0] != block - 1 || is_block_terminator(ops_[cfg_.block(preds[0]).last - 1].kind));
        if (line < 0 || (preds.size() < 2 && !jumped_to)) return false;
        // (A line of its own: the implicit return may take the line of the statement before it.)
        size_t first = cfg_.block(block).first;
        for (size_t i = 0; i < ops_.size(); ++i)
            if (ops_[i].line == line && i != first && i != first + 1) return false;
        return true;
    }

    // Whether `block` (if any) is only the return of a constant (`LOAD_CONST c; RETURN_VALUE`,
    // 3.12+ RETURN_CONST), and that return as a statement.
    bool returns_constant_only(int block) const {
        if (block < 0 || block >= cfg_.size()) return false;
        const Block& blk = cfg_.block(block);
        return blk.last - blk.first == 2 && ops_[blk.first].kind == N::LoadConst && ops_[blk.first].value &&
               ops_[blk.first + 1].kind == N::Return;
    }
    StmtPtr return_of_constant_block(int block) const {
        auto s = make_stmt(StmtKind::Return);
        s->value = make_constant(ops_[cfg_.block(block).first].value);
        return s;
    }

    bool is_return_none_block(int block) const {
        return returns_constant_only(block) && ops_[cfg_.block(block).first].value->kind == PyValue::Kind::None;
    }

    void take_condition(const Condition& c) {
        for (int b : c.merged_blocks) emitted_[b] = true;
    }

    // ---------------------------------------------------------------- regions
    // A backward jump closes a loop only when the header leads back to it; 3.12+ except clauses and
    // with-handlers also jump backward, to code after the statement.
    // (`below`: only the edges from before it count as the header's own; a header shared with the
    // body of a rotated `while` whose repeated test starts there: that test's jumps back close the
    // outer loop, not one that starts there, an inner `while True:` left only by `break`, going
    // back only through an except clause.)
    bool is_loop_edge(int from, int header, int below = std::numeric_limits<int>::max()) const {
        if (from < header || from >= below) return false;
        if (closes_loop_plainly(from, header)) return true;
        // A loop whose body goes on only through an except clause (`while True: try: ...; break`
        // then `except E: pass` and more code): the header leads back only through the handler.
        // That edge closes a loop when every path to `from` passes the header (a 3.12+ handler's
        // jump back to code after its try statement is reached without passing that code), and
        // no edge closes it otherwise (a handler's jump back to a header that normal flow also goes
        // back to is a way through the loop's body, laid out after it).
        // (A for loop without such an edge is a loop all the same: is_for_without_back_edge.)
        const Block& hb = cfg_.block(header);
        if (hb.last > hb.first && ops_[hb.first].kind == N::ForIter) return false;
        for (int p : hb.preds)
            if (p >= header && p < below && closes_loop_plainly(p, header)) return false;
        return dominates(header, from);
    }

    bool closes_loop_plainly(int from, int header) const {
        auto key = std::make_pair(from, header);
        if (auto it = loop_edge_cache_.find(key); it != loop_edge_cache_.end()) return it->second;
        bool found = normal_flow_reaches(header, from);
        // Dead code the compiler left after a `break` (3.8) still closes its loop, as it always did.
        if (!found) found = !reachable_at_all(from);
        loop_edge_cache_[key] = found;
        return found;
    }

    // Whether normal flow (no exception edges) leads from `from` to `to`. Walked from both ends at
    // once, a block from each in turn, until the walks meet or one runs out: a 3.12+ except clause
    // laid out at the end of the function jumps back to the code after its try statement, and the
    // walk forward from there alone went over the rest of the function for every try statement.
    bool normal_flow_reaches(int from, int to) const {
        if (from == to) return true;
        std::vector<uint8_t> seen(size_t(cfg_.size()), 0);  // bit 1: reached from `from`; bit 2: leads to `to`
        std::vector<int> forward{from}, backward{to};
        seen[size_t(from)] = 1;
        seen[size_t(to)] = 2;
        // One block from `frontier`: true when an edge of it meets the other walk.
        auto step = [&](std::vector<int>& frontier, uint8_t mine, bool along) {
            int k = frontier.back();
            frontier.pop_back();
            for (int e : along ? cfg_.block(k).succs : cfg_.block(k).preds) {
                if (seen[size_t(e)] & ~mine) return true;
                if (!seen[size_t(e)]) {
                    seen[size_t(e)] = mine;
                    frontier.push_back(e);
                }
            }
            return false;
        };
        while (!forward.empty() && !backward.empty())
            if (step(forward, 1, true) || step(backward, 2, false)) return true;
        return false;
    }

    // Whether every path from the entry to `block` (handlers included) passes `header`.
    bool dominates(int header, int block) const {
        if (header == block) return true;
        // (A function asks a few times at most, mostly: a walk each is cheaper than the tree then.)
        if (!dominance_ && ++dominance_walks_ <= 4) return !reached_avoiding(header)[size_t(block)];
        const Dominance& d = dominance();
        if (d.pre[size_t(block)] < 0) return true;  // (no path reaches it: none fails to pass `header`)
        if (d.pre[size_t(header)] < 0) return false;
        return d.pre[size_t(header)] <= d.pre[size_t(block)] && d.post[size_t(block)] <= d.post[size_t(header)];
    }

    // The dominator tree of the flow graph with its edges into handlers (the entry is block 0), as
    // each block's first and last visit in a walk of the tree (-1: no path reaches the block), so
    // that `dominates` is two comparisons: it was a walk of the whole graph avoiding the header,
    // for every backward jump asked about (3.12+ except clauses jump back, one a try statement).
    // (Cooper, Harvey and Kennedy's iteration over the reverse postorder.)
    struct Dominance {
        std::vector<int> pre, post;
    };
    const Dominance& dominance() const {
        if (dominance_) return *dominance_;
        const size_t n = size_t(cfg_.size());
        // The edges: normal flow and into each block's handler.
        std::vector<std::vector<int>> next_of(n), preds(n);
        for (size_t k = 0; k < n; ++k) {
            next_of[k].assign(cfg_.block(int(k)).succs.begin(), cfg_.block(int(k)).succs.end());
            if (int h = cfg_.block(int(k)).handler; h >= 0) next_of[k].push_back(h);
            for (int s : next_of[k]) preds[size_t(s)].push_back(int(k));
        }
        // Reverse postorder of the blocks the entry reaches.
        std::vector<int> order, rpo(n, -1);
        std::vector<uint8_t> state(n, 0);  // 1: on the walk's stack, 2: done
        std::vector<std::pair<int, size_t>> stack;
        if (n > 0) {
            stack.push_back({0, 0});
            state[0] = 1;
        }
        while (!stack.empty()) {
            auto& [k, i] = stack.back();
            if (i < next_of[size_t(k)].size()) {
                int s = next_of[size_t(k)][i++];
                if (!state[size_t(s)]) {
                    state[size_t(s)] = 1;
                    stack.push_back({s, 0});
                }
            } else {
                state[size_t(k)] = 2;
                order.push_back(k);
                stack.pop_back();
            }
        }
        std::reverse(order.begin(), order.end());
        for (size_t i = 0; i < order.size(); ++i) rpo[size_t(order[i])] = int(i);
        std::vector<int> idom(n, -1);
        if (n > 0) idom[0] = 0;
        auto intersect = [&](int a, int b) {
            while (a != b) {
                while (rpo[size_t(a)] > rpo[size_t(b)]) a = idom[size_t(a)];
                while (rpo[size_t(b)] > rpo[size_t(a)]) b = idom[size_t(b)];
            }
            return a;
        };
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t i = 1; i < order.size(); ++i) {
                int b = order[i], chosen = -1;
                for (int p : preds[size_t(b)])
                    if (rpo[size_t(p)] >= 0 && idom[size_t(p)] >= 0) chosen = chosen < 0 ? p : intersect(p, chosen);
                if (chosen != idom[size_t(b)]) {
                    idom[size_t(b)] = chosen;
                    changed = true;
                }
            }
        }
        // First and last visits in a walk of the tree.
        std::vector<std::vector<int>> children(n);
        for (int b : order)
            if (b != 0 && idom[size_t(b)] >= 0) children[size_t(idom[size_t(b)])].push_back(b);
        dominance_.emplace();
        dominance_->pre.assign(n, -1);
        dominance_->post.assign(n, -1);
        int clock = 0;
        std::vector<std::pair<int, size_t>> walk;
        if (!order.empty()) walk.push_back({0, 0});
        while (!walk.empty()) {
            auto& [k, i] = walk.back();
            if (i == 0) dominance_->pre[size_t(k)] = clock++;
            if (i < children[size_t(k)].size()) {
                int c = children[size_t(k)][i++];
                walk.push_back({c, 0});
            } else {
                dominance_->post[size_t(k)] = clock++;
                walk.pop_back();
            }
        }
        return *dominance_;
    }

    // The blocks the entry reaches, by normal flow and into handlers, without passing `avoid`.
    std::vector<bool> reached_avoiding(int avoid) const {
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work = work_list(0);
        while (!work.empty()) {
            int b = work.back();
            work.pop_back();
            if (b < 0 || b == avoid || seen[b]) continue;
            seen[b] = true;
            for (int s : cfg_.block(b).succs) work.push_back(s);
            if (cfg_.block(b).handler >= 0) work.push_back(cfg_.block(b).handler);
        }
        return seen;
    }

    bool reachable_at_all(int block) const {
        if (reachable_.empty()) {
            reachable_.assign(cfg_.size(), false);
            std::vector<int> work = work_list(0);
            while (!work.empty() && cfg_.size() > 0) {
                int b = work.back();
                work.pop_back();
                if (b < 0 || reachable_[b]) continue;
                reachable_[b] = true;
                for (int s : cfg_.block(b).succs) work.push_back(s);
                if (cfg_.block(b).handler >= 0) work.push_back(cfg_.block(b).handler);
            }
        }
        return reachable_[block];
    }

    // `for x in it: <body that always leaves>`: a for loop header that no path goes back to.
    bool is_for_without_back_edge(int block) const {
        const Block& blk = cfg_.block(block);
        return blk.last > blk.first && ops_[blk.first].kind == N::ForIter && !is_back_edge_target(block);
    }

    bool is_back_edge_target(int block) const {
        for (int p : cfg_.block(block).preds)
            if (is_loop_edge(p, block)) return true;
        return false;
    }

    // Whether an unopened try statement's handler covers loop `header` and the jump back to it
    // (a try inside the loop ends before the jump back), and its except clauses never go back into
    // the loop (then the try statement starts with the loop rather than inside it).
    bool try_encloses_loop(int header) {
        int handler = handler_to_open(header);
        if (handler < 0 || handlers_.at(handler).kind != HandlerKind::Try || !inside(latch_of(header), handler)) return false;
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work = work_list(handler);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k == header) return false;
            if (seen[k]) continue;
            seen[k] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
        }
        return true;
    }

    int latch_of(int header) const {
        int latch = -1;
        for (int p : cfg_.block(header).preds)
            if (is_loop_edge(p, header)) latch = std::max(latch, p);
        return latch;
    }

    // Emits blocks from `start` until `stop` (exclusive) or until control leaves the region.
    // Returns false when flow ended (return/raise/break/continue) rather than reaching `stop`.
    bool emit_region(int start, int stop, Body& out, Loop* loop, std::vector<ExprPtr>& stack, size_t base) {
        struct BaseGuard {
            size_t& slot;
            size_t saved;
            ~BaseGuard() { slot = saved; }
        } guard{base_, base_};
        base_ = base;
        int b = start;
        // A loop body starts at the block that is also its stop (the header).
        bool entering = start == stop;
        while (b >= 0 && (b != stop || entering)) {
            entering = false;
            // (A region may start at the header itself: a try body at the top of the loop. Not at
            // a for loop's, whose body starts after it: a jump threaded to its FOR_ITER goes on.)
            if (loop && (b == loop->header || b == loop->bottom) && (start != b || loop->is_for)) {
                // (Where the region ends at the loop's bare jump back, going on there is the same.)
                if (b == loop->header && stop >= 0 && stop != b && is_bare_back_jump(stop, loop->header)) return true;
                out.push_back(make_stmt(StmtKind::Continue));
                return false;
            }
            // Flow inside the body that reaches where `break` goes has left the loop: a conditional
            // jump the compiler threaded through a `break` (`if t: ...; continue` then `break`).
            // (So has flow that falls into a while loop's exit laid out inside it, 3.13's after a with
            // statement's __exit__ call: `with cm: break`.)
            if (loop && b == loop->break_to && b != stop &&
                ((loop->blocks.count(b) == 0 && start == b && entered_from_loop(b, *loop)) || (b == loop->exit && !loop->is_for && start != b))) {
                ++loop->breaks;
                out.push_back(make_stmt(StmtKind::Break));
                return false;
            }
            // (Or reaches the compiler's copy of that exit, see break_copy_blocks.)
            if (std::vector<int> copy = b != stop ? break_copy_blocks(b, loop) : std::vector<int>(); !copy.empty()) {
                for (int k : copy) emitted_[k] = true;
                ++loop->breaks;
                out.push_back(make_stmt(StmtKind::Break));
                return false;
            }
            // Flow that goes where the end of the region goes, through lone jumps only, has reached
            // the end: 3.8/3.9's peephole threads some jumps to the end of an inner if through the
            // lone jump past the else of the if around it and others past it, so the two meet at
            // that jump or after it. (The lone jumps passed before the end hold no code. Not
            // backward: a region at a loop's header ends at the jump back there. Not out of the
            // loop: that is a `break`, whatever end the region was given.)
            if (stop >= 0 && b != stop && through_jumps(stop) >= stop && through_jumps(b) == through_jumps(stop) &&
                (!loop || loop->blocks.count(through_jumps(stop)))) {
                for (int k = b, steps = 0; k >= 0 && k != stop && k != through_jumps(stop) && steps < 16; k = through_jumps_once(k), ++steps)
                    emitted_[k] = true;
                return true;
            }
            // Flow that reaches the compiler's copy of the short code that ends the function, where
            // a try statement's region ends (see handler_exit), has reached the end: the copy runs
            // the same code.
            if (stop >= 0 && b != stop && clause_exit_copies_.count(b) && is_copy_of_exit(b, stop)) {
                for (int k = b; k >= 0 && !emitted_[k]; k = cfg_.block(k).succs.size() == 1 ? cfg_.block(k).succs[0] : -1) emitted_[k] = true;
                return true;
            }
            // (So is flow that reaches its copy of the end of the except clause around the statement.)
            if (stop >= 0 && b != stop && clause_exit_copies_.count(b) && same_clause_end(b, stop)) {
                if (same_returning_clause_end(b, stop))  // (the whole copy, up to its return, as above)
                    for (int k = b; k >= 0 && !emitted_[k]; k = cfg_.block(k).succs.size() == 1 ? cfg_.block(k).succs[0] : -1) emitted_[k] = true;
                else
                    emitted_[b] = true;
                return true;
            }
            // A loop that starts the body of a rotated `while` shares its first block, where both
            // jump back: the inner one's jump back is the last one before the outer one's.
            // (Before the repeated test, whose blocks may jump back there too.)
            if (loop && b == loop->body_start && !emitted_[b]) {
                int bottom = loop->bottom >= 0 ? loop->bottom : loop->bottom_jump;
                int inner = -1;
                for (int p : cfg_.block(b).preds)
                    if (is_loop_edge(p, b, bottom)) inner = std::max(inner, p);
                if (inner >= 0) {
                    b = emit_loop(b, out, loop, stack, base, inner);
                    if (b == kFlowEnded) return false;
                    continue;
                }
            }
            bool loop_header = is_back_edge_target(b) || is_for_without_back_edge(b);
            // `try:` right around a loop starting at its first block: the try statement opens first.
            if (loop_header && try_encloses_loop(b)) loop_header = false;
            if (loop_header && (!loop || (loop->header != b && loop->body_start != b)) &&
                (!starts_rotated_while(b, stack) || encloses_rotated_while(b, stack))) {
                b = emit_loop(b, out, loop, stack, base);
                if (b == kFlowEnded) return false;
                continue;
            }
            if (int handler = handler_to_open(b); handler >= 0) {
                // (A try statement there: the copy of a finally body that is one.)
                mark_values_leaving_body(b, stack, base);
                b = emit_protected(b, handler, stop, out, loop, stack, base);
                if (b == kFlowEnded) return false;
                continue;
            }
            // (A block holding only the jump back to the header holds no code: 3.10+ leave the
            // conditional jumps of nested ifs going there rather than to the header.)
            if (emitted_[b] && !(loop && (b == loop->header || is_bare_back_jump(b, loop->header)))) unsupported("a block reached twice (unstructured control flow)");
            emitted_[b] = true;
            if (size_t end = copied_break_at(b, loop)) {
                for (size_t i = cfg_.block(b).first; i < end; ++i) step(ops_[i], stack, out);
                ++loop->breaks;
                out.push_back(make_stmt(StmtKind::Break));
                return false;
            }
            mark_values_leaving_body(b, stack, base);
            // (So is the value an except clause returns through a finally body that always returns.)
            if (!open_clauses_.empty() && stack.size() > base && !is_marker_value(stack.back()) && cfg_.block(b).preds.size() == 1 &&
                is_return_through_leaving_finally(b))
                consumed_after_cleanup_.insert(keep(stack.back()));
            const NeutralOp* term = simulate(b, stack, out);
            // Invariant: the stores of a parallel assignment end within the block that began them
            // (else they would leak into whatever path is structured next).
            if (!parallel_targets_.empty()) unsupported("an assignment whose stores span blocks (unusual bytecode)");
            if (!term) {
                if (falls_into_break(b, loop, stack)) {
                    ++loop->breaks;
                    out.push_back(make_stmt(StmtKind::Break));
                    return false;
                }
                b = b + 1 < cfg_.size() ? b + 1 : -1;
                continue;
            }
            if (matches_.count(size_t(term - ops_.data()))) {
                b = emit_match(size_t(term - ops_.data()), out, loop, stack, base, stop);
                if (b == kFlowEnded) return false;
                continue;
            }
            switch (term->kind) {
            case N::Return: {
                auto s = make_stmt(StmtKind::Return);
                s->value = lambda_or(pop(stack));
                if (term == &ops_[cfg_.block(b).first + 1] && is_written_return_none(b)) written_returns_.insert(s.get());
                if (exits_copied_) return_lines_[s.get()] = term->line;
                if (computed_after_pop_except(b, term, s->value)) tail_after_clause_.insert(s.get());
                if (ExitBefore how = computed_after_with_exit(b, term, s->value); how == kStraight) {
                    tail_after_with_.insert(s.get());
                    exit_before_tail_[s.get()] = with_exit_called_;
                } else if (how == kOnEveryPath) {
                    late_exit_before_tail_[s.get()] = with_exit_called_;
                    dropped_copies_.push_back(s);  // (kept alive: its address is a key)
                }
                emit_stmt(out, s);
                return false;
            }
            case N::Raise: {
                auto s = make_stmt(StmtKind::Raise);
                if (term->arg == 2) s->cause = lambda_or(pop(stack));
                if (term->arg >= 1) s->value = lambda_or(pop(stack));
                // LOAD_ASSERTION_ERROR raised with no test before it: `assert False` (whose test the
                // compiler drops); `raise AssertionError` loads the name.
                if (StmtPtr a = assertion_raise(*s, false, make_constant(false_value()))) s = a;
                // After the POP_EXCEPT of its block the except clause is over: a raise there is the
                // compiler's copy of one after the try statement (a raise inside a clause leaves
                // through the clause's cleanup handler). It must not be printed in the clause: there
                // a bare `raise` re-raises the clause's exception, and a new one gets it as context.
                if (s->kind == StmtKind::Raise && pops_except_before(b, term) && !ends_with_statement_exit(b, term))
                    tail_after_clause_.insert(s.get());
                // (Outside the range a try statement's handler covers, a raise is no part of that
                // statement's body: the compiler's copy of a finally body that raises, on the way out
                // of a `return`. Printed in the body, the except clauses would catch it.)
                for (const ProtectedBody& p : protected_bodies_)
                    if (handlers_.at(p.handler).kind != HandlerKind::With && !inside(b, p.handler)) {
                        uncovered_raises_[s.get()].push_back(p.handler);
                        dropped_copies_.push_back(s);  // (kept alive: its address is a key)
                    }
                // (After a with statement's __exit__(None, None, None) in its block, a raise runs after
                // that statement: printed in its body, __exit__ would see the exception.)
                if (ExitBefore how = with_exit_called_before(b, term); how == kStraight) {
                    exit_before_tail_[s.get()] = with_exit_called_;
                } else if (how == kOnEveryPath) {
                    late_exit_before_tail_[s.get()] = with_exit_called_;
                    dropped_copies_.push_back(s);  // (kept alive: its address is a key)
                }
                emit_stmt(out, s);
                return false;
            }
            case N::Reraise: {  // the compiler's re-raise at the end of a `finally` or of unmatched `except`s
                if (term->arg != 0 || !exception_.is(pop(stack))) unsupported("RERAISE outside the end of a handler");
                auto s = make_stmt(StmtKind::Raise);
                s->value = reraise_.get();
                // After the POP_EXCEPT of its block: an except clause is over, and this is the
                // compiler's copy of the re-raise that ends the enclosing finally body after it.
                // (Not where that POP_EXCEPT ends a with statement's suppressed exception.)
                if (pops_except_before(b, term) && !ends_with_statement_exit(b, term)) tail_after_clause_.insert(s.get());
                emit_stmt(out, s);
                return false;
            }
            case N::Jump: {
                int target = cfg_.block_at_offset(term->target);
                if (loop && target == loop->break_to && loop->break_to != stop) {
                    ++loop->breaks;
                    out.push_back(make_stmt(StmtKind::Break));
                    return false;
                }
                // (A for loop's `break` to where this region ends too (an except clause's if): the
                // iterator is gone, so it is no way on; also one the compiler threaded to the
                // enclosing loop's next iteration.)
                if (target == stop && loop && loop->is_for && target != loop->header && target != loop->exit &&
                    std::none_of(stack.begin(), stack.end(), [&](const ExprPtr& v) { return v.get() == loop->iterator; }) &&
                    (target == loop->break_to || (loop->break_to == loop->exit && loop->breaks == 0) || is_threaded_break(loop, target, stack))) {
                    loop->break_to = target;
                    ++loop->breaks;
                    out.push_back(make_stmt(StmtKind::Break));
                    return false;
                }
                // (A `continue` written in an except clause whose statement goes on at the next
                // iteration: 3.8/3.9 leave the clause's own dead jump after it.)
                if (target == stop && loop && target == loop->header && is_explicit_clause_jump(b)) {
                    out.push_back(make_stmt(StmtKind::Continue));
                    return false;
                }
                if (target == stop) return true;
                if (loop && target == loop->header) {
                    out.push_back(make_stmt(StmtKind::Continue));
                    // (3.8/3.9: an except clause's jump there with no dead jump after it is where the
                    // clause falls off its end; see strip_clause_end_continues.)
                    if (!open_clauses_.empty() && open_clauses_.back().after == target && is_natural_clause_end(b))
                        clause_end_continues_.insert(out.back().get());
                    return false;
                }
                if (breaks_through_bare_exit(loop, target) || for_breaks_through_bare_exit(loop, target, stack)) {
                    ++loop->breaks;
                    out.push_back(make_stmt(StmtKind::Break));
                    return false;
                }
                if (is_threaded_break(loop, target, stack)) {
                    loop->break_to = target;
                    ++loop->breaks;
                    out.push_back(make_stmt(StmtKind::Break));
                    return false;
                }
                if (target <= b) unsupported("a backward jump that is not a loop");
                b = target;
                continue;
            }
            case N::JumpIf: {
                if (loop && b == loop->bottom_jump) {
                    // The end of the body, then the repeated test: the same test as on top.
                    ExprPtr tested = pop(stack);
                    if (ast::print_expression(*tested) != loop->first_test) unsupported("a while loop whose repeated test differs");
                    // (A comparison chain's first link leaves the shared operand below its value.)
                    if (tested->kind == ExprKind::Compare && !stack.empty() && tested->elts.back() == stack.back() &&
                        chain_shared_.count(stack.back().get()))
                        stack.pop_back();
                    if (stop == next_iteration(loop)) return true;
                    out.push_back(make_stmt(StmtKind::Continue));
                    return false;
                }
                b = emit_if(b, *term, out, loop, stack, base, stop);
                if (b == kFlowEnded) return false;
                continue;
            }
            case N::JumpIfOrPop: {
                b = emit_short_circuit_value(b, *term, loop, stack, base, stop);
                continue;
            }
            case N::ForIter: unsupported("FOR_ITER outside a loop header");
            default: unsupported("unexpected block terminator");
            }
        }
        return true;
    }

    static constexpr int kFlowEnded = -3;

    // A `continue` that is the last thing a for loop's body runs (at its end, or ending a branch of
    // the if that ends it) is where the body goes on anyway. The structurer writes one where a test
    // jumps straight back to the loop's header (a jump the compiler threaded through the body's
    // end); in the source there was none, and one written there compiles to an extra jump.
    static void strip_trailing_continue(Body& body) {
        if (body.empty()) return;
        Stmt& last = *body.back();
        if (last.kind == StmtKind::Continue) {
            body.pop_back();
        } else if (last.kind == StmtKind::If) {
            // (A then-side's `continue` beside an else side that goes on is what the compiler
            // laid out as `if t: ...; continue` followed by the rest: kept.)
            if (last.orelse.empty()) {
                strip_trailing_continue(last.body);
                if (last.body.empty()) last.body.push_back(make_stmt(StmtKind::Pass));
            }
            strip_trailing_continue(last.orelse);
        } else if (last.kind == StmtKind::Try && last.finalbody.empty() && !last.handlers.empty() && !last.orelse.empty()) {
            // (A try body's own jump back, read as an `else:` that continues.)
            strip_trailing_continue(last.orelse);
        }
    }

    // Whether normal flow reaches `block` from a block of `loop` (a handler is entered otherwise).
    bool entered_from_loop(int block, const Loop& loop) const {
        for (int p : cfg_.block(block).preds)
            if (loop.blocks.count(p)) return true;
        return false;
    }

    // `break` out of an except clause (3.10+): after POP_EXCEPT (and, in a for loop, the POP_TOP of
    // its iterator) the compiler writes its copy of the short code after the loop that ends the
    // function (the same ops with the same lines, under the same handler) rather than a jump to it.
    // So does any other `break` whose jump it replaced by the copy (3.12+ copy every short exit
    // block): after the __exit__ calls of the with statements it leaves and the POP_TOP.
    // Returns the index of the copy's first op (0: not such a block); the copy's blocks count as
    // emitted.
    size_t copied_break_at(int b, const Loop* loop) {
        if (!exits_copied_ || !loop || loop->break_to < 0 || b == loop->break_to) return 0;
        const Block& blk = cfg_.block(b);
        size_t i = blk.first;
        if (resume_at_.count(b)) return 0;
        while (i < blk.last && ops_[i].kind != N::PopExcept && !is_block_terminator(ops_[i].kind)) ++i;
        size_t start = i + 1;  // (the copy's first op)
        if (i >= blk.last || ops_[i].kind != N::PopExcept) {
            // (No except clause: only the with statements' exits come before the copy.)
            std::vector<const NeutralOp*> head;
            for (size_t k = blk.first; k < blk.last; ++k) head.push_back(&ops_[k]);
            size_t k = 0;
            while (k < head.size() && head[k]->kind == N::Nop) ++k;
            while (size_t end = with_exit_call_end(head, k, head.size(), true)) k = end;
            start = blk.first + k;
        }
        if (loop->is_for) {
            if (start >= blk.last || ops_[start].kind != N::Pop) return 0;
            ++start;
        }
        if (start >= blk.last) return 0;
        std::vector<int> copy_path, original_path;
        std::vector<const NeutralOp*> copy = straight_ops_from(start, &copy_path);
        std::vector<const NeutralOp*> original = straight_ops(loop->break_to, &original_path);
        if (!same_copied_ops(copy, original, 0)) return 0;
        int handler = cfg_.block(copy_path.back()).handler;
        for (int k : copy_path)
            if (cfg_.block(k).handler != handler || (k != b && (emitted_[k] || cfg_.block(k).preds.size() != 1))) return 0;
        // (A jump to the code after the loop is no copy of it: that is the jump a `break` makes.)
        for (int k : copy_path)
            if (std::find(original_path.begin(), original_path.end(), k) != original_path.end()) return 0;
        for (int k : original_path)
            if (cfg_.block(k).handler != handler) return 0;
        for (int k : copy_path) emitted_[k] = true;
        return start;
    }

    // A for loop's `break` whose target is the end of the enclosing loop's body: the compiler jumps
    // straight to that loop's next iteration (past a for-else's else clause, which then is all the
    // code between the loop's exit and there). The iterator is popped; the jump must be the loop's
    // only break target.
    // A `while True:` ending the body of `outer`: 3.12+ thread its `break` to the next iteration
    // of `outer`, and nothing in it goes to the block after it.
    bool breaks_only_to_next_iteration(const Loop& loop, const Loop* outer) const {
        if (!outer) return false;
        int next = next_iteration(outer);
        bool breaks = false;
        for (int b : loop.blocks)
            for (int s : cfg_.block(b).succs) {
                if (s == loop.exit) return false;
                breaks = breaks || (s == next && s < loop.header);
            }
        return breaks;
    }

    // A `while` (no else clause) that ends at a bare jump back to `target`, an enclosing loop's
    // header: 3.12+ thread its `break` through that jump.
    bool breaks_through_bare_exit(const Loop* loop, int target) const {
        return loop && !loop->is_for && loop->exit >= 0 && loop->break_to == loop->exit && target < loop->header &&
               is_bare_back_jump(loop->exit, target);
    }

    // The same for a for loop (3.12+, whose FOR_ITER skips END_FOR at the exit): the `break`, after
    // the POP_TOP of the iterator, jumps where the loop's exit, a bare jump back, goes.
    bool for_breaks_through_bare_exit(const Loop* loop, int target, const std::vector<ExprPtr>& stack) const {
        return loop && loop->is_for && loop->exit >= 0 && loop->break_to == loop->exit && target < loop->header &&
               is_bare_back_jump(loop->exit, target) &&
               std::none_of(stack.begin(), stack.end(), [&](const ExprPtr& v) { return v.get() == loop->iterator; });
    }

    // A `break` laid out last in a for loop's body (3.10/3.11): after the POP_TOP of the iterator,
    // the block falls into the loop's exit, where no other path of the body falls (the body ends
    // with its jump back). The iterator is gone from the stack.
    bool falls_into_break(int b, const Loop* loop, const std::vector<ExprPtr>& stack) const {
        if (!loop || !loop->is_for || b + 1 != loop->exit || loop->break_to != loop->exit || !loop->blocks.count(b)) return false;
        return std::none_of(stack.begin(), stack.end(), [&](const ExprPtr& v) { return v.get() == loop->iterator; });
    }

    bool is_threaded_break(Loop* loop, int target, const std::vector<ExprPtr>& stack) const {
        if (!loop || !loop->outer || target != next_iteration(loop->outer)) return false;
        if (loop->break_to != target && (loop->break_to != loop->exit || loop->breaks > 0)) return false;
        return stack.empty() || stack.back().get() != loop->iterator;
    }

    // ---------------------------------------------------------------- match statements
    // The match statements of this code, by the op their first case starts at (match_decoder.cpp).
    void find_matches() {
        // (A match starts at a COPY, MATCH_SEQUENCE or MATCH_MAPPING, or a load before MATCH_CLASS:
        // code with none of them, most code, has no match to look for.)
        // (Nor a guard on the subject itself, a 3.12+ first `case _ if guard:`: its last jump is
        // followed by the POP_TOP of the subject.)
        std::vector<size_t> guard_starts;
        for (size_t j = 0; j + 1 < ops_.size(); ++j)
            if (ops_[j].kind == N::JumpIf && ops_[j + 1].kind == N::Pop)
                if (std::optional<size_t> k = guarded_match_start(ops_, j)) guard_starts.push_back(*k);
        if (guard_starts.empty() && std::none_of(ops_.begin(), ops_.end(), [](const NeutralOp& op) {
                return op.kind == N::Copy || op.kind == N::MatchSequence || op.kind == N::MatchMapping || op.kind == N::MatchClass;
            }))
            return;
        std::sort(guard_starts.begin(), guard_starts.end());
        std::set<size_t> inside;
        for (size_t k = 0; k < ops_.size(); ++k) {
            if (inside.count(k) || !(may_start_match(ops_, k) || std::binary_search(guard_starts.begin(), guard_starts.end(), k))) continue;
            // Code right after a COPY of the subject is part of a case the decoder could not read
            // (an or-pattern binding names), never a match of its own on the copy.
            if (k > 0 && ops_[k - 1].kind == N::Copy && ops_[k - 1].arg == 1 && cfg_.block_of_op(k - 1) == cfg_.block_of_op(k)) continue;
            if (is_walrus_test(k) || is_chained_assignment(k)) continue;
            if (auto shape = decode_match(ops_, k)) {
                inside.insert(shape->consumed.begin(), shape->consumed.end());
                // (Nor does a guard start a match of its own: a guarded `case _` consumes no op.)
                for (const CaseShape& c : shape->cases) inside.insert({c.start, c.pattern_end});
                matches_.emplace(k, std::move(*shape));
            }
        }
    }

    // `a = b = ... = value`: COPY 1; STORE a; COPY 1; STORE b; ... A case would be a capture that
    // cannot fail followed by another case, which no match statement compiles to. (Generated code
    // chains hundreds: reading a match at each copy took quadratic time.)
    bool is_chained_assignment(size_t k) const {
        auto copy_store = [&](size_t j) {
            return j + 1 < ops_.size() && ops_[j].kind == N::Copy && ops_[j].arg == 1 && ops_[j + 1].kind == N::Store;
        };
        return copy_store(k) && copy_store(k + 2);
    }

    // `(name := value)` in a test (a guard's too): COPY 1; STORE name; then the first jump of the
    // block tests the copy or what the copy became. A case's capture (`case name if guard:`) keeps
    // the subject below its guard's value: that jump finds one value more on the stack.
    bool is_walrus_test(size_t k) const {
        if (k + 2 >= ops_.size() || ops_[k].kind != N::Copy || ops_[k].arg != 1 || ops_[k + 1].kind != N::Store) return false;
        int depth = 0;  // values above the copy's place
        for (size_t j = k + 2; j < ops_.size() && cfg_.block_of_op(j) == cfg_.block_of_op(k); ++j) {
            if (ops_[j].kind == N::JumpIf) return depth == 0;
            std::optional<int> effect = stack_effect(ops_[j]);
            if (!effect || is_block_terminator(ops_[j].kind)) return false;
            depth += *effect;
        }
        return false;
    }

    // The block holding op `i`; a block entered in its middle (after pattern code) resumes there.
    int enter_at(size_t i) {
        int b = cfg_.block_of_op(i);
        if (cfg_.block(b).first == i) return b;
        auto [it, fresh] = resume_at_.emplace(b, i);
        if (fresh) probe_memo_.clear();  // probes of block `b` read it from its start
        if (!fresh && it->second != i) unsupported("a match statement of an unusual shape (two entries into one block)");
        return b;
    }

    // Whether a case body falls into block `b` (the last body, ending without the jump past a
    // `case _` body that any other layout needs), rather than only pattern code going there.
    bool body_falls_into(const MatchShape& shape, int b) const {
        if (b <= 0) return false;
        const Block& prev = cfg_.block(b - 1);
        if (is_block_terminator(ops_[prev.last - 1].kind)) return false;
        for (size_t i = prev.first; i < prev.last; ++i)
            if (!shape.consumed.count(i)) return true;
        return false;
    }

    // Where the match statement ends: after a `case _` body when the cases' bodies jump past the
    // code where the last case's failure goes on, else there (or, when no case can fail, where the
    // bodies jump to).
    int match_end(const MatchShape& shape, Loop* loop, int stop) {
        std::set<int> targets;
        // (3.13 copy the way out of an except clause, POP_EXCEPT and the jump back to the code
        // after the try statement laid out before it, to the end of each case body.)
        bool back_to_stop = false;
        for (size_t i = 0; i < shape.cases.size(); ++i) {
            const CaseShape& c = shape.cases[i];
            if (c.dead_guard) continue;  // no body; its jump goes to the next case
            auto after = shape.consumed.upper_bound(c.pattern_end);
            size_t failure = after != shape.consumed.end() ? *after : c.fail >= 0 ? size_t(c.fail) : ops_.size();
            if (i + 1 == shape.cases.size() && c.fail >= 0) failure = std::min(failure, size_t(c.fail));
            if (failure == 0 || failure > ops_.size()) continue;
            // (3.10+ lay out the handlers of a try statement that ends the body after the body's
            // jump past the other cases: code entered on an exception only.)
            for (int k = cfg_.block_of_op(failure - 1); k > 0 && cfg_.block(k).preds.empty() && cfg_.block(k).first > c.pattern_end; --k)
                failure = cfg_.block(k).first;
            const NeutralOp& last = ops_[failure - 1];
            if (last.kind != N::Jump || failure - 1 < c.pattern_end) continue;
            int t = cfg_.block_at_offset(last.target);
            if (t < 0 || (loop && (!loop->blocks.count(t) || t == loop->header))) continue;
            if (t == stop && stop < cfg_.block_of_op(shape.cases.front().start)) back_to_stop = true;
            if (t <= cfg_.block_of_op(c.pattern_end)) continue;
            targets.insert(t);
        }
        if (targets.empty() && back_to_stop) return stop;
        const CaseShape& last = shape.cases.back();
        if (last.fail >= 0) {
            int fail_block = cfg_.block_of_op(size_t(last.fail));
            int end = fail_block;
            for (int t : targets)
                if (t > fail_block) end = std::max(end, t);
            // (Not where a body goes on to the failure, by a jump or by falling into it: a `case _`
            // body is reached from the failure only, so that is where the statement ends, and the
            // NOP there is the line of the next statement, a `try:` on 3.11+.)
            if (end == fail_block && !targets.count(fail_block) && !body_falls_into(shape, fail_block) &&
                last.default_marker && is_nop_at(last.dropped_at)) {
                // A body that goes on without a jump at its end (`if t: return`, an assert: its test
                // jumps on) meets the `case _` body at the code after the statement.
                if (int meet = bodies_meet_default(shape, fail_block, loop, stop); meet >= 0) return meet;
                // A `case _` whose end nothing shows (every other body leaves): its body goes on to
                // the end of the enclosing region.
                // (Not where the flow from the failure meets first: that may be inside the body,
                // after a with statement whose suppressed exit jumps there.)
                int m = block_merge_point(fail_block, loop, stop);
                end = m == loop_header_of(loop) ? m : stop;
            }
            return end;
        }
        if (targets.size() == 1) return *targets.begin();
        return block_merge_point(cfg_.block_of_op(shape.cases.front().start), loop, stop);
    }

    // The first block that the body of a case before a final `case _` and that body (from its
    // failure, `fail_block`) both reach: code after the statement, since case bodies meet nowhere
    // else (-1: none). A body's walk does not enter pattern code (a guard's false side goes on to
    // the next case's patterns, and from there to the failure). A `case _` whose body is empty
    // fails straight into the code after the statement, where the bodies go on too; the last
    // case's body tells nothing there: its guard goes there.
    int bodies_meet_default(const MatchShape& shape, int fail_block, const Loop* loop, int stop) const {
        int floor = cfg_.block_of_op(shape.cases.front().start);
        auto reached_from = [&](int from, bool past_patterns) {
            std::vector<bool> seen(size_t(cfg_.size()), false);
            std::vector<int> work = {from};
            while (!work.empty()) {
                int k = work.back();
                work.pop_back();
                if (k <= floor || seen[size_t(k)]) continue;
                if (!past_patterns && k != from) {
                    bool pattern = false;
                    for (size_t i = cfg_.block(k).first; i < cfg_.block(k).last && !pattern; ++i) pattern = shape.consumed.count(i) > 0;
                    if (pattern) continue;
                }
                seen[size_t(k)] = true;
                for (int s : cfg_.block(k).succs) work.push_back(s);
            }
            return seen;
        };
        std::vector<bool> from_failure = reached_from(fail_block, true);
        int meet = -1;
        for (size_t i = 0; i < shape.cases.size(); ++i) {
            int body = cfg_.block_of_op(shape.cases[i].pattern_end);
            if (body <= floor || shape.cases[i].dead_guard) continue;
            std::vector<bool> from_body = reached_from(body, false);
            int k = floor + 1;
            while (k < cfg_.size() && !(from_body[size_t(k)] && from_failure[size_t(k)])) ++k;
            if (k == cfg_.size()) continue;
            if (k == fail_block && i + 1 == shape.cases.size()) continue;
            if (k < fail_block) return -1;
            if (meet < 0 || k < meet) meet = k;
        }
        // (Not the next iteration or past the loop: where `continue` or `break` in both goes.)
        if (meet < 0 || (loop && (!loop->blocks.count(meet) || meet == loop->header)) || (stop > fail_block && meet > stop)) return -1;
        return meet;
    }

    // Whether the original instruction at `offset` is a NOP (which normalizing drops; so it does
    // other instructions, such as 3.10's POP_BLOCK).
    bool is_nop_at(int64_t offset) const {
        if (offset < 0 || size_t(offset) >= code_.bytecode.size()) return false;
        return table_.info(static_cast<uint8_t>(code_.bytecode[size_t(offset)])).op == Opcode::NOP;
    }

    int emit_match(size_t at, Body& out, Loop* loop, std::vector<ExprPtr>& stack, size_t base, int stop) {
        const MatchShape& shape = matches_.at(at);
        auto s = make_stmt(StmtKind::Match);
        s->value = lambda_or(pop(stack));
        for (int b = 0; b < cfg_.size(); ++b) {
            const Block& blk = cfg_.block(b);
            bool all = blk.last > blk.first;
            for (size_t i = blk.first; i < blk.last && all; ++i) all = shape.consumed.count(i) > 0;
            if (!all) continue;
            if (emitted_[b]) unsupported("a block reached twice (unstructured control flow)");
            emitted_[b] = true;
        }
        int end = match_end(shape, loop, stop);
        bool flows = false;
        size_t depth_after = stack.size();  // where the bodies that go on leave the stack
        auto emit_body = [&](size_t from, Body& body) {
            std::vector<ExprPtr> body_stack = stack_copy(stack);
            int b = enter_at(from);
            bool f = b == end ? true : emit_region(b, end, body, loop, body_stack, base);
            if (!f) return false;
            // (Bodies that leave the except clause around the statement (see match_end) drop its
            // exception, each of them.)
            if (body_stack.size() > stack.size() || (flows && body_stack.size() != depth_after))
                unsupported("a case body that leaves values on the stack");
            for (size_t k = body_stack.size(); k < stack.size(); ++k)
                if (!exception_.is(stack[k]) && !previous_exception_.is(stack[k])) unsupported("a case body that leaves values on the stack");
            depth_after = body_stack.size();
            flows = true;
            return true;
        };
        for (const CaseShape& c : shape.cases) {
            ast::MatchCase mc;
            mc.pattern = c.pattern;
            size_t body_at = c.pattern_end;
            if (c.dead_guard) {
                // (The compiler dropped the body: any body says the same.)
                mc.guard = make_constant(false_value());
                s->cases.push_back(std::move(mc));
                continue;
            }
            if (c.keeps_subject && ops_[c.pattern_end].kind == N::Pop) {
                body_at = c.pattern_end + 1;
            } else if (c.fail >= 0) {
                // A guard: a condition whose false side goes where a failed pattern goes.
                std::vector<bool> saved = emitted_;
                auto guard = read_guard(c, stack, cfg_.block_of_op(at));
                if (guard) {
                    mc.guard = guard->test;
                    body_at = cfg_.block(guard->then_block).first;
                    if (c.keeps_subject) {
                        if (ops_[body_at].kind != N::Pop) unsupported("a match guard of an unusual shape");
                        ++body_at;
                    }
                } else if (c.keeps_subject) {
                    unsupported("a match guard of an unusual shape");
                } else {
                    emitted_ = saved;
                }
            } else if (c.keeps_subject) {
                unsupported("a match case of an unusual shape");
            }
            emit_body(body_at, mc.body);
            s->cases.push_back(std::move(mc));
        }
        const CaseShape& last = shape.cases.back();
        if (last.fail >= 0 && cfg_.block_of_op(size_t(last.fail)) != end) {
            ast::MatchCase mc;
            mc.pattern = std::make_shared<Pattern>();  // case _
            bool went_on = emit_body(size_t(last.fail), mc.body);
            // (Where the failure only leaves an except clause with the bodies (see match_end), no
            // NOP of a `case _:` line before it: there was no such case.)
            if (!mc.body.empty() || !went_on || last.default_marker) s->cases.push_back(std::move(mc));
        } else if (last.fail >= 0) {
            if (flows && depth_after != stack.size()) unsupported("a case body that leaves values on the stack");
            flows = true;
            enter_at(size_t(last.fail));
        }
        stack.resize(depth_after);
        emit_stmt(out, s);
        if (!flows) return kFlowEnded;
        if (end == loop_header_of(loop)) return end;
        return end < 0 ? kFlowEnded : end;
    }

    // The guard after the pattern of case `c` (which ends mid-block): a condition of its own ops
    // whose false side is where the failed pattern goes. The first case's pattern may not branch
    // (a capture pattern whose subject the next case reads again): its guard then starts in
    // `own_block`, the block the statement starts in, which is being emitted.
    std::optional<Condition> read_guard(const CaseShape& c, const std::vector<ExprPtr>& stack, int own_block) {
        int b = enter_at(c.pattern_end);
        if (emitted_[b] && b != own_block) return std::nullopt;
        std::vector<ExprPtr> probe = stack_copy(stack);
        Body scratch;
        const NeutralOp* term = nullptr;
        // (A guarded `case _` that starts the statement has no pattern code: its guard starts at the
        // statement's first op, which is no statement of its own here.)
        guard_at_ = c.pattern_end;
        bool simulated = true;
        try {
            term = simulate(b, probe, scratch);
        } catch (const Error&) {
            simulated = false;
        }
        guard_at_ = kNoOp;
        if (!simulated || !term || term->kind != N::JumpIf || !scratch.empty() || probe.size() != stack.size() + 1) return std::nullopt;
        int fail_block = cfg_.block_of_op(size_t(c.fail));
        bool fails_mid_block = cfg_.block(fail_block).first != size_t(c.fail);  // (past pops of the pattern's leftovers)
        Condition cond = read_condition(b, *term, probe);
        cond = reduce_condition(cond, stack);
        std::vector<int> copy_blocks;
        if ((cond.else_block != fail_block || fails_mid_block) && !fails_into_copy(cond.else_block, size_t(c.fail), copy_blocks) &&
            !is_failure_jump(cond.else_block, fail_block))
            return std::nullopt;
        if (cond.then_block < 0 || emitted_[cond.then_block]) return std::nullopt;
        // (Where a failed pattern goes to the end of the statement, the test on top of a rotated
        // `while` that starts the body jumps there too: its loop goes back past it, as no guard's body does.)
        if (match_rotated_while(b, cond, stack)) return std::nullopt;
        for (int k : copy_blocks) emitted_[k] = true;
        cond.else_block = fail_block;
        emitted_[b] = true;
        take_condition(cond);  // the blocks of an and/or guard are part of it
        return cond;
    }

    // Whether block `side` is the jump to `fail_block` that a failed pattern's pops fall into: the
    // jump back of a loop whose body the statement ends, where the failure walk went on (a guard on
    // the last case jumps there too; an `if` in its body would jump to a jump of its own).
    bool is_failure_jump(int side, int fail_block) const {
        if (side <= 0 || !is_lone_jump(side) || through_jumps(side) != fail_block) return false;
        const Block& before = cfg_.block(side - 1);
        if (!is_only(before.succs, side)) return false;
        for (size_t k = before.first; k < before.last; ++k)
            if (ops_[k].kind != N::Pop) return false;
        return true;
    }

    // Whether a guard's false side `side` goes to a copy of the code that ends the function where
    // the failed pattern goes (op `fail`), past the pops of what the pattern left (the compiler
    // copies a small block that ends the function for each jump to it, and a guard leaves nothing
    // to pop): the copy's blocks, reached from nowhere else, in `blocks`.
    bool fails_into_copy(int side, size_t fail, std::vector<int>& blocks) const {
        if (side <= cfg_.block_of_op(fail) || emitted_[side]) return false;
        std::vector<const NeutralOp*> failure = straight_ops_from(fail);
        size_t pops = 0;
        while (pops < failure.size() && failure[pops]->kind == N::Pop) ++pops;
        failure.erase(failure.begin(), failure.begin() + long(pops));
        if (!same_ops(straight_ops(side, &blocks), failure)) return false;
        for (int k : blocks)
            if (cfg_.block(k).preds.size() != 1) return false;
        return true;
    }

    // Whether block `k` is in the innermost open try or with body, whose region ends at `stop`, its
    // only way out, a `return`'s (the compiler's copy of the clean-up before it): the body goes on
    // in the layout past that way out.
    bool past_return_exit(int k, int stop) const {
        if (protected_bodies_.empty()) return false;
        const ProtectedBody& p = protected_bodies_.back();
        return stop == p.exit && ends_without_going_on(stop) && in_body(k, p.handler, p.uncovered);
    }

    // Where the two sides of an `if` meet; inside a loop, a meeting point outside the loop means
    // each side leaves by break/continue, so they meet at the next iteration.
    int merge_point(const Condition& c, Loop* loop, int stop) const {
        int block = c.last_block;
        // Sides that each reach the end of the region, 3.13's copy of the end of an except clause
        // around it (see handler_exit), or another copy of that, meet there (past it they meet
        // again, where the copies jump).
        if (stop >= 0 && stop != block && clause_exit_copies_.count(stop) && same_clause_end(stop, stop)) {
            auto reaches_end = [&](int side) {
                std::vector<bool> reached = reachable_above(side, block);
                return std::any_of(clause_exit_copies_.begin(), clause_exit_copies_.end(),
                                   [&](int k) { return reached[size_t(k)] && (k == stop || same_clause_end(k, stop)); });
            };
            if (reaches_end(c.then_block) && reaches_end(c.else_block)) return stop;
        }
        // A region that goes on at code laid out before it (3.12+ lays except clauses out after
        // the code the try statement goes on to, and jumps back there): sides that meet nowhere
        // after the test meet there when one of them goes there and every way on leads there.
        if (stop >= 0 && stop < block && !(loop && stop == loop->header)) {
            std::vector<bool> then_seen, else_seen;
            // (An except clause that continues or breaks goes on nowhere in the statement, nor does
            // a side of an if in a clause laid out after the loop.)
            const Loop* clause_loop = loop && (is_except_clause_test(c.test) || in_except_clause_of(block, *loop)) ? loop : nullptr;
            int then_way = backward_way_on(c.then_block, stop, block, then_seen, clause_loop);
            int else_way = backward_way_on(c.else_block, stop, block, else_seen, clause_loop);
            bool meet = false;
            for (size_t k = 0; k < then_seen.size() && k < else_seen.size() && !meet; ++k) meet = then_seen[k] && else_seen[k];
            if (then_way >= 0 && else_way >= 0 && then_way + else_way > 0 && !meet) return stop;
        }
        int m = cfg_.ipdom(block);
        // Inside a try or with body (itself inside the innermost loop), sides that leave the body
        // meet where the body ends normally.
        if (!protected_bodies_.empty()) {
            const ProtectedBody& p = protected_bodies_.back();
            // (Not a return both sides reach first: a conditional expression returned from the body,
            // whose return the compiler puts after the body's end, after the copies of the finally
            // bodies it runs, which may branch. Nor where the sides meet inside the body first: one
            // that leaves it, `continue` through the compiler's copy of __exit__, takes the
            // post-dominator away. Nor for a test after the body: an if in the compiler's copy of a
            // finally body that a `return` runs, whose sides meet in that copy.)
            int common = first_common_block(c.then_block, c.else_block, block);
            auto returns_after = [&](int k) {
                std::set<int> copies = {k};
                return ends_without_going_on(k) || returns_after_branching_copies(k, copies);
            };
            if (p.loop == loop && p.exit >= 0 && !ends_without_going_on(p.exit) && m >= 0 && !in_body(m, p.handler, p.uncovered) &&
                in_body(block, p.handler, p.uncovered) && !(common == m && returns_after(m)) && !(common >= 0 && common != p.exit && in_body(common, p.handler, p.uncovered)))
                return p.exit;
        }
        // A side that returns, raises or breaks takes the post-dominator away (or moves it past the
        // loop); the sides still meet at the first block both can reach.
        // A test that jumps to the next iteration when false is `if test: ...` ending the body.
        if (loop && c.else_block == next_iteration(loop)) return next_iteration(loop);
        int common = first_common_block(c.then_block, c.else_block, block);
        // (Sides that meet past the end of the region, where that end is a lone jump to the place
        // they meet, meet at the end: the compiler threaded one side's jump past it. An if that
        // ends the then-side of the if around it, the finally body's normal-path copy, 3.11.)
        if (stop > block && common > stop && is_lone_jump(stop) && through_jumps(stop) == common) return stop;
        // A post-dominator that a side never reaches (but through the next iteration of the loop)
        // is not where they meet: the post-dominators follow no exception edges (a `while True:`
        // left only from an except clause), and in a loop whose only way out is a `break` the
        // break's side post-dominates the statements before it. A then-side that ends (breaks or
        // continues) is `if test: <ends>` without else; else the sides meet at the next iteration.
        if (m > block && (!loop || (m != loop->header && loop->blocks.count(m))) &&
            (!reaches_above(c.then_block, m, block) || !reaches_above(c.else_block, m, block))) {
            if (loop && c.else_block > c.then_block && else_jump_trace(c) != ElseTrace::Else &&
                side_ends(c.then_block, c.else_block, loop) && (stop <= block || c.else_block <= stop))
                return c.else_block;
            m = loop ? loop->header : -1;
        }
        // (A post-dominator at the loop's header is the next iteration, after every block of the body;
        // so is a bare jump back there.)
        bool m_at_header = loop && m == loop->header;
        auto meet_at = [&](int k) {
            return k >= 0 && (m < 0 || k < m || (m_at_header && !is_bare_back_jump(k, loop->header))) &&
                   (!loop || loop->blocks.count(k) || in_clause_after_loop(block, k, *loop)) &&
                   (stop <= block || k <= stop || past_return_exit(k, stop));
        };
        if (meet_at(common)) return common;
        // An if in an except clause laid out after the loop body ends where its sides meet in the
        // clause (the first block both reach, which every path passes).
        if (loop && m > block && common == m && in_clause_after_loop(block, m, *loop) && (stop <= block || m <= stop)) return m;
        // A side that is a try whose body only ends goes on where its except clause does.
        if (common < 0) {
            int through = first_common_block(c.then_block, c.else_block, block, true);
            if (meet_at(through)) return through;
        }
        // Where the compiler's dead jump over the else arm goes (before 3.10) is where the if ends
        // (unless the jump was retargeted past an enclosing statement's end).
        if (common < 0 && else_jump_trace(c) == ElseTrace::Else) {
            const NeutralOp& jump = ops_[cfg_.block(c.else_block - 1).last - 1];
            int end = cfg_.block_at_offset(jump.target);
            if (end > c.else_block && (m < 0 || end <= m || (loop && m == next_iteration(loop))) &&
                (!loop || loop->blocks.count(end)) && (stop <= block || end <= stop))
                return end;
        }
        // A then-side that goes on jumps over the else arm to the code after the `if`: an else side
        // that only returns or raises before that code is the `else:` arm. (In a loop, a jump back
        // to the header there may be the compiler's threaded way out of the statement.)
        if (common < 0 && !is_except_clause_test(c.test)) {
            int end = jump_over_else(c, block);
            if (end > c.else_block && side_ends(c.else_block, end, nullptr) &&
                (m < 0 || end <= m || (loop && m == next_iteration(loop))) && (!loop || loop->blocks.count(end)) &&
                (!loop || end != next_iteration(loop)) && (stop <= block || end <= stop))
                return end;
        }
        // `if test: <ends>` without else: a then-side laid out before the else side that only returns,
        // raises, breaks or continues; what follows it is the code after the `if`.
        // (A then-side that breaks out of a loop gives a post-dominator past the loop, or, when the
        // loop has no other way out, on that then-side itself.)
        bool breaks_at_m = loop && m >= c.then_block && m < c.else_block && side_ends(m, c.else_block, loop);
        bool past_loop = m < 0 || (loop && (!loop->blocks.count(m) || breaks_at_m) && else_jump_trace(c) == ElseTrace::NoElse);
        if (past_loop && common < 0 && c.else_block > c.then_block && !is_exception_match(c.test) && !c.else_written &&
            side_ends(c.then_block, c.else_block, loop) && else_jump_trace(c) != ElseTrace::Else &&
            (else_jump_trace(c) == ElseTrace::NoElse || !ends_before_dead_code(c.else_block, block)) &&
            !has_implicit_return(c.then_block, c.else_block))
            return c.else_block;
        // 3.12+ lay except clauses out after the end of the loop body (its bare jump back or repeated
        // test), which a clause that goes on reaches by a backward jump: the end of the enclosing
        // region. (A jump to the header itself is `continue`.) (The other side re-raises: no post-dominator, or, where the loop never ends but by
        // an exception, the re-raise itself.)
        if (loop && stop >= 0 && stop < block && stop != loop->header && loop->blocks.count(stop) && (m < 0 || !loop->blocks.count(m)) &&
            (jumps_back_to(c.then_block, block, stop) || jumps_back_to(c.else_block, block, stop)))
            return stop;
        // `if test: <ends>` in a loop body whose else side goes on in the body: the code after the if
        // (where the sides meet past the loop, the then-side breaking out). (Where the compiler keeps
        // dead code, a dead jump over an else arm after the then-side, even one threaded to the
        // next iteration, says there was an `else:`.)
        if (loop && m >= 0 && !loop->blocks.count(m) && !flows_back_into(m, *loop) && (common < 0 || !loop->blocks.count(common)) &&
            c.else_block > c.then_block && loop->blocks.count(c.else_block) && !is_exception_match(c.test) &&
            !c.else_written && (!dead_code_kept_ || else_jump_trace(c) == ElseTrace::NoElse) &&
            side_ends(c.then_block, c.else_block, loop) && !goes_to_next_iteration(c.then_block, c.else_block, *loop) && !has_implicit_return(c.then_block, c.else_block) &&
            (stop <= block || c.else_block <= stop))
            return c.else_block;
        if (loop && m >= 0 && !loop->blocks.count(m) && !flows_back_into(m, *loop) && !in_except_clause_of(m, *loop))
            return next_iteration(loop);
        // Before 3.10 a then-side that falls out of the last statement of a loop body jumps to the
        // loop header (the jump to the dead jump back was threaded); a `continue` written there
        // leaves the compiler's (dead) way out of the statement after it.
        if (m < 0 && loop && stop == next_iteration(loop) && falls_to_next_iteration(c, loop)) return stop;
        // Paths that end (return/raise) leave no post-dominator; those that go on meet at the end
        // of the enclosing region (which 3.12+ except clauses reach by a backward jump).
        if (m < 0 && stop >= 0 && (stop > block || !loop || stop != next_iteration(loop))) return stop;
        // Every path reaches the next iteration: where a side reaches the end of the enclosing region
        // inside the loop, the paths that do not pass there `continue`, the others meet there.
        // (A then-side laid out first that ends, with no jump over an else arm after it, had no else.)
        if (m_at_header && stop > block && (loop->blocks.count(stop) || in_clause_after_loop(block, stop, *loop)) &&
            (reachable_above(c.then_block, block)[stop] || reachable_above(c.else_block, block)[stop])) {
            if (c.else_block > c.then_block && else_jump_trace(c) != ElseTrace::Else && side_ends(c.then_block, c.else_block, loop))
                return c.else_block;
            return stop;
        }
        // A then-side laid out first that ends in a `continue` statement of its own (a jump back
        // to the header on a line no other op of the test or side has): the code after it is no
        // `else:` arm, and the sides do not meet at a `continue` after the statement (3.10+ would
        // compile that as a jump forward to it).
        if (m_at_header && c.else_block > c.then_block && else_jump_trace(c) != ElseTrace::Else &&
            !loop->comprehension && side_ends(c.then_block, c.else_block, loop) &&
            continues_by_statement(c.first_block, c.then_block, c.else_block, *loop) &&
            (stop <= block || c.else_block <= stop))
            return c.else_block;
        return m;
    }

    // Whether the blocks [from, until) end in a jump to the header of `loop` whose line no other
    // op in them, or in the test from `test` on, has: a `continue` statement after other code (the
    // jump that ends a body goes with the line of its last statement). (Not the jump back 3.12+
    // put right after a test, with the test's line; nor a jump back that ends the side's first
    // block: `pass` leaves its line to the jump after it, as in an inner if's side.)
    bool continues_by_statement(int test, int from, int until, const Loop& loop) const {
        int k = until - 1;
        if (k <= from) return false;
        const Block& blk = cfg_.block(k);
        const NeutralOp& last = ops_[blk.last - 1];
        if (last.kind != N::Jump || last.line < 0) return false;
        // (To the header, or to the NOP of `while True:` that falls into it, 3.12+.)
        int to = cfg_.block_at_offset(last.target);
        auto only_nops = [&](int b) {
            for (size_t i = cfg_.block(b).first; i < cfg_.block(b).last; ++i)
                if (ops_[i].kind != N::Nop) return false;
            return true;
        };
        if (to != loop.header && !(to + 1 == loop.header && only_nops(to)) && !(loop.header + 1 == to && only_nops(loop.header))) return false;
        for (size_t i = cfg_.block(test).first; i + 1 < blk.last; ++i)
            if (ops_[i].line == last.line) return false;
        return true;
    }

    // Where the live forward jump that ends the then-side of `c` (the block laid out right before its
    // else side, reached from its then-side) goes; -1 when there is none.
    int jump_over_else(const Condition& c, int block) const {
        if (c.then_block < 0 || c.else_block <= c.then_block) return -1;
        int prev = c.else_block - 1;
        const Block& blk = cfg_.block(prev);
        if (blk.last == blk.first || !reachable_above(c.then_block, block)[prev]) return -1;
        const NeutralOp& last = ops_[blk.last - 1];
        if (last.kind != N::Jump || last.target <= int64_t(last.offset)) return -1;
        return cfg_.block_at_offset(last.target);
    }

    // Before 3.10 the compiler lays out `else:` after a then-side that ends by raise, break or
    // continue as a (dead) jump over the else arm; after a `return` the peephole optimizer drops
    // that jump (unless a label separates them). So the op right before the else side tells: a
    // dead lone forward jump means `else:`, a reachable raise or jump means none, anything else (a
    // return) tells nothing.
    enum class ElseTrace { Unknown, Else, NoElse };
    ElseTrace else_jump_trace(const Condition& c) const {
        if (!dead_code_kept_ || c.then_block < 0 || c.else_block <= c.then_block) return ElseTrace::Unknown;
        int prev = c.else_block - 1;
        const Block& blk = cfg_.block(prev);
        if (blk.last == blk.first) return ElseTrace::Unknown;
        const NeutralOp& last = ops_[blk.last - 1];
        if (!reachable_at_all(prev)) {
            // (A dead jump back is something else: a loop's jump back after a body that ends.)
            if (last.kind != N::Jump || last.target <= int64_t(last.offset)) return ElseTrace::Unknown;
            for (size_t i = blk.first; i + 1 < blk.last; ++i)
                if (ops_[i].kind != N::Nop) return ElseTrace::Unknown;
            return ElseTrace::Else;
        }
        return ends_by_raise_or_jump(prev) ? ElseTrace::NoElse : ElseTrace::Unknown;
    }

    // Whether the then-side of `c` (laid out before its else side) reaches the next iteration of
    // `loop` only by jumps with live code after them (see merge_point).
    bool falls_to_next_iteration(const Condition& c, const Loop* loop) const {
        if (!dead_code_kept_ || c.then_block < 0 || c.else_block <= c.then_block) return false;
        std::vector<bool> side = reachable_above(c.then_block, c.then_block - 1);
        bool any = false;
        for (int k = c.then_block; k < c.else_block; ++k) {
            const Block& blk = cfg_.block(k);
            if (!side[k] || blk.last == blk.first) continue;
            const NeutralOp& last = ops_[blk.last - 1];
            if (last.kind != N::Jump || cfg_.block_at_offset(last.target) != loop->header) continue;
            if (!reachable_at_all(k + 1)) return false;
            any = true;
        }
        return any;
    }

    bool ends_by_raise_or_jump(int block) const {
        const Block& blk = cfg_.block(block);
        if (blk.last == blk.first || !reachable_at_all(block)) return false;
        N kind = ops_[blk.last - 1].kind;
        return kind == N::Raise || kind == N::Reraise || kind == N::Jump;
    }

    // Whether a path from `from` ends right before code no path reaches: the trace that 3.8/3.9
    // leave after an if/else whose sides both end (later versions drop dead code), so the source
    // had `else:` there.
    bool ends_before_dead_code(int from, int floor) const {
        // (The ends before dead code, found once: mostly there are none, and the walk from `from`,
        // over the rest of the function for each if statement, is saved.)
        if (!ends_before_dead_code_) {
            ends_before_dead_code_.emplace();
            for (int k = 0; k + 1 < cfg_.size(); ++k)
                if (cfg_.block(k).succs.empty() && !reachable_at_all(k + 1)) ends_before_dead_code_->push_back(k);
        }
        if (ends_before_dead_code_->empty()) return false;
        std::vector<bool> seen = reachable_above(from, floor);
        return std::any_of(ends_before_dead_code_->begin(), ends_before_dead_code_->end(), [&](int k) { return seen[size_t(k)]; });
    }

    // The blocks normal flow reaches from `from` walking only blocks after `floor` (so not around
    // an enclosing loop).
    // Whether a block reached from `from` without going back to `floor` or above jumps to `to`.
    bool jumps_back_to(int from, int floor, int to) const {
        if (from < 0) return false;
        std::vector<bool> side = reachable_above(from, floor);
        for (int k = floor + 1; k < cfg_.size(); ++k)
            if (side[size_t(k)])
                for (int s : cfg_.block(k).succs)
                    if (s == to) return true;
        return false;
    }

    // The blocks after `floor` that `from` reaches by normal flow (and, `through_handlers`, into
    // the handlers of those blocks).
    std::vector<bool> reachable_above(int from, int floor, bool through_handlers = false) const {
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work = work_list(from);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k <= floor || seen[k]) continue;
            seen[k] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
            if (int h = cfg_.block(k).handler; through_handlers && h >= 0) work.push_back(h);
        }
        return seen;
    }

    // Whether a block in [from, until) ends with the compiler's copy of the implicit `return None`
    // (3.10+ copy it into each path that reaches the end of the function; it carries the line of
    // the code before it, where an explicit `return` has a line of its own): that side ended the
    // function, so the source had `else:` rather than code after the `if`.
    bool has_implicit_return(int from, int until) const {
        for (int k = from; k < until; ++k) {
            const Block& blk = cfg_.block(k);
            size_t n = blk.last;
            if (n < 3 || ops_[n - 1].kind != N::Return || ops_[n - 2].kind != N::LoadConst || !ops_[n - 2].value ||
                ops_[n - 2].value->kind != PyValue::Kind::None)
                continue;
            if (ops_[n - 2].line == ops_[n - 3].line && n - 2 > blk.first) return true;
        }
        return false;
    }

    // The test of an except clause (the handler's structure is read from its if/else nesting).
    bool is_exception_match(const ExprPtr& test) const {
        return test->kind == ExprKind::Call && exception_matches_.is(test->value);
    }

    // Whether every path from `from` stays in the blocks before `until` and ends there: by return,
    // raise, or a jump that is `break` or `continue` of `loop`.
    bool side_ends(int from, int until, const Loop* loop) const {
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work = work_list(from);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (loop && (k == loop->header || k == loop->bottom || k == loop->break_to)) continue;
            if (k < from || k >= until) return false;
            if (seen[k]) continue;
            seen[k] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
        }
        return true;
    }

    // Whether `block`, laid out after the loop's blocks, goes back to the loop's header without
    // leaving it (3.12+ lay except clauses out after the loop body: their code is the body's).
    bool flows_back_into(int block, const Loop& loop) const {
        if (block <= loop.latch || (loop.exit >= 0 && block == loop.exit) || block == loop.break_to) return false;
        return reachable_above(block, loop.header - 1)[loop.header];
    }

    // Whether a path from `from` through blocks in [from, until) goes to the loop's next iteration
    // as the end of its body does (the test on top of a rotated `while` is where `continue` goes).
    bool goes_to_next_iteration(int from, int until, const Loop& loop) const {
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work = work_list(from);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k == loop.bottom || k == loop.bottom_jump || (k == loop.header && loop.body_start < 0)) return true;
            if (k < from || k >= until || seen[k]) continue;
            seen[k] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
        }
        return false;
    }

    // Whether `block`, laid out after the loop's blocks, is code of an except clause of a try
    // statement inside the loop (3.11+ lay them out after the loop), not code after the loop.
    bool in_except_clause_of(int block, const Loop& loop) const {
        if (block <= loop.header) return false;
        // (The header's handler is a try's around the loop where it covers the jump back too; else
        // the try starts the body.)
        int outer = cfg_.block(loop.header).handler;
        if (outer >= 0 && !inside(loop.latch, outer)) outer = -1;
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<int> work;
        // (The handler covering the header is a try statement's around the loop, unless that
        // statement is not open: one inside the loop that starts at its header.)
        auto around = [&](int h) { return h == outer && open_handlers_.count(h); };
        for (int k : loop.blocks)
            if (int h = cfg_.block(k).handler; h >= 0 && !around(h) && !loop.blocks.count(h)) work.push_back(h);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k <= loop.header || seen[k] || loop.blocks.count(k)) continue;
            // (A `while True:` has no exit of its own: the block after it may be a handler.)
            if ((k == loop.exit || k == loop.break_to) && !cfg_.block(k).preds.empty()) continue;
            if (k == block) return true;
            seen[k] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
            // (And the clauses of a try statement around one whose clause this is.)
            if (int h = cfg_.block(k).handler; h >= 0 && !around(h) && handlers_.count(h) && handlers_.at(h).kind == HandlerKind::Try)
                work.push_back(h);
        }
        return false;
    }

    // Whether `block` and `k` are both code of except clauses of try statements inside `loop`,
    // laid out after its blocks (3.11+): an if there whose sides meet at `k` ends there.
    bool in_clause_after_loop(int block, int k, const Loop& loop) const {
        return !loop.blocks.count(block) && k > block && in_except_clause_of(block, loop) && in_except_clause_of(k, loop);
    }

    // Where the ways on from `side` (through blocks after `floor`, and the except clauses of try
    // statements there) lead: 1 when to `stop`, laid out at or before `floor`, and nowhere else; 0
    // when none goes on (they return or raise, or go to `loop`'s header or break target: `continue`
    // or `break`); -1 when one goes elsewhere. The blocks passed are marked in `seen`.
    int backward_way_on(int side, int stop, int floor, std::vector<bool>& seen, const Loop* loop) const {
        seen.assign(cfg_.size(), false);
        if (side == stop) return 1;
        if (side <= floor) return -1;
        int own_handler = cfg_.block(floor).handler;
        std::vector<int> work = work_list(side);
        int way = 0;
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k == stop) {
                way = 1;
                continue;
            }
            if (loop && (k == loop->header || k == loop->break_to)) continue;
            if (k <= floor) return -1;
            if (seen[size_t(k)]) continue;
            seen[size_t(k)] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
            // (Not into the handler of an enclosing statement being emitted, a finally's: every side
            // reaches that one, which is no place where they meet.)
            if (int h = cfg_.block(k).handler; h >= 0 && h != own_handler && !open_handlers_.count(h) && handlers_.count(h) &&
                                               handlers_.at(h).kind == HandlerKind::Try)
                work.push_back(h);
        }
        return way;
    }

    // Whether a path from `from` reaches `to` through blocks after `floor` (and their handlers).
    bool reaches_above(int from, int to, int floor) const {
        if (from < 0 || to < 0 || to <= floor) return false;
        // (Stopping at `to`; and past it, where no edge back down lands between `floor` and `to`,
        // no path comes back to it.)
        bool past_to = lowest_back_edge_target_above(floor) <= to;
        std::vector<bool> seen(size_t(cfg_.size()), false);
        std::vector<int> work{from};
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k == to) return true;
            if (k <= floor || seen[size_t(k)] || (k > to && !past_to)) continue;
            seen[size_t(k)] = true;
            for (int s : cfg_.block(k).succs) work.push_back(s);
            if (int h = cfg_.block(k).handler; h >= 0) work.push_back(h);
        }
        return false;
    }

    // The lowest block reachable from both `a` and `b` by normal flow, walking only blocks after
    // `floor` (so not around an enclosing loop); -1 when none.
    // (With `through_handlers`, also through the handlers of try statements inside the sides; the
    // handler covering `floor` itself is no way for the sides to meet, nor, where that is the
    // unbinding of an except clause's name (3.11+), the clause's clean-up around it.)
    int first_common_block(int a, int b, int floor, bool through_handlers = false) const {
        if (a < 0 || b < 0) return -1;
        int own_handler = cfg_.block(floor).handler;
        int clause_cleanup = through_handlers && own_handler >= 0 && unbinds_name(own_handler) ? cfg_.block(own_handler).handler : -1;
        auto for_each_next = [&](int k, auto&& visit) {
            for (int s : cfg_.block(k).succs) visit(s);
            if (int h = cfg_.block(k).handler; through_handlers && h >= 0 && h != own_handler && h != clause_cleanup) visit(h);
        };
        // Blocks reached from `a` get bit 1, from `b` bit 2.
        std::vector<uint8_t> reached(size_t(cfg_.size()), 0);
        const int lowest_back = lowest_back_edge_target_above(floor);
        std::vector<int> work;
        // First the blocks of one side where they are few (a side that returns, raises, breaks or
        // re-raises soon): then the other side's walk looks for them only.
        constexpr size_t kFewBlocks = 32;
        std::vector<int>& few = common_block_scratch_;  // (a member: no allocation a call)
        auto walk_few = [&](int from, uint8_t bit) {
            few.clear();
            work.assign(1, from);
            while (!work.empty()) {
                int k = work.back();
                work.pop_back();
                if (k <= floor || (reached[size_t(k)] & bit)) continue;
                if (few.size() == kFewBlocks) {
                    for (int f : few) reached[size_t(f)] &= uint8_t(~bit);
                    return false;
                }
                reached[size_t(k)] |= bit;
                few.push_back(k);
                for_each_next(k, [&](int s) { work.push_back(s); });
            }
            return true;
        };
        // The lowest of the few blocks that the other side's walk from `from` reaches. The walk
        // can only meet them by an edge into them from a block after `floor` outside them: where
        // there is none (a side that raises: an assert), the sides meet nowhere, and the walk over
        // the rest of the function is saved. Past the highest of them, only an edge back down (a
        // loop's) landing at or below it leads back; and once the walk reaches the lowest, that is
        // the answer.
        auto meet_few = [&](int from, uint8_t few_bit, uint8_t bit) {
            if (!through_handlers && !(reached[size_t(from)] & few_bit) &&
                std::none_of(few.begin(), few.end(), [&](int k) {
                    const auto& preds = cfg_.block(k).preds;
                    return std::any_of(preds.begin(), preds.end(), [&](int p) { return p > floor && !(reached[size_t(p)] & few_bit); });
                }))
                return -1;
            auto [low, high] = std::minmax_element(few.begin(), few.end());
            int lowest = *low, highest = *high;
            bool past_highest = lowest_back <= highest;
            work.assign(1, from);
            while (!work.empty()) {
                int k = work.back();
                work.pop_back();
                if (k <= floor || (reached[size_t(k)] & bit) || (k > highest && !past_highest)) continue;
                reached[size_t(k)] |= bit;
                if (k == lowest) return k;
                for_each_next(k, [&](int s) { work.push_back(s); });
            }
            int common = -1;
            for (int k : few)
                if (reached[size_t(k)] == 3 && (common < 0 || k < common)) common = k;
            return common;
        };
        if (walk_few(a, 1)) return meet_few(b, 1, 2);
        if (walk_few(b, 2)) return meet_few(a, 2, 1);
        // Else both sides, lowest block first: the first block both reach is the answer, up to the
        // lowest block an edge back down (a loop's) lands on, below which no block is reached
        // later; past it, a plain walk of the rest. (A walk of everything from each side cost a
        // pass over the rest of the function for every if statement.)
        using Visit = std::pair<int, uint8_t>;
        std::priority_queue<Visit, std::vector<Visit>, std::greater<Visit>> next;
        next.push({b, 2});
        next.push({a, 1});
        std::vector<Visit> rest;  // (past the lowest edge back down, in no order)
        while (!next.empty()) {
            Visit v = next.top();
            next.pop();
            auto [k, bit] = v;
            if (k <= floor || (reached[size_t(k)] & bit)) continue;
            if (k > lowest_back) {
                rest.push_back(v);
                continue;
            }
            reached[size_t(k)] |= bit;
            if (reached[size_t(k)] == 3) return k;
            for_each_next(k, [&](int s) { next.push({s, bit}); });
        }
        while (!rest.empty()) {
            auto [k, bit] = rest.back();
            rest.pop_back();
            if (k <= floor || (reached[size_t(k)] & bit)) continue;
            reached[size_t(k)] |= bit;
            for_each_next(k, [&](int s) { rest.push_back({s, bit}); });
        }
        for (int k = floor + 1; k < cfg_.size(); ++k)
            if (reached[size_t(k)] == 3) return k;
        return -1;
    }

    // The lowest block after `floor` that an edge back down lands on (INT_MAX: none). Below it, a
    // walk that only goes up from `floor` reaches no block later than in increasing order, and past
    // a block below it no path comes back to that block.
    int lowest_back_edge_target_above(int floor) const {
        const std::vector<int>& back = back_edge_targets();
        auto first = std::upper_bound(back.begin(), back.end(), floor);
        return first == back.end() ? std::numeric_limits<int>::max() : *first;
    }

    // The blocks that an edge from a block at or after them lands on (loop headers, handlers laid
    // out before the code they cover), in increasing order: only such an edge leads back down.
    const std::vector<int>& back_edge_targets() const {
        if (!back_edge_targets_) {
            back_edge_targets_.emplace();
            for (int k = 0; k < cfg_.size(); ++k) {
                for (int s : cfg_.block(k).succs)
                    if (s <= k) back_edge_targets_->push_back(s);
                if (int h = cfg_.block(k).handler; h >= 0 && h <= k) back_edge_targets_->push_back(h);
            }
            std::sort(back_edge_targets_->begin(), back_edge_targets_->end());
            back_edge_targets_->erase(std::unique(back_edge_targets_->begin(), back_edge_targets_->end()), back_edge_targets_->end());
        }
        return *back_edge_targets_;
    }

    int emit_if(int b, const NeutralOp& jump, Body& out, Loop* loop, std::vector<ExprPtr>& stack, size_t base, int stop) {
        Condition read = read_condition(b, jump, stack);
        Condition c = reduce_condition(read, stack, loop ? loop->bottom : -1);
        take_condition(c);
        // (A test whose jump sits in a block of its own (see is_lone_jump_after) starts before it.)
        int first = b > 0 && is_lone_jump_after(b - 1) ? b - 1 : b;
        if (int w = try_rotated_while(first, c, out, loop, stack, base); w != -2) return w;
        int merge = merge_point(c, loop, stop);
        // (Sides that meet nowhere, one of them the compiler's copy of the loop's exit that ends
        // the function, a `break`: they meet where they would if it went to the exit.)
        if (merge < 0) {
            Condition sides = c;
            if (!break_copy_blocks(c.then_block, loop).empty()) sides.then_block = loop->exit;
            if (!break_copy_blocks(c.else_block, loop).empty()) sides.else_block = loop->exit;
            if (sides.then_block != c.then_block || sides.else_block != c.else_block) merge = merge_point(sides, loop, stop);
        }
        // In a loop body, sides meet at the end of the enclosing region at the latest where one of
        // them goes on to it: past it (a with body's end, the next iteration, which a side that
        // leaves by `break` or `continue` takes the post-dominator to), that side would hold the
        // code after the region.
        // (Not where the region ends at a bare jump back to the header: that is the next iteration.)
        if (loop && stop > c.last_block && merge != stop && (merge > stop || merge == next_iteration(loop)) &&
            loop->blocks.count(stop) && !is_bare_back_jump(stop, loop->header) && !past_return_exit(merge, stop) &&
            (reachable_above(c.then_block, c.last_block)[size_t(stop)] || reachable_above(c.else_block, c.last_block)[size_t(stop)]))
            merge = stop;
        // 3.12+ jump from a while loop's body straight to where its exit jumps back, for `break`: that
        // side is `if not test: break`, the code after it the other side.
        bool else_breaks = c.else_block != merge && breaks_through_bare_exit(loop, c.else_block) && c.then_block > c.last_block;
        if (else_breaks) merge = c.then_block;
        std::vector<ExprPtr> then_stack = stack_copy(stack), else_stack = stack_copy(stack);
        Body then_body, else_body;
        // (A then-side that is where the sides meet is an empty body: `if a < b < c: pass`, whose
        // chain's jump over its clean-up goes to the code after the if.)
        bool then_flows = c.then_block == merge && merge >= 0 ? true : emit_region(c.then_block, merge, then_body, loop, then_stack, base);
        std::vector<bool> before_else = emitted_;
        // In a while loop with its test repeated at the bottom, a jump to the test on top is `continue`;
        // so is one to the header of any loop where the sides meet elsewhere (3.8/3.9 jump there
        // for `else: continue`, past the dead jump the statement left).
        bool else_continues = loop && c.else_block == loop->header && (loop->body_start >= 0 || merge != loop->header) && !else_breaks;
        if (else_continues) else_body.push_back(make_stmt(StmtKind::Continue));
        if (else_breaks) {
            ++loop->breaks;
            else_body.push_back(make_stmt(StmtKind::Break));
        }
        bool else_flows = else_continues || else_breaks ? false
                          : c.else_block == merge ? true
                                                  : emit_region(c.else_block, merge, else_body, loop, else_stack, base);
        if (else_breaks && then_body.empty() && test_placeable(negate_folding(c.test), none_tests_)) {
            auto s = make_stmt(StmtKind::If);
            s->test = negate_folding(c.test);
            s->body = else_body;
            emit_stmt(out, s);
            return merge;
        }
        // `if test: continue` (the then-side going straight on to the next iteration) followed by
        // the rest of the loop body, which only this test reaches, where `test` cannot be printed
        // so (`not a is b`, which the optimizer folds into `a is not b`): `if not test:` around the
        // rest, which is the same code.
        if (loop && !is_except_clause_test(c.test) && !test_placeable(c.test, none_tests_) &&
            test_placeable(negate_folding(c.test), none_tests_)) {
            bool then_continues = (then_flows && then_body.empty() && merge == next_iteration(loop)) ||
                                  (!then_flows && then_body.size() == 1 && then_body[0]->kind == StmtKind::Continue);
            Body rest;
            bool rest_flows = else_flows;
            int next = next_iteration(loop);
            if (then_continues && else_flows && else_body.empty() && merge >= 0 && merge != loop->header && merge != next &&
                cfg_.block(merge).preds.size() == 1 && cfg_.block(merge).preds[0] == c.last_block && !seen_emitted(merge)) {
                rest_flows = emit_region(merge, next, rest, loop, else_stack, base);
                if (rest_flows && else_stack.size() != stack.size()) unsupported("branches that leave different stacks");
            } else if (then_continues && !else_flows && !else_body.empty()) {
                rest = else_body;
            } else {
                then_continues = false;
            }
            if (then_continues) {
                auto s = make_stmt(StmtKind::If);
                s->test = negate_folding(c.test);
                s->body = rest;
                emit_stmt(out, s);
                return next;
            }
        }
        // One side going back to the test of a loop that had no natural end: that side's `continue`.
        if (loop && loop->continues_explicit && merge == loop->header && then_flows != else_flows) {
            bool& flows = then_flows ? then_flows : else_flows;
            Body& side = then_flows ? then_body : else_body;
            if ((then_flows ? then_stack : else_stack).size() == stack.size()) {
                side.push_back(make_stmt(StmtKind::Continue));
                flows = false;
            }
        }
        ElseTrace trace = else_jump_trace(c);
        // (A then-side that ends by a jump of its own, with no dead jump over an else arm after it
        // (3.8/3.9): the else side is the code after the if, even where it goes on, `with cm: if t:
        // continue` then more. Not a jump reached only through a handler: that is a with
        // statement's way on after its __exit__ suppressed an exception, past the else arm.)
        bool ends_by_own_jump = trace == ElseTrace::NoElse && ops_[cfg_.block(c.else_block - 1).last - 1].kind == N::Jump &&
                                reachable_above(c.then_block, c.then_block - 1)[size_t(c.else_block - 1)];
        bool keep_else = then_flows || (else_flows && !ends_by_own_jump) || is_except_clause_test(c.test) || !dead_code_kept_ ||
                         trace == ElseTrace::Else ||
                         (trace == ElseTrace::Unknown && else_ends_before_dead_code(before_else));
        // A value left on the stack by both sides is a conditional expression.
        if (then_flows && else_flows && then_stack.size() == stack.size() + 1 && else_stack.size() == stack.size() + 1 &&
            then_body.empty() && else_body.empty()) {
            auto e = make_expr(ExprKind::IfExp);
            e->test = c.test;
            e->body = lambda_or(then_stack.back());  // (`f if callable(f) else (lambda x: x)`)
            e->orelse = lambda_or(else_stack.back());
            stack.push_back(e);
            return merge;
        }
        // A side that leaves the try body it ends with its value on the stack returns that value
        // (3.8/3.9: POP_BLOCK, then RETURN_VALUE outside the body); the other side ends.
        if (then_flows != else_flows && !protected_bodies_.empty() && merge == protected_bodies_.back().exit &&
            (then_flows ? then_stack : else_stack).size() == stack.size() + 1) {
            if (then_flows) then_flows = return_from_body(merge, then_body, loop, then_stack, base);
            else else_flows = return_from_body(merge, else_body, loop, else_stack, base);
        }
        if (then_flows && else_flows && then_stack.size() != else_stack.size())
            unsupported("branches that leave different stacks");
        // Both sides may drop the same values, but only the markers an except clause drops.
        if (then_flows || else_flows) {
            const std::vector<ExprPtr>& after = then_flows ? then_stack : else_stack;
            if (after.size() > stack.size()) unsupported("branches that leave values on the stack");
            // A branch that goes on to the next iteration has left the with statements it was in.
            bool to_next_iteration = merge == next_iteration(loop);
            for (size_t k = after.size(); k < stack.size(); ++k)
                if (!exception_.is(stack[k]) && !previous_exception_.is(stack[k]) && !(to_next_iteration && with_exits_.count(stack[k].get())))
                    unsupported("branches that leave different stacks");
            stack.resize(after.size());
        }
        if (StmtPtr a = as_assert(c.test, then_body, {})) {
            emit_stmt(out, a);
            for (const auto& st : else_body) emit_stmt(out, st);
            return else_flows ? merge : kFlowEnded;
        }
        // (An assert that ends a loop body, 3.12+: its test jumps to the raise when false, and the
        // true side is the jump back to the next iteration, read as `continue`, or, on 3.12, the
        // raise after that jump back is where the sides meet, which only the test reaches. Only
        // where the region ends at the next iteration: the assert falls out to it.)
        const bool then_next = (then_flows && then_body.empty() && merge == next_iteration(loop)) ||
                               (!then_flows && then_body.size() == 1 && then_body[0]->kind == StmtKind::Continue);
        const bool region_ends_iteration = loop && stop >= 0 && (stop == next_iteration(loop) || stop == loop->header);
        if (region_ends_iteration && then_next && !else_flows)
            if (StmtPtr a = as_assert(negate(c.test), else_body, {})) {
                emit_stmt(out, a);
                return stop;
            }
        if (region_ends_iteration && then_next && !then_flows && else_flows && else_body.empty() && merge >= 0 &&
            merge == c.else_block && cfg_.block(merge).preds.size() == 1 && !emitted_[merge] &&
            ops_[cfg_.block(merge).first].kind == N::LoadAssertionError) {
            Body raised;
            if (emit_region(merge, -1, raised, loop, else_stack, base)) unsupported("an assertion's raise that goes on");
            if (StmtPtr a = as_assert(negate(c.test), raised, {})) {
                emit_stmt(out, a);
                return stop;
            }
            auto s = make_stmt(StmtKind::If);
            s->test = c.test;
            s->body = then_body;
            emit_stmt(out, s);
            for (const StmtPtr& st : raised) emit_stmt(out, st);
            return kFlowEnded;
        }
        // `if not test: continue` followed by the rest of the loop body, laid out the other way round.
        // (Where the then-side goes on to code of the body after the if, the source had `else: continue`;
        // and not where that jump back is the compiler's, threaded from the end of `if test:` around
        // the rest of the body, which goes on to the next iteration.)
        bool threaded_else = is_threaded_back_jump(c.else_block, b, c.then_block, loop);
        if (loop && then_flows && !else_flows && else_body.size() == 1 && else_body[0]->kind == StmtKind::Continue &&
            !then_body.empty() &&
            (merge < 0 || merge == next_iteration(loop) || (!loop->blocks.count(merge) && !in_clause_after_loop(c.last_block, merge, *loop))) &&
            (merge != next_iteration(loop) || !threaded_else)) {
            auto s = make_stmt(StmtKind::If);
            s->test = negate(c.test);
            s->body = else_body;
            emit_stmt(out, s);
            for (const auto& st : then_body) emit_stmt(out, st);
            return merge;
        }
        // `if test: continue` followed by the rest of the loop body, which goes on to the next
        // iteration, where the jump back is the compiler's: `if not test:` around the rest.
        if (loop && merge == next_iteration(loop) && then_flows && then_body.empty() && else_flows &&
            !else_body.empty() && !is_except_clause_test(c.test) && test_placeable(negate_folding(c.test), none_tests_) &&
            is_threaded_back_jump(c.then_block, b, c.else_block, loop)) {
            auto s = make_stmt(StmtKind::If);
            s->test = negate_folding(c.test);
            s->body = else_body;
            emit_stmt(out, s);
            return merge;
        }
        // `if test: continue` followed by the rest of the loop body.
        if (loop && merge == next_iteration(loop) && then_flows && then_body.empty() && !else_body.empty() &&
            !is_except_clause_test(c.test)) {
            auto s = make_stmt(StmtKind::If);
            s->test = c.test;
            s->body = {make_stmt(StmtKind::Continue)};
            emit_stmt(out, s);
            for (const auto& st : else_body) emit_stmt(out, st);
            return else_flows ? merge : kFlowEnded;
        }
        auto s = make_stmt(StmtKind::If);
        s->test = c.test;
        s->body = then_body.empty() ? Body{make_stmt(StmtKind::Pass)} : then_body;
        if (keep_else) s->orelse = else_body;
        emit_stmt(out, s);
        if (!keep_else)
            for (const auto& st : else_body) emit_stmt(out, st);
        if (!then_flows && !else_flows) return kFlowEnded;
        if (merge == next_iteration(loop)) return merge;
        return merge < 0 ? kFlowEnded : merge;
    }

    // When neither side of an `if` goes on, `else:` and a flat `if` compile to the same code except
    // that the compiler still lays out the (dead) code after an `else:` arm, where it keeps dead
    // code (before 3.10): an implicit `return None` or the jump out of the enclosing statement.
    // Dead code right after the else side is that trace; without it the source had no `else:`.
    bool else_ends_before_dead_code(const std::vector<bool>& emitted_before) const {
        int last = -1;
        for (int b = 0; b < cfg_.size(); ++b)
            if (emitted_[b] && !emitted_before[b]) last = b;
        return last >= 0 && last + 1 < cfg_.size() && !reachable_at_all(last + 1);
    }

    // `if not test: raise AssertionError(msg)` built from LOAD_ASSERTION_ERROR is an assert. Where
    // an assert loads the global AssertionError (3.8) the `if` is the same code, except when its
    // test keeps a `not` on a comparison the optimizer folds, or is a constant (`if not False:` is
    // folded to `if True:`, with no test): only an assert compiles to that.
    StmtPtr as_assert(const ExprPtr& test, const Body& then_body, const Body& else_body) {
        ExprPtr asserted = negate(test);
        StmtPtr a;
        // (`if not test: assert False, msg` is the same code as `assert test, msg`; 3.10 and 3.11
        // keep the dropped False in co_consts, where the source had an `assert test`, mostly.)
        if (else_body.empty() && then_body.size() == 1 && then_body[0]->kind == StmtKind::Assert &&
            is_const_kind(then_body[0]->test, PyValue::Kind::False)) {
            a = make_stmt(StmtKind::Assert);
            a->test = asserted;
            a->msg = then_body[0]->msg;
        } else {
            if (!else_body.empty() || then_body.size() != 1 || then_body[0]->kind != StmtKind::Raise) return nullptr;
            bool global_is_assert = asserted->kind == ExprKind::Constant || !test_placeable(test, none_tests_);
            a = assertion_raise(*then_body[0], global_is_assert, asserted);
            if (!a) return nullptr;
        }
        if (!test_placeable(asserted, none_tests_))
            if (StmtPtr guarded = guarded_assert(asserted, *a)) return guarded;
        return a;
    }

    // `if a: assert b` (b an `in`/`is` comparison) is one test `a and not b` in the jumps, which
    // neither `assert not (a and not b)` nor `assert not a or b` compiles back to: the optimizer
    // folds the `not` on the comparison into `not in`/`is not`. Split the assert's `or` (or
    // `not (... and ...)`) where the first operands, negated, are an `if` test and the rest an
    // assert that place their `not`s on no such comparison: the same jumps. Null where no split does.
    StmtPtr guarded_assert(const ExprPtr& asserted, const Stmt& assertion) {
        std::vector<ExprPtr> alternatives;
        if (asserted->kind == ExprKind::BoolOp && asserted->id == "or") {
            alternatives = asserted->elts;
        } else if (asserted->kind == ExprKind::UnaryOp && asserted->id == "not" &&
                   asserted->value->kind == ExprKind::BoolOp && asserted->value->id == "and") {
            for (const ExprPtr& x : asserted->value->elts) alternatives.push_back(negate(x));
        } else {
            return nullptr;
        }
        auto either = [&](size_t from, size_t to) {  // alternatives [from, to) joined by `or`
            if (to - from == 1) return alternatives[from];
            auto e = make_expr(ExprKind::BoolOp);
            e->id = "or";
            e->elts.assign(alternatives.begin() + ptrdiff_t(from), alternatives.begin() + ptrdiff_t(to));
            return e;
        };
        for (size_t k = 1; k < alternatives.size(); ++k) {
            ExprPtr guard = negate(either(0, k)), rest = either(k, alternatives.size());
            if (!test_placeable(guard, none_tests_) || !test_placeable(rest, none_tests_)) continue;
            auto a = make_stmt(StmtKind::Assert);
            a->test = rest;
            a->msg = assertion.msg;
            auto s = make_stmt(StmtKind::If);
            s->test = guard;
            s->body = {a};
            return s;
        }
        return nullptr;
    }

    // `raise AssertionError` / `raise AssertionError(msg)` as `assert test, msg` when the
    // AssertionError is LOAD_ASSERTION_ERROR's (or, with `global_is_assert`, 3.8's global one).
    StmtPtr assertion_raise(const Stmt& raise, bool global_is_assert, const ExprPtr& test) const {
        if (raise.kind != StmtKind::Raise || raise.cause) return nullptr;
        const ExprPtr& exc = raise.value;
        auto is_assertion_error = [&](const ExprPtr& e) {
            return assertion_error_.is(e) || (global_is_assert && global_assertion_errors_.count(e.get()));
        };
        ExprPtr msg;
        if (exc && is_assertion_error(exc)) {
        } else if (exc && exc->kind == ExprKind::Call && is_assertion_error(exc->value) && exc->elts.size() == 1 &&
                   exc->keywords.empty()) {
            msg = exc->elts[0];
        } else {
            return nullptr;
        }
        auto a = make_stmt(StmtKind::Assert);
        a->test = test;
        a->msg = msg;
        return a;
    }

    // Where the body of `loop` ends and the next iteration begins (-4 outside a loop).
    static int next_iteration(const Loop* loop) { return !loop ? -4 : loop->bottom >= 0 ? loop->bottom : loop->header; }

    static int loop_header_of(const Loop* loop) { return next_iteration(loop); }

    // Whether `block` ends an iteration of `loop`: its next iteration, its header, or where its
    // `break` goes (false outside a loop).
    static bool ends_iteration(const Loop* loop, int block) {
        return loop && block >= 0 && (block == next_iteration(loop) || block == loop->header || block == loop->break_to);
    }

    // Where the paths from `block` meet (a match statement's cases): its post-dominator, inside a
    // loop the next iteration when that is outside the loop, inside a try/with body the body's
    // end, and the end of the enclosing region when every path ends.
    int block_merge_point(int block, Loop* loop, int stop) const {
        int m = cfg_.ipdom(block);
        if (!protected_bodies_.empty()) {
            const ProtectedBody& p = protected_bodies_.back();
            if (p.loop == loop && p.exit >= 0 && !ends_without_going_on(p.exit) && m >= 0 && !in_body(m, p.handler, p.uncovered))
                return p.exit;
        }
        if (loop && m >= 0 && !loop->blocks.count(m)) return next_iteration(loop);
        if (m < 0 && stop > block) return stop;
        return m;
    }

    // `while c: body` compiled with the test repeated at the bottom: if c: do { body } while (c).
    // A block holding only a jump back to `header` (NOPs aside).
    // Whether `block`, one side of a condition starting in block `test` whose other side is `other`,
    // is a bare jump back to the header of `loop` that the compiler made itself when it threaded the
    // condition's jump to the loop's jump back (3.12+: `if t:` around the rest of the body) rather
    // than a `continue`: the jump it adds is covered by no exception handler, where the code around
    // it is (the same handler before and after; 3.13 leave the inverted conditional jump uncovered
    // too, in a block of its own).
    // (A comprehension's conditions keep their guard form: see add_comprehension_if.)
    bool is_threaded_back_jump(int block, int test, int other, const Loop* loop) const {
        if (!loop || loop->comprehension || block < 0 || test < 0 || other < 0 || !is_bare_back_jump(block, loop->header))
            return false;
        const Block& tb = cfg_.block(test);
        if (tb.handler < 0 && tb.last == tb.first + 1 && tb.preds.size() == 1 && tb.preds[0] == test - 1) --test;
        int h = cfg_.block(test).handler;
        return h >= 0 && cfg_.block(other).handler == h && cfg_.block(block).handler < 0;
    }

    bool is_bare_back_jump(int block, int header) const {
        const Block& blk = cfg_.block(block);
        for (size_t i = blk.first; i < blk.last; ++i) {
            const NeutralOp& op = ops_[i];
            if (op.kind == N::Nop) continue;
            if (op.kind != N::Jump || i + 1 != blk.last || cfg_.block_at_offset(op.target) != header) return false;
        }
        return blk.last > blk.first;
    }

    // `while test: body` as 3.10+ compile it: the test on top jumps past the loop or falls into the
    // body, and a copy of the test at the bottom jumps back to the body (3.10/3.11), or jumps out and
    // falls into a bare jump back (3.12+). `continue` jumps to the test on top.
    struct RotatedWhile {
        int header, body_start, bottom_first, latch, exit;
        bool bottom_is_pure;  // the repeated test starts a block of its own
        std::vector<int> exit_copy;  // the compiler's copy of a short exit (a `return`) after the bottom test
    };

    std::optional<RotatedWhile> match_rotated_while(int header, const Condition& c, const std::vector<ExprPtr>& stack) {
        int body = c.then_block, exit = c.else_block;
        if (body <= c.last_block || exit < 0 || !c.first_value || !is_back_edge_target(body)) return std::nullopt;
        int latch = latch_of(body);
        const NeutralOp& last = ops_[cfg_.block(latch).last - 1];
        int test_end, body_from_bottom, exit_alias = -1, exit_jump = -1;
        std::vector<int> exit_copy;
        // (The repeated test may fall into a jump to the exit over code laid out after the loop: a
        // comparison chain's clean-up, the next case of a match, 3.10/3.11.)
        bool over_jump = jumps_over_to(latch + 1, exit);
        if (last.kind == N::JumpIf && cfg_.block_at_offset(last.target) == body &&
            (latch + 1 == exit || over_jump || copies_exit(latch + 1, exit, exit_copy))) {
            if (over_jump) exit_copy.push_back(latch + 1);
            test_end = latch;
            body_from_bottom = body;
        } else if (is_bare_back_jump(latch, body) && latch - 1 >= body) {
            test_end = latch - 1;
            body_from_bottom = latch;
            const NeutralOp& out = ops_[cfg_.block(test_end).last - 1];
            int out_to = out.kind == N::JumpIf ? cfg_.block_at_offset(out.target) : -1;
            // (3.12+ thread the test on top through the bare jump back of an enclosing loop that
            // ends its body after this loop: the loop ends there, where the repeated test goes.)
            if (out_to > latch && exit >= 0 && exit < header && is_bare_back_jump(out_to, exit)) {
                exit_alias = exit;
                exit = out_to;
            }
            if (out_to != exit && !copies_exit(out_to, exit, exit_copy)) {
                // (3.12+ lay out the end of a body that an except clause goes on to after the
                // handler, where the repeated test leaves through a bare jump back to the exit; 3.13
                // threads it past the exit's own jump, where the exit is a lone jump too: a while
                // loop ending an if's body before its `else:`.)
                if (out_to <= latch || cfg_.block(out_to).preds.size() != 1) return std::nullopt;
                if (!is_bare_back_jump(out_to, exit) && !(is_lone_jump(out_to) && through_jumps(out_to) == through_jumps(exit)))
                    return std::nullopt;
                exit_jump = out_to;
                exit_copy.push_back(out_to);
            }
        } else {
            return std::nullopt;
        }
        // The tests of the condition on top, first to last (a test's jump in a block of its own,
        // 3.12+ outside the exception table's range, is part of it: see same_test_block).
        std::vector<int> top_blocks;
        for (int k = header; k <= c.last_block; ++k)
            if (k == header || !is_lone_jump_after(k - 1)) top_blocks.push_back(k);
        int n = int(top_blocks.size()) - 1;  // condition blocks after the first
        // The repeated test's blocks, first to last: 3.12+ put a bare jump back to the body after a
        // test that goes there when true, between the test's blocks.
        std::vector<int> bottom_blocks;
        for (int k = test_end; k >= body && int(bottom_blocks.size()) <= n; --k)
            if (k == test_end || !(is_bare_back_jump(k, body) || is_lone_jump_after(k - 1))) bottom_blocks.insert(bottom_blocks.begin(), k);
        if (int(bottom_blocks.size()) != n + 1) return std::nullopt;
        int bottom = bottom_blocks.front();
        if (bottom < body) return std::nullopt;
        // Where the loop ends may be the compiler's copies of a short exit (a `return`), one for
        // each jump out of each test.
        std::set<int> copies;
        // (A comparison chain's clean-up, a POP_TOP then the way out, is a role of its own; the
        // chain's jump over it on top is the way into the body.)
        std::vector<int> cleanups;
        auto top_role = [&](int block) {
            if (block == exit || block == exit_alias || copied_exit_of(block, exit)) return -1;
            if (block == body || (block > c.last_block && block < body && through_jumps(block) == body)) return -2;
            std::vector<int> scratch;
            if (block > header && block < body && starts_with_pop(block) && cleanup_goes_to(block, exit, scratch)) return -4;
            if (auto at = std::find(top_blocks.begin(), top_blocks.end(), block); at != top_blocks.end()) return int(at - top_blocks.begin());
            return -3;
        };
        auto bottom_role = [&](int block) {
            if (block == exit || block == exit_jump || block == exit_alias || (block == latch + 1 && over_jump)) return -1;
            // (The copy of the exit that the repeated test goes to: a bare jump back to it is not
            // covered by a handler around the function, a generator's, that covers the exit.)
            if (!exit_copy.empty() && block == exit_copy.front()) return -1;
            if (copied_exit_of(block, exit)) {
                copies.insert(block);
                return -1;
            }
            if (block == body_from_bottom || (block > bottom && block <= latch && is_bare_back_jump(block, body))) return -2;
            // (Reached from the repeated test's links only: each but the last jumps there. It is
            // laid out after the loop, or, when a later test of an `and` follows the chain (3.11+),
            // between the repeated test's blocks.)
            std::span<const int> preds = cfg_.block(block).preds;
            bool from_test = std::all_of(preds.begin(), preds.end(), [&](int p) {
                return std::find(bottom_blocks.begin(), bottom_blocks.end(), p) != bottom_blocks.end();
            });
            if ((block > latch || (block > bottom && block < latch)) && starts_with_pop(block) && from_test) {
                std::vector<int> blocks;
                if (cleanup_goes_to(block, exit, blocks)) {
                    cleanups.insert(cleanups.end(), blocks.begin(), blocks.end());
                    return -4;
                }
            }
            auto at = std::find(bottom_blocks.begin(), bottom_blocks.end(), block);
            return at == bottom_blocks.end() ? -3 : int(at - bottom_blocks.begin());
        };
        for (int k = 0; k <= n; ++k) {
            // (Both copies of a comparison chain's clean-up, where the chain is followed by another
            // test of an `and`: each is the way out, 3.12+ with a copy of the exit in it.)
            if (k > 0 && top_role(top_blocks[size_t(k)]) == -4 && bottom_role(bottom_blocks[size_t(k)]) == -4) continue;
            if (!same_test_block(top_blocks[size_t(k)], bottom_blocks[size_t(k)], k > 0, top_role, bottom_role)) return std::nullopt;
        }
        for (int k : copies) {
            if (std::find(exit_copy.begin(), exit_copy.end(), k) != exit_copy.end()) continue;
            std::vector<int> blocks;  // (reached only from the repeated test)
            if (!copies_exit(k, exit, blocks)) return std::nullopt;
            exit_copy.insert(exit_copy.end(), blocks.begin(), blocks.end());
        }
        // (A clean-up between the repeated test's blocks is one of them already.)
        for (int k : cleanups)
            if (k > latch && std::find(exit_copy.begin(), exit_copy.end(), k) == exit_copy.end()) exit_copy.push_back(k);
        // The first block of the repeated test: on its own when it simulates to just the same value.
        bool pure = false, only_test = false;
        {
            std::vector<ExprPtr> probe = stack_copy(stack);
            Body scratch;
            try {
                const NeutralOp* term = simulate(bottom, probe, scratch);
                // (A comparison chain's first link leaves the shared operand below its value.)
                bool chain = probe.size() == stack.size() + 2 && chain_shared_.count(probe[probe.size() - 2].get());
                only_test = term && term->kind == N::JumpIf && scratch.empty() && (probe.size() == stack.size() + 1 || chain);
                pure = only_test && ast::print_expression(*probe.back()) == ast::print_expression(*c.first_value);
            } catch (const Error&) {
            }
        }
        // (A body that starts with another test is `if c: while t:` laid out without the repeated test.)
        if (only_test && !pure && bottom == body) return std::nullopt;
        return RotatedWhile{header, body, bottom, latch, exit, pure, exit_copy};
    }

    // `block` is a lone jump to where `exit` goes, reached only from the block before it.
    bool jumps_over_to(int block, int exit) const {
        return block >= 0 && block < cfg_.size() && is_lone_jump(block) && through_jumps(block) == through_jumps(exit) &&
               cfg_.block(block).preds.size() == 1 && cfg_.block(block).preds[0] == block - 1;
    }

    // `block` is the compiler's copy of the short exit block `exit` that ends the function (3.10+).
    bool copied_exit_of(int block, int exit) const {
        if (!exits_copied_ || block < 0 || exit < 0 || block == exit || cfg_.block(block).handler != cfg_.block(exit).handler) return false;
        // (Either may be the line-less original: a top test's exit copies it, a bottom test's jumps to it.)
        std::vector<const NeutralOp*> a = straight_ops(block), b = straight_ops(exit);
        return same_copied_ops(a, b, 0) || same_copied_ops(b, a, 0);
    }

    // `copy` is the compiler's copy of `exit`, code that ends the function (3.10+), in blocks nothing
    // else enters, op for op under the same handlers as the original's. (The POP_BLOCKs that 3.10
    // puts first have the lines of the blocks they leave.)
    // (`break_lines`: `copy` is written in place of a `break`'s jump, see same_break_copy_ops.)
    bool is_copy_of_exit(int copy, int exit, bool break_lines = false) const {
        if (!exits_copied_ || copy == exit || !ends_without_going_on(exit)) return false;
        std::vector<int> copy_path, exit_path;
        std::vector<const NeutralOp*> a = straight_ops(copy, &copy_path), b = straight_ops(exit, &exit_path);
        auto past_pops = [](std::vector<const NeutralOp*>& ops) {
            ops.erase(ops.begin(), std::find_if(ops.begin(), ops.end(), [](const NeutralOp* op) { return op->kind != N::PopBlock; }));
        };
        past_pops(a);
        past_pops(b);
        if (break_lines ? !same_break_copy_ops(a, b) : !same_copied_ops(a, b, 0) && !same_copied_ops(b, a, 0)) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i]->handler != b[i]->handler) return false;
        for (size_t i = 1; i < copy_path.size(); ++i)
            if (cfg_.block(copy_path[i]).preds.size() != 1) return false;
        return true;
    }

    // `copy` (reached only from the loop's bottom) repeats the short exit block `exit` that ends the
    // function; its blocks go to `blocks`.
    bool copies_exit(int copy, int exit, std::vector<int>& blocks) const {
        if (copy < 0 || copy == exit || cfg_.block(copy).preds.size() != 1) return false;
        if (!same_ops(straight_ops(copy), straight_ops(exit))) return false;
        // (A jump to `exit` itself (3.11) is the way out, not a copy: `exit` is not one of its blocks.
        // Nor is where a bare jump `exit` goes: 3.11 threads the repeated test's way out through it.)
        int dest = through_jumps(exit);
        for (int k = copy; k >= 0 && k != exit && (k == copy || k != dest); k = cfg_.block(k).succs.size() == 1 ? cfg_.block(k).succs[0] : -1) {
            blocks.push_back(k);
            if (cfg_.block(k).succs.empty() || blocks.size() > 64) break;
        }
        return true;
    }

    // Two blocks of a condition compute the same and, by value, go to the same places (`role` names
    // a block by its place in its own copy of the condition).
    template <class RoleA, class RoleB>
    bool same_test_block(int a, int b, bool whole, RoleA role_a, RoleB role_b) const {
        const Block& ba = cfg_.block(a);
        const Block& bb = cfg_.block(b);
        if (ba.handler != bb.handler) return false;
        auto ops_of = [&](const Block& blk) {
            std::vector<const NeutralOp*> v;
            for (size_t i = blk.first; i < blk.last; ++i)
                if (ops_[i].kind != N::Nop) v.push_back(&ops_[i]);
            return v;
        };
        std::vector<const NeutralOp*> oa = ops_of(ba), ob = ops_of(bb);
        // (A test whose jump sits in a block of its own (see is_lone_jump_after) ends there.)
        int end_a = a, end_b = b;
        for (auto [k, ops] : {std::pair{&end_a, &oa}, std::pair{&end_b, &ob}})
            if (is_lone_jump_after(*k)) {
                ++*k;
                ops->push_back(&ops_[cfg_.block(*k).first]);
            }
        if (oa.empty() || ob.empty()) return false;
        if (whole) {
            if (oa.size() != ob.size()) return false;
            for (size_t i = 0; i + 1 < oa.size(); ++i)
                if (!same_op(*oa[i], *ob[i])) return false;
        }
        const NeutralOp& ja = *oa.back();
        const NeutralOp& jb = *ob.back();
        // A short-circuit inside an operand (`a[x or None]`): the same jump to the same roles.
        if (ja.kind == N::JumpIfOrPop || jb.kind == N::JumpIfOrPop) {
            if (ja.kind != jb.kind || ja.condition != jb.condition) return false;
            int ta = role_a(cfg_.block_at_offset(ja.target)), tb = role_b(cfg_.block_at_offset(jb.target));
            int fa = role_a(end_a + 1), fb = role_b(end_b + 1);
            return ta == tb && fa == fb && ta != -3 && fa != -3;
        }
        if (ja.kind != N::JumpIf || jb.kind != N::JumpIf) {
            // A block of the test that does not branch: the jump over a comparison chain's clean-up,
            // or the clean-up (POP_TOP) going on to the next test of an `or` (`while a <= x <= b or c`).
            auto goes_on = [](const NeutralOp& op) { return op.kind == N::Jump || !is_block_terminator(op.kind); };
            if (!goes_on(ja) || !goes_on(jb) || (ja.kind == N::Jump) != (jb.kind == N::Jump)) return false;
            if (ja.kind != N::Jump && !same_op(ja, jb)) return false;
            int ra = ja.kind == N::Jump ? role_a(cfg_.block_at_offset(ja.target)) : role_a(end_a + 1);
            int rb = jb.kind == N::Jump ? role_b(cfg_.block_at_offset(jb.target)) : role_b(end_b + 1);
            return whole && ra == rb && ra != -3;
        }
        // Where each goes when its value is true (or None), and when false (or not None).
        auto sides = [](const NeutralOp& j, int target, int fall) {
            bool on_true = j.condition == JumpCondition::IfTrue || j.condition == JumpCondition::IfNone;
            return on_true ? std::make_pair(target, fall) : std::make_pair(fall, target);
        };
        bool none_a = ja.condition == JumpCondition::IfNone || ja.condition == JumpCondition::IfNotNone;
        bool none_b = jb.condition == JumpCondition::IfNone || jb.condition == JumpCondition::IfNotNone;
        if (none_a != none_b) return false;
        auto sa = sides(ja, role_a(cfg_.block_at_offset(ja.target)), role_a(end_a + 1));
        auto sb = sides(jb, role_b(cfg_.block_at_offset(jb.target)), role_b(end_b + 1));
        return sa == sb && sa.first != -3 && sa.second != -3;
    }

    // Whether the back-edge target `block` is the test on top of a rotated `while` (it is the
    // target of `continue`), rather than a loop header of its own.
    bool starts_rotated_while(int block, const std::vector<ExprPtr>& stack) {
        std::optional<Condition> c = probe_condition(block, stack);
        return c && match_rotated_while(block, *c, stack).has_value();
    }

    // A loop (`while True:`) whose body starts with a rotated `while`: both go back to the test on
    // top, the enclosing one from after the inner one's end.
    bool encloses_rotated_while(int block, const std::vector<ExprPtr>& stack) {
        std::optional<RotatedWhile> m;
        if (std::optional<Condition> c = probe_condition(block, stack)) m = match_rotated_while(block, *c, stack);
        if (!m) return false;
        int end = m->latch;
        for (int k : m->exit_copy) end = std::max(end, k);
        return latch_of(block) > end;
    }

    int try_rotated_while(int first, const Condition& c, Body& out, Loop* outer, std::vector<ExprPtr>& stack, size_t base) {
        std::optional<RotatedWhile> m = match_rotated_while(first, c, stack);
        if (!m) return -2;
        Loop loop;
        loop.header = m->header;
        loop.body_start = m->body_start;
        loop.latch = m->latch;
        loop.exit = m->exit;
        loop.outer = outer;  // (for a `break` 3.12+ thread to the enclosing loop's next iteration)
        if (m->bottom_is_pure) {
            loop.bottom = m->bottom_first;
        } else {
            loop.bottom_jump = m->bottom_first;
            loop.first_test = ast::print_expression(*c.first_value);
        }
        for (int k = m->body_start; k <= m->latch; ++k) loop.blocks.insert(k);
        loop.break_to = find_break_target(loop, m->exit_copy);
        if (loop.break_to == loop.exit)
            if (int end = break_inside_layout(loop); end >= 0) loop.break_to = end;
        auto s = make_stmt(StmtKind::While);
        s->test = c.test;
        std::vector<ExprPtr> body_stack = stack_copy(stack);
        if (m->bottom_first > m->body_start || !m->bottom_is_pure)
            emit_region(m->body_start, m->bottom_is_pure ? m->bottom_first : m->header, s->body, &loop, body_stack, base);
        if (body_stack.size() != stack.size()) unsupported("loop body that leaves values on the stack");
        std::vector<int> repeated = m->exit_copy;
        for (int k = m->bottom_is_pure ? m->bottom_first : m->bottom_first + 1; k <= m->latch; ++k) repeated.push_back(k);
        for (int k : repeated) {
            if (emitted_[k]) unsupported("a block reached twice (unstructured control flow)");
            emitted_[k] = true;
        }
        if (s->body.empty()) s->body.push_back(make_stmt(StmtKind::Pass));
        if (std::vector<int> exit_blocks = exit_copied_by_break(loop); !exit_blocks.empty()) {
            for (int k : exit_blocks) emitted_[k] = true;
        } else if (loop.break_to != loop.exit) {
            std::vector<ExprPtr> else_stack = stack_copy(stack);
            emit_region(loop.exit, loop.break_to, s->orelse, outer, else_stack, base);
        }
        emit_stmt(out, s);
        return loop.break_to;
    }

    // Where `break` goes is the compiler's copy of the loop's exit, code that ends the function
    // (3.10: an except clause's end, then the code after the try statement), written in place of
    // the break's jump: no else clause, the exit runs what the `break` does. Returns the exit's
    // blocks, which only the loop reaches (none: not so).
    std::vector<int> exit_copied_by_break(const Loop& loop) const {
        if (!exits_copied_ || loop.break_to == loop.exit || loop.exit < 0 || !is_copy_of_exit(loop.break_to, loop.exit, true)) return {};
        std::vector<int> blocks;
        straight_ops(loop.exit, &blocks);
        for (size_t i = 0; i < blocks.size(); ++i) {
            std::span<const int> preds = cfg_.block(blocks[i]).preds;
            bool from_loop = i == 0 ? std::all_of(preds.begin(), preds.end(), [&](int p) { return loop.blocks.count(p) > 0 || (p >= loop.header && p <= loop.latch); })
                                    : preds.size() == 1 && preds[0] == blocks[i - 1];
            if (emitted_[blocks[i]] || !from_loop) return {};
        }
        return blocks;
    }

    int emit_loop(int header, Body& out, Loop* outer, std::vector<ExprPtr>& stack, size_t base, int latch = -1) {
        (void)outer;
        Loop loop;
        loop.header = header;
        loop.latch = latch >= 0 ? latch : latch_of(header);
        for (int k = header; k <= loop.latch; ++k) loop.blocks.insert(k);
        const Block& hb = cfg_.block(header);
        const NeutralOp& first = ops_[hb.first];
        if (first.kind == N::ForIter) {
            emitted_[header] = true;
            loop.exit = cfg_.block_at_offset(first.target);
            loop.is_for = true;
            // The body is everything laid out before the exit (its jumps back may all be in except
            // clauses, which no normal edge reaches).
            for (int k = header; k < loop.exit; ++k) loop.blocks.insert(k);
            loop.break_to = find_break_target(loop);
            loop.outer = outer;
            if (int end = clause_end_broken_to(loop, outer); end >= 0) {
                loop.break_to = end;
                loop.break_end = clause_end_after(loop.exit, open_clauses_.back().after);
                if (loop.break_end < 0) loop.break_end = open_clauses_.back().after;
            }
            if (stack.empty()) unsupported("for loop without an iterator");
            // Inside an inlined comprehension, the values below belong to the enclosing expression.
            bool in_comprehension = false;
            for (const auto& v : stack) in_comprehension = in_comprehension || accumulators_.count(v.get());
            loop.comprehension = in_comprehension || in_comprehension_code();
            // (A value a try body returns waits below a loop of the finally body's copy the return
            // runs: the source computed it before, in the try body, `try: return f() finally: for
            // ...`. It is no value kept across a loop.)
            auto waits = [&](const ExprPtr& v) { return !is_marker_value(v) && !consumed_after_cleanup_.count(v.get()); };
            bool values_below = false;
            if (!in_comprehension && !in_comprehension_code())
                for (size_t k = base; k + 1 < stack.size(); ++k) values_below = values_below || waits(stack[k]);
            if (values_below) {
                // Values a rewriter computed before the loop and uses after it (Dynamo loads the
                // arguments of calls, runs a loop, then makes the calls): no source keeps values
                // across a loop, so they get names first, in the order they were computed.
                ExprPtr iterator = stack.back();
                stack.pop_back();
                spill_values(out, stack, base);
                // A waiting local the loop rebinds is read now, too.
                std::set<std::string> rebound;
                for (int k = header; k <= loop.latch; ++k)
                    for (size_t i = cfg_.block(k).first; i < cfg_.block(k).last; ++i)
                        if ((ops_[i].kind == N::Store || ops_[i].kind == N::Delete) && !ops_[i].name.empty()) rebound.insert(ops_[i].name);
                for (size_t k = base; k < stack.size(); ++k) {
                    if (stack[k]->kind != ExprKind::Name || !rebound.count(stack[k]->id) || !waits(stack[k])) continue;
                    StmtPtr assign_stmt = temporary_assignment(stack[k]);
                    out.push_back(assign_stmt);
                    replace_everywhere(stack, stack[k], assign_stmt->targets[0]);
                }
                stack.push_back(iterator);
            }
            ExprPtr iterable = stack.back();
            loop_iterators_.insert(keep(iterable));
            loop.iterator = iterable.get();
            auto s = make_stmt(StmtKind::For);
            s->is_async = first.arg == 1;  // GET_ANEXT and its await
            s->iter = is_const_kind(iterable, PyValue::Kind::FrozenSet) ? unfold_constant_collection(iterable, ExprKind::Set) : iterable;
            std::vector<ExprPtr> body_stack = stack_copy(stack);
            ExprPtr saved_value = for_value_, saved_target = for_target_;
            for_value_ = marker("<for value>");
            for_target_ = nullptr;
            body_stack.push_back(for_value_);
            // (Everything up to the iterator is below the body: values, or the exception markers of
            // an except clause or finally handler the loop is in.)
            emit_region(header + 1, header, s->body, &loop, body_stack, stack.size());
            s->target = for_target_;
            for_value_ = saved_value;
            for_target_ = saved_target;
            if (!s->target) unsupported("for loop whose target was not found");
            stack.pop_back();  // the iterator
            if (!stack.empty() && accumulators_.count(stack.back().get())) {
                if (loop.break_to != loop.exit) unsupported("an inlined comprehension loop with else or break");
                std::set<std::string> saved;
                for (const ExprPtr& e : stack)
                    if (auto it = saved_bindings_.find(e.get()); it != saved_bindings_.end()) saved.insert(it->second);
                stack.back() = inlined_comprehension(*s, stack.back(), saved);
                return loop.break_to;
            }
            strip_trailing_continue(s->body);
            if (s->body.empty()) s->body.push_back(make_stmt(StmtKind::Pass));
            int end = loop.break_end >= 0 ? loop.break_end : loop.break_to;
            if (end != loop.exit) {
                std::vector<ExprPtr> else_stack = stack_copy(stack);
                emit_region(loop.exit, end, s->orelse, outer, else_stack, base);
            }
            // (Going on where the clause does, `break` ran the clause's POP_EXCEPT.)
            if (loop.break_end >= 0 && loop.break_end == open_clauses_.back().after) {
                if (stack.empty() || !previous_exception_.is(stack.back())) unsupported("POP_EXCEPT of an unusual stack");
                stack.pop_back();
            }
            emit_stmt(out, s);
            return end;
        }
        // `while True:` (or a while loop whose test is inside the body).
        const NeutralOp& last = ops_[cfg_.block(loop.latch).last - 1];
        if (last.kind != N::Jump) unsupported("loop shape not supported yet");
        loop.exit = loop.latch + 1 < cfg_.size() ? loop.latch + 1 : -1;
        if (int past = exit_past_clauses(loop); past >= 0) loop.exit = past;
        take_reraises_after_latch(loop);
        loop.break_to = find_break_target(loop);
        if (loop.break_to == -5) loop.break_to = loop.exit;
        if (loop.break_to == loop.exit && breaks_only_to_next_iteration(loop, outer)) loop.break_to = next_iteration(outer);
        if (loop.break_to == loop.exit)
            if (int end = clause_break_target(loop); end >= 0) loop.break_to = end;
        auto s = make_stmt(StmtKind::While);
        // A header that is only a test jumping out of the loop is `while test:`.
        if (std::optional<Condition> probed = probe_condition(header, stack)) {
            Condition c = *probed;
            if (c.else_block >= 0 && !loop.blocks.count(c.else_block)) {
                emitted_[header] = true;
                take_condition(c);
                s->test = c.test;
                loop.exit = c.else_block;
                take_body_before_exit(loop);
                loop.break_to = find_break_target(loop, c.merged_blocks);  // (the test's copies of the exit are no breaks)
                loop.outer = outer;
                loop.continues_explicit = while_test_repeated_;
                std::vector<ExprPtr> body_stack = stack_copy(stack);
                if (emit_region(c.then_block, header, s->body, &loop, body_stack, base) && loop.continues_explicit)
                    s->body.push_back(make_stmt(StmtKind::Continue));
                if (s->body.empty()) s->body.push_back(make_stmt(StmtKind::Pass));
                if (loop.break_to != loop.exit) {
                    std::vector<ExprPtr> else_stack = stack_copy(stack);
                    emit_region(loop.exit, loop.break_to, s->orelse, outer, else_stack, base);
                }
                emit_stmt(out, s);
                return loop.break_to;
            }
        }
        s->test = make_constant(infinite_loop_test(header));
        std::vector<ExprPtr> body_stack = stack_copy(stack);
        emitted_[header] = false;
        emit_region(header, header, s->body, &loop, body_stack, base);
        emit_stmt(out, s);
        // A loop that nothing breaks out of never goes on: what follows it in layout (an enclosing
        // try's handler, or dead code 3.8/3.9 keep) is not the code after it.
        // (Where no jump from the loop goes there, the code after it is reached some other way.)
        // (Nor where the jumps there were printed as code of the body: `if x: ... continue` whose
        // other side returns, laid out after the jump back.)
        if (loop.breaks == 0 && (loop.break_to < 0 || !entered_from_loop(loop.break_to, loop) || emitted_[loop.break_to]))
            return kFlowEnded;
        return loop.break_to;
    }

    // A `while test:` body that goes back only by `continue` and otherwise returns or raises (if x:
    // continue / ... / return y) is laid out up to the loop's exit: the blocks after the jump back
    // and before the exit that only the loop reaches are its code (a `break` jumps past the exit).
    void take_body_before_exit(Loop& loop) const {
        for (int k = loop.latch + 1; k < loop.exit; ++k) {
            std::span<const int> preds = cfg_.block(k).preds;
            if (preds.empty() || !std::all_of(preds.begin(), preds.end(), [&](int p) { return loop.blocks.count(p) > 0; })) return;
            loop.blocks.insert(k);
        }
    }

    // A `while True` whose only way back is an except clause's `continue` (try: return f() /
    // except E: continue) ends with that clause: the re-raise of an unmatched exception and the
    // clause's clean-up handler are laid out after it. They are the loop's, not its exit. So is
    // the rest of the clause after its `continue` where it leaves the function (except E: if n:
    // continue / raise, or return v), and a later clause's test and its raise.
    void take_reraises_after_latch(Loop& loop) const {
        for (int k = loop.exit; k >= 0 && k == loop.exit && k < cfg_.size(); ++k) {
            const Block& blk = cfg_.block(k);
            N end = ops_[blk.last - 1].kind;
            // (A return's value is computed under the clause's handler, its POP_EXCEPT after.)
            bool falls_on = !is_block_terminator(end) && blk.succs.size() == 1 && blk.succs[0] == k + 1;
            if (((end == N::Raise || end == N::Return || falls_on || tests_exception_match(k)) && is_clause_block_of(k, loop)) ||
                (end == N::Return && is_clause_return_of(k, loop))) {
                loop.blocks.insert(k);
                loop.exit = k + 1 < cfg_.size() ? k + 1 : -1;
                continue;
            }
            if (end != N::Reraise) return;
            bool handler_of_loop = false;
            for (int b : loop.blocks) handler_of_loop = handler_of_loop || cfg_.block(b).handler == k;
            // (Reached from the loop only by an `except E` test failing: not the re-raise ending a
            // finally body that the loop is the end of, which its test leaves to.)
            bool from_clause_tests = !blk.preds.empty() && std::all_of(blk.preds.begin(), blk.preds.end(), [&](int p) {
                return loop.blocks.count(p) > 0 && tests_exception_match(p);
            });
            if (!handler_of_loop && !from_clause_tests) return;
            loop.blocks.insert(k);
            loop.exit = k + 1 < cfg_.size() ? k + 1 : -1;
        }
    }

    // Whether block `k` is reached only from `loop` and is under the clean-up handler of an except
    // clause inside `loop` (one that blocks of `loop` are under too, but not its header: code after
    // a loop inside a clause is under it as well), or under a clean-up inside that one (the
    // unbinding of a later clause's `as` name).
    bool is_clause_block_of(int k, const Loop& loop) const {
        const Block& blk = cfg_.block(k);
        if (blk.preds.empty()) return false;
        for (int p : blk.preds)
            if (!loop.blocks.count(p)) return false;
        int outside = cfg_.block(loop.header).handler;
        for (int h = blk.handler, n = 0; is_clause_cleanup(h) && h != outside && n < 8; h = cfg_.block(h).handler, ++n)
            if (std::any_of(loop.blocks.begin(), loop.blocks.end(), [&](int b) { return cfg_.block(b).handler == h; })) return true;
        return false;
    }

    // Whether block `k` is an except clause's return (POP_EXCEPT first, then the return, outside
    // the clause's handler) reached only from blocks of that clause in `loop`.
    bool is_clause_return_of(int k, const Loop& loop) const {
        const Block& blk = cfg_.block(k);
        if (ops_[blk.first].kind != N::PopExcept || blk.preds.empty()) return false;
        for (int p : blk.preds) {
            int h = cfg_.block(p).handler;
            if (!loop.blocks.count(p) || !is_clause_cleanup(h) || h == cfg_.block(loop.header).handler) return false;
        }
        return true;
    }

    bool is_clause_cleanup(int h) const { return h >= 0 && handlers_.count(h) && handlers_.at(h).kind == HandlerKind::Cleanup; }

    // Whether block `b` ends in the jump of an `except E` clause's test.
    bool tests_exception_match(int b) const {
        const Block& blk = cfg_.block(b);
        if (ops_[blk.last - 1].kind != N::JumpIf) return false;
        for (size_t i = blk.first; i < blk.last; ++i)
            if (ops_[i].kind == N::CheckExcMatch) return true;
        return false;
    }

    // 3.11+ may lay out the except clauses of a try in a loop's body right after the loop, where
    // normal flow never enters: where those clauses go on past the loop is the loop's exit (-1: the
    // block after the loop is no such handler).
    int exit_past_clauses(Loop& loop) const {
        int e = loop.exit;
        if (e < 0 || !cfg_.block(e).preds.empty() || !handlers_.count(e) || handlers_.at(e).kind != HandlerKind::Try) return -1;
        bool covers_body = false;
        for (int k : loop.blocks) covers_body = covers_body || inside(k, e);
        if (!covers_body) return -1;
        int next = single_clause_exit(e, loop);
        return next > e ? next : -1;
    }

    // The one place outside `loop` where the except clauses of `handler` go on (-1: none, or not one).
    int single_clause_exit(int handler, const Loop& loop) const {
        std::set<int> targets, loop_targets;
        if (!clause_exits(handler, &loop, targets, loop_targets) || targets.size() != 1) return -1;
        return *targets.begin();
    }

    static ObjectRef false_value() {
        auto v = std::make_shared<PyValue>();
        v->kind = PyValue::Kind::False;
        return v;
    }

    static ObjectRef true_value() {
        auto v = std::make_shared<PyValue>();
        v->kind = PyValue::Kind::True;
        return v;
    }

    static ObjectRef none_value() {
        auto v = std::make_shared<PyValue>();
        v->kind = PyValue::Kind::None;
        return v;
    }

    // The test of the `while <constant>:` loop starting at `header`. 3.10 and 3.11 drop the test but
    // keep its constant (`1` or `True`) in co_consts where they compiled it: right after every
    // constant the code before the loop uses, unless it was there already or nothing after it is
    // used (unused constants at the end are trimmed).
    ObjectRef infinite_loop_test(int header) {
        if (!loop_test_constant_kept_) return true_value();
        auto is_test = [](const ObjectRef& c) {
            return c && (c->kind == PyValue::Kind::True ||
                         (c->kind == PyValue::Kind::Int && !c->is_big_int() && c->small == 1 && !c->negative));
        };
        uint32_t start = cfg_.block(header).offset;
        int64_t floor = next_loop_constant_;
        for (const Instruction& ins : decode_instructions(code_, table_))
            if (ins.is(kHasConst) && ins.offset < start) floor = std::max(floor, ins.index + 1);
        size_t k = size_t(std::max<int64_t>(floor, 0));
        // (A function's first constant is its docstring or None, there before any code.)
        if (k == 0 && !code_.consts.empty() && !is_test(code_.consts[0])) k = 1;
        if (k < code_.consts.size() && is_test(code_.consts[k])) {
            next_loop_constant_ = int64_t(k) + 1;
            return code_.consts[k];
        }
        // Not added here: a test constant already there (`1` only when no True is).
        bool has_true = false, has_one = false;
        for (size_t j = 0; j < k && j < code_.consts.size(); ++j)
            if (is_test(code_.consts[j])) (code_.consts[j]->kind == PyValue::Kind::True ? has_true : has_one) = true;
        if (has_one && !has_true) {
            for (size_t j = 0; j < k; ++j)
                if (is_test(code_.consts[j])) return code_.consts[j];
        }
        return true_value();
    }

    // A loop that is the last statement of an except clause (3.13): `break` leaves the clause too,
    // so the compiler copies the clause's end (`POP_EXCEPT; jump`) into it, and the jump goes back
    // to the code after the try statement, laid out before the handler. That is where `break` goes
    // (past an `else:` clause, if any). Only for a loop right in the clause (not inside another
    // loop or try/with body of it), and not where the jump is the enclosing loop's next iteration
    // (a threaded `break`). Returns -1 when no such jump leaves the loop.
    int clause_end_broken_to(const Loop& loop, const Loop* outer) const {
        if (open_clauses_.empty() || loop.break_to != loop.exit) return -1;
        const OpenClause& clause = open_clauses_.back();
        if (clause.after < 0 || clause.loop != outer || clause.bodies != protected_bodies_.size() ||
            (outer && (clause.after == outer->header || clause.after == next_iteration(outer))))
            return -1;
        if (clause.after >= loop.header) return -1;
        for (int b : loop.blocks) {
            const NeutralOp& last = ops_[cfg_.block(b).last - 1];
            if (last.kind == N::Jump && cfg_.block_at_offset(last.target) == clause.after && pops_except_in(b)) return clause.after;
        }
        return -1;
    }

    bool pops_except_in(int block) const {
        const Block& blk = cfg_.block(block);
        for (size_t i = blk.first; i < blk.last; ++i)
            if (ops_[i].kind == N::PopExcept) return true;
        return false;
    }

    // The end of the except clause that the code from a loop's `exit` reaches in a straight line
    // (`POP_EXCEPT; jump after`, which the loop's `break` copied): there the loop statement ends,
    // and what comes before it is its `else:` clause. -1 when the way there branches.
    int clause_end_after(int exit, int after) const {
        for (int k = exit, steps = 0; k >= 0 && steps < 64; ++steps) {
            if (leaves_clause_to(k, after)) return k;
            const Block& blk = cfg_.block(k);
            const NeutralOp& last = ops_[blk.last - 1];
            if (blk.succs.size() != 1 || blk.succs[0] <= k || last.kind == N::Return || last.kind == N::Raise || last.kind == N::Reraise) return -1;
            k = blk.succs[0];
        }
        return -1;
    }

    // 3.12+ lay a try statement's handler out after the rest of the code, so a rotated `while`
    // whose body holds one ends (its repeated test) after that handler, and its blocks in layout
    // take in code after the loop: its `else:` clause (the exit) and what follows the statement.
    // A block of the body (one that goes on to the next iteration: it reaches the latch or the
    // test on top, through handlers, without leaving the layout of the loop) that goes to a block
    // outside the body (through a lone jump) past the exit is a `break`: where it goes, the
    // statement ends. -1 unless every such way out goes to the same place.
    int break_inside_layout(const Loop& loop) const {
        if (loop.body_start < 0 || loop.exit <= loop.body_start || loop.exit >= loop.latch) return -1;
        int first = loop.body_start, last = loop.latch;
        std::vector<bool> body(size_t(last - first + 1), false);
        auto in_layout = [&](int k) { return k >= first && k <= last; };
        std::vector<int> work = work_list(last);
        for (int k = first; k <= last; ++k)
            for (int s : cfg_.block(k).succs)
                if (s == loop.header) work.push_back(k);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (!in_layout(k) || body[size_t(k - first)]) continue;
            body[size_t(k - first)] = true;
            for (int p : cfg_.block(k).preds) work.push_back(p);
            // (Into a handler from the blocks it covers.)
            for (int j = first; j <= last; ++j)
                if (cfg_.block(j).handler == k) work.push_back(j);
        }
        int end = -1;
        for (int k = first; k <= last; ++k) {
            if (!body[size_t(k - first)]) continue;
            for (int s : cfg_.block(k).succs) {
                if (!in_layout(s) || body[size_t(s - first)] || s == loop.exit || ends_without_going_on(s)) continue;
                int to = s;
                if (to < loop.exit) {  // (a lone jump right after the body's block: the `break` itself)
                    const Block& sb = cfg_.block(s);
                    if (sb.last - sb.first != 1 || ops_[sb.first].kind != N::Jump) return -1;
                    to = cfg_.block_at_offset(ops_[sb.first].target);
                }
                        if (!in_layout(to) || to <= loop.exit || body[size_t(to - first)] || (end >= 0 && to != end)) return -1;
                end = to;
            }
        }
        return end;
    }

    // 3.12+ lay the except clauses of a try statement inside a loop out after the loop's end, so a
    // clause's `break` (its jump out of the loop after POP_EXCEPT) is no jump from the loop's
    // blocks. The clauses are the handlers of the loop's blocks after its latch (of try statements
    // not open around the loop), up to where they pop the exception; a jump from them after POP_EXCEPT to a block past the latch that is none
    // of theirs and does not go back into the loop is `break`. -1 unless all such jumps go to
    // one place.
    int clause_break_target(const Loop& loop) const {
        std::set<int> clause;
        std::vector<int> work;
        for (int k : loop.blocks)
            if (int h = cfg_.block(k).handler; h > loop.latch && !open_handlers_.count(h) && handlers_.count(h) && handlers_.at(h).kind == HandlerKind::Try)
                work.push_back(h);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k <= loop.latch || loop.blocks.count(k) || !clause.insert(k).second || pops_except_in(k)) continue;
            for (int s : cfg_.block(k).succs) work.push_back(s);
        }
        int end = -1;
        for (int k : clause) {
            const NeutralOp& last = ops_[cfg_.block(k).last - 1];
            if (last.kind != N::Jump || !pops_except_in(k)) continue;
            int to = cfg_.block_at_offset(last.target);
            if (to <= loop.latch || clause.count(to) || reachable_above(to, loop.header - 1)[size_t(loop.header)])
                continue;
            if (end >= 0 && to != end) return -1;
            end = to;
        }
        return end;
    }

    // Where `break` jumps: the loop's exit, unless jumps from inside skip past an `else` clause.
    // (`exit_copy`: the compiler's copies of the exit that the loop's repeated test leaves through.)
    int find_break_target(const Loop& loop, const std::vector<int>& exit_copy = {}) {
        int best = loop.exit;
        std::set<int> blocks = loop.blocks;
        // A for loop's body is everything laid out before its exit: 3.12+ write `if t: continue`
        // as a jump back right after the test, so a `break` may come after the last jump back.
        if (loop.is_for)
            for (int k = loop.header; k < loop.exit; ++k) blocks.insert(k);
        for (int b : blocks) {
            const Block& blk = cfg_.block(b);
            // (A bare jump to the exit is the way out laid out after a handler, never a `break`,
            // which skips what the exit begins.)
            for (int s : blk.succs)
                if (!blocks.count(s) && s != loop.exit && s > loop.latch && loop.exit >= 0 && s > loop.exit && !is_bare_back_jump(s, loop.exit) &&
                    std::find(exit_copy.begin(), exit_copy.end(), s) == exit_copy.end())
                    best = std::max(best, s);
        }
        return best;
    }


    // ---------------------------------------------------------------- exception handling (3.11+)
    // Handlers come in four shapes: a `try` statement's (PUSH_EXC_INFO, then except clauses or a
    // finally body), a `with` statement's (PUSH_EXC_INFO; WITH_EXCEPT_START), the compiler's own
    // clean-ups (restore the previous exception, unbind `except ... as name`, turn StopIteration
    // into RuntimeError in generators), or anything else, which is refused.
    enum class HandlerKind { Try, With, Cleanup, Unknown };

    struct HandlerInfo {
        HandlerKind kind = HandlerKind::Unknown;
        uint32_t depth = 0;
        bool lasti = false;
    };

    void classify_handlers() {
        for (int b = 0; b < cfg_.size(); ++b) {
            int h = cfg_.block(b).handler;
            if (h < 0 || handlers_.count(h)) continue;
            HandlerInfo info;
            const NeutralOp& first = ops_[cfg_.block(b).first];
            info.depth = first.handler_depth;
            info.lasti = first.handler_lasti;
            info.kind = handler_shape(h);
            if (info.kind == HandlerKind::Cleanup) emitted_[h] = true;
            handlers_[h] = info;
        }
    }

    HandlerKind handler_shape(int h) const {
        const Block& hb = cfg_.block(h);
        std::vector<const NeutralOp*> ops;
        for (size_t i = hb.first; i < hb.last; ++i) ops.push_back(&ops_[i]);
        auto is = [&](size_t k, N kind) { return k < ops.size() && ops[k]->kind == kind; };
        if (is(0, N::PushExcInfo)) return is(1, N::WithExceptStart) ? HandlerKind::With : HandlerKind::Try;
        if (is_comprehension_cleanup(ops) || is_except_star_clause_handler(ops)) return HandlerKind::Cleanup;
        bool reraise_last = !ops.empty() && ops.back()->kind == N::Reraise && ops.back()->arg == 1;
        if (!reraise_last) return HandlerKind::Unknown;
        if (ops.size() == 3 && is(0, N::Copy) && ops[0]->arg == 3 && is(1, N::PopExcept)) return HandlerKind::Cleanup;
        if (unbinds_name(h)) return HandlerKind::Cleanup;
        if (ops.size() == 2 && is(0, N::StopIterationError)) return HandlerKind::Cleanup;
        return HandlerKind::Unknown;
    }

    // Whether handler `h` is the unbinding of an except clause's name: `name = None; del name`, re-raise.
    bool unbinds_name(int h) const {
        const Block& hb = cfg_.block(h);
        if (hb.last - hb.first != 4) return false;
        const NeutralOp* ops = &ops_[hb.first];
        return ops[0].kind == N::LoadConst && ops[0].value && ops[0].value->kind == PyValue::Kind::None && ops[1].kind == N::Store &&
               ops[2].kind == N::Delete && ops[1].name == ops[2].name && ops[3].kind == N::Reraise && ops[3].arg == 1;
    }

    // A LOAD_GLOBAL in a module or class body outside an inlined comprehension (whose accumulator
    // waits on the stack) and not 3.8-3.10's assert: a `global` declaration's (see
    // globals_shadowed_around).
    void note_declared_global_read(const NeutralOp& op, const std::vector<ExprPtr>& stack) {
        if (assert_loads_global_ && op.name == "AssertionError") return;
        for (const ExprPtr& e : stack)
            if (accumulators_.count(e.get()) || saved_bindings_.count(e.get())) return;
        if (std::find(declared_global_reads_.begin(), declared_global_reads_.end(), op.name) == declared_global_reads_.end())
            declared_global_reads_.push_back(op.name);
    }

    // A load or store of a local that an inlined comprehension (3.12+) saved and is still using
    // (its saved binding waits on the stack): the comprehension's own variable, not the one of the
    // code around it (see dead_bindings).
    void note_if_comprehension_scoped(const NeutralOp& op, const std::vector<ExprPtr>& stack) {
        if (saved_bindings_.empty() || (op.scope != Scope::Fast && op.scope != Scope::Deref)) return;
        for (const ExprPtr& e : stack)
            if (auto it = saved_bindings_.find(e.get()); it != saved_bindings_.end() && it->second == op.name) {
                comprehension_scoped_.insert(&op);
                return;
            }
    }

    // PEP 709: an inlined comprehension's handler drops the accumulator, restores the saved
    // bindings and re-raises: `SWAP 2; POP_TOP; [SWAP n;] STORE_FAST x...; RERAISE 0`.
    static bool is_comprehension_cleanup(const std::vector<const NeutralOp*>& ops) {
        if (ops.size() < 4 || ops[0]->kind != N::Swap || ops[0]->arg != 2 || ops[1]->kind != N::Pop) return false;
        if (ops.back()->kind != N::Reraise || ops.back()->arg != 0) return false;
        size_t k = 2;
        if (ops[k]->kind == N::Swap) ++k;
        if (k + 1 >= ops.size()) return false;
        for (; k + 1 < ops.size(); ++k)
            if (ops[k]->kind != N::Store || ops[k]->scope != Scope::Fast) return false;
        return true;
    }

    // Handlers covering `block`, innermost first (a handler's own code is covered by the next).
    std::vector<int> handler_chain(int block) const {
        std::vector<int> chain;
        for (int h = cfg_.block(block).handler; h >= 0 && chain.size() < 256; h = cfg_.block(h).handler) {
            if (std::find(chain.begin(), chain.end(), h) != chain.end()) break;
            chain.push_back(h);
        }
        return chain;
    }

    // Whether `handler` is in handler_chain(block) (walked without building the chain: past a
    // cycle the walk only meets handlers it has checked already).
    bool inside(int block, int handler) const {
        if (block < 0 || block >= cfg_.size()) return false;  // (a loop without a jump back has no latch: -1)
        int steps = 0;
        for (int h = cfg_.block(block).handler; h >= 0 && steps < 256; h = cfg_.block(h).handler, ++steps)
            if (h == handler) return true;
        return false;
    }

    // The outermost try/with handler covering `block` whose statement is not open yet.
    int handler_to_open(int block) {
        std::vector<int> chain = handler_chain(block);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const HandlerInfo& info = handlers_.at(*it);
            if (info.kind == HandlerKind::Unknown) unsupported("an exception handler of an unusual shape");
            if (info.kind == HandlerKind::Cleanup || open_handlers_.count(*it)) continue;
            return *it;
        }
        return -1;
    }

    // Blocks outside the handler's ranges that belong to the protected body all the same: the
    // exception table need not cover instructions that cannot raise (3.12+ leave a loop's
    // conditional jump or jump back outside the ranges), but such a block goes on into the body.
    // Normal flow enters a body only at its start, so an outside block that reaches any other block
    // of the body (through outside blocks, not through the start) is inside it.
    std::vector<bool> uncovered_body_blocks(int start, int handler) const {
        std::vector<bool> in(size_t(cfg_.size()), false);
        std::vector<int> work;
        for (int b = 0; b < cfg_.size(); ++b)
            if (b != start && inside(b, handler)) work.push_back(b);
        std::vector<bool> seen(size_t(cfg_.size()), false);
        while (!work.empty()) {
            int b = work.back();
            work.pop_back();
            if (seen[size_t(b)]) continue;
            seen[size_t(b)] = true;
            for (int p : cfg_.block(b).preds) {
                if (p == start || inside(p, handler) || in[size_t(p)]) continue;
                in[size_t(p)] = true;
                work.push_back(p);
            }
        }
        return in;
    }

    // Whether `block` is in the protected body of `handler` (its ranges, or an uncovered block of it).
    bool in_body(int block, int handler, const std::vector<bool>& uncovered) const {
        return inside(block, handler) || uncovered[size_t(block)];
    }

    // Where normal flow leaves the protected body starting at `start`: of the blocks outside it that
    // the body reaches, the last in layout that goes on (one that only returns or raises is the exit
    // path of a `return` inside the body; one where the enclosing loop's `break` goes, past the loop,
    // is where a `break` inside the body jumps, as 3.12+ except clauses laid out after the loop do).
    int normal_exit(int start, int handler, const std::vector<bool>& uncovered, const Loop* loop) const {
        // Into nested except clauses (user code), not into with-handlers (the compiler's own)...
        std::set<int> exits = body_exits(start, handler, uncovered, false);
        int best = -1, best_tail = -1, best_break = -1;
        // (Nor is the way out of a `continue` or `break` in an except clause of the body, through the
        // __exit__ calls of this with statement and those in it, which 3.12+ lay out after the loop.)
        auto loop_jump = [&](int e) {
            if (!loop || cfg_.block(e).preds.size() != 1 || !pops_except_in(cfg_.block(e).preds[0]) || !handlers_.count(handler) ||
                handlers_.at(handler).kind != HandlerKind::With)
                return false;
            int to = jump_after_with_exits(e, cfg_.block(e).preds[0], 1);
            return to >= 0 && (to == loop->header || to == loop->break_to);
        };
        // (Of the ways out, one reached only through a nested except clause that returns a value
        // computed before it (through a copy of a finally body that may branch) is that clause's
        // `return`, which 3.12+ lay out after the code after the statement: that code is the
        // normal exit. Of the ways out that only end, not where that code, a short
        // `return`, has a copy elsewhere (the compiler's, in a clause's way out, which is read as
        // code after the statement only with the last way out as the exit).)
        std::set<int> plain_exits;
        int tail_kept = -1, best_kept = -1;
        for (int e : exits) {  // sets iterate in order
            (ends_without_going_on(e) || loop_jump(e) ? best_tail : loop && e == loop->break_to && e > loop->latch ? best_break : best) = e;
            if (e != best_tail && e != best) continue;
            if (plain_exits.empty()) plain_exits = body_exits(start, handler, uncovered, false, false);
            if (plain_exits.count(e) || !returns_waiting_value(e)) (e == best ? best_kept : tail_kept) = e;
        }
        if (best_kept >= 0) best = best_kept;
        // (Nor, where the body has a way out of its own, one only through a nested except clause
        // that runs this statement's finally body and jumps to the loop's next iteration or out
        // of it: that clause's `continue` or `break`, which 3.12+ lay out after the body's way out.)
        if (best >= 0 && loop && !plain_exits.count(best) && is_jump_after_finally_copy(best, handler, *loop))
            for (int e : plain_exits)
                if (exits.count(e) && !ends_without_going_on(e) && !loop_jump(e) && e != loop->break_to) best = e;
        if (tail_kept >= 0 && tail_kept != best_tail) {
            std::vector<int> kept_blocks;
            std::vector<const NeutralOp*> kept = straight_ops(tail_kept, &kept_blocks);
            bool copied = false;
            for (int b = 0; b < cfg_.size() && !copied; ++b) {
                std::vector<int> chain;  // (a chain that shares blocks with the kept one is no copy)
                copied = same_ops(straight_ops(b, &chain), kept) &&
                         std::find_first_of(chain.begin(), chain.end(), kept_blocks.begin(), kept_blocks.end()) == chain.end();
            }
            if (!copied) best_tail = tail_kept;
        }
        // A with statement whose code after it ends the function: of the ways out that only end,
        // the normal exit is the one that goes on where a suppressed exception does (the others
        // are returns from inside the body).
        bool with = handlers_.count(handler) && handlers_.at(handler).kind == HandlerKind::With;
        // (In a loop, a way out that is this statement's __exit__ call and the jump to the next
        // iteration (or out of the loop) right after a nested with statement's own __exit__ call is
        // that nested body's `continue` (`break`) when the code after the nested statement, which
        // only its suppressed exception reaches, ends in another copy of the same: that copy is
        // the body's normal end. `with lock: with suppress(E): ...; continue` then more code.)
        if (with && loop && best >= 0) {
            // (3.10/3.11 may take the normal end's jump through a bare jump back.)
            auto loop_target = [&](int block) {
                int to = exit_call_then_jump(block);
                return to < 0 ? -1 : through_jumps(to);
            };
            int to = loop_target(best);
            std::span<const int> preds = cfg_.block(best).preds;
            if (ends_iteration(loop, to) && preds.size() == 1 && ends_with_exit_call(preds[0]))
                for (int e : body_exits(start, handler, uncovered, true))
                    if (e != best && !exits.count(e) && loop_target(e) == to && cfg_.block(e).preds.size() == 1 &&
                        !ends_with_exit_call(cfg_.block(e).preds[0])) {
                        best = e;
                        break;
                    }
        }
        if (best < 0 && best_break < 0 && with)
            if (int after = suppressed_continuation(handler); after >= 0)
                for (int e : exits)
                    if (straight_path_reaches(e, after)) return e;
        // ...but where no way out goes on (each is the path of a `return` in the body), one only
        // where a nested with statement goes on after its __exit__ suppressed the exception is the
        // normal exit (of a with or try statement): nested withs whose body returns, the outer's
        // clean-up copied there, then a jump to the code after the statement, which other code
        // reaches too, or the end of the function (`with a: with b: return 1`, then `return None`).
        // Not where that is another way out, or a jump there (3.13), or the compiler's copy of one
        // (3.10 copies `return x()` after the statement into it).
        // (A way out that branches but ends on every path, a return through the copy of a finally
        // body with an if, goes on nowhere either. One a lone jump goes to is no copy: the
        // compiler puts its copies in the jump's place; a return through the copies of finally
        // bodies is written in place too: `try: with a: return x` / `except E: return None` in a
        // try/finally, whose clause does what the code after the statements does.)
        if ((best < 0 || ends_on_every_path(best)) && best_break < 0 && handlers_.count(handler) &&
            (with || handlers_.at(handler).kind == HandlerKind::Try))
            for (int e : body_exits(start, handler, uncovered, true))
                if (!exits.count(through_jumps(e)) && !(loop && e == loop->break_to) &&
                    (joins_other_code(e) || is_lone_jump_target(e) || !copies_way_out(e, exits)))
                    best = e;
        return best >= 0 ? best : best_break >= 0 ? best_break : best_tail;
    }

    // Whether `block` holds the copy of the finally body of the try statement whose handler is
    // `handler` (its ops between PUSH_EXC_INFO and the re-raise), then a jump to `loop`'s header or
    // break target.
    bool is_jump_after_finally_copy(int block, int handler, const Loop& loop) const {
        std::vector<const NeutralOp*> body = real_ops(handler), copy = real_ops(block);
        if (body.size() < 2 || body.front()->kind != N::PushExcInfo || body.back()->kind != N::Reraise || copy.empty()) return false;
        const NeutralOp& jump = *copy.back();
        if (jump.kind != N::Jump) return false;
        int to = cfg_.block_at_offset(jump.target);
        return (to == loop.header || to == loop.break_to) &&
               same_ops(std::vector<const NeutralOp*>(body.begin() + 1, body.end() - 1), std::vector<const NeutralOp*>(copy.begin(), copy.end() - 1));
    }

    // Whether every path from `block` ends (returns or raises) within a few blocks, going forward.
    bool ends_on_every_path(int block) const {
        std::vector<int> work = {block};
        std::set<int> seen;
        while (!work.empty()) {
            int b = work.back();
            work.pop_back();
            if (!seen.insert(b).second) continue;
            if (seen.size() > 32) return false;
            const Block& blk = cfg_.block(b);
            N last = ops_[blk.last - 1].kind;
            if (last == N::Return || last == N::Raise || last == N::Reraise) continue;
            if (blk.succs.empty()) return false;
            for (int s : blk.succs) {
                if (s <= b) return false;
                work.push_back(s);
            }
        }
        return true;
    }

    // Whether the chain of blocks from `block` does op for op what that from one of `exits` does.
    bool copies_way_out(int block, const std::set<int>& exits) const {
        std::vector<const NeutralOp*> ops = straight_ops(block);
        return std::any_of(exits.begin(), exits.end(), [&](int e) { return same_ops(ops, straight_ops(e)); });
    }

    // Whether code from `block` returns a value that was on the stack before it, on some path (a
    // `return` whose value waits below the compiler's clean-up copies, which may branch: an if in
    // a finally body), rather than one it loads.
    bool returns_waiting_value(int block) const {
        struct Path {
            int block;
            std::vector<bool> loaded;  // the stack's top, each value whether the code pushed it
        };
        std::vector<Path> work = {{block, {}}};
        for (int steps = 0; !work.empty() && steps < 64; ++steps) {
            Path path = std::move(work.back());
            work.pop_back();
            std::vector<bool>& loaded = path.loaded;
            auto ensure = [&](size_t n) {
                if (loaded.size() < n) loaded.insert(loaded.begin(), n - loaded.size(), false);
            };
            auto pop = [&](size_t n) {
                ensure(n);
                loaded.resize(loaded.size() - n);
            };
            const Block& blk = cfg_.block(path.block);
            bool ended = false;
            for (size_t i = blk.first; i < blk.last && !ended; ++i) {
                const NeutralOp& op = ops_[i];
                switch (op.kind) {
                case N::Nop: case N::Jump: case N::Delete: break;
                case N::Swap:
                    ensure(size_t(op.arg));
                    std::vector<bool>::swap(loaded[loaded.size() - 1], loaded[loaded.size() - size_t(op.arg)]);
                    break;
                case N::Copy:
                    ensure(size_t(op.arg));
                    loaded.push_back(loaded[loaded.size() - size_t(op.arg)]);
                    break;
                case N::Return:
                    ensure(1);
                    if (!loaded.back()) return true;
                    ended = true;
                    break;
                case N::Raise: case N::Reraise: case N::JumpIfOrPop: case N::ForIter: return false;
                case N::JumpIf: pop(1); break;
                // (Ops that push nothing.)
                case N::Pop: case N::Store: case N::PopExcept: case N::StoreAttr: case N::DeleteAttr: case N::StoreSubscr:
                case N::DeleteSubscr: case N::StoreSlice:
                    pop(size_t(-*stack_effect(op)));
                    break;
                default: {
                    std::optional<int> effect = stack_effect(op);
                    if (!effect) return false;
                    if (*effect > 0) {
                        loaded.insert(loaded.end(), size_t(*effect), true);
                    } else {  // (one value made of what it pops)
                        pop(size_t(-*effect));
                        ensure(1);
                        loaded.back() = true;
                    }
                }
                }
            }
            if (ended) continue;
            for (int s : blk.succs)
                if (s > path.block) work.push_back({s, loaded});  // (forward only: no loops)
        }
        return false;
    }

    // Whether the chain of blocks from `block` that each go on to one block reaches one that other
    // blocks jump or fall to as well.
    bool joins_other_code(int block) const {
        for (int steps = 0; block >= 0 && steps < 16; ++steps) {
            const Block& blk = cfg_.block(block);
            if (blk.succs.size() != 1) return false;
            int next = blk.succs[0];
            if (cfg_.block(next).preds.size() > 1) return true;
            block = next;
        }
        return false;
    }

    // The blocks outside the protected body starting at `start` that it reaches, through nested
    // except clauses (unless not `through_clauses`), and with `through_withs`, nested with
    // statements' 3.11+ handlers.
    std::set<int> body_exits(int start, int handler, const std::vector<bool>& uncovered, bool through_withs,
                             bool through_clauses = true) const {
        std::set<int> seen, exits;
        std::vector<int> work = work_list(start);
        while (!work.empty()) {
            int b = work.back();
            work.pop_back();
            if (!seen.insert(b).second) continue;
            const Block& blk = cfg_.block(b);
            for (int s : blk.succs) {
                if (in_body(s, handler, uncovered)) work.push_back(s);
                else exits.insert(s);
            }
            // (And through the clean-up around a nested except clause, to the clauses of a try
            // statement around that one, where an exception the clause raises goes: the way on of
            // `try: (try: ... except: raise) except: pass`, whose body never goes on.)
            if (blk.handler >= 0 && blk.handler != handler && inside(blk.handler, handler) &&
                ((through_clauses && (handlers_.at(blk.handler).kind == HandlerKind::Try ||
                                      handlers_.at(blk.handler).kind == HandlerKind::Cleanup)) ||
                 (through_withs && is_exc_info_with_handler(blk.handler))))
                work.push_back(blk.handler);
        }
        return exits;
    }

    // Whether `h` is a with statement's handler shaped like an except clause (3.11+: PUSH_EXC_INFO
    // ... POP_EXCEPT), whose way on after __exit__ suppressed an exception the walks can follow.
    bool is_exc_info_with_handler(int h) const {
        return handlers_.at(h).kind == HandlerKind::With && ops_[cfg_.block(h).first].kind == N::PushExcInfo;
    }

    // Whether the handler at `h` pops the exception before anything else, as a bare `except:`
    // clause does (a finally handler keeps it below the finally body).
    bool pops_exception_first(int h) const {
        const Block& blk = cfg_.block(h);
        size_t i = blk.first;
        while (i < blk.last && (ops_[i].kind == N::PushExcInfo || ops_[i].kind == N::Nop)) ++i;
        return i == blk.last || ops_[i].kind == N::Pop;
    }

    // Where a with statement's handler goes on after __exit__ suppressed the exception: the first
    // block past its clean-up (-1: none, or more than one).
    int suppressed_continuation(int handler) const {
        std::vector<bool> seen(cfg_.size(), false);
        std::vector<std::pair<int, int>> work = {{handler, -1}};  // (see with_cleanup_end)
        int found = -1;
        while (!work.empty()) {
            auto [b, pops_left] = work.back();
            work.pop_back();
            if (b < 0 || seen[size_t(b)]) continue;
            seen[size_t(b)] = true;
            if (with_cleanup_end(b, pops_left) != cfg_.block(b).last) {
                if (found >= 0 && found != b) return -1;
                found = b;
                continue;
            }
            for (int s : cfg_.block(b).succs) work.push_back({s, pops_left});
        }
        return found;
    }

    // Whether the chain of blocks from `from` that each go on to one block reaches `to`.
    bool straight_path_reaches(int from, int to) const {
        for (int steps = 0; from >= 0 && steps < 16; ++steps) {
            if (from == to) return true;
            const Block& blk = cfg_.block(from);
            if (blk.succs.size() != 1) return false;
            from = blk.succs[0];
        }
        return false;
    }

    // `block`, in the body of `loop` (which has no else clause), is the compiler's copy of the
    // loop's exit, a short block (an except clause's POP_EXCEPT, then `return x` or the jump past
    // the try statement), in place of a `break` (3.12+): the same ops under the same handlers, its
    // blocks reached only that way. (Its first op has the line of the `break`.) Read as that
    // `break`: the copy runs what the break would. (The exit's other ops keep their lines, or the
    // exit has none: an explicit `return x` in the body, the same code as a `return x` after the
    // loop, has lines of its own.) Returns the copy's blocks (none: no copy).
    std::vector<int> break_copy_blocks(int block, const Loop* loop) const {
        // (Asked of every block a while loop's body reaches: the cheap tests first. A copy is reached
        // from one block only, which both readings below require.)
        if (!loop || !exits_copied_ || loop->is_for || loop->exit < 0 || loop->break_to != loop->exit || block == loop->exit ||
            emitted_[block] || cfg_.block(block).preds.size() != 1 || !loop->blocks.count(block))
            return {};
        auto same_lines_past_first = [](const std::vector<const NeutralOp*>& copy, const std::vector<const NeutralOp*>& exit) {
            for (size_t i = 1; i < copy.size() && i < exit.size(); ++i)
                if (exit[i]->line >= 0 && copy[i]->line != exit[i]->line) return false;
            return true;
        };
        auto ops_of = [&](int k) {
            std::vector<const NeutralOp*> v;
            for (size_t i = cfg_.block(k).first; i < cfg_.block(k).last; ++i) v.push_back(&ops_[i]);
            return v;
        };
        if (copies_block_going_on(block, loop->exit)) return same_lines_past_first(ops_of(block), ops_of(loop->exit)) ? std::vector<int>{block} : std::vector<int>{};
        if (!ends_without_going_on(loop->exit)) return {};
        std::vector<int> copy_path, exit_path;
        std::vector<const NeutralOp*> a = straight_ops(block, &copy_path), b = straight_ops(loop->exit, &exit_path);
        if (!same_ops(a, b) || !same_lines_past_first(a, b) || copy_path.size() != exit_path.size()) return {};
        for (size_t i = 0; i < copy_path.size(); ++i)
            if (cfg_.block(copy_path[i]).handler != cfg_.block(exit_path[i]).handler || cfg_.block(copy_path[i]).preds.size() != 1)
                return {};
        return copy_path;
    }

    bool ends_without_going_on(int block) const {
        for (int steps = 0; block >= 0 && steps < 16; ++steps) {
            const Block& blk = cfg_.block(block);
            N last = ops_[blk.last - 1].kind;
            if (last == N::Return || last == N::Raise || last == N::Reraise) return true;
            if (blk.succs.size() != 1) return false;
            block = blk.succs[0];
        }
        return false;
    }

    // Whether block `b` ends in a jump after a POP_EXCEPT (the end of an except clause).
    bool ends_except_clause(int b) const {
        const Block& blk = cfg_.block(b);
        if (blk.last == blk.first || ops_[blk.last - 1].kind != N::Jump) return false;
        for (size_t i = blk.first; i + 1 < blk.last; ++i)
            if (ops_[i].kind == N::PopExcept) return true;
        return false;
    }

    // A try statement that goes on at the loop's next iteration (3.8/3.9): a clause that falls off
    // its end jumps there like a `continue` (the peephole threads its jump), which says nothing.
    void strip_clause_end_continues(std::vector<ExceptHandler>& clauses) {
        for (ExceptHandler& h : clauses) {
            if (h.body.empty() || !clause_end_continues_.count(h.body.back().get())) continue;
            dropped_copies_.push_back(h.body.back());
            h.body.pop_back();
            if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
        }
    }

    // Whether block `b`, an except clause's POP_EXCEPT and jump, is where the clause falls off its
    // end (3.8/3.9): what follows it is the next clause's test (reached by the failed match before
    // it) or the handler's END_FINALLY/RERAISE, not more of the clause (the code after a for
    // loop's `else: continue`, reached by its `break`) nor the dead jump a `continue` leaves.
    bool is_natural_clause_end(int b) const {
        if (!dead_code_kept_ || !ends_except_clause(b) || b + 1 >= cfg_.size()) return false;
        if (is_explicit_clause_jump(b)) return false;
        const Block& next = cfg_.block(b + 1);
        if (next.preds.empty()) {  // (after a bare `except:`, the handler's dead END_FINALLY)
            size_t i = next.first;
            while (i < next.last && ops_[i].kind == N::Nop) ++i;
            return !reachable_at_all(b + 1) && i < next.last && (ops_[i].kind == N::EndFinally || ops_[i].kind == N::Reraise);
        }
        for (int p : next.preds) {
            const Block& pb = cfg_.block(p);
            size_t last = pb.last - 1;
            if (ops_[last].kind != N::JumpIf || last == pb.first || ops_[last - 1].kind != N::CheckExcMatch) return false;
        }
        return true;
    }

    // Whether block `b`, an except clause's POP_EXCEPT and jump, is a `break` or `continue` written
    // in the clause (3.8/3.9): the compiler's jump at the clause's end follows it, dead (another
    // POP_EXCEPT and jump). A clause that only falls off its end has none after its jump.
    bool is_explicit_clause_jump(int b) const {
        if (!dead_code_kept_ || b < 0 || b + 1 >= cfg_.size() || reachable_at_all(b + 1) || !ends_except_clause(b)) return false;
        std::vector<N> dead;
        const Block& next = cfg_.block(b + 1);
        for (size_t i = next.first; i < next.last; ++i)
            if (ops_[i].kind != N::Nop) dead.push_back(ops_[i].kind);
        return dead.size() == 2 && dead[0] == N::PopExcept && dead[1] == N::Jump;
    }

    // Where the except clauses of the handler at `handler` continue after POP_EXCEPT (-1: nowhere).
    // A clause that holds a try statement of its own goes on from that statement's clauses too:
    // the walk enters nested handlers (`depth` deep), whose POP_EXCEPT leaves them.
    int handler_exit(int handler, int exit, const Loop* loop) {
        std::set<int> targets, loop_targets, copies;
        if (!clause_exits(handler, loop, targets, loop_targets, &copies)) unsupported("an except clause that ends in a branch");
        // (A clause falling off its end at the loop's next iteration goes on there only where no
        // clause goes on elsewhere: else that jump is read as a `continue`, as before.)
        if (loop && targets.size() > 1 && targets.count(loop->header)) {
            targets.erase(loop->header);
            loop_targets.insert(loop->header);
        }
        // (A `continue` or `break` after copies of finally bodies is a statement of its clause where
        // the clauses go on somewhere else, or the body goes on elsewhere; where nothing goes on
        // elsewhere, the copies are where they go on, as before.)
        if (targets.empty() && (exit < 0 || copies.count(exit))) targets = copies;
        // Clauses that each go on in the compiler's copy of the short code that ends the function
        // after the statement (3.10+; the body's way out may be one more) go on at the last copy,
        // where normal_exit ends an enclosing statement's body too: the other copies reach the end
        // of their region (see is_copy_of_exit).
        if (!targets.empty() && exit >= 0 && is_copy_of_exit(exit, *targets.begin())) targets.insert(exit);
        if (targets.size() > 1) {
            int last = *targets.rbegin();
            if (std::all_of(targets.begin(), targets.end(), [&](int t) { return t == last || is_copy_of_exit(t, last); })) {
                clause_exit_copies_.insert(targets.begin(), targets.end());
                return last;
            }
        }
        // (A clause whose jump the compiler threaded past the lone jump where the others go on, to
        // where that one goes, goes on there too: 3.8's peephole, at the end of an if's body.)
        if (targets.size() > 1) {
            int to = through_jumps(*targets.begin());
            if (targets.count(to) && std::all_of(targets.begin(), targets.end(), [&](int t) { return through_jumps(t) == to; }))
                targets.erase(to);
        }
        // (3.13 copies the end of an enclosing except clause, `POP_EXCEPT; jump`, into each way
        // out of a try statement inside it: the clauses go on at the first copy, the same code.)
        if (targets.size() > 1) {
            int first = *targets.begin();
            if (std::all_of(targets.begin(), targets.end(), [&](int t) { return same_clause_end(t, first); })) {
                clause_exit_copies_.insert(targets.begin(), targets.end());
                return first;
            }
        }
        if (targets.size() > 1) unsupported("except clauses that continue in different places");
        if (!targets.empty()) return *targets.begin();
        // Clauses that leave by `continue` and by `break` say so themselves (a clause that goes to
        // the next iteration flows there; `break` is a statement of its own).
        return loop_targets.size() == 1 && *loop_targets.begin() != loop->break_to ? *loop_targets.begin() : -1;
    }

    // Where the except clauses of the handler at `handler` go after POP_EXCEPT: to `loop`'s header
    // or break target (`loop_targets`), or elsewhere (`targets`). False: a clause ends in a branch.
    // (`copies`: where a clause leaves for `loop`'s header or break target through copies of
    // finally bodies; those count among `loop_targets`.)
    bool clause_exits(int handler, const Loop* loop, std::set<int>& targets, std::set<int>& loop_targets,
                      std::set<int>* copies = nullptr) const {
        std::set<std::pair<int, int>> seen;
        std::vector<std::pair<int, int>> work = {{handler, 0}};
        while (!work.empty()) {
            auto [b, depth] = work.back();
            work.pop_back();
            if (!seen.insert({b, depth}).second || depth > 32) continue;
            const Block& blk = cfg_.block(b);
            // (And a with statement's handler (3.11+: PUSH_EXC_INFO ... POP_EXCEPT, like an except
            // clause): where __exit__ suppresses the exception, the clause goes on after the with.)
            if (blk.handler >= 0 && blk.handler != handler &&
                (handlers_.at(blk.handler).kind == HandlerKind::Try || is_exc_info_with_handler(blk.handler)) &&
                !inside(handler, blk.handler))
                work.push_back({blk.handler, depth + 1});
            bool pops = false;
            for (size_t i = blk.first; i < blk.last; ++i) pops = pops || ops_[i].kind == N::PopExcept;
            if (!pops) {
                for (int s : blk.succs) work.push_back({s, depth});
                continue;
            }
            // A `return constant`, `break` or `continue` goes on in blocks the clause's falls into
            // that nothing else reaches, split from it only where the handlers covering them change
            // (an enclosing try/finally's range ends after POP_EXCEPT), holding only the unwinding
            // (a for loop's iterator popped) and the return or jump: the same code as the one block
            // the compiler writes without that try. (Not code: what runs after the clause's
            // POP_EXCEPT and name unbinding is no part of the clause.)
            int end = b;
            while (!is_block_terminator(ops_[cfg_.block(end).last - 1].kind) && end + 1 < cfg_.size()) {
                int n = end + 1;
                if (cfg_.block(n).preds.size() != 1 || cfg_.block(n).handler == cfg_.block(end).handler || !only_unwinds(n))
                    break;
                end = n;
            }
            const NeutralOp& last = ops_[cfg_.block(end).last - 1];
            if (last.kind == N::Return || last.kind == N::Raise || last.kind == N::Reraise) continue;
            int next = last.kind == N::Jump ? cfg_.block_at_offset(last.target) : end + 1;
            if (last.kind == N::JumpIf || last.kind == N::JumpIfOrPop || last.kind == N::ForIter) return false;
            if (depth > 0) {
                work.push_back({next, depth - 1});
                continue;
            }
            // A tail that returns or raises, reached only from this clause, is the clause's own code
            // (a `return` inside it after copies of enclosing finally bodies, or the compiler's copy of
            // what follows the statement).
            // (3.8-3.10: so is a lone RETURN_VALUE left behind POP_BLOCK, of a value the clause computed.)
            // (So is a `return` that leaves enclosing except clauses too: their POP_EXCEPTs, then
            // the return.)
            // (Nor a `return constant` jumped to, bare or after copies of finally bodies: the
            // clause's own return is written where it is; a jump there is the clause going on to
            // the code after the statement, a return only the clauses reach because the body's way
            // on, the `else:`, leaves, or because the body returns: 3.8/3.9's `pass` ending the
            // clause of a try/except in a try/finally jumps to the outer statement's normal exit.)
            bool jumped_constant_return = last.kind == N::Jump && returns_constant_at_end(next);
            if (cfg_.block(next).preds.size() == 1 && !jumped_constant_return &&
                (is_return_after_finally_copies(next) || is_lone_return(next) || is_return_leaving_clauses(next) ||
                 is_return_leaving_withs(next) || is_return_through_leaving_finally(next)))
                continue;
            // (Copies that start with a loop are reached from their own back edge too.)
            if (!jumped_constant_return && is_return_after_branching_copies(next, end)) continue;
            // (A `break` or `continue` that leaves the enclosing except clauses too: their
            // POP_EXCEPTs and, for `break`, the for loop's iterator dropped, then the jump.)
            if (int to = loop && cfg_.block(next).preds.size() == 1 ? jump_after_leaving_clauses(next) : -1;
                ends_iteration(loop, to)) {
                loop_targets.insert(to);
                continue;
            }
            // (Likewise after the __exit__ calls of open with statements.)
            if (int to = !loop || !copies ? -1 : std::max(jump_after_finally_copies(next, end), jump_after_with_exits(next, end));
                to >= 0 && (to == loop->header || to == loop->break_to)) {
                loop_targets.insert(to);
                copies->insert(next);
                continue;
            }
            // (A while loop's `break` that the compiler threaded to the enclosing loop's next
            // iteration, past the end of the statement, goes on no other way: no multi-level
            // `continue` exists.)
            bool threaded_break = loop && !loop->is_for && loop->outer && next == next_iteration(loop->outer);
            // (3.8/3.9: a clause that falls off its end, at the end of the loop's body, jumps to the
            // next iteration too (the peephole threads its jump past the statement), but leaves no
            // dead jump after it as a `continue` does: it goes on there, as the statement does.)
            bool falls_to_next_iteration = loop && next == loop->header && is_natural_clause_end(end);
            (loop && (next == loop->header || next == loop->break_to || threaded_break) && !falls_to_next_iteration ? loop_targets
                                                                                                                 : targets)
                .insert(next);
        }
        return true;
    }

    // Where the jump after one or more POP_EXCEPTs (and pops of values, a for loop's iterator) in
    // `block` goes; -1: not that shape.
    int jump_after_leaving_clauses(int block) const {
        const Block& blk = cfg_.block(block);
        size_t i = blk.first, pops = 0;
        for (; i < blk.last && (ops_[i].kind == N::PopExcept || ops_[i].kind == N::Nop); ++i) pops += ops_[i].kind == N::PopExcept;
        for (; i < blk.last && (ops_[i].kind == N::Pop || ops_[i].kind == N::Nop); ++i) {}
        if (pops == 0 || i + 1 != blk.last || ops_[i].kind != N::Jump) return -1;
        return cfg_.block_at_offset(ops_[i].target);
    }

    // Whether `block` only pops values (a for loop's iterator below a returned value) and then
    // returns a constant (or the value), jumps, or falls on.
    bool only_unwinds(int block) const {
        const Block& blk = cfg_.block(block);
        for (size_t i = blk.first; i < blk.last; ++i) {
            N k = ops_[i].kind;
            bool constant_returned = k == N::LoadConst && i + 2 == blk.last && ops_[i + 1].kind == N::Return;
            if (k != N::Nop && k != N::Pop && !(k == N::Swap && ops_[i].arg == 2) && k != N::Jump && k != N::Return && !constant_returned)
                return false;
        }
        return true;
    }

    // The ops (Nops aside) of the straight line of blocks from `block` up to and including the
    // first jump, through at most `max_blocks` blocks of one successor each (their numbers in
    // `blocks`); empty where it is not that.
    std::vector<const NeutralOp*> ops_up_to_jump(int block, size_t max_blocks, std::set<int>* blocks = nullptr) const {
        std::vector<const NeutralOp*> tail;
        std::set<int> seen;
        for (int b = block; tail.empty() || tail.back()->kind != N::Jump; b = cfg_.block(b).succs[0]) {
            const Block& blk = cfg_.block(b);
            if (!seen.insert(b).second || seen.size() > max_blocks) return {};
            for (size_t i = blk.first; i < blk.last; ++i)
                if (ops_[i].kind != N::Nop) tail.push_back(&ops_[i]);
            if (blk.succs.size() != 1) return {};
        }
        if (blocks) *blocks = std::move(seen);
        return tail;
    }

    // Where the jump after exactly one with statement's `__exit__(None, None, None)` call, the
    // ops from `block` (in one straight line), goes; -1: not that shape.
    int exit_call_then_jump(int block) const {
        std::vector<const NeutralOp*> tail = ops_up_to_jump(block, 4);
        if (tail.size() < 2) return -1;
        if (with_exit_call_end(tail, 0, tail.size() - 1, true) != tail.size() - 1) return -1;
        return cfg_.block_at_offset(tail.back()->target);
    }

    // Whether the last five ops of `block` (Nops aside) are a with statement's
    // `__exit__(None, None, None)` call.
    bool ends_with_exit_call(int block) const {
        const Block& blk = cfg_.block(block);
        if (blk.last < blk.first + 5) return false;
        std::vector<const NeutralOp*> ops;
        for (size_t i = blk.last - 5; i < blk.last; ++i)
            if (ops_[i].kind != N::Nop) ops.push_back(&ops_[i]);
        return !ops.empty() && with_exit_call_end(ops, 0, ops.size(), true) == ops.size();
    }

    // Where the jump after the __exit__ calls of open with statements (and `opening` more, being
    // opened) from `block` goes (-1: not that shape, or code other than the clause's block `from`
    // reaches its blocks): `continue` or
    // `break` inside with statements, as the compiler writes it after an except clause's POP_EXCEPT
    // (each with's `__exit__(None, None, None)`, innermost first, then the jump).
    int jump_after_with_exits(int block, int from, size_t opening = 0) const {
        std::set<int> blocks;
        std::vector<const NeutralOp*> tail = ops_up_to_jump(block, 8, &blocks);
        if (tail.empty()) return -1;
        size_t k = 0, end = tail.size() - 1, exits = 0;
        while (k < end && (tail[k]->kind == N::PopBlock || tail[k]->kind == N::PopExcept)) ++k;
        while (k < end) {
            k = with_exit_call_end(tail, k, end, true);
            if (!k) return -1;
            ++exits;
        }
        if (exits == 0 || exits > count_open_withs() + opening || !reached_only_from_within(from, blocks)) return -1;
        return cfg_.block_at_offset(tail.back()->target);
    }

    // `return value` inside with statements, as the compiler writes it after an except clause's
    // POP_EXCEPT: each with's `__exit__(None, None, None)` (its exit function is on the stack,
    // below), innermost first, then the return; a value computed in the clause is swapped below
    // each exit function first. Written in the clause, the `return` compiles to the same ops.
    // (And the except clauses and for loops around them: see unwinding_end.)
    bool is_return_leaving_withs(int block) const {
        std::vector<const NeutralOp*> tail = straight_ops(block);
        if (tail.empty() || tail.back()->kind != N::Return) return false;
        bool constant = tail.size() >= 2 && tail[tail.size() - 2]->kind == N::LoadConst;
        size_t k = 0, end = tail.size() - (constant ? 2 : 1), exits = 0;
        while (k < end && (tail[k]->kind == N::PopBlock || tail[k]->kind == N::PopExcept)) ++k;
        return unwinding_end(tail, k, end, constant, exits) == end && exits > 0;
    }

    // `POP_EXCEPT...; return constant`, in one block.
    bool is_return_leaving_clauses(int block) const {
        const Block& blk = cfg_.block(block);
        size_t i = blk.first;
        while (i < blk.last && ops_[i].kind == N::PopExcept) ++i;
        if (i == blk.first) return false;
        if (i + 2 == blk.last && ops_[i].kind == N::LoadConst) ++i;
        return i + 1 == blk.last && ops_[i].kind == N::Return;
    }

    // Whether the constant that `block` loads first entered co_consts after every constant (in
    // source order) that the blocks laid out before `start` use: compiled from there on.
    bool constant_first_used_from(int block, int start) {
        std::set<int64_t> own, before;
        indices_of_block(block, kHasConst, own);
        if (own.size() != 1) return false;
        for (int k = 0; k < start; ++k) indices_of_block(k, kHasConst, before);
        return before.empty() || *own.begin() > *before.rbegin();
    }

    // Whether `block`, a bare `return <constant>` other than None at a try body's normal exit, has
    // a line before the first of the handler at `handler`: a return written in the body (3.10's
    // copy of a return after the statement keeps that return's line, after the clauses; of the
    // implicit `return None`, the body's last line, which says nothing).
    bool returns_on_body_line(int block, int handler) const {
        const NeutralOp& load = ops_[cfg_.block(block).first];
        int handler_line = -1;
        const Block& h = cfg_.block(handler);
        for (size_t i = h.first; i < h.last && handler_line < 0; ++i) handler_line = ops_[i].line;
        return load.line >= 0 && handler_line >= 0 && load.line < handler_line && load.value &&
               load.value->kind != PyValue::Kind::None;
    }

    // A block that only returns a constant (LOAD_CONST; RETURN_VALUE; RETURN_CONST is read so too).
    bool is_bare_constant_return(int block) const {
        const Block& blk = cfg_.block(block);
        return blk.last - blk.first == 2 && ops_[blk.first].kind == N::LoadConst && ops_[blk.first + 1].kind == N::Return;
    }

    // Whether the straight code from `block` ends in `return <constant>`.
    bool returns_constant_at_end(int block) const {
        std::vector<const NeutralOp*> ops = straight_ops(block);
        return ops.size() >= 2 && ops.back()->kind == N::Return && ops[ops.size() - 2]->kind == N::LoadConst;
    }

    bool is_lone_return(int block) const {
        const Block& blk = cfg_.block(block);
        return blk.last - blk.first == 1 && ops_[blk.first].kind == N::Return;
    }

    // Values on the stack above `from` that are not plain names or constants, each written to a
    // temporary (in stack order, which is the order they were computed) and replaced by its name.
    void spill_values(Body& out, std::vector<ExprPtr>& stack, size_t from) {
        for (size_t k = from; k < stack.size(); ++k) {
            if (!is_shareable(stack[k]) || consumed_after_cleanup_.count(stack[k].get())) continue;
            StmtPtr assign_stmt = temporary_assignment(stack[k]);
            out.push_back(assign_stmt);
            replace_everywhere(stack, stack[k], assign_stmt->targets[0]);
        }
    }

    // Flow that leaves a try or with body other than at its exit, at block `b` (`return v` inside
    // it, through the compiler's copies of finally bodies or __exit__ calls): a value the body left
    // there was computed before those copies run, as the source says, and is no part of their
    // statements.
    void mark_values_leaving_body(int b, const std::vector<ExprPtr>& stack, size_t base) {
        if (protected_bodies_.empty()) return;
        const ProtectedBody& p = protected_bodies_.back();
        std::span<const int> preds = cfg_.block(b).preds;
        if (b != p.exit && !in_body(b, p.handler, p.uncovered) &&
            std::any_of(preds.begin(), preds.end(), [&](int q) { return in_body(q, p.handler, p.uncovered); }))
            for (size_t k = std::max(p.depth, base); k < stack.size(); ++k)
                if (!is_marker_value(stack[k])) consumed_after_cleanup_.insert(keep(stack[k]));
    }

    // A try or with statement whose protected body starts at `start`.
    int emit_protected(int start, int handler, int stop, Body& out, Loop* loop, std::vector<ExprPtr>& stack, size_t base) {
        const HandlerInfo info = handlers_.at(handler);
        std::vector<bool> uncovered = uncovered_body_blocks(start, handler);
        int exit = normal_exit(start, handler, uncovered, loop);
        std::vector<ExprPtr> body_stack = stack_copy(stack);
        Body body;
        open_handlers_.insert(handler);
        bool is_with = info.kind == HandlerKind::With;
        ExprPtr entered = is_with && !stack.empty() ? stack.back() : nullptr;
        if (is_with && (!entered || !with_context_.count(entered.get())))
            unsupported("a with block without BEFORE_WITH (block at " + std::to_string(cfg_.block(start).offset) + ", handler at " + std::to_string(cfg_.block(handler).offset) + ")");
        // A try that starts with values below it on the stack (a rewriter's try around the call of a
        // callable loaded before it): no source keeps values across a try, so they get names first.
        // The handler unwinds to its depth; the normal path goes on with the names.
        bool values_across_try = !is_with && !info.lasti && info.depth < stack.size() && info.depth >= base;
        if (values_across_try) {
            spill_values(out, stack, base);
            body_stack = stack;
        }
        protected_bodies_.push_back({handler, exit, loop, std::move(uncovered), is_with ? stack.size() - 1 : stack.size()});
        bool body_flows = emit_region(start, exit, body, loop, body_stack, is_with ? stack.size() - 1 : base);
        protected_bodies_.pop_back();
        // ...and what such a body leaves on the stack for later is named inside the body, where it
        // was computed (not after the clean-up code that follows it).
        if (values_across_try && body_flows) spill_values(body, body_stack, base);
        open_handlers_.erase(handler);
        size_t normal_depth = is_with ? stack.size() - 1 : stack.size();
        if (!is_with && body_flows && exit >= 0 && body_stack.size() == normal_depth + 1)
            body_flows = return_from_body(exit, body, loop, body_stack, base);
        if (is_with) {
            std::vector<ExprPtr> stack_at_start = std::exchange(stack, std::move(body_stack));
            return finish_with(entered, body, body_flows, exit, stop, out, loop, stack, stack_at_start, normal_depth, base, handler);
        }

        if (info.lasti || (info.depth != stack.size() && !values_across_try))
            unsupported("a try statement with values on the stack");
        std::vector<ExprPtr> handler_stack(stack.begin(), stack.begin() + long(info.depth));
        handler_stack.push_back(exception_.get());
        int after = handler_exit(handler, exit, loop);
        // Clauses that all leave by continue/break (which they then say): the statement ends where
        // the layout says, or where the enclosing region does when the body goes on there.
        if (body_flows && exit >= 0 && loop && (after == loop->header || after == loop->break_to)) {
            if (int end = end_of_try_left_by_clauses(handler, exit); end >= 0) after = end;
            else if (exit == stop) after = stop;
        }
        Body handler_body;
        open_clauses_.push_back({after, loop, protected_bodies_.size()});
        struct ClauseGuard {
            std::vector<OpenClause>& v;
            ~ClauseGuard() { v.pop_back(); }
        } clause_guard{open_clauses_};
        std::vector<ExceptHandler> star_clauses;
        bool star = is_except_star_handler(handler);
        bool handler_flows = true;
        Body star_tail;
        if (star) after = emit_except_star_clauses(handler, after, body_flows ? exit : -1, star_clauses, handler_stack, star_tail);
        else handler_flows = emit_region(handler, after, handler_body, loop, handler_stack, base);
        if (!star) hoist_else_after_leaving_if(handler_body, [&](const StmtPtr& s) { return is_reraise(s); });
        if (!star && !handler_body.empty() && is_reraise(handler_body.back()) && !tail_after_clause_.count(handler_body.back().get())) {
            StmtPtr reraise = handler_body.back();
            handler_body.pop_back();
            fold_copied_tail(handler_body, print_module(Body{reraise}));
            strip_copied_tail(handler_body, print_module(Body{reraise}), true);
            stack = std::move(body_stack);
            return finish_finally(body, handler_body, handler, body_flows, exit, stop, out, loop, stack, normal_depth, base);
        }
        // A finally body that always leaves ends in no re-raise. Its handler keeps the exception below
        // the body (an except clause pops it first); known by a return in the body whose value the
        // body's way out dropped (see dropped_returns_), which only a finally body's copy does.
        if (!star && !handler_flows && !pops_exception_first(handler) &&
            holds_any(body, [&](const Stmt& st) { return dropped_returns_.count(&st) != 0; })) {
            stack = std::move(body_stack);
            return finish_finally(body, handler_body, handler, body_flows, exit, stop, out, loop, stack, normal_depth, base);
        }
        auto t = make_stmt(StmtKind::Try);
        t->body = body.empty() ? Body{make_stmt(StmtKind::Pass)} : body;
        try_handler_[t.get()].push_back(handler);
        dropped_copies_.push_back(t);  // (kept alive: its address is a key)
        t->handlers = star ? std::move(star_clauses) : except_clauses(handler_body);
        if (!star && loop && after == loop->header) strip_clause_end_continues(t->handlers);
        t->is_star = star;
        if (!body_flows) body_never_goes_on_.insert(t.get());
        if (body_flows && body_stack.size() != normal_depth) unsupported("a try body that leaves values on the stack");
        if (!star_tail.empty()) {
            // (The except* clauses' way out returns: the statement after this one, only they reach.)
            if (body_flows) unsupported("an except* statement whose clauses and body go on differently");
            stack = std::move(body_stack);
            emit_stmt(out, t);
            for (const StmtPtr& s : star_tail) emit_stmt(out, s);
            return kFlowEnded;
        }
        if (after < 0) {
            // No clause goes on. Code at the normal exit laid out before the handler is the `else`
            // clause (what comes after the statement is jumped to, past the handler).
            int exit_to = through_jumps(exit);
            // (Where the body's way on is the jump to the next iteration or out of the loop.)
            const bool exit_leaves_iteration = ends_iteration(loop, exit_to);
            // (Before 3.10 the else clause follows the handler, and each clause, never going on,
            // keeps the compiler's dead jump to the end of the statement after it: past the code the
            // body goes on to, that code up to there is the `else:`; at it, there is none.)
            if (body_flows && exit >= 0 && dead_code_kept_ && exit_to > handler && !exit_leaves_iteration) {
                int end = end_of_try_left_by_clauses(handler, exit);
                if (end > exit_to && (stop < 0 || end <= stop)) {
                    bool else_flows = emit_region(exit, end, t->orelse, loop, body_stack, base);
                    stack = std::move(body_stack);
                    require_no_raise_after_clause(*t);
                    emit_stmt(out, t);
                    return else_flows ? end : kFlowEnded;
                }
                if (end == exit_to) {
                    stack = std::move(body_stack);
                    require_no_raise_after_clause(*t);
                    emit_stmt(out, t);
                    return exit;
                }
                // (No clause left a dead jump, but the function's implicit `return None` follows,
                // dead, the one simple statement that ends the code the body goes on to: that
                // code is inside a compound statement, the `else:` (were it the function's last
                // statement, a return, the compiler would not have added one).)
                if (end < 0 && stop < 0 && !loop && ends_before_dead_implicit_return(exit_to)) {
                    Body rest;
                    bool rest_flows = emit_region(exit, stop, rest, loop, body_stack, base);
                    stack = std::move(body_stack);
                    require_no_raise_after_clause(*t);
                    if (!rest_flows) t->orelse = std::move(rest);
                    emit_stmt(out, t);
                    for (const StmtPtr& st : rest) emit_stmt(out, st);
                    return rest_flows ? stop : kFlowEnded;
                }
            }
            // (The end of the enclosing region, such as where the sides of an enclosing `if` meet, is
            // what follows the statement.)
            int else_stop = -1;
            // (3.13 lays out the exit of an enclosing except clause, `POP_EXCEPT; jump`, right
            // after a try statement inside it: that is where the clause ends, not an `else`.)
            bool leaves_clause = exit >= 0 && leaves_clause_to(exit, stop);
            // The body goes on to code laid out before the handler: an `else:`, the body's own
            // return, or the code after the statement.
            const bool on_before_handler = body_flows && exit >= 0 && exit < handler && exit != stop && !leaves_clause;
            // A `return <constant>` that ends the body: 3.8-3.10 load the constant after the body's
            // POP_BLOCK, at the normal exit, laid out before the handler. Compiled before the
            // clauses, it is the body's (those versions compile an `else:` after the clauses).
            // (3.10 also copies a return after the statement there: its constant, used first
            // before the statement, says nothing; one first used in the body does.)
            if (else_compiled_after_clauses_ && on_before_handler && is_bare_constant_return(exit) &&
                !compiled_after_clauses(start, {exit}, handler) &&
                (!exits_copied_ || constant_first_used_from(exit, start) || returns_on_body_line(exit, handler))) {
                if (body.empty()) t->body.clear();  // (the `pass` put there for an empty body)
                emit_region(exit, -1, t->body, loop, body_stack, base);
                stack = std::move(body_stack);
                // (Clauses that end with the compiler's copy of the code after the statement: it
                // follows the statement.)
                if (hoist_copied_tail(t, out)) return kFlowEnded;
                require_no_raise_after_clause(*t);
                emit_stmt(out, t);
                return kFlowEnded;
            }
            if (on_before_handler && !exit_leaves_iteration) {
                for (int blk = exit; blk < handler; ++blk)
                    for (int s : cfg_.block(blk).succs)
                        if (s > handler && (else_stop < 0 || s < else_stop)) else_stop = s;
                if (stop > exit && (else_stop < 0 || else_stop > stop)) else_stop = stop;
                // (In a loop whose test is repeated at the bottom, the end of the body is that test.)
                if (else_stop < 0 && loop && loop->bottom_jump >= 0 && stop == next_iteration(loop)) else_stop = stop;
                // (An `else` that ends the enclosing except clause, laid out before the handler
                // (3.13), ends where that clause goes on.)
                if (else_stop < 0 && stop >= 0 && stop < exit)
                    for (int blk : flow_from(exit, handler))
                        if (leaves_clause_to(blk, stop)) else_stop = stop;
            }
            int else_end = else_stop > exit && else_stop < handler ? else_stop : handler;
            // (Clauses that end with the compiler's copy of the code after the statement: that
            // code is read as an `else:` that is the same copy, and printed once after it.)
            bool copied_tail = false;
            for (const auto& h : t->handlers) copied_tail = copied_tail || (!h.body.empty() && tail_after_clause_.count(h.body.back().get()));
            if (on_before_handler && !exit_leaves_iteration &&
                (copied_tail || !compiled_after_clauses(start, flow_from(exit, else_end), handler))) {
                bool else_flows = emit_region(exit, else_stop, t->orelse, loop, body_stack, base);
                stack = std::move(body_stack);
                if (!else_flows && hoist_copied_tail(t, out)) return kFlowEnded;
                if (!else_flows && hoist_shared_return(t, out)) return kFlowEnded;
                require_no_raise_after_clause(*t);
                emit_stmt(out, t);
                return else_flows ? else_stop : kFlowEnded;
            }
            if (on_before_handler && !loop) {
                if (StmtPtr ret = clause_returns_follow_else(*t, exit, handler)) {
                    bool else_flows = emit_region(exit, -1, t->orelse, loop, body_stack, base);
                    if (else_flows) unsupported("an else clause laid out before its handler that goes on");
                    stack = std::move(body_stack);
                    // (Clauses that each end with a copy of all of that code, more than its return:
                    // the short code after the statement, which 3.10 copies whole into each clause.
                    // An else clause would leave the clauses only the return.)
                    const size_t n = t->orelse.size();
                    if (n >= 2 && common_clause_ending(*t) == n) {
                        for (ExceptHandler& h : t->handlers) {
                            dropped_copies_.insert(dropped_copies_.end(), h.body.end() - long(n), h.body.end());
                            h.body.resize(h.body.size() - n);
                            if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
                        }
                        Body tail = std::move(t->orelse);
                        t->orelse.clear();
                        require_no_raise_after_clause(*t);
                        emit_stmt(out, t);
                        for (const StmtPtr& st : tail) emit_stmt(out, st);
                        return kFlowEnded;
                    }
                    for (ExceptHandler& h : t->handlers) {
                        dropped_copies_.push_back(h.body.back());
                        h.body.pop_back();
                        if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
                    }
                    require_no_raise_after_clause(*t);
                    emit_stmt(out, t);
                    emit_stmt(out, ret);
                    return kFlowEnded;
                }
            }
            stack = std::move(body_stack);
            if ((!body_flows || exit < 0) && hoist_copied_tail(t, out)) return kFlowEnded;
            require_no_raise_after_clause(*t);
            emit_stmt(out, t);
            return body_flows && exit >= 0 ? exit : kFlowEnded;
        }
        // Clauses that each end by `continue` or `break` of their own: the code the body goes on to,
        // compiled after them (3.11+, see compiled_after_clauses), is the code after the statement,
        // which only the body reaches (`except OSError: continue`, then more of the loop body).
        // (That code ends with the loop body: a `break` goes on past the loop.)
        if (body_flows && exit >= 0 && exit != after && exit < handler && ends_iteration(loop, after) && !t->handlers.empty() &&
            std::all_of(t->handlers.begin(), t->handlers.end(), [](const ExceptHandler& h) {
                return !h.body.empty() && (h.body.back()->kind == StmtKind::Continue || h.body.back()->kind == StmtKind::Break);
            }) &&
            compiled_after_clauses(start, blocks_in_loop(flow_from(exit, handler), *loop), handler)) {
            stack = std::move(body_stack);
            require_no_raise_after_clause(*t);
            emit_stmt(out, t);
            return exit;
        }
        bool else_flows = body_flows;
        // (The body's way out is 3.12+'s copy of the end of the except clause around, where this
        // statement's clauses go on at another copy: the end of the statement, no `else:`. An
        // else clause would run before that POP_EXCEPT.)
        if (body_flows && exit >= 0 && exit != after && after >= 0 && same_returning_clause_end(exit, after))
            clause_exit_copies_.insert(exit);
        if (body_flows && exit >= 0 && exit != after) {
            else_flows = emit_region(exit, after, t->orelse, loop, body_stack, base);
            // A `break` laid out before the handler whose jump goes straight out of the loop ends
            // the body: 3.8-3.10 compile an `else:` after the clauses, reached by a jump past them.
            // (`try: x = load(name); break` / `except E: pass`.)
            const NeutralOp& jump = ops_[cfg_.block(exit).last - 1];
            // (Likewise a `continue` whose jump goes straight back to the loop's header.)
            if (else_compiled_after_clauses_ && !else_flows && exit < handler && loop && jump.kind == N::Jump && t->orelse.size() == 1 &&
                ((cfg_.block_at_offset(jump.target) == loop->break_to && t->orelse[0]->kind == StmtKind::Break) ||
                 (cfg_.block_at_offset(jump.target) == loop->header && t->orelse[0]->kind == StmtKind::Continue))) {
                drop_lone_pass(t->body);
                t->body.push_back(t->orelse[0]);
                t->orelse.clear();
            }
            // So does a `return <constant>` there: 3.8-3.10 load the constant after the body's
            // POP_BLOCK (see the same rule where no clause goes on), and compile an `else:` after
            // the clauses. (`try: f(); return True` / `except E: log()`, then more code.)
            if (else_compiled_after_clauses_ && !else_flows && exit < handler && is_bare_constant_return(exit) &&
                t->orelse.size() == 1 && t->orelse[0]->kind == StmtKind::Return &&
                !compiled_after_clauses(start, {exit}, handler) &&
                (!exits_copied_ || constant_first_used_from(exit, start) || returns_on_body_line(exit, handler))) {
                drop_lone_pass(t->body);
                t->body.push_back(t->orelse[0]);
                t->orelse.clear();
            }
        }
        // Only the clauses going on: they leave the stack the statement started from.
        if (else_flows || !handler_flows) stack = std::move(body_stack);
        else if (handler_stack.size() != stack.size()) unsupported("an except clause that leaves values on the stack");
        require_no_raise_after_clause(*t);
        emit_stmt(out, t);
        return else_flows || handler_flows ? after : kFlowEnded;
    }

    // ---------------------------------------------------------------- try/except* (3.11+, PEP 654)
    // The handler keeps the raised group, the list of groups the clauses raise and the part not
    // matched yet; each clause splits off its match:
    //   PUSH_EXC_INFO; ExceptStarBegin;
    //   per clause: <type>; CheckEgMatch; COPY 1; JumpIf None -> no_match;
    //               STORE name | POP_TOP; <body, under the clause's handler>;
    //               [name = None; del name]; jump -> next          no_match: POP_TOP; next:
    //   the clause's handler: [name = None; del name]; LIST_APPEND 3; POP_TOP; jump -> next
    //   end: LIST_APPEND 1; PrepReraiseStar; COPY 1; JumpIf NotNone -> reraise; POP_TOP; POP_EXCEPT;
    //        jump -> after                reraise: SWAP 2; POP_EXCEPT; RERAISE 0
    // (`return`, `break` and `continue` cannot leave an except* clause: a clause body flows to
    // its end or raises.)
    // An except* clause's own handler: `[name = None; del name;] LIST_APPEND 3; POP_TOP; ...`, which
    // adds what the clause raised to the list and goes on to the next clause.
    static bool is_except_star_clause_handler(const std::vector<const NeutralOp*>& ops) {
        size_t k = 0;
        while (k < ops.size() && ops[k]->kind == N::Nop) ++k;
        if (k + 3 <= ops.size() && ops[k]->kind == N::LoadConst && ops[k + 1]->kind == N::Store && ops[k + 2]->kind == N::Delete) k += 3;
        return k + 1 < ops.size() && ops[k]->kind == N::ListAppend && ops[k]->arg == 3 && ops[k + 1]->kind == N::Pop;
    }

    bool is_except_star_handler(int handler) const {
        const Block& hb = cfg_.block(handler);
        return hb.last - hb.first >= 2 && ops_[hb.first].kind == N::PushExcInfo && ops_[hb.first + 1].kind == N::ExceptStarBegin;
    }

    // Ops of `block` other than Nops.
    std::vector<const NeutralOp*> real_ops(int block) const {
        std::vector<const NeutralOp*> ops;
        const Block& blk = cfg_.block(block);
        for (size_t i = blk.first; i < blk.last; ++i)
            if (ops_[i].kind != N::Nop) ops.push_back(&ops_[i]);
        return ops;
    }

    // `name = None; del name` at ops[k...] (the compiler's unbinding of `except* ... as name`).
    static bool is_name_unbinding(const std::vector<const NeutralOp*>& ops, size_t k, const std::string& name) {
        return k + 2 < ops.size() && ops[k]->kind == N::LoadConst && ops[k]->value && ops[k]->value->kind == PyValue::Kind::None &&
               ops[k + 1]->kind == N::Store && ops[k + 1]->name == name && ops[k + 2]->kind == N::Delete && ops[k + 2]->name == name;
    }

    // Where an except* clause goes on after ops[k...] of `block` (its last ops): the next clause,
    // or the end. The end adds the unmatched rest to the list (LIST_APPEND 1) and re-raises what is
    // left (PrepReraiseStar); 3.13 copies the LIST_APPEND 1 into each way there, then `appended`.
    struct StarNext {
        int block = -1;
        bool appended = false;
        bool operator==(const StarNext& o) const { return block == o.block && appended == o.appended; }
    };

    StarNext star_next(const std::vector<const NeutralOp*>& ops, size_t k, int block) {
        StarNext next;
        if (k < ops.size() && ops[k]->kind == N::ListAppend && ops[k]->arg == 1) {
            next.appended = true;
            ++k;
        }
        if (k + 1 < ops.size()) return {};
        int to = -1;
        if (k < ops.size()) {
            if (ops[k]->kind != N::Jump) return {};
            to = cfg_.block_at_offset(ops[k]->target);
        } else {
            const Block& blk = cfg_.block(block);
            if (blk.succs.size() != 1 || blk.succs[0] != block + 1 || is_block_terminator(ops_[blk.last - 1].kind)) return {};
            to = block + 1;
        }
        if (to != block + 1 || (k < ops.size() && !next.appended)) emit_jump_chain(to);
        next.block = through_jumps(to);
        if (next.appended) {
            std::vector<const NeutralOp*> end = real_ops(next.block);
            if (end.empty() || end[0]->kind != N::PrepReraiseStar) return {};
        }
        return next;
    }

    // Marks the blocks a jump chain from `block` goes through as emitted.
    void emit_jump_chain(int block) {
        for (int steps = 0; block >= 0 && steps < 16; ++steps) {
            const Block& blk = cfg_.block(block);
            if (blk.last - blk.first != 1 || ops_[blk.first].kind != N::Jump) break;
            emitted_[block] = true;
            block = cfg_.block_at_offset(ops_[blk.first].target);
        }
    }

    // The clauses of the except* handler at `handler`, whose statement goes on at `after` (-1: the
    // way out is a copy of the code at the body's normal exit `exit`); returns where they go on.
    // `stack` is the handler's: the statement's, then the exception.
    // When only the clauses go on, into a copy of a `return` (the body never does), that `return`
    // is `tail` and the result is -1.
    int emit_except_star_clauses(int handler, int after, int exit, std::vector<ExceptHandler>& clauses, std::vector<ExprPtr>& stack,
                                 Body& tail) {
        auto refuse = [&](const char* why) { unsupported(std::string("an except* statement of an unusual shape: ") + why); };
        if (stack.empty() || !exception_.is(stack.back())) refuse("handler stack");
        // The clauses run above the previous exception, the group, the list and the unmatched rest.
        std::vector<ExprPtr> clause_stack(stack.begin(), stack.end() - 1);
        clause_stack.push_back(previous_exception_.get());
        clause_stack.push_back(exception_.get());
        clause_stack.push_back(marker("<raised groups>"));
        clause_stack.push_back(marker("<unmatched group>"));
        emitted_[handler] = true;
        int b = handler;
        size_t k = 2;  // past PushExcInfo, ExceptStarBegin
        std::vector<const NeutralOp*> ops = real_ops(b);
        while (true) {
            if (k < ops.size() && ops[k]->kind == N::ListAppend) break;  // the end
            // The clause's type, computed from nothing on the stack, with no statements.
            std::vector<ExprPtr> type_stack;
            Body type_out;
            for (; k < ops.size() && ops[k]->kind != N::CheckEgMatch; ++k) {
                if (is_block_terminator(ops[k]->kind)) refuse("clause type");
                step_op(*ops[k], type_stack, type_out);
            }
            if (type_stack.size() != 1 || !type_out.empty()) refuse("clause type");
            if (k + 3 != ops.size() || ops[k + 1]->kind != N::Copy || ops[k + 1]->arg != 1 || ops[k + 2]->kind != N::JumpIf ||
                ops[k + 2]->condition != JumpCondition::IfNone)
                refuse("clause test");
            ExceptHandler clause;
            clause.type = type_stack[0];
            int no_match = cfg_.block_at_offset(ops[k + 2]->target);
            // No match: POP_TOP, on to the next clause.
            std::vector<const NeutralOp*> nm = real_ops(no_match);
            if (nm.empty() || nm[0]->kind != N::Pop) refuse("no match");
            emitted_[no_match] = true;
            StarNext next = star_next(nm, 1, no_match);
            if (next.block < 0) refuse("no match");
            // The clause read: on to the next one, where its test starts (true: that was the last).
            auto next_clause = [&](ExceptHandler& done) {
                if (done.body.empty()) done.body.push_back(make_stmt(StmtKind::Pass));
                clauses.push_back(std::move(done));
                if (next.block <= b) refuse("next clause");
                b = next.block;
                emitted_[b] = true;
                ops = real_ops(b);
                k = 0;
                return next.appended;
            };
            // Match: bound to the name or dropped; the body follows under the clause's own handler.
            int bind = b + 1;
            std::vector<const NeutralOp*> bops = real_ops(bind);
            if (bops.empty() || (bops[0]->kind != N::Store && bops[0]->kind != N::Pop)) refuse("clause binding");
            if (bops[0]->kind == N::Store) clause.name = bops[0]->name;
            emitted_[bind] = true;
            size_t h = clause.name.empty() ? 0 : 3;
            if (bops.size() > 1) {
                // A body that cannot raise (`pass`) has no handler: its way on follows the binding.
                if ((h && !is_name_unbinding(bops, 1, clause.name)) || !(star_next(bops, 1 + h, bind) == next))
                    refuse("clause binding");
                if (next_clause(clause)) break;
                continue;
            }
            int body_start = bind + 1;
            // (The clause's handler is the one just inside the except* handler's own: the body may
            // start with a try statement of its own.)
            int clause_handler = -1;
            for (int c : handler_chain(body_start)) {
                if (c == cfg_.block(bind).handler) break;
                clause_handler = c;
            }
            if (clause_handler < 0 || !inside(clause_handler, cfg_.block(bind).handler)) refuse("clause body");
            // The clause's handler adds what the body raised to the list.
            std::vector<const NeutralOp*> hops = real_ops(clause_handler);
            if ((h && !is_name_unbinding(hops, 0, clause.name)) || hops.size() < h + 2 || hops[h]->kind != N::ListAppend ||
                hops[h]->arg != 3 || hops[h + 1]->kind != N::Pop || !(star_next(hops, h + 2, clause_handler) == next))
                refuse("clause handler");
            emitted_[clause_handler] = true;
            // The body: the blocks under the clause's handler (and those the table leaves out).
            std::vector<bool> uncovered = uncovered_body_blocks(body_start, clause_handler);
            int stop = body_start + 1;
            while (stop < cfg_.size() && in_body(stop, clause_handler, uncovered)) ++stop;
            if (stop >= cfg_.size() || stop > clause_handler) refuse("clause body end");
            std::vector<ExprPtr> body_stack = stack_copy(clause_stack);
            bool flows = emit_region(body_start, stop, clause.body, nullptr, body_stack, clause_stack.size());
            if (flows) {
                if (body_stack.size() != clause_stack.size() || stop == clause_handler) refuse("clause body stack");
                std::vector<const NeutralOp*> end = real_ops(stop);
                if ((h && !is_name_unbinding(end, 0, clause.name)) || !(star_next(end, h, stop) == next)) refuse("clause end");
                emitted_[stop] = true;
            }
            strip_name_cleanup(clause.body, clause.name);
            if (next_clause(clause)) break;
        }
        // The end: re-raise what the clauses raised and did not match, or go on.
        if (k < ops.size() && ops[k]->kind == N::ListAppend && ops[k]->arg == 1) ++k;
        else if (k != 0 || ops.empty() || ops[0]->kind != N::PrepReraiseStar) refuse("end");
        if (ops.size() != k + 3 || ops[k]->kind != N::PrepReraiseStar || ops[k + 1]->kind != N::Copy ||
            ops[k + 1]->arg != 1 || ops[k + 2]->kind != N::JumpIf || ops[k + 2]->condition != JumpCondition::IfNotNone)
            refuse("end");
        int reraise = cfg_.block_at_offset(ops[k + 2]->target);
        std::vector<const NeutralOp*> rops = real_ops(reraise);
        if (rops.size() != 3 || rops[0]->kind != N::Swap || rops[0]->arg != 2 || rops[1]->kind != N::PopExcept ||
            rops[2]->kind != N::Reraise || rops[2]->arg != 0)
            refuse("re-raise");
        emitted_[reraise] = true;
        // The way out: POP_TOP; POP_EXCEPT; jump (3.13 starts blocks where the handlers change).
        int done = b + 1;
        std::vector<const NeutralOp*> dops = real_ops(done);
        emitted_[done] = true;
        while (dops.size() < 2 && !is_block_terminator(ops_[cfg_.block(done).last - 1].kind) && done + 1 < cfg_.size() &&
               cfg_.block(done + 1).preds.size() == 1) {
            ++done;
            emitted_[done] = true;
            std::vector<const NeutralOp*> more = real_ops(done);
            dops.insert(dops.end(), more.begin(), more.end());
        }
        if (dops.size() < 2 || dops[0]->kind != N::Pop || dops[1]->kind != N::PopExcept) refuse("way out");
        const Block& last = cfg_.block(done);
        bool falls = dops.size() == 2 && last.succs.size() == 1 && last.succs[0] == done + 1;
        if (falls || (dops.size() == 3 && dops[2]->kind == N::Jump)) {
            int to = falls ? done + 1 : cfg_.block_at_offset(dops[2]->target);
            // (A body that never goes on (it always raises) leaves the clauses' way out as the only
            // one: the statement goes on there.)
            if (after < 0 && exit < 0) after = to;
            if (after < 0 && falls && is_return_none_block(to)) {
                // (3.12: the clauses fall out of the statement at the function's end, whose
                // `return` the compiler copied after the POP_EXCEPT, into a block of its own
                // where the handlers change: as for clauses that do not go on, the body's way on
                // says what follows.)
                emitted_[to] = true;
                stack.pop_back();
                return -1;
            }
            if (after < 0 || (to != after && through_jumps(to) != through_jumps(after))) refuse("way out");
            if (to != after) emit_jump_chain(to);
            stack.pop_back();  // POP_EXCEPT: the statement's stack again
            return after;
        }
        // 3.12+ copy a short exit after the POP_EXCEPT: the same code as at the body's normal exit,
        // which the statement goes on to.
        std::vector<int> copy_blocks;
        std::vector<const NeutralOp*> copy = straight_ops_from(size_t(dops[2] - &ops_[0]), &copy_blocks);
        if (after < 0 && exit < 0 && dops.size() == 4 && (dops[2]->kind == N::Load || dops[2]->kind == N::LoadConst) &&
            dops[3]->kind == N::Return) {
            std::vector<ExprPtr> values;
            Body none;
            step_op(*dops[2], values, none);
            if (values.size() != 1 || !none.empty()) refuse("way out");
            auto ret = make_stmt(StmtKind::Return);
            ret->value = values[0];
            tail.push_back(ret);
            stack.pop_back();
            return -1;
        }
        if (after >= 0 || exit < 0 || !same_ops(copy, straight_ops(exit))) refuse("way out");
        for (int c : copy_blocks) emitted_[c] = true;
        stack.pop_back();
        return exit;
    }

    // The blocks before `until` that normal flow from `from` reaches without leaving them.
    std::vector<int> flow_from(int from, int until) const {
        std::vector<int> out;
        std::vector<bool> seen(size_t(cfg_.size()), false);
        std::vector<int> work = work_list(from);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k < from || k >= until || seen[size_t(k)]) continue;
            seen[size_t(k)] = true;
            out.push_back(k);
            for (int s : cfg_.block(k).succs) work.push_back(s);
        }
        return out;
    }

    // Those of `blocks` inside `loop` (not where a `break` goes on).
    static std::vector<int> blocks_in_loop(std::vector<int> blocks, const Loop& loop) {
        std::erase_if(blocks, [&](int k) { return !loop.blocks.count(k); });
        return blocks;
    }

    // Whether `code`, the blocks that run after the body of the try statement at `start` ends
    // normally (laid out before its handler `handler`), was compiled after the except clauses (code
    // after the statement) rather than before them (an `else:` clause). 3.11+ lay handlers out in
    // the order they were compiled: a try statement in that code whose handler comes after
    // `handler` was compiled after the clauses. And names enter co_names as they are compiled: a
    // name only that code uses with a higher index than every name only the clauses use was too.
    bool compiled_after_clauses(int start, const std::vector<int>& code, int handler) {
        for (int k : code) {
            int h = cfg_.block(k).handler;
            if (h > handler && handlers_.count(h) && handlers_.at(h).kind != HandlerKind::Cleanup && !inside(start, h)) return true;
        }
        std::vector<bool> clause(size_t(cfg_.size()), false);
        std::vector<int> work = work_list(handler);
        while (!work.empty()) {
            int k = work.back();
            work.pop_back();
            if (k < 0 || clause[size_t(k)]) continue;
            clause[size_t(k)] = true;
            // (A clause ends at its POP_EXCEPT: what it goes on to is no code of the clauses.)
            if (!pops_except_in(k))
                for (int s : cfg_.block(k).succs) work.push_back(s);
        }
        std::vector<bool> in_code_blocks(size_t(cfg_.size()), false);
        for (int k : code) in_code_blocks[size_t(k)] = !clause[size_t(k)];
        // Names, then constants: both tables are filled in the order the compiler first uses an entry.
        for (uint16_t table : {uint16_t(kHasName), uint16_t(kHasConst)}) {
            std::set<int64_t> in_clauses, in_code, elsewhere;
            for (int k = 0; k < cfg_.size(); ++k) {
                if (!clause[size_t(k)]) {
                    indices_of_block(k, table, in_code_blocks[size_t(k)] ? in_code : elsewhere);
                    continue;
                }
                // (After its POP_EXCEPT a clause's block holds the compiler's copy of the code after
                // the statement: names of neither. Its constants are the clause's: a `return 0`
                // there leaves the clause before it loads its value; and a copy of what follows the
                // statement was compiled after an `else:` too.)
                const Block& blk = cfg_.block(k);
                uint32_t end = UINT32_MAX;
                for (size_t i = blk.first; i < blk.last && end == UINT32_MAX && table == kHasName; ++i)
                    if (ops_[i].kind == N::PopExcept) end = ops_[i].offset;
                indices_of_block(k, table, in_clauses, end);
            }
            // (Only entries of the clauses that nothing else uses: where another use came first is
            // not known. An entry the code uses was added at its first use, which, were the code an
            // `else:` compiled before the clauses, came before the clauses brought in any.)
            int64_t clauses_only = -1, in_code_last = -1;
            for (int64_t n : in_clauses)
                if (!in_code.count(n) && !elsewhere.count(n) && clauses_only < 0) clauses_only = n;  // (sets iterate in order)
            for (int64_t n : in_code) in_code_last = std::max(in_code_last, n);
            if (clauses_only >= 0 && in_code_last > clauses_only) return true;
        }
        return false;
    }

    // Whether co_consts[k] entered the table where the source used it: not None (the implicit
    // `return None`, a function's first constant), nor a tuple or frozenset, which the optimizer
    // may fold out of other constants later.
    bool const_in_source_order(int64_t k) const {
        if (k < 0 || size_t(k) >= code_.consts.size()) return false;
        PyValue::Kind kind = code_.consts[size_t(k)]->kind;
        return kind != PyValue::Kind::None && kind != PyValue::Kind::Tuple && kind != PyValue::Kind::FrozenSet;
    }

    // The co_names (table kHasName) or co_consts (kHasConst) indices that the instructions of
    // `block` use; constants only where they entered co_consts in source order.
    void indices_of_block(int block, uint16_t table, std::set<int64_t>& out, uint32_t before = UINT32_MAX) {
        if (raw_.empty()) raw_ = decode_instructions(code_, table_);
        uint32_t begin = cfg_.block(block).offset;
        uint32_t end = std::min(before, block + 1 < cfg_.size() ? cfg_.block(block + 1).offset : UINT32_MAX);
        // (The instructions are in offset order: only the block's own are read.)
        auto first = std::lower_bound(raw_.begin(), raw_.end(), begin,
                                      [](const Instruction& ins, uint32_t offset) { return ins.offset < offset; });
        for (auto it = first; it != raw_.end() && it->offset < end; ++it)
            if (it->is(table) && (table != kHasConst || const_in_source_order(it->index))) out.insert(it->index);
    }

    // Try statement `t` whose body goes on at `exit`, laid out before the handler at `handler`, to
    // code that leaves (returns or raises) without reaching the handler, while every clause ends in
    // `return C` for one constant C. 3.10 copies the short code after the statement into each
    // clause after its POP_EXCEPT, which is also how a `return C` written in the clause compiles;
    // and compiles an `else:` after the clauses. So a C that entered co_consts after every constant
    // of that code was compiled after it: the code is the `else:` and `return C` follows the
    // statement. (Where the order cannot tell - code that uses no constant of its own, or the
    // `return None` ending a function without a docstring, whose first constant None is - the two
    // spellings compile the same; the `else:` reads as written.) Returns that return (else null).
    StmtPtr clause_returns_follow_else(const Stmt& t, int exit, int handler) {
        // (3.10 only: it copies exits, and compiles an `else:` after the clauses.)
        if (!exits_copied_ || !else_compiled_after_clauses_ || t.handlers.empty()) return nullptr;
        StmtPtr ret;
        for (const ExceptHandler& h : t.handlers) {
            if (h.body.empty()) return nullptr;
            const StmtPtr& last = h.body.back();
            if (last->kind != StmtKind::Return || !last->value || last->value->kind != ExprKind::Constant) return nullptr;
            if (ret && ret->value->constant != last->value->constant) return nullptr;
            ret = last;
        }
        std::vector<int> code = flow_from(exit, handler);
        for (int k : code) {
            const Block& blk = cfg_.block(k);
            for (int s : blk.succs)
                if (s < exit || s >= handler) return nullptr;
            N last = ops_[blk.last - 1].kind;
            if (blk.succs.empty() && last != N::Return && last != N::Raise && last != N::Reraise) return nullptr;
        }
        const ObjectRef& value = ret->value->constant;
        auto at = std::find(code_.consts.begin(), code_.consts.end(), value);
        if (at == code_.consts.end()) return nullptr;
        const int64_t index = at - code_.consts.begin();
        if (index == 0 && value->kind == PyValue::Kind::None) return ret;
        std::set<int64_t> used;
        for (int k : code) indices_of_block(k, kHasConst, used);
        // (None past the first slot, as after a docstring, entered where first used, like the rest.)
        if (value->kind != PyValue::Kind::None && !const_in_source_order(index)) return nullptr;
        // (Code that uses no constant compiles the same in either order.)
        if (used.count(index) || (!used.empty() && index < *used.rbegin())) return nullptr;
        return ret;
    }

    // Where a try statement whose except clauses all leave by `continue` or `break` ends (-1:
    // unknown), given the body's normal exit `exit`. What follows the body runs only when no
    // exception came, so an `else:` clause and code after the statement mean the same; the layout
    // says which the source had. 3.10+ lay out an else clause before the handler, so a body that
    // goes on past the handler goes on after the statement. Before 3.10 the else clause follows
    // the handler either way, but each clause's `continue`/`break` leaves the compiler's dead jump
    // to the end of the statement after it.
    int end_of_try_left_by_clauses(int handler, int exit) const {
        int exit_to = through_jumps(exit);
        if (exit_to < handler) return -1;
        if (!dead_code_kept_) return exit_to;
        int end = -1;
        for (int b = handler + 1; b < exit_to; ++b) {
            const Block& blk = cfg_.block(b);
            if (reachable_at_all(b) || blk.last == blk.first) continue;
            const NeutralOp& last = ops_[blk.last - 1];
            if (last.kind != N::Jump || last.target <= int64_t(last.offset)) continue;
            int target = cfg_.block_at_offset(last.target);
            if (target < exit_to || (end >= 0 && target != end)) return -1;
            end = target;
        }
        return end;
    }

    // A value returned after the POP_EXCEPT of its block, all of it computed after it: a `return`
    // written inside the clause computes its value first; this is the compiler's copy (3.10) of
    // the `return` after the try statement.
    bool computed_after_pop_except(int b, const NeutralOp* term, const ExprPtr& value) const {
        if (!pops_except_before(b, term) || !value || value->kind == ExprKind::Constant) return false;
        std::unordered_set<const Expr*> nodes;
        collect_nodes(value, nodes);
        return std::all_of(nodes.begin(), nodes.end(), [&](const Expr* e) { return e->serial > pop_except_serial_; });
    }

    // Whether the last __exit__(None, None, None) simulated ran on the way to `term` in block `b`.
    // kStraight: in `b` before it, or in a block that only falls into `b` through blocks nothing
    // else enters (a change of exception handler splits the straight code after that call).
    // kOnEveryPath: the call's block dominates `b`: what the compiler puts after that call is also
    // split by inlined comprehensions' loops (3.12+), nested try statements, and the jump back from
    // the with's handler when __exit__ suppresses an exception (which called __exit__ too).
    enum ExitBefore { kNotBefore, kStraight, kOnEveryPath };
    ExitBefore with_exit_called_before(int b, const NeutralOp* term) const {
        if (with_exit_serial_ == 0) return kNotBefore;
        uint32_t end = term->offset;
        for (int cur = b, steps = 0; cur >= 0 && steps < 8; ++steps) {
            const Block& blk = cfg_.block(cur);
            if (with_exit_offset_ >= ops_[blk.first].offset && with_exit_offset_ < end) return kStraight;
            if (blk.preds.size() != 1) break;
            int p = blk.preds[0];
            if (cfg_.block(p).succs.size() != 1 || p >= cur) break;
            cur = p;
            end = ops_[blk.first].offset;
        }
        int exit_block = with_exit_block_;
        if (exit_block < 0 || exit_block == b) return kNotBefore;
        auto h = handler_of_exit_.find(with_exit_called_);
        int handler = h == handler_of_exit_.end() ? -1 : h->second;
        std::vector<int> work{b};
        std::unordered_set<int> seen{b};
        while (!work.empty()) {
            int cur = work.back();
            work.pop_back();
            if (is_entry(cur)) return kNotBefore;  // (a block nothing enters otherwise is dead code)
            for (int p : cfg_.block(cur).preds) {
                if (p == exit_block || p == handler || !seen.insert(p).second) continue;
                if (seen.size() > 64) return kNotBefore;  // (far from the call: not worth the walk)
                work.push_back(p);
            }
        }
        return kOnEveryPath;
    }

    // Whether flow can start at block `b`: the function's entry, or an exception handler's.
    bool is_entry(int b) const {
        if (handler_entries_.empty()) {
            handler_entries_.assign(size_t(cfg_.size()) + 1, false);
            handler_entries_[0] = true;
            for (const Block& blk : cfg_.blocks())
                if (blk.handler >= 0) handler_entries_[size_t(blk.handler)] = true;
        }
        return handler_entries_[size_t(b)];
    }

    // A value returned after a with statement's __exit__(None, None, None) in its block, all of it
    // computed after that call: a `return` written inside the with computes its value first; this
    // is the compiler's copy (3.10) of the `return` after the with statement.
    ExitBefore computed_after_with_exit(int b, const NeutralOp* term, const ExprPtr& value) const {
        if (!value || value->kind == ExprKind::Constant || with_exit_serial_ == 0) return kNotBefore;
        ExitBefore how = with_exit_called_before(b, term);
        if (how == kNotBefore) return kNotBefore;
        std::unordered_set<const Expr*> nodes;
        collect_nodes(value, nodes);
        bool after = std::all_of(nodes.begin(), nodes.end(), [&](const Expr* e) { return e->serial > with_exit_serial_; });
        return after ? how : kNotBefore;
    }

    // Whether `block` only ends an except clause and jumps to `stop`: `POP_EXCEPT; jump stop`.
    bool leaves_clause_to(int block, int stop) const {
        if (stop < 0) return false;
        const Block& blk = cfg_.block(block);
        bool pops = false;
        for (size_t i = blk.first; i + 1 < blk.last; ++i) {
            if (ops_[i].kind == N::PopExcept) pops = true;
            else if (ops_[i].kind != N::Nop) return false;
        }
        const NeutralOp& last = ops_[blk.last - 1];
        return pops && last.kind == N::Jump && cfg_.block_at_offset(last.target) == stop;
    }

    // Whether blocks `a` and `b` both end except clauses (see leaves_clause_to) the same way: as
    // many POP_EXCEPTs, then a jump to the same place.
    bool same_clause_end(int a, int b) const {
        const NeutralOp& jump = ops_[cfg_.block(b).last - 1];
        if (jump.kind != N::Jump) return same_returning_clause_end(a, b);
        int to = cfg_.block_at_offset(jump.target);
        return leaves_clause_to(a, to) && leaves_clause_to(b, to) && real_ops(a).size() == real_ops(b).size();
    }

    // (3.12+ copy the short code that ends the function after the statement, with the POP_EXCEPT
    // of the except clause around, into each way out of a try statement inside that clause: the
    // same ops, ending in a return, under the same handlers.)
    bool same_returning_clause_end(int a, int b) const {
        if (!exits_copied_) return false;
        std::vector<int> a_blocks, b_blocks;
        std::vector<const NeutralOp*> x = straight_ops(a, &a_blocks), y = straight_ops(b, &b_blocks);
        if (x.empty() || x.front()->kind != N::PopExcept || x.back()->kind != N::Return || !same_ops(x, y)) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i]->handler != y[i]->handler) return false;
        // (Copies: no other way into them past their first block. A jump to the one code after
        // the statement is the other kind of clause end, see same_clause_end.)
        for (const std::vector<int>* blocks : {&a_blocks, &b_blocks})
            for (size_t i = 1; i < blocks->size(); ++i)
                if (cfg_.block((*blocks)[i]).preds.size() != 1) return false;
        return true;
    }

    // Whether the last POP_EXCEPT before `term` in `block` ends a with statement's handling of an
    // exception its __exit__ suppressed, not an except clause: `WITH_EXCEPT_START; jump if true`
    // to the pops of the handled exception and that POP_EXCEPT.
    bool ends_with_statement_exit(int block, const NeutralOp* term) const {
        const Block& blk = cfg_.block(block);
        size_t k = SIZE_MAX;
        for (size_t i = blk.first; &ops_[i] < term; ++i)
            if (ops_[i].kind == N::PopExcept) k = i;
        if (k == SIZE_MAX) return false;
        size_t j = k;
        while (j > 0 && (ops_[j - 1].kind == N::Pop || ops_[j - 1].kind == N::Nop)) --j;
        for (size_t i = 1; i < ops_.size(); ++i)  // (3.11 lays the with's cleanup handler out in between)
            if (ops_[i].kind == N::JumpIf && ops_[i].target == int64_t(ops_[j].offset) && ops_[i - 1].kind == N::WithExceptStart)
                return true;
        return false;
    }

    bool pops_except_before(int b, const NeutralOp* term) const {
        const Block& blk = cfg_.block(b);
        for (const NeutralOp* op = &ops_[blk.first]; op < term; ++op)
            if (op->kind == N::PopExcept) return true;
        return false;
    }

    // No clause goes on and the body does not flow out (or only into the same copied tail, read as
    // an `else` clause): a copied `return` that ends clauses is the statement after the try
    // statement, printed once there.
    // A raise that runs after an except clause is over (see tail_after_clause_), left at the end
    // of the clause because it could not be hoisted after the statement, would mean another thing.
    void require_no_raise_after_clause(const Stmt& t) const {
        for (const ExceptHandler& h : t.handlers)
            if (!h.body.empty() && h.body.back()->kind == StmtKind::Raise && !reraise_.is(h.body.back()->value) &&
                tail_after_clause_.count(h.body.back().get()))
                unsupported("a raise after an except clause that the compiler copied into it");
    }

    // A try statement whose body never goes on and whose one clause that goes on runs on, in its
    // block, into the code after the statement (3.10 lays that code out right after the clause's
    // POP_EXCEPT): the statements after the POP_EXCEPT follow the statement instead.
    void hoist_code_after_only_clause(Body& body) {
        for (size_t i = 0; i < body.size(); ++i) {
            for_each_nested_body(*body[i], [this](Body& b) { hoist_code_after_only_clause(b); });
            Stmt& s = *body[i];
            if (s.kind != StmtKind::Try || !body_never_goes_on_.count(&s) || s.is_star || !s.finalbody.empty() || !s.orelse.empty())
                continue;
            // (A return that ends such code runs after the clause too.)
            auto after_clause_from = [&](const Body& b) {
                size_t n = b.size();
                if (n >= 2 && b[n - 1]->kind == StmtKind::Return && run_after_clause_.count(b[n - 2].get())) --n;
                while (n > 0 && run_after_clause_.count(b[n - 1].get())) --n;
                return n;
            };
            ExceptHandler* going_on = nullptr;
            bool others_end = true;
            for (ExceptHandler& h : s.handlers) {
                if (after_clause_from(h.body) < h.body.size()) {
                    if (going_on) others_end = false;
                    going_on = &h;
                } else if (h.body.empty() || !ends_flow_plainly(*h.body.back())) {
                    others_end = false;
                }
            }
            if (!going_on || !others_end) continue;
            size_t n = after_clause_from(going_on->body);
            Body moved(going_on->body.begin() + std::ptrdiff_t(n), going_on->body.end());
            going_on->body.resize(n);
            if (going_on->body.empty()) going_on->body.push_back(make_stmt(StmtKind::Pass));
            for (const StmtPtr& st : moved) run_after_clause_.erase(st.get());
            body.insert(body.begin() + std::ptrdiff_t(i) + 1, moved.begin(), moved.end());
            i += moved.size();
        }
    }

    static bool ends_flow_plainly(const Stmt& s) {
        return s.kind == StmtKind::Return || s.kind == StmtKind::Raise || s.kind == StmtKind::Continue || s.kind == StmtKind::Break;
    }

    // Where the try body never goes on, a statement of a clause's block after its POP_EXCEPT is
    // the code after the try statement (3.10, 3.12 lay it out right after the clause, no jump):
    // left in the clause, it would run while the clause's exception is still being handled.
    // (Where the body goes on, it is a copy of the short code after the statement, which 3.10+
    // make for each way out.) Checked on the finished tree: later passes move statements out.
    void require_no_code_after_clause(const Body& body) const {
        for (const StmtPtr& s : body) {
            if (s->kind == StmtKind::Try && body_never_goes_on_.count(s.get()))
                for (const ExceptHandler& h : s->handlers)
                    for (const StmtPtr& c : h.body)
                        if (run_after_clause_.count(c.get())) unsupported("code after an except clause that the compiler left in the clause");
            for_each_nested_body(*s, [this](const Body& b) { require_no_code_after_clause(b); });
        }
    }

    // The compiler's copies of the short code that ends the function after a try statement (3.12+
    // copy it after each clause's POP_EXCEPT): written once, after the statement, where the
    // clauses' copies run (after POP_EXCEPT). The code after the statement is its else clause's
    // end, or, where every clause returns after its copy, the statements that follow it (whose
    // part before the copy is then the else clause: only the body goes on to it).
    void hoist_clause_tail_copies(Body& body) {
        for (const StmtPtr& s : body) for_each_nested_body(*s, [this](Body& b) { hoist_clause_tail_copies(b); });
        // (Each copy, and the code it copies, may still end in the function's `return None`.)
        auto end_of = [this](const Body& b) { return b.size() - (!b.empty() && is_return_none(b.back()) ? 1 : 0); };
        auto copy_start = [&](const Body& b) {
            size_t end = end_of(b), n = end;
            while (n > 0 && run_after_clause_.count(b[n - 1].get())) --n;
            return n < end ? n : b.size();
        };
        auto text_of = [&](const Body& b, size_t from) {
            return print_module(Body(b.begin() + std::ptrdiff_t(from), b.begin() + std::ptrdiff_t(end_of(b))));
        };
        for (size_t i = 0; i < body.size(); ++i) {
            Stmt& t = *body[i];
            if (t.kind != StmtKind::Try || t.is_star || t.handlers.empty() || !t.finalbody.empty()) continue;
            std::string text;
            bool copies = true, all_return = true;
            for (const ExceptHandler& h : t.handlers) {
                size_t from = copy_start(h.body);
                copies = copies && from < h.body.size() && (text.empty() || text_of(h.body, from) == text);
                if (!copies) break;
                text = text_of(h.body, from);
                all_return = all_return && end_of(h.body) < h.body.size();
            }
            if (!copies) continue;
            const bool in_else = !t.orelse.empty();
            if (in_else ? i + 1 != body.size() : !all_return || i + 1 == body.size()) continue;
            Body& rest = in_else ? t.orelse : body;
            const size_t rest_begin = in_else ? 0 : i + 1;
            size_t from = SIZE_MAX;
            for (size_t k = end_of(rest) + 1; k-- > rest_begin;)
                if (text_of(rest, k) == text) {
                    from = k;
                    break;
                }
            if (from == SIZE_MAX) continue;
            Body tail(rest.begin() + std::ptrdiff_t(from), rest.end());
            if (in_else) {
                t.orelse.resize(from);
            } else {
                t.orelse.assign(body.begin() + std::ptrdiff_t(i + 1), body.begin() + std::ptrdiff_t(from));
                body.resize(i + 1);
            }
            for (ExceptHandler& h : t.handlers) {
                size_t start = copy_start(h.body);
                for (size_t k = start; k < h.body.size(); ++k) dropped_copies_.push_back(h.body[k]);
                h.body.resize(start);
                if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
            }
            body.insert(body.end(), tail.begin(), tail.end());
            return;
        }
    }

    bool hoist_copied_tail(const StmtPtr& t, Body& out) {
        StmtPtr tail;
        for (auto& h : t->handlers) {
            if (h.body.empty() || !tail_after_clause_.count(h.body.back().get())) continue;
            if (tail && print_module(Body{tail}) != print_module(Body{h.body.back()})) return false;
            tail = h.body.back();
        }
        if (!tail) return false;
        // The body's own way out, a copy of the same tail, was read as the end of an `else` clause
        // (all of it, or after the else clause's own code: `else: x()`, then `return exit`).
        // (An `else` that ends in a way out of its own, `return True`, reaches no tail: it stays.
        // 3.11+ compile a `return <constant>` that ends the body so, after the protected range.)
        if (!t->orelse.empty()) {
            const Stmt& last = *t->orelse.back();
            if (print_module(Body{t->orelse.back()}) == print_module(Body{tail})) {
                dropped_copies_.push_back(t->orelse.back());
                t->orelse.pop_back();
            } else if (last.kind != StmtKind::Return && last.kind != StmtKind::Raise) {
                return false;
            }
        }
        const std::string tail_text = print_module(Body{tail});
        for (auto& h : t->handlers)
            if (!h.body.empty() && print_module(Body{h.body.back()}) == tail_text && tail_after_clause_.count(h.body.back().get())) {
                fold_branch_tail_copies(h.body, tail_text, tail_after_clause_);
                if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
            }
        emit_stmt(out, t);
        // (A hoisted re-raise ends the enclosing finally body: after this statement, not a clause;
        // a hoisted raise is where it runs now, in an enclosing clause still handling its exception.)
        if (tail->kind == StmtKind::Raise) tail_after_clause_.erase(tail.get());
        emit_stmt(out, tail);
        return true;
    }

    // A clause whose copy of the tail after the statement was hoisted (see hoist_copied_tail) may
    // hold more copies, at the end of an if's side (3.10+ copy the clause's way out, POP_EXCEPT and
    // the short tail, into each side that goes there): `if t: A; <copy>` followed by B is
    // `if t: A` with B as its else, both sides then ending the clause, where the tail runs.
    // (Likewise a with statement's body, the copies in `copies`.)
    void fold_branch_tail_copies(Body& body, const std::string& tail_text, const std::set<const Stmt*>& copies) {
        auto ends_with_copy = [&](const Body& b) {
            return !b.empty() && copies.count(b.back().get()) && print_module(Body{b.back()}) == tail_text;
        };
        // (`body` ends the clause: a copy at its end is where the clause goes on anyway.)
        if (ends_with_copy(body)) {
            dropped_copies_.push_back(body.back());  // (kept: its address stays a key of `copies`)
            body.pop_back();
        }
        for (size_t i = 0; i < body.size(); ++i) {
            Stmt& s = *body[i];
            // (A loop that ends the body: a copy in it is a `break`, which goes there too; its else
            // clause ends the body.)
            if ((s.kind == StmtKind::For || s.kind == StmtKind::While) && i + 1 == body.size()) {
                breaks_for_tail_copies(s.body, tail_text, copies);
                fold_branch_tail_copies(s.orelse, tail_text, copies);
                return;
            }
            if (s.kind != StmtKind::If) continue;
            bool then_copy = ends_with_copy(s.body), else_copy = ends_with_copy(s.orelse), last = i + 1 == body.size();
            if (!then_copy && !(else_copy && last)) continue;
            if (then_copy && else_copy && !last) continue;  // (nothing would reach what follows)
            s.orelse.insert(s.orelse.end(), body.begin() + std::ptrdiff_t(i) + 1, body.end());
            body.resize(i + 1);
            fold_branch_tail_copies(s.body, tail_text, copies);
            fold_branch_tail_copies(s.orelse, tail_text, copies);
            if (s.body.empty()) s.body.push_back(make_stmt(StmtKind::Pass));
            return;
        }
    }

    // The copies of the tail in `body` (a loop's body, see fold_branch_tail_copies), on its own
    // level or in its ifs, each a `break`.
    void breaks_for_tail_copies(Body& body, const std::string& tail_text, const std::set<const Stmt*>& copies) {
        for (StmtPtr& st : body) {
            if (copies.count(st.get()) && print_module(Body{st}) == tail_text) {
                dropped_copies_.push_back(st);
                st = make_stmt(StmtKind::Break);
            } else if (st->kind == StmtKind::If) {
                breaks_for_tail_copies(st->body, tail_text, copies);
                breaks_for_tail_copies(st->orelse, tail_text, copies);
            }
        }
    }

    // Whether `e` is `value` (a function object shows as the lambda built from it).
    bool is_value(const ExprPtr& e, const ExprPtr& value) const {
        if (e == value) return true;
        auto it = e ? lambda_made_from_.find(e.get()) : lambda_made_from_.end();
        return it != lambda_made_from_.end() && it->second == value.get();
    }

    // Try statement `t` (no finally body, not except*), each of whose ways on ends in the return
    // `is_return` tells: the compiler's copies (3.10+ copy the small block that returns into each
    // way) of one return after the statement. Takes them out and gives that return (else null).
    template <class IsReturn>
    static StmtPtr take_shared_return(Stmt& t, IsReturn is_return) {
        if (t.kind != StmtKind::Try || t.is_star || !t.finalbody.empty() || t.handlers.empty()) return nullptr;
        Body& normal = t.orelse.empty() ? t.body : t.orelse;
        auto ends_in_return = [&](const Body& b) { return !b.empty() && is_return(b.back()); };
        if (!ends_in_return(normal)) return nullptr;
        for (const ExceptHandler& h : t.handlers)
            if (!ends_in_return(h.body)) return nullptr;
        StmtPtr ret = normal.back();
        normal.pop_back();
        if (t.body.empty()) t.body.push_back(make_stmt(StmtKind::Pass));
        for (ExceptHandler& h : t.handlers) {
            h.body.pop_back();
            if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
        }
        return ret;
    }

    // A try statement (of a finally body's copy) that ends `tail` and returns the returned value
    // in each of its ways (see take_shared_return): `tail` ends in that one return instead.
    template <class IsReturn>
    static void hoist_return_after_try(Body& tail, IsReturn is_return) {
        if (tail.empty()) return;
        if (StmtPtr ret = take_shared_return(*tail.back(), is_return)) tail.push_back(ret);
    }

    // Try statement `t`, none of whose ways goes on, emitted into `out`, followed by the return
    // each of its ways ends in, where that return's value is one value computed before the
    // statement (kept below it on the stack: a return through a finally body whose copy is a try
    // statement; see take_shared_return). False (nothing emitted) otherwise. (Copies of a return
    // of a constant are the code after the statement, which other rules fold with what precedes.)
    bool hoist_shared_return(const StmtPtr& t, Body& out) {
        if (t->kind != StmtKind::Try) return false;
        const Body& normal = t->orelse.empty() ? t->body : t->orelse;
        if (normal.empty() || normal.back()->kind != StmtKind::Return || !normal.back()->value) return false;
        const ExprPtr value = normal.back()->value;
        auto same_return = [&](const StmtPtr& r) { return r->kind == StmtKind::Return && r->value == value; };
        StmtPtr ret = take_shared_return(*t, same_return);
        if (!ret) return false;
        emit_stmt(out, t);
        emit_stmt(out, ret);
        return true;
    }

    // `return value` inside a try body: the body computed the value, the return comes after the
    // blocks are left (after copies of enclosing finally bodies, which their statements strip).
    bool return_from_body(int exit, Body& body, Loop* loop, std::vector<ExprPtr>& body_stack, size_t base) {
        ExprPtr value = body_stack.back();
        consumed_after_cleanup_.insert(keep(value));  // computed before the clean-up copies run, as the source says
        Body tail;
        bool flows = emit_region(exit, -1, tail, loop, body_stack, base);
        auto returns_value = [&](const StmtPtr& s) { return s->kind == StmtKind::Return && is_value(s->value, value); };
        hoist_else_after_leaving_if(tail, returns_value);
        hoist_return_after_try(tail, returns_value);
        // (Or the copy of a finally body that the return runs leaves by a way of its own, which drops
        // the value: see dropped_returns_.)
        bool returns = !tail.empty() && returns_value(tail.back());
        bool dropped = holds_any(tail, [&](const Stmt& s) { return dropped_returns_.count(&s) && is_value(s.value, value); });
        if (flows || !(returns || dropped)) unsupported("a try body that leaves values on the stack");
        body.insert(body.end(), tail.begin(), tail.end());
        return false;
    }

    // The ops of a chain of blocks from `block` (following single successors) up to and including
    // the one that ends flow; empty when the chain branches.
    std::vector<const NeutralOp*> straight_ops(int block, std::vector<int>* blocks = nullptr) const {
        if (block < 0) return {};
        return straight_ops_from(cfg_.block(block).first, blocks);
    }

    // straight_ops from op `i` (possibly in the middle of its block); the blocks it went through in
    // `blocks`.
    std::vector<const NeutralOp*> straight_ops_from(size_t i, std::vector<int>* blocks = nullptr) const {
        std::vector<const NeutralOp*> ops;
        ops.reserve(8);
        int block = cfg_.block_of_op(i);
        for (int steps = 0; block >= 0 && steps < 64; ++steps) {
            const Block& blk = cfg_.block(block);
            if (blocks) blocks->push_back(block);
            for (size_t k = std::max(i, blk.first); k < blk.last; ++k)
                if (ops_[k].kind != N::Jump && ops_[k].kind != N::Nop) ops.push_back(&ops_[k]);
            N last = ops_[blk.last - 1].kind;
            if (last == N::Return || last == N::Raise || last == N::Reraise) return ops;
            if (blk.succs.size() != 1) break;
            block = blk.succs[0];
            i = 0;  // (only the first block starts in its middle; a jump may go back to an earlier one)
        }
        return {};
    }

    // The ops (jumps aside) of the chain of blocks from op `i` up to the next iteration of `loop`
    // (its header, or the test at its bottom), the blocks it went through in `blocks`; nullopt when
    // the chain branches or ends before.
    std::optional<std::vector<const NeutralOp*>> ops_to_next_iteration(size_t i, const Loop& loop, std::vector<int>& blocks) const {
        std::vector<const NeutralOp*> ops;
        for (int block = cfg_.block_of_op(i), steps = 0; block >= 0 && steps < 64; ++steps) {
            if (block == loop.header || block == next_iteration(&loop)) return ops;
            const Block& blk = cfg_.block(block);
            blocks.push_back(block);
            for (size_t k = std::max(i, blk.first); k < blk.last; ++k)
                if (ops_[k].kind != N::Jump && ops_[k].kind != N::Nop) ops.push_back(&ops_[k]);
            if (blk.succs.size() != 1) break;
            block = blk.succs[0];
            i = 0;
        }
        return std::nullopt;
    }

    // Whether the chains from op `i` and from block `next` run the same ops up to the next iteration
    // of `loop`, by different blocks (those from `i` in `blocks`).
    bool runs_same_to_next_iteration(size_t i, int next, const Loop& loop, std::vector<int>& blocks) const {
        std::vector<int> copy, normal;
        auto a = ops_to_next_iteration(i, loop, copy), b = ops_to_next_iteration(cfg_.block(next).first, loop, normal);
        // (3.8's clean-up loads a None of its own, not the one in co_consts.)
        auto none = [](const NeutralOp& op) { return op.kind == N::LoadConst && op.value && op.value->kind == PyValue::Kind::None; };
        auto same = [&](const NeutralOp* x, const NeutralOp* y) { return same_op(*x, *y) || (none(*x) && none(*y)); };
        if (!a || !b || a->empty() || !std::equal(a->begin(), a->end(), b->begin(), b->end(), same) ||
            std::find_first_of(copy.begin(), copy.end(), normal.begin(), normal.end()) != copy.end())
            return false;
        blocks = copy;
        return true;
    }

    // Whether the chain of blocks from op `i`, where a with statement's handler goes on after __exit__
    // suppressed an exception, does what its normal path does: what the chain from block `next`
    // does, to the ends of both, or op for op what the chain from its exit block (`exit`) does after
    // the __exit__ call, unconditional jumps aside, up to a block both reach. The blocks of the
    // first chain before that go to `blocks`.
    bool same_way_on(size_t i, int exit, int next, std::vector<int>& blocks) const {
        if (same_ops(straight_ops_from(i, &blocks), straight_ops(next))) return true;
        blocks.clear();
        if (ends_as_normal_path(i, exit, blocks)) return true;
        blocks.clear();
        return meets_normal_path(i, exit, blocks);
    }

    // Whether the suppressed path from op `i` and the normal path from the __exit__ call that starts
    // block `exit` run the same ops (the call aside) to their ends, meeting nowhere: the compiler's
    // copy of a short ending after the statement whose original the normal path runs in blocks
    // split elsewhere (3.12+: `return x` ending a try body, its RETURN_VALUE outside the handler's
    // range).
    bool ends_as_normal_path(size_t i, int exit, std::vector<int>& blocks) const {
        if (exit < 0) return false;
        std::vector<int> normal_blocks;
        std::vector<const NeutralOp*> after_exit = straight_ops(exit, &normal_blocks);
        size_t k = with_exit_call_end(after_exit, 0, after_exit.size(), true);
        if (k == 0) return false;
        after_exit.erase(after_exit.begin(), after_exit.begin() + long(k));
        return same_ops(straight_ops_from(i, &blocks), after_exit) &&
               std::find_first_of(blocks.begin(), blocks.end(), normal_blocks.begin(), normal_blocks.end()) == blocks.end();
    }

    // Whether the suppressed path from op `i` and the normal path from the __exit__ call that starts
    // block `exit` run the same ops (the call aside) up to a block where their chains of single
    // successors meet (`blocks`: the suppressed path's own blocks before it).
    bool meets_normal_path(size_t i, int exit, std::vector<int>& blocks) const {
        if (exit < 0) return false;
        auto chain = [&](size_t from, std::vector<int>& visited) {
            for (int b = cfg_.block_of_op(from), steps = 0; b >= 0 && steps < 64; ++steps) {
                if (std::find(visited.begin(), visited.end(), b) != visited.end()) break;
                visited.push_back(b);
                if (cfg_.block(b).succs.size() != 1) break;
                b = cfg_.block(b).succs[0];
            }
        };
        std::vector<int> copy, normal;
        chain(i, copy);
        chain(cfg_.block(exit).first, normal);
        auto meet = std::find_first_of(copy.begin(), copy.end(), normal.begin(), normal.end());
        if (meet == copy.end() || meet == copy.begin()) return false;
        auto ops_before = [&](size_t from, const std::vector<int>& visited, int stop) {
            std::vector<const NeutralOp*> ops;
            for (int b : visited) {
                if (b == stop) break;
                for (size_t k = std::max(from, cfg_.block(b).first); k < cfg_.block(b).last; ++k)
                    if (ops_[k].kind != N::Jump && ops_[k].kind != N::Nop) ops.push_back(&ops_[k]);
                from = 0;
            }
            return ops;
        };
        std::vector<const NeutralOp*> after_exit = ops_before(0, normal, *meet);
        size_t k = with_exit_call_end(after_exit, 0, after_exit.size(), true);
        if (k == 0) return false;
        after_exit.erase(after_exit.begin(), after_exit.begin() + long(k));
        std::vector<const NeutralOp*> copied = ops_before(i, copy, *meet);
        if (copied.size() != after_exit.size() || !(copied.empty() || same_ops(copied, after_exit))) return false;
        blocks.assign(copy.begin(), meet);
        return true;
    }

    // Two non-empty op chains, op for op the same (lines aside).
    static bool same_ops(const std::vector<const NeutralOp*>& a, const std::vector<const NeutralOp*>& b) {
        if (a.empty() || a.size() != b.size()) return false;
        for (size_t k = 0; k < a.size(); ++k)
            if (!same_op(*a[k], *b[k])) return false;
        return true;
    }

    static bool same_op(const NeutralOp& a, const NeutralOp& b) {
        return a.kind == b.kind && a.arg == b.arg && a.name == b.name && a.scope == b.scope && a.value == b.value &&
               a.kwnames == b.kwnames && a.call_slots == b.call_slots && a.target < 0 && b.target < 0;
    }

    // `return <constant>` or `return <value>` after copies of the finally bodies of open try
    // statements: the compiler loads a returned constant after running them, and a value computed
    // in the clause waits on the stack below them, so such a tail after POP_EXCEPT is a `return`
    // inside the except clause (anything else there is code after the statement).
    bool is_return_after_finally_copies(int block) const {
        std::vector<const NeutralOp*> tail = straight_ops(block);
        if (tail.empty() || tail.back()->kind != N::Return) return false;
        // (`return constant` loads it after the copies; a value the clause computed waits below them.)
        bool constant = tail.size() >= 2 && tail[tail.size() - 2]->kind == N::LoadConst;
        size_t pos = 0, end = tail.size() - (constant ? 2 : 1), exits = 0;
        // (The POP_EXCEPT of an except clause around the statement may come first, a value the clause
        // computed swapped below the exception before this block.)
        while (pos < end && tail[pos]->kind == N::PopExcept) ++pos;
        const size_t start = pos;
        for (int h : open_try_handlers_innermost_first()) {
            if (pos >= end) break;
            std::vector<const NeutralOp*> final_ops = straight_ops(h);
            if (final_ops.size() < 2 || final_ops.front()->kind != N::PushExcInfo || final_ops.back()->kind != N::Reraise) continue;
            size_t n = final_ops.size() - 2, exits_before = exits;
            // (A copy runs after the way out of the statements inside its try: see unwinding_end.)
            size_t at = n > 0 ? unwinding_end(tail, pos, end, constant, exits) : pos;
            bool same = at + n <= end;
            for (size_t k = 0; k < n && same; ++k) same = same_op(*tail[at + k], *final_ops[1 + k]);
            if (same) pos = at + n;
            else exits = exits_before;
        }
        // (Then the way out of the statements around them. 3.11+ write a `break` whose loop is
        // followed by `return None` so too.)
        if (pos > start) pos = unwinding_end(tail, pos, end, constant, exits);
        return pos == end && exits <= count_open_withs();
    }

    // Where the way out of the statements around a `return` in `tail`, from `pos` up to `end`,
    // stops: the __exit__ calls of with statements (counted in `exits`), as is_return_leaving_withs
    // reads them, the pops of for loops' iterators and except clauses' POP_EXCEPTs. A returned
    // constant is loaded after them, a value computed before them is swapped above each.
    static size_t unwinding_end(const std::vector<const NeutralOp*>& tail, size_t pos, size_t end, bool constant, size_t& exits) {
        auto drops = [&](size_t k) { return tail[k]->kind == N::Pop || tail[k]->kind == N::PopExcept; };
        while (pos < end)
            if (size_t next = with_exit_call_end(tail, pos, end, constant)) pos = next, ++exits;
            else if (constant && drops(pos)) ++pos;
            else if (!constant && pos + 1 < end && tail[pos]->kind == N::Swap && tail[pos]->arg == 2 && drops(pos + 1)) pos += 2;
            else break;
        return pos;
    }

    // A return inside a try statement whose finally body always returns: the return runs the copy
    // of that body, whose own return swaps the value below its own and drops it (see dropped_returns_).
    // (Then the way out of the statements around it: see unwinding_end.)
    bool is_return_through_leaving_finally(int block) const {
        std::vector<const NeutralOp*> tail = straight_ops(block);
        size_t n = tail.size(), exits = 0, k = 0;
        if (n < 3 || tail[n - 1]->kind != N::Return) return false;
        for (; k + 2 < n; ++k, exits = 0)
            if (tail[k]->kind == N::Swap && tail[k]->arg == 2 && tail[k + 1]->kind == N::Pop &&
                unwinding_end(tail, k + 2, n - 1, false, exits) == n - 1)
                break;
        if (k + 2 >= n || exits > count_open_withs()) return false;
        return std::any_of(open_handlers_.begin(), open_handlers_.end(), [&](int h) {
            std::vector<const NeutralOp*> final_ops = straight_ops(h);
            return handlers_.at(h).kind == HandlerKind::Try && !final_ops.empty() && final_ops.back()->kind == N::Return;
        });
    }

    // is_return_after_finally_copies where a copy branches (an `if` or an assert in a finally
    // body): the copies from `block`, then the return at each place they end (the compiler copies
    // a return into the branches that jump to it). Only the clause's block `from` and the copies
    // reach their own blocks and the returns', so the tail belongs to the clause alone.
    bool is_return_after_branching_copies(int block, int from) const {
        std::set<int> blocks = {block};
        return returns_after_branching_copies(block, blocks) && reached_only_from_within(from, blocks);
    }

    // The values on the stack when a return's way out leaves for copies_after_exit_'s copies: the
    // returned value, which a way out of a copy drops (`return` in the finally body), is no
    // statement of theirs.
    void note_returned(const std::vector<ExprPtr>& stack) {
        for (const ExprPtr& v : stack) returned_through_copies_.insert(keep(v));
    }

    // Whether the ops from `i` are the way out of a `return` of a value computed before it from
    // inside for loops, except clauses or with statements inside try/finally statements: the pops
    // of the iterators and exceptions it leaves and the __exit__ calls (the value swapped above
    // each), then returns_after_branching_copies. Their blocks, which no other code reaches, go to
    // `blocks`.
    bool return_through_branching_copies(size_t i, std::set<int>& blocks) const {
        auto drops = [&](size_t k) { return k < ops_.size() && (ops_[k].kind == N::Pop || ops_[k].kind == N::PopExcept); };
        for (int steps = 0; i < ops_.size() && steps < 64; ++steps)
            if (size_t n = exit_call_at(i, false, true)) i += n;
            else if (ops_[i].kind == N::Nop || drops(i)) ++i;
            else if (ops_[i].kind == N::Swap && ops_[i].arg == 2 && drops(i + 1)) i += 2;
            else break;
        if (i == 0 || i >= ops_.size() || cfg_.block(cfg_.block_of_op(i)).first != i) return false;
        int start = cfg_.block_of_op(i);
        std::set<int> copies = {start};
        if (!returns_after_branching_copies(start, copies) || !reached_only_from_within(cfg_.block_of_op(i - 1), copies)) return false;
        blocks.insert(copies.begin(), copies.end());
        return true;
    }

    // Whether the code at `block` is copies of the finally bodies of open try statements that
    // branch, then the same return at each place they end. Their blocks and the returns' go into
    // `blocks`.
    bool returns_after_branching_copies(int block, std::set<int>& blocks) const {
        std::vector<size_t> ends = ends_of_open_finally_copies(block, blocks);
        if (ends.empty()) return false;
        std::vector<const NeutralOp*> first;
        for (size_t at : ends) {
            std::vector<int> tail_blocks;
            std::vector<const NeutralOp*> tail = straight_ops_from(at, &tail_blocks);
            if (tail.empty() || tail.back()->kind != N::Return) return false;
            bool constant = tail.size() >= 2 && tail[tail.size() - 2]->kind == N::LoadConst;
            size_t end = tail.size() - (constant ? 2 : 1), exits = 0;
            if (unwinding_end(tail, 0, end, constant, exits) != end || exits > count_open_withs()) return false;
            if (first.empty()) first = tail;
            else if (!same_ops(first, tail)) return false;
            blocks.insert(tail_blocks.begin(), tail_blocks.end());
        }
        return true;
    }

    // Where the jump after copies of finally bodies from `block` goes (-1: no such copies, or
    // code other than the clause's block `from` reaches their blocks): `continue` or `break`
    // inside try/finally.
    int jump_after_finally_copies(int block, int from) const {
        std::set<int> blocks = {block};
        std::vector<size_t> ends = ends_of_open_finally_copies(block, blocks);
        if (ends.size() != 1) return -1;
        // (A `break` pops the iterators of the for loops it leaves (3.8/3.9) after the copies.)
        size_t i = ends[0];
        while (i < ops_.size() && (ops_[i].kind == N::Nop || ops_[i].kind == N::Pop)) blocks.insert(cfg_.block_of_op(i++));
        if (i >= ops_.size() || ops_[i].kind != N::Jump) return -1;
        blocks.insert(cfg_.block_of_op(i));
        return reached_only_from_within(from, blocks) ? cfg_.block_at_offset(ops_[i].target) : -1;
    }

    // Whether every block of `blocks` is reached only from `blocks` and `from` (or from code that
    // nothing reaches: a loop's jump back after a `break` that ends its body).
    bool reached_only_from_within(int from, const std::set<int>& blocks) const {
        for (int b : blocks)
            for (int p : cfg_.block(b).preds)
                if (p != from && !blocks.count(p) && reachable_at_all(p)) return false;
        return true;
    }

    // The handlers of the open try statements, inner ones first (the order the copies of their
    // finally bodies run in; an outer one's is laid out after an inner one's, or before).
    std::vector<int> open_try_handlers_innermost_first() const {
        std::vector<std::pair<size_t, int>> depths;  // (the open ones around it, handler)
        for (int h : open_handlers_) {
            if (handlers_.at(h).kind != HandlerKind::Try) continue;
            size_t around = 0;
            for (int o : open_handlers_) around += o != h && inside(h, o);
            depths.push_back({around, h});
        }
        std::sort(depths.begin(), depths.end(), std::greater<>());  // (ties: the later laid out first, as before)
        std::vector<int> out;
        for (auto [around, h] : depths) out.push_back(h);
        return out;
    }

    // Where the copies of the finally bodies of open try statements from `block` (innermost
    // first) end: the op after each copy's way out (empty: no copy there). Their blocks go into
    // `blocks`.
    std::vector<size_t> ends_of_open_finally_copies(int block, std::set<int>& blocks) const {
        std::vector<size_t> at = {cfg_.block(block).first};
        bool copied = false;
        for (int h : open_try_handlers_innermost_first()) {
            std::vector<size_t> next;
            std::set<int> seen = blocks;
            size_t matched = 0;
            for (size_t p : at) matched += finally_copy_ends(past_unwinding(p, seen), h, next, seen);
            if (matched == 0) continue;  // (no copy of this one: a try statement the way out does not leave)
            if (matched != at.size()) return {};
            std::sort(next.begin(), next.end());
            next.erase(std::unique(next.begin(), next.end()), next.end());
            at = std::move(next);
            blocks = std::move(seen);
            copied = true;
        }
        if (copied) add_copied_handlers(blocks);
        return copied ? at : std::vector<size_t>{};
    }

    // The handlers of try and with statements inside finally copies (`blocks`), whose protected
    // blocks are all there, and what they reach until they go back into the copies: the copies'
    // own code, which their clauses and __exit__ calls join again. Added to `blocks`.
    void add_copied_handlers(std::set<int>& blocks) const {
        std::vector<int> work;
        auto own = [&](int h) {
            if (h < 0 || blocks.count(h) || open_handlers_.count(h)) return false;
            for (int b = 0; b < cfg_.size(); ++b)
                if (cfg_.block(b).handler == h && !blocks.count(b)) return false;
            return true;
        };
        for (int b : blocks)
            if (own(cfg_.block(b).handler)) work.push_back(cfg_.block(b).handler);
        for (int steps = 0; !work.empty() && steps < 256; ++steps) {
            int b = work.back();
            work.pop_back();
            if (!blocks.insert(b).second) continue;
            for (int s : cfg_.block(b).succs) work.push_back(s);
            if (int h = cfg_.block(b).handler; h >= 0 && !open_handlers_.count(h)) work.push_back(h);
        }
    }

    // Past the ops from `i` that only drop values (the way out of an except clause or for loop
    // before a finally copy: POP_EXCEPT or POP_TOP, a value kept on top swapped below first) or call
    // the __exit__ of with statements (the way out of those), which no finally body starts with;
    // their blocks go to `blocks`.
    size_t past_unwinding(size_t i, std::set<int>& blocks) const {
        auto drops = [&](size_t k) { return k < ops_.size() && (ops_[k].kind == N::Pop || ops_[k].kind == N::PopExcept); };
        for (; i < ops_.size();) {
            bool swap_drop = ops_[i].kind == N::Swap && ops_[i].arg == 2 && drops(i + 1);
            size_t n = ops_[i].kind == N::Nop || drops(i) ? 1 : swap_drop ? 2 : 0;
            if (n == 0) {
                n = exit_call_at(i, true, true);
            }
            if (n == 0) return i;
            for (size_t k = i; k < i + n; ++k) blocks.insert(cfg_.block_of_op(k));
            i += n;
        }
        return i;
    }

    // The Reraise that ends the finally body laid out from op `h` (a try handler's, past its
    // PushExcInfo): the first no jump before it goes past (0: none).
    size_t finally_body_end(size_t h) const {
        size_t reach = h;
        for (size_t k = h; k < ops_.size() && k < h + 4096; ++k) {
            if (ops_[k].kind == N::Reraise && k >= reach) return k;
            if (ops_[k].target >= 0) {
                int t = cfg_.block_at_offset(ops_[k].target);
                if (t < 0) return 0;
                reach = std::max(reach, cfg_.block(t).first);
            }
        }
        return 0;
    }

    // Whether the compiler's copy of the finally body of try handler `handler` starts at op `i`:
    // the body's ops, op for op, along the same paths (unconditional jumps, which the compiler
    // threads or replaces by what they reach, aside). Adds the ops where the copy goes on (the
    // places the handler's body reaches its re-raise) to `ends`, its blocks to `blocks`.
    bool finally_copy_ends(size_t i, int handler, std::vector<size_t>& ends, std::set<int>& blocks) const {
        size_t h = cfg_.block(handler).first;
        if (ops_[h].kind != N::PushExcInfo) return false;
        ++h;
        const size_t end = finally_body_end(h);
        if (end <= h) return false;  // (`finally: pass` copies nothing: is_return_after_finally_copies' case)
        constexpr size_t kNowhere = size_t(-1);
        auto settle = [&](size_t k, bool copy) -> size_t {  // past Nops and unconditional jumps
            for (int steps = 0; k < ops_.size() && steps < 64; ++steps) {
                if (copy) blocks.insert(cfg_.block_of_op(k));
                if (ops_[k].kind == N::Nop) {
                    ++k;
                } else if (ops_[k].kind == N::Jump) {
                    int t = cfg_.block_at_offset(ops_[k].target);
                    if (t < 0) return kNowhere;
                    k = cfg_.block(t).first;
                } else {
                    return k;
                }
            }
            return kNowhere;
        };
        auto target_op = [&](const NeutralOp& op) -> size_t {
            int t = cfg_.block_at_offset(op.target);
            return t < 0 ? kNowhere : cfg_.block(t).first;
        };
        std::map<size_t, size_t> copy_of;  // body op -> copy op
        std::vector<std::pair<size_t, size_t>> work = {{h, i}};
        while (!work.empty()) {
            auto [f, c] = work.back();
            work.pop_back();
            if (f == kNowhere || c == kNowhere) return false;
            f = settle(f, false);
            // (The copy goes on where the body re-raises, at its end or at a copy of that re-raise
            // the compiler put in a branch: a jump there is the copy's way out, not part of it.)
            if (f < ops_.size() && f >= h && f <= end && ops_[f].kind == N::Reraise) {
                while (c < ops_.size() && ops_[c].kind == N::Nop) blocks.insert(cfg_.block_of_op(c++));
                if (c >= ops_.size()) return false;
                blocks.insert(cfg_.block_of_op(c));
                ends.push_back(c);
                continue;
            }
            // (A `return`, `break` or `continue` in the finally body: the body drops the exception
            // first, a copy what its own way out keeps on the stack, if anything; both then leave
            // the same way.)
            if (WayOut out = way_out(f, h, end, nullptr); out.to != kNoWayOut) {
                std::set<int> out_blocks;
                if (WayOut copy_out = way_out(c, h, end, &out_blocks); copy_out.to == out.to && copy_out.exits == out.exits &&
                                                                       same_constant(copy_out.constant, out.constant)) {
                    blocks.insert(out_blocks.begin(), out_blocks.end());
                    continue;
                }
            }
            c = settle(c, true);
            if (f == kNowhere || c == kNowhere || f < h || f > end || f == c) return false;
            if (auto it = copy_of.find(f); it != copy_of.end()) {
                if (it->second != c) return false;
                continue;
            }
            copy_of[f] = c;
            const NeutralOp& body_op = ops_[f];
            const NeutralOp& copy_op = ops_[c];
            if (body_op.target >= 0 || copy_op.target >= 0) {
                if (body_op.kind != copy_op.kind || body_op.arg != copy_op.arg || body_op.condition != copy_op.condition ||
                    body_op.target < 0 || copy_op.target < 0)
                    return false;
                work.push_back({target_op(body_op), target_op(copy_op)});
                work.push_back({f + 1, c + 1});
                continue;
            }
            if (!same_op(body_op, copy_op) || body_op.kind == N::PushExcInfo || body_op.kind == N::PopExcept) return false;
            if (body_op.kind == N::Return || body_op.kind == N::Raise || body_op.kind == N::Reraise) continue;
            work.push_back({f + 1, c + 1});
        }
        return true;
    }

    static constexpr int kNoWayOut = -1, kReturns = -2;

    // How the ops from a finally body's op, or its copy's, leave: where (`to`: kReturns, the block a
    // jump out of the body goes to, or kNoWayOut), through how many __exit__ calls, returning which
    // constant (none: the value on top at the start).
    struct WayOut {
        int to = kNoWayOut;
        size_t exits = 0;
        const NeutralOp* constant = nullptr;
    };

    static bool same_constant(const NeutralOp* a, const NeutralOp* b) { return a == b || (a && b && same_op(*a, *b)); }

    // The way out of the ops from `k` that only drop values (SWAP/POP_TOP, an except clause's
    // POP_EXCEPT) and call the __exit__ of with statements, then return (the value on top at `k`,
    // kept through them, or a constant loaded last) or jump out of the ops from `h` to `end`.
    // Their blocks go to `blocks`.
    WayOut way_out(size_t k, size_t h, size_t end, std::set<int>* blocks) const {
        WayOut out;
        size_t depth = 0;  // (the value on top at `k`, from the top)
        bool kept = true;  // (a jump drops it too)
        for (; k < ops_.size(); ++k) {
            if (blocks) blocks->insert(cfg_.block_of_op(k));
            if (size_t n = exit_call_at(k, !(kept && depth == 0))) {
                for (size_t i = k; i < k + n; ++i)
                    if (blocks) blocks->insert(cfg_.block_of_op(i));
                k += n - 1, ++out.exits;
                continue;
            }
            const NeutralOp& op = ops_[k];
            if (op.kind == N::LoadConst && k + 1 < ops_.size() && ops_[k + 1].kind == N::Return) {
                if (blocks) blocks->insert(cfg_.block_of_op(k + 1));
                out.to = kReturns, out.constant = &op;
                return out;
            }
            if (op.kind == N::Return) {
                if (kept && depth == 0) out.to = kReturns;
                return out;
            }
            if (op.kind == N::Jump) {
                int to = cfg_.block_at_offset(op.target);
                if (to >= 0 && (cfg_.block(to).first < h || cfg_.block(to).first > end)) out.to = through_jumps(to);
                return out;
            }
            if (op.kind == N::Swap && op.arg >= 2) {
                size_t other = size_t(op.arg) - 1;
                depth = depth == 0 ? other : depth == other ? 0 : depth;
            } else if (op.kind == N::Pop || op.kind == N::PopExcept) {
                if (depth == 0) kept = false;
                else --depth;
            } else if (op.kind != N::Nop) {
                return out;
            }
        }
        return out;
    }

    size_t count_open_withs() const {
        size_t n = 0;
        for (int h : open_handlers_) n += handlers_.at(h).kind == HandlerKind::With;
        return n;
    }

    // A body about to get statements loses the `pass` that stood for its being empty.
    static void drop_lone_pass(Body& body) {
        if (body.size() == 1 && body[0]->kind == StmtKind::Pass) body.clear();
    }

    // (See with_exit_call.h.)
    size_t exit_call_at(size_t i, bool constant, bool awaited = false) const {
        return uncompile::exit_call_at(ops_, i, constant, awaited);
    }

    // Whether a lone jump goes to `block` (see is_lone_jump).
    bool is_lone_jump_target(int block) const {
        std::span<const int> preds = cfg_.block(block).preds;
        return std::any_of(preds.begin(), preds.end(), [&](int p) {
            return is_lone_jump(p) && cfg_.block_at_offset(ops_[cfg_.block(p).first].target) == block;
        });
    }

    // Whether `block` is one unconditional jump.
    bool is_lone_jump(int block) const {
        const Block& blk = cfg_.block(block);
        return blk.last - blk.first == 1 && ops_[blk.first].kind == N::Jump;
    }

    // Where a chain of blocks that only jump leads.
    int through_jumps(int block) const {
        for (int steps = 0; block >= 0 && steps < 16; ++steps) {
            const Block& blk = cfg_.block(block);
            if (blk.last - blk.first != 1 || ops_[blk.first].kind != N::Jump) break;
            block = cfg_.block_at_offset(ops_[blk.first].target);
        }
        return block;
    }

    // Where the lone jump `block` goes (`block` itself when it is none).
    int through_jumps_once(int block) const {
        return is_lone_jump(block) ? cfg_.block_at_offset(ops_[cfg_.block(block).first].target) : block;
    }

    int finish_with(const ExprPtr& entered, Body& body, bool body_flows, int exit, int stop, Body& out, Loop* loop,
                    std::vector<ExprPtr>& stack, std::vector<ExprPtr>& stack_at_start, size_t normal_depth, size_t base, int handler) {
        // `stack` is the caller's: what follows the statement continues from it (`stack_at_start`:
        // what it was when the statement started).
        // Where the handler goes on after __exit__ suppressed an exception: the code after the
        // statement. Reachable only that way when the body always returns or raises
        // (`with cm: return x` followed by more code); it must then be printed after the statement.
        std::vector<int> joins;
        std::vector<std::pair<int, size_t>> suppressed = mark_handler_region(handler, true, &joins);
        auto w = make_stmt(StmtKind::With);
        w->is_async = async_withs_.count(entered.get());
        ExprPtr target = with_target_.count(entered.get()) ? with_target_.at(entered.get()) : nullptr;
        w->items.push_back({with_context_.at(entered.get()), target});
        w->body = std::move(body);
        size_t emitted_before = out.size();
        // (Where the body never goes on, its ways out popped the values below the statement too: the
        // suppressed path has those the statement started with.)
        std::vector<ExprPtr> stack_at_end = stack.size() < normal_depth ? std::move(stack_at_start) : stack;
        const Expr* own_exit = exit_of_entered_.count(entered.get()) ? exit_of_entered_.at(entered.get()) : nullptr;
        finishing_with_exit_ = own_exit;
        emitted_before_normal_tail_ = emitted_;
        int next = finish_normal_path(w, w->body, {}, body_flows, exit, stop, out, loop, stack, normal_depth, base);
        next = finish_with_ways_on(w, own_exit, suppressed, joins, next, exit, stop, out, loop, stack, stack_at_end, normal_depth,
                                   base, emitted_before);
        // (Only now: a way out moved into the body above makes it more than the nested statement.)
        merge_nested_with(w);
        return next;
    }

    // The rest of finish_with, once with statement `w` (at out[emitted_before], its exit function
    // `own_exit`) and what its normal path runs after __exit__ (`next`: where that goes on) are out: where its handler goes on
    // after __exit__ suppressed an exception (`suppressed`, `joins`: see mark_handler_region).
    int finish_with_ways_on(const StmtPtr& w, const Expr* own_exit, const std::vector<std::pair<int, size_t>>& suppressed,
                            const std::vector<int>& joins,
                            int next, int exit, int stop, Body& out, Loop* loop, std::vector<ExprPtr>& stack,
                            std::vector<ExprPtr>& stack_at_end, size_t normal_depth, size_t base, size_t emitted_before) {
        if (suppressed.empty()) {
            // A clean-up that ends with its block may go on where the region around the statement
            // ends (a loop's next iteration, the code after an if), past what the normal path ran
            // after the __exit__ call: that is then the body's own way out (`with cm: ...; break`),
            // unless it is the compiler's copy of the code there (3.10's `return x`).
            bool to_stop = stop >= 0 && std::any_of(joins.begin(), joins.end(), [&](int j) { return through_jumps(j) == stop; });
            if (to_stop && next == kFlowEnded && !runs_copy_after_exit(exit, stop)) move_way_out_into_with(w, out, emitted_before, exit, loop);
            return next;
        }
        if (suppressed.size() > 1) unsupported("a with statement that goes on in several places after __exit__ suppresses an exception");
        // (The block may start with the last of the clean-up, the handler's pops, before the code.)
        size_t i = suppressed[0].second;
        // (Where the normal path ran code after __exit__ that ends, the suppressed path may run the
        // same: both meet in it. Dynamo's resume function of a graph break inside two with blocks
        // leaves the outer one through a copy of its __exit__ call, then both raise None.)
        std::vector<int> meeting_blocks;
        if (next == kFlowEnded && out.size() > emitted_before + 1 && out[emitted_before] == w &&
            meets_normal_path(i, exit, meeting_blocks) && tail_stays_in_body()) {
            for (int b : meeting_blocks) emitted_[size_t(b)] = true;
            return kFlowEnded;
        }
        if (next == kFlowEnded) {
            // (The handler's pops dropped the statement's __exit__ too, which the normal path keeps
            // until its own call of it.)
            // (What the normal path ran after the statement may have popped more: the re-raise
            // ending a finally body pops the exception the suppressed path still has.)
            if (stack.size() < std::min(stack_at_end.size(), normal_depth)) stack = std::move(stack_at_end);
            stack.resize(std::min(stack.size(), normal_depth));
            if (!stack.empty() && stack.back().get() == own_exit) stack.pop_back();
            Body after;
            // (Where that is where the statement ends, nothing follows in it: a region starting at its
            // stop would be a loop's body.)
            int from = enter_at(i);
            std::vector<bool> emitted_before_after = emitted_;
            bool flows = from == stop && cfg_.block(from).first == i ? true : emit_region(from, stop, after, loop, stack, base);
            // The compiler copies a short ending (`return None`) into both paths: a copy of what the
            // normal path already ended with is not code of its own.
            size_t tail = out.size() - std::min(out.size(), emitted_before + 1);
            bool copy = !flows && !after.empty() && after.size() <= tail &&
                        print_module(Body(out.end() - long(after.size()), out.end())) == print_module(after);
            if (copy) return kFlowEnded;
            // (Inside another try or with body, that code is the rest of that body: where it goes on
            // past it, as it does when that body's normal exit was not found, it is no code of the
            // statement's own place: printed here it would run before that body's clean-up. Only a
            // `return` of a constant does the same there.)
            bool constant_return = after.size() == 1 && after[0]->kind == StmtKind::Return &&
                                   (!after[0]->value || after[0]->value->kind == ExprKind::Constant);
            if (!constant_return && !emitted_outside_body_since(emitted_before_after).empty())
                unsupported("code after a suppressing with statement that leaves the body around it");
            // Otherwise it is the code after the statement, which only a normal path that ended
            // inside the body leaves to it: a break, continue or return of a constant or a local that
            // follows the __exit__ call is the body's own way out (`with cm: continue`, compiled as
            // the call, then the jump), printed in the body.
            if (!move_way_out_into_with(w, out, emitted_before, exit, loop, !may_add_flag(w, out, emitted_before))) {
                if (!tail_stays_in_body())
                    unsupported("code after a suppressing with statement that leaves the body around it");
                if (in_clause_body())
                    unsupported("a with statement in an except clause that goes on elsewhere after __exit__ suppresses an exception");
                // Or the normal path ran code of its own after __exit__ (see add_body_done_flag):
                //     if not __with_body_done:       if __with_body_done:
                //         <the suppressed path>  or      <what the normal path ran>
                //     <what the normal path ran>     <the suppressed path>
                // as the suppressed path ends or goes on.
                Body normal_tail(out.begin() + long(emitted_before) + 1, out.end());
                out.resize(emitted_before + 1);
                std::string flag = add_body_done_flag(w, out, emitted_before);
                auto branch = make_stmt(StmtKind::If);
                branch->test = make_name(flag);
                if (!flows) branch->test = negate(branch->test);
                branch->body = flows ? std::move(normal_tail) : std::move(after);
                if (branch->body.empty()) branch->body.push_back(make_stmt(StmtKind::Pass));
                out.push_back(branch);
                const Body& rest = flows ? after : normal_tail;
                out.insert(out.end(), rest.begin(), rest.end());
                return flows ? stop : kFlowEnded;
            }
            out.insert(out.end(), after.begin(), after.end());
            return flows ? stop : kFlowEnded;
        }
        // Or the compiler's copy of what follows the statement (3.10 copies short tails that end
        // the function, 3.12+ the end of an except clause around it): the same operations as the
        // code the normal path goes on to, up to where both meet.
        std::vector<int> copy_blocks;
        if (!same_way_on(i, exit, next, copy_blocks)) {
            // Or the compiler's copy of the way on to the loop's next iteration (the __exit__ calls of
            // the with statements around it) where the normal path runs the same ops up to there by a
            // jump of its own: the body ends in `continue`.
            if (loop && next == stop && out.size() == emitted_before + 1 && out.back() == w && stack.size() <= normal_depth &&
                runs_same_to_next_iteration(i, next, *loop, copy_blocks)) {
                drop_lone_pass(w->body);
                w->body.push_back(make_stmt(StmtKind::Continue));
                for (int cb : copy_blocks) emitted_[cb] = true;
                return next;
            }
            // Or, where the normal path goes straight on to the loop's next iteration, the code after
            // the statement, which only the suppressed path runs: the body ends in `continue`.
            if (!loop || next != stop || stop != next_iteration(loop) || out.size() != emitted_before + 1 || out.back() != w ||
                stack.size() > normal_depth)
                return split_ways_on_by_flag(w, own_exit, i, next, loop, stack, stack_at_end, normal_depth, base, out,
                                             emitted_before);
            drop_lone_pass(w->body);
            // (A body that is a with statement ending in `continue` of its own, merged, has it.)
            if (w->body.empty() || w->body.back()->kind != StmtKind::Continue) w->body.push_back(make_stmt(StmtKind::Continue));
            Body after;
            bool flows = emit_region(enter_at(i), stop, after, loop, stack, base);
            out.insert(out.end(), after.begin(), after.end());
            return flows ? stop : kFlowEnded;
        }
        for (int cb : copy_blocks) emitted_[cb] = true;
        return next;
    }

    // With statement `w` (at out[emitted_before]) whose normal path goes on at block `next` (after
    // the statements out holds past `w`) but whose handler, after __exit__ suppressed an exception,
    // goes on at op `i` elsewhere: see add_body_done_flag. Where both go on at `next`, the
    // suppressed path skips what the normal path ran after __exit__:
    //     if not __with_body_done:
    //         <the suppressed path>
    //     else:
    //         <what the normal path ran after __exit__>
    int split_ways_on_by_flag(const StmtPtr& w, const Expr* own_exit, size_t i, int next, Loop* loop,
                              std::vector<ExprPtr>& stack, const std::vector<ExprPtr>& stack_at_end, size_t normal_depth,
                              size_t base, Body& out, size_t emitted_before) {
        if (!may_add_flag(w, out, emitted_before) || next < 0)
            unsupported("a with statement that goes on elsewhere after __exit__ suppresses an exception");
        if (!tail_stays_in_body()) unsupported("code after a suppressing with statement that leaves the body around it");
        // The suppressed path starts from the values the statement started with (its pops dropped
        // the statement's __exit__).
        std::vector<ExprPtr> suppressed_stack = stack_at_end;
        suppressed_stack.resize(std::min(suppressed_stack.size(), normal_depth));
        if (!suppressed_stack.empty() && suppressed_stack.back().get() == own_exit) suppressed_stack.pop_back();
        Body suppressed;
        std::vector<bool> emitted_before_suppressed = emitted_;
        bool flows = emit_region(enter_at(i), next, suppressed, loop, suppressed_stack, base);
        // (Printed after the statement, the suppressed path must stay inside the try or with body
        // around it, whose clean-up it would run before: a nested with statement's suppressed path
        // that leaves through the outer one's __exit__ call is another shape. In an except clause,
        // it would run before the clause ends the exception.)
        if (in_clause_body())
            unsupported("a with statement in an except clause that goes on elsewhere after __exit__ suppresses an exception");
        if (!emitted_outside_body_since(emitted_before_suppressed).empty())
            unsupported("code after a suppressing with statement that leaves the body around it");
        // (Where both go on at `next`, they must bring the same values there.)
        if (flows && (suppressed_stack.size() != stack.size() ||
                      !std::equal(stack.begin(), stack.end(), suppressed_stack.begin())))
            unsupported("a with statement whose suppressed exit goes on with other values than its normal exit");
        Body normal_tail(out.begin() + long(emitted_before) + 1, out.end());
        out.resize(emitted_before + 1);
        std::string flag = add_body_done_flag(w, out, emitted_before);
        auto branch = make_stmt(StmtKind::If);
        branch->test = negate(make_name(flag));
        branch->body = suppressed.empty() ? Body{make_stmt(StmtKind::Pass)} : std::move(suppressed);
        if (flows) {
            branch->orelse = std::move(normal_tail);
            normal_tail.clear();
        }
        out.push_back(branch);
        out.insert(out.end(), normal_tail.begin(), normal_tail.end());
        return next;
    }

    // The blocks emitted since `before` (emitted_ then) that lie outside the try or with body being
    // emitted (none outside any).
    std::vector<int> emitted_outside_body_since(const std::vector<bool>& before) const {
        std::vector<int> outside;
        if (protected_bodies_.empty()) return outside;
        const ProtectedBody& p = protected_bodies_.back();
        for (int k = 0; k < cfg_.size(); ++k)
            if (emitted_[size_t(k)] && !before[size_t(k)] && !in_body(k, p.handler, p.uncovered)) outside.push_back(k);
        return outside;
    }

    // Whether the statement being emitted is directly in an except clause (not in a try or with
    // body inside one).
    bool in_clause_body() const {
        return !open_clauses_.empty() && open_clauses_.back().bodies == protected_bodies_.size();
    }

    // Whether with statement `w` (at out[emitted_before]) may get add_body_done_flag's flag: in a
    // function, whose flag is a local of its own (at module or class level it would be a name
    // the namespace keeps).
    bool may_add_flag(const StmtPtr& w, const Body& out, size_t emitted_before) const {
        return (code_.flags & kCoOptimized) && out.size() > emitted_before && out[emitted_before] == w;
    }

    // Whether what the normal path of the with statement being finished ran after its __exit__
    // call stays inside the try or with body around the statement, but for a
    // way out of it that only calls __exit__ functions and returns (a `return` inside that body).
    // Printed in a branch of the flag (see add_body_done_flag), code past that body's end would run
    // before its clean-up: Dynamo's resume function of a graph break three with statements deep
    // runs code between the middle and the outer __exit__ calls.
    bool tail_stays_in_body() const {
        for (int b : emitted_outside_body_since(emitted_before_normal_tail_)) {
            std::vector<const NeutralOp*> ops = straight_ops(b);
            size_t k = 0;
            while (size_t n = with_exit_call_end(ops, k, ops.size(), true, true)) k += n;
            bool returns = !ops.empty() && ops.back()->kind == N::Return && ops.size() - k <= 2 &&
                           (ops.size() - k == 1 || ops[k]->kind == N::Load || ops[k]->kind == N::LoadConst);
            if (!returns) return false;
        }
        return true;
    }

    // A with statement whose normal path and whose path after __exit__ suppressed an exception go
    // on in different places is no source with statement: Dynamo's resume functions jump into a with
    // body re-entered in their prologue, whose handler raises `None` after a suppression while the
    // normal path goes on with the rest of the function. It is written with a flag that only a
    // finished body sets, which the code after the statement tests:
    //     __with_body_done = False
    //     with cm:
    //         ...
    //         __with_body_done = True
    // This runs the same operations on the same values as the bytecode, with the flag's besides, so
    // it is never equivalent. Puts both assignments in place around `w` (at out[emitted_before])
    // and returns the flag's name.
    std::string add_body_done_flag(const StmtPtr& w, Body& out, size_t emitted_before) {
        std::string flag = unused_name(code_, "__with_body_done");
        auto set_flag = [&](ObjectRef value) {
            auto s = make_stmt(StmtKind::Assign);
            s->targets.push_back(make_name(flag));
            s->value = make_constant(std::move(value));
            return s;
        };
        drop_lone_pass(w->body);
        w->body.push_back(set_flag(true_value()));
        out.insert(out.begin() + long(emitted_before), set_flag(false_value()));
        return flag;
    }

    // Whether what the normal path of a with statement runs after the __exit__ call (or awaited
    // __aexit__ call) that starts its exit block ends the function as the code at block `at` does,
    // op for op.
    bool runs_copy_after_exit(int exit, int at) const {
        if (exit < 0) return false;
        std::vector<const NeutralOp*> after_exit = straight_ops(exit), there = straight_ops(at);
        size_t k = with_exit_call_end(after_exit, 0, after_exit.size(), true, true);
        if (k == 0 || there.empty()) return false;
        after_exit.erase(after_exit.begin(), after_exit.begin() + long(k));
        return same_ops(after_exit, there);
    }

    // What the normal path of with statement `w` (at out[emitted_before]) ran after its __exit__
    // call (in block `exit`), where a suppressed exception does not go on: a break, continue or
    // return of a constant or a local, compiled as the call, then the jump, is the body's own way
    // out (`with cm: continue`), printed in the body; so is the compiler's copy of the code a
    // `break` goes to (3.12+ copy a loop's short exit, a `return`, after the call: `with cm:
    // break`), and so are the compiler's copies of the finally bodies of open try statements
    // before it, which the way out leaves too (taken out again when those statements are: see
    // strip_final_copies). Anything else is refused, or where `refuse` is false left in place:
    // the answer is then false.
    bool move_way_out_into_with(const StmtPtr& w, Body& out, size_t emitted_before, int exit, Loop* loop,
                                bool refuse = true) const {
        size_t tail = out.size() - std::min(out.size(), emitted_before + 1);
        if (tail == 0) return true;
        if (loop && loop->break_to >= 0 && out[emitted_before] == w && runs_copy_after_exit(exit, through_jumps(loop->break_to))) {
            drop_lone_pass(w->body);
            w->body.push_back(make_stmt(StmtKind::Break));
            ++loop->breaks;
            out.resize(emitted_before + 1);
            return true;
        }
        const StmtPtr& last = out.back();
        bool way_out = last->kind == StmtKind::Break || last->kind == StmtKind::Continue ||
                       (last->kind == StmtKind::Return &&
                        (!last->value || last->value->kind == ExprKind::Constant || is_fast_local(last->value) ||
                         returned_through_copies_.count(last->value.get())));
        if ((tail != 1 && !leaves_through_finally_copies(exit)) || out[emitted_before] != w || !way_out) {
            if (!refuse) return false;
            unsupported("a with statement that goes on elsewhere after __exit__ suppresses an exception");
        }
        drop_lone_pass(w->body);
        w->body.insert(w->body.end(), out.end() - long(tail), out.end());
        out.resize(out.size() - tail);
        return true;
    }

    // Whether what the normal path of a with statement runs after the __exit__ call that starts
    // block `exit` is copies of the finally bodies of open try statements (see
    // returns_through_finally_copies).
    bool leaves_through_finally_copies(int exit) const {
        if (exit < 0) return false;
        size_t k = exit_call_at(cfg_.block(exit).first, true, true);
        std::set<int> blocks;
        return k > 0 && returns_through_finally_copies(cfg_.block(exit).first + k, blocks);
    }

    // Whether the ops from `i` are the way out of a `return` of a constant, a `break` or a
    // `continue` from inside with statements inside try/finally statements: __exit__ calls of with
    // statements, then the compiler's copies of the finally bodies of the open try statements
    // (which may branch), then at each place they end the return (see
    // is_return_after_branching_copies) or the jump. The blocks of the
    // copies and returns, which no other code reaches, go to `blocks`.
    bool returns_through_finally_copies(size_t i, std::set<int>& blocks) const {
        for (int steps = 0; i < ops_.size() && steps < 64; ++steps) {
            if (size_t n = exit_call_at(i, true, true)) i += n;
            else if (ops_[i].kind == N::Nop) ++i;
            else break;
        }
        if (i == 0 || i >= ops_.size() || cfg_.block(cfg_.block_of_op(i)).first != i) return false;
        int from = cfg_.block_of_op(i - 1), start = cfg_.block_of_op(i);
        std::set<int> copies = {start};
        std::vector<size_t> ends = ends_of_open_finally_copies(start, copies);
        if (ends.empty()) return false;
        for (size_t at : ends) {
            // (A break or continue: the pops of the for loops it leaves, then the jump.)
            size_t k = at;
            while (k < ops_.size() && (ops_[k].kind == N::Nop || ops_[k].kind == N::Pop)) ++k;
            if (k < ops_.size() && ops_[k].kind == N::Jump) {
                for (; at <= k; ++at) copies.insert(cfg_.block_of_op(at));
                continue;
            }
            std::vector<int> tail_blocks;
            std::vector<const NeutralOp*> tail = straight_ops_from(at, &tail_blocks);
            if (tail.size() < 2 || tail.back()->kind != N::Return || tail[tail.size() - 2]->kind != N::LoadConst) return false;
            size_t end = tail.size() - 2, exits = 0;
            if (unwinding_end(tail, 0, end, true, exits) != end) return false;
            copies.insert(tail_blocks.begin(), tail_blocks.end());
        }
        if (!reached_only_from_within(from, copies)) return false;
        blocks.insert(copies.begin(), copies.end());
        return true;
    }

    int finish_finally(Body& body, const Body& final_body, int handler, bool body_flows, int exit, int stop, Body& out, Loop* loop,
                       std::vector<ExprPtr>& stack, size_t normal_depth, size_t base) {
        StmtPtr t;
        if (body.size() == 1 && body[0]->kind == StmtKind::Try && body[0]->finalbody.empty() && !body[0]->handlers.empty()) {
            t = body[0];  // try/except/finally is one statement
        } else {
            t = make_stmt(StmtKind::Try);
            t->body = std::move(body);
            dropped_copies_.push_back(t);  // (kept alive: its address is a key)
        }
        // (A raise the finally handler does not cover is no part of the body either: printed there,
        // the finally body would run once more before it.)
        try_handler_[t.get()].push_back(handler);
        t->finalbody = final_body.empty() ? Body{make_stmt(StmtKind::Pass)} : final_body;
        strip_copies_of(t);
        Body& last_body = t->orelse.empty() ? t->body : t->orelse;
        return finish_normal_path(t, last_body, final_body, body_flows, exit, stop, out, loop, stack, normal_depth, base);
    }

    // How many statements the except clauses and the else clause of try statement `t` all end
    // with (0: none, or no else clause).
    static size_t common_clause_ending(const Stmt& t) {
        if (t.kind != StmtKind::Try || !t.finalbody.empty() || t.handlers.empty() || t.orelse.empty()) return 0;
        size_t longest = t.orelse.size();
        for (const ExceptHandler& h : t.handlers) longest = std::min(longest, h.body.size());
        auto ending = [](const Body& b, size_t k) { return print_module(Body(b.end() - long(k), b.end())); };
        size_t common = 0;
        for (size_t k = 1; k <= longest; ++k) {
            std::string want = ending(t.orelse, k);
            if (!std::all_of(t.handlers.begin(), t.handlers.end(), [&](const ExceptHandler& h) { return ending(h.body, k) == want; }))
                break;
            common = k;
        }
        return common;
    }

    // `body` ending with try/except/else whose clauses and else clause all end with the same
    // statements: a copy with those once after the try statement (an emptied else clause dropped).
    // Empty where it does not end so.
    static Body hoist_common_clause_ending(const Body& body) {
        if (body.empty()) return {};
        const StmtPtr& last = body.back();
        size_t common = common_clause_ending(*last);
        if (!common) return {};
        Body out(body.begin(), body.end() - 1);
        StmtPtr t = clone_statement(last);
        out.push_back(t);
        out.insert(out.end(), t->orelse.end() - long(common), t->orelse.end());
        t->orelse.resize(t->orelse.size() - common);
        for (ExceptHandler& h : t->handlers) {
            h.body.resize(h.body.size() - common);
            if (h.body.empty()) h.body.push_back(make_stmt(StmtKind::Pass));
        }
        return out;
    }

    // A copy of `body` with each `return a if t else b` as `if t: return a else: return b`, and
    // each `if t: A` whose A always leaves, followed by the rest of its body B, as `if t: A else: B`.
    static Body split_returns(const Body& body) {
        Body out;
        for (size_t i = 0; i < body.size(); ++i) {
            StmtPtr c = clone_statement(body[i]);
            if (c->kind == StmtKind::Return && c->value && c->value->kind == ExprKind::IfExp) {
                auto split = make_stmt(StmtKind::If);
                split->test = c->value->test;
                for (auto [side, branch] : {std::pair{c->value->body, &split->body}, std::pair{c->value->orelse, &split->orelse}}) {
                    auto r = make_stmt(StmtKind::Return);
                    r->value = side;
                    branch->push_back(r);
                }
                c = split;
            }
            for_each_child_body(c, [](Body& child, bool) { child = split_returns(child); });
            if (c->kind == StmtKind::If && c->orelse.empty() && i + 1 < body.size() && leaves_on_every_path(c->body)) {
                c->orelse = split_returns(Body(body.begin() + long(i) + 1, body.end()));
                out.push_back(c);
                return out;
            }
            out.push_back(c);
        }
        return out;
    }

    // A copy of `body` with each `if a: if b: ...` (no else on either) as `if a and b: ...`, and each
    // `if a: X elif b: X` (no else on the elif) as `if a or b: X`.
    static Body joined_ifs(const Body& body) {
        Body out;
        for (const StmtPtr& s : body) {
            StmtPtr c = clone_statement(s);
            for_each_child_body(c, [](Body& child, bool) { child = joined_ifs(child); });
            while (c->kind == StmtKind::If && c->orelse.size() == 1 && c->orelse[0]->kind == StmtKind::If &&
                   c->orelse[0]->orelse.empty() && print_module(c->body) == print_module(c->orelse[0]->body)) {
                auto test = make_expr(ExprKind::BoolOp);
                test->id = "or";
                for (const ExprPtr& side : {c->test, c->orelse[0]->test}) {
                    if (side->kind == ExprKind::BoolOp && side->id == "or") test->elts.insert(test->elts.end(), side->elts.begin(), side->elts.end());
                    else test->elts.push_back(side);
                }
                c->test = test;
                c->orelse.clear();
            }
            while (c->kind == StmtKind::If && c->orelse.empty() && c->body.size() == 1 && c->body[0]->kind == StmtKind::If &&
                   c->body[0]->orelse.empty()) {
                StmtPtr inner = c->body[0];
                auto test = make_expr(ExprKind::BoolOp);
                test->id = "and";
                for (const ExprPtr& side : {c->test, inner->test}) {
                    if (side->kind == ExprKind::BoolOp && side->id == "and") test->elts.insert(test->elts.end(), side->elts.begin(), side->elts.end());
                    else test->elts.push_back(side);
                }
                c->test = test;
                c->body = inner->body;
            }
            out.push_back(c);
        }
        return out;
    }

    // After a with or try/finally body: the code at `exit` is the compiler's copy of the clean-up
    // (the __exit__ call, which simulates to nothing, or the finally body, which is checked and
    // dropped) followed by what comes after the statement. A value the body left on the stack
    // belongs to the statement that consumes it (`return x` inside the body).
    int finish_normal_path(const StmtPtr& statement, Body& last_body, const Body& copy, bool body_flows, int exit, int stop,
                           Body& out, Loop* loop, std::vector<ExprPtr>& stack, size_t normal_depth, size_t base) {
        if (statement->kind == StmtKind::Try && statement->body.empty()) statement->body.push_back(make_stmt(StmtKind::Pass));
        const Expr* this_exit = statement->kind == StmtKind::With ? finishing_with_exit_ : nullptr;  // (before `rest` finishes others)
        if (this_exit) {
            with_statement_exits_[statement.get()].push_back(this_exit);
            dropped_copies_.push_back(statement);  // (kept alive: its address is a key)
        }
        // A return or raise that ran after this with statement's __exit__ call, printed in its body,
        // would run before it (see computed_after_with_exit): only a local variable's value returned
        // is the same there.
        auto refuse_code_after_exit = [&]() {
            if (this_exit && holds_any(statement->body, [&](const Stmt& st) {
                    auto it = exit_before_tail_.find(&st);
                    return it != exit_before_tail_.end() && it->second == this_exit &&
                           (st.kind != StmtKind::Return || !is_fast_local(st.value));
                }))
                unsupported("a return or raise after a with statement's exit printed in its body");
        };
        if (!body_flows || exit < 0) {
            refuse_code_after_exit();
            if (statement->body.empty()) statement->body.push_back(make_stmt(StmtKind::Pass));
            emit_stmt(out, statement);
            return kFlowEnded;
        }
        size_t depth_at_exit = stack.size();
        Body rest;
        // A value the body left (`return v` inside try/finally) was computed before the clean-up
        // copy runs, as the source says: it is not a value to write to a temporary.
        if (depth_at_exit > normal_depth && !stack.empty()) consumed_after_cleanup_.insert(keep(stack.back()));
        bool rest_flows = emit_region(exit, stop, rest, loop, stack, base);
        if (!copy.empty()) {
            // (Compared with their temporaries numbered in order: each copy makes its own.)
            auto text = [&](const Body& b) { return with_temporaries_in_order(print_module(b)); };
            std::string copy_text = text(copy);
            bool same = rest.size() >= copy.size() && text(Body(rest.begin(), rest.begin() + copy.size())) == copy_text;
            // The handler's copy falls out where this one has the compiler's copies of what follows:
            // the statement after it, or, where every path of the copy ends, the one its last
            // statement ends with (which then follows the copy once).
            StmtPtr tail;
            if (!same && rest.size() > copy.size()) tail = rest[copy.size()];
            else if (!same && rest.size() == copy.size() && !rest.empty() && !rest_flows) tail = trailing_statement(rest.back());
            if (tail && is_copied_tail(tail)) {
                Body prefix(rest.begin(), rest.begin() + copy.size());
                strip_copied_tail(prefix, print_module(Body{tail}), true);
                same = text(prefix) == copy_text;
                if (same && rest.size() == copy.size()) rest.push_back(tail);
            }
            // (Where the copy goes on to a return of a constant, the region's end, the branches of
            // its last statement that end it hold the compiler's copies of that return: taken out,
            // they fall there too.)
            if (!same && rest_flows && rest.size() == copy.size() && !rest.empty() && returns_constant_only(stop)) {
                StmtPtr last = trailing_statement(rest.back());
                if (is_copied_tail(last) && last->kind == StmtKind::Return && last->value &&
                    print_module(Body{last}) == print_module(Body{return_of_constant_block(stop)})) {
                    Body prefix;
                    for (const StmtPtr& st : rest) prefix.push_back(clone_statement(st));
                    strip_copied_tail(prefix, print_module(Body{last}), true);
                    if (text(prefix) == copy_text) {
                        same = true;
                        rest = prefix;
                    }
                }
            }
            // (Where the copy ends the function, its `if a and b:` can jump to copies of the return:
            // it reads `if a: if b:`, which means the same.)
            if (!same && rest.size() >= copy.size())
                same = text(joined_ifs(Body(rest.begin(), rest.begin() + copy.size()))) == text(joined_ifs(copy));
            // (The handler's copy split at a conditional expression in its last statement (see
            // split_conditional): the normal path's statement is the source's, printed in the body.)
            if (!same && rest.size() >= copy.size() && statement->finalbody.size() == copy.size()) {
                Body prefix(rest.begin(), rest.begin() + copy.size());
                if (StmtPtr split = split_conditional(prefix.back())) {
                    StmtPtr original = prefix.back();
                    prefix.back() = split;
                    if (text(prefix) == copy_text && print_module(Body{statement->finalbody.back()}) == print_module(Body{copy.back()})) {
                        same = true;
                        statement->finalbody.back() = original;
                    }
                }
            }
            // (Where the copy ends with an if whose then-side jumped over the rest to the end, the
            // normal path's then-side holds the copied tail, the statement that follows the copy and
            // ends the function: read as the if/else the handler's copy was folded into.)
            // (Any return: the code after the statement, which runs after the copy, as in the source.)
            if (!same && !rest_flows && rest.size() >= 2 && (is_copied_tail(rest.back()) || rest.back()->kind == StmtKind::Return)) {
                std::string tail_text = print_module(Body{rest.back()});
                auto prefix_clone = [&] {
                    Body p;
                    for (auto it = rest.begin(); it + 1 != rest.end(); ++it) p.push_back(clone_statement(*it));
                    return p;
                };
                Body prefix = prefix_clone();
                fold_copied_tail(prefix, tail_text);
                strip_copied_tail(prefix, tail_text, true);
                bool joined = text(prefix) != copy_text && text(joined_ifs(prefix)) == text(joined_ifs(copy));
                // (Or a `break` out of a loop of the copy: 3.10+ copy the return after the statement
                // into the break's jump, which reads as that return.)
                bool breaks = false;
                if (text(prefix) != copy_text && !joined && rest.back()->kind == StmtKind::Return) {
                    Body looped = prefix_clone();
                    for (const StmtPtr& st : looped)
                        if ((st->kind == StmtKind::While || st->kind == StmtKind::For) && st->orelse.empty())
                            breaks = returns_as_breaks(st->body, tail_text) || breaks;
                    breaks = breaks && text(looped) == copy_text;
                }
                if (text(prefix) == copy_text || joined || breaks) {
                    same = true;
                    // (`if a or b:` in the handler's copy is `if a: X elif b: X` written out: the normal
                    // path's copy says which, the same code either way.)
                    if (joined && text(statement->finalbody) == copy_text) statement->finalbody = prefix;
                    StmtPtr tail_stmt = rest.back();
                    rest = copy;  // (taken off below)
                    rest.push_back(tail_stmt);
                }
            }
            // (3.12+ also copy the rest of the handler's copy after that statement, up to its
            // re-raise, into both sides: the normal path's statements are the source's.)
            size_t split_end = 0;
            for (size_t k = copy.size(); !same && k <= std::min(rest.size(), copy.size() + 4); ++k)
                for (size_t j = 0; j < k && !same; ++j) {
                    StmtPtr split = split_conditional(rest[j]);
                    if (!split) continue;
                    for (Body* side : {&split->body, &split->orelse}) side->insert(side->end(), rest.begin() + long(j) + 1, rest.begin() + long(k));
                    Body candidate(rest.begin(), rest.begin() + long(j));
                    candidate.push_back(split);
                    if (text(candidate) != copy_text || text(statement->finalbody) != copy_text) continue;
                    same = true;
                    split_end = k;
                    statement->finalbody.assign(rest.begin(), rest.begin() + long(k));
                }
            // (Where the statement ends a loop's body, an if of the copy whose then-side falls out
            // jumps to the next iteration: `if t: A; continue` then the rest, read as the handler's.)
            if (!same && rest_flows && loop && (stop == next_iteration(loop) || stop == loop->header) && !rest.empty()) {
                const std::string next = print_module(Body{make_stmt(StmtKind::Continue)});
                Body prefix;
                for (const StmtPtr& st : rest) prefix.push_back(clone_statement(st));
                fold_copied_tail(prefix, next);
                strip_copied_tail(prefix, next, true);
                if (text(prefix) == copy_text || text(joined_ifs(prefix)) == text(joined_ifs(copy))) {
                    same = true;
                    rest = copy;  // (taken off below)
                }
            }
            // (3.10+ copy a short ending of the finally body, with the handler copy's re-raise, into
            // the except clauses of a try statement before it: the handler's copy reads that ending
            // in each clause and in an else clause, the normal path's once after the try.)
            size_t hoisted_end = 0;
            if (!same) {
                Body hoisted = hoist_common_clause_ending(copy);
                if (!hoisted.empty() && rest.size() >= hoisted.size() &&
                    text(Body(rest.begin(), rest.begin() + long(hoisted.size()))) == text(hoisted)) {
                    same = true;
                    hoisted_end = hoisted.size();
                    if (text(statement->finalbody) == copy_text) statement->finalbody = hoisted;
                }
            }
            // (A try/except in the copy whose clauses all leave, or an if whose then-side leaves,
            // followed by more: the normal path may read that more as its else clause, the same
            // code.)
            if (!same) {
                auto others_leave = [](const Stmt& s) {
                    if (s.kind == StmtKind::If) return leaves_on_every_path(s.body);
                    return s.kind == StmtKind::Try && s.finalbody.empty() && !s.handlers.empty() &&
                           std::all_of(s.handlers.begin(), s.handlers.end(), [](const ExceptHandler& h) { return leaves_on_every_path(h.body); });
                };
                for (size_t i = 0; i < std::min(rest.size(), copy.size()); ++i) {
                    const StmtPtr& mine = rest[i];
                    if (copy[i]->kind != mine->kind || !copy[i]->orelse.empty() || mine->orelse.empty() || !others_leave(*mine))
                        continue;
                    Body candidate(rest.begin(), rest.begin() + long(i));
                    StmtPtr t = clone_statement(mine);
                    candidate.push_back(t);
                    candidate.insert(candidate.end(), t->orelse.begin(), t->orelse.end());
                    t->orelse.clear();
                    candidate.insert(candidate.end(), rest.begin() + long(i) + 1, rest.end());
                    if (candidate.size() >= copy.size() && text(Body(candidate.begin(), candidate.begin() + long(copy.size()))) == copy_text) {
                        same = true;
                        rest = candidate;
                    }
                    break;
                }
            }
            size_t copy_end = split_end ? split_end : hoisted_end ? hoisted_end : copy.size();
            // (The copy returns `a if t else b`: 3.9+ copy the return into the jump of the normal
            // path's, which reads `if t: return a` then `return b`, more statements. Or the copy's
            // `if t: raise` then more reads `if t: raise` with the rest as its `else:` on the normal
            // path, fewer statements.)
            if (!same) {
                std::string split_copy = text(split_returns(copy));
                for (size_t k = 1; k <= std::min(rest.size(), copy.size() + 4) && !same; ++k)
                    if (text(split_returns(Body(rest.begin(), rest.begin() + long(k)))) == split_copy) {
                        same = true;
                        copy_end = k;
                    }
            }
            if (!same) unsupported("a finally body whose normal-path copy differs");
            rest.erase(rest.begin(), rest.begin() + long(copy_end));
        }
        if (depth_at_exit > normal_depth) {
            // (The clean-up ends the try body around this statement: the value is returned after
            // that body, which on 3.8-3.10 the return leaves by POP_BLOCK first.)
            if (rest.empty() && rest_flows && depth_at_exit == normal_depth + 1 && !protected_bodies_.empty() &&
                stop == protected_bodies_.back().exit)
                rest_flows = return_from_body(stop, rest, loop, stack, base);
            if (rest.empty() || depth_at_exit != normal_depth + 1) unsupported("a protected body that leaves values on the stack");
            drop_lone_pass(last_body);
            last_body.push_back(rest.front());
            rest.erase(rest.begin());
        }
        if (statement->kind == StmtKind::With && !exit_before_tail_.empty()) {
            // The compiler's copies of the return after the statement (3.10), each after the
            // __exit__ call of a way out of the body: that way out falls to the end of the body.
            if (!rest.empty() && rest.front()->kind == StmtKind::Return)
                fold_branch_tail_copies(statement->body, print_module(Body{rest.front()}), tail_after_with_);
            refuse_code_after_exit();
        }
        if (statement->body.empty()) statement->body.push_back(make_stmt(StmtKind::Pass));
        emit_stmt(out, statement);
        for (auto& st : rest) emit_stmt(out, st);
        return rest_flows ? stop : kFlowEnded;  // `stack` (the caller's) is where `rest` left it
    }

    // Whether `e` reads a local variable of this function (not a cell: a nested function may change
    // those), or is a tuple display of such reads and constants.
    bool is_fast_local(const ExprPtr& e) const {
        if (e && e->kind == ExprKind::Tuple)
            return std::all_of(e->elts.begin(), e->elts.end(), [&](const ExprPtr& x) { return x->kind == ExprKind::Constant || is_fast_local(x); });
        if (!e || e->kind != ExprKind::Name) return false;
        auto in = [&](const std::vector<std::string>& names) { return std::find(names.begin(), names.end(), e->id) != names.end(); };
        return in(code_.varnames) && !in(code_.cellvars) && !in(code_.freevars);
    }

    // ---- table order: co_names and co_consts entries are added at their first use in the source

    // The co_names (`names`) and co_consts (`consts`: strings, ints and booleans) indices that the
    // expressions of `body` use, with nested bodies (not nested definitions' bodies): each use once.
    void table_uses(const Body& body, std::vector<int64_t>& names, std::vector<int64_t>& consts) const {
        const TableIndex& index = table_index();
        auto add = [](const std::unordered_map<std::string, std::vector<int64_t>>& map, const std::string& key,
                      std::vector<int64_t>& out) {
            if (auto it = map.find(key); it != map.end()) out.insert(out.end(), it->second.begin(), it->second.end());
        };
        std::function<void(const ExprPtr&)> expr = [&](const ExprPtr& e) {
            if (!e) return;
            if (e->kind == ExprKind::Attribute || (e->kind == ExprKind::Name && !is_local_name(e->id))) {
                add(index.names, e->id, names);
            } else if (e->kind == ExprKind::Constant && e->constant && indexed_constant(*e->constant)) {
                add(index.consts, const_key(*e->constant), consts);
            }
            if (e->kind == ExprKind::Lambda) return;  // (its body is another code object's)
            for_each_child_slot(*e, [&](ExprPtr& c) { expr(c); });
        };
        for (const StmtPtr& st : body) {
            for_each_own_expr(*st, expr);
            if (st->kind == StmtKind::FunctionDef || st->kind == StmtKind::ClassDef) continue;
            for_each_nested_body(*st, [&](const Body& b) { table_uses(b, names, consts); });
        }
    }

    // Where each name and each str/int constant sits in co_names and co_consts, looked up for
    // every expression of a body (a scan of the tables each was cubic in an elif chain's length).
    struct TableIndex {
        std::unordered_map<std::string, std::vector<int64_t>> names, consts;
    };
    // (co_consts keeps True apart from 1, as the keys do.)
    static bool indexed_constant(const PyValue& v) {
        using K = PyValue::Kind;
        return v.kind == K::Str || v.kind == K::True || v.kind == K::False || (v.kind == K::Int && v.big_digits.empty());
    }
    static std::string const_key(const PyValue& v) {
        using K = PyValue::Kind;
        if (v.kind == K::True || v.kind == K::False) return v.kind == K::True ? "T" : "F";
        return v.kind == K::Str ? "s" + v.text : "i" + std::to_string(v.small);
    }
    const TableIndex& table_index() const {
        if (!table_index_) {
            table_index_.emplace();
            for (size_t k = 0; k < code_.names.size(); ++k) table_index_->names[code_.names[k]].push_back(int64_t(k));
            for (size_t k = 0; k < code_.consts.size(); ++k) {
                const PyValue& c = *code_.consts[k];
                if (indexed_constant(c)) table_index_->consts[const_key(c)].push_back(int64_t(k));
            }
        }
        return *table_index_;
    }

    bool is_local_name(const std::string& id) const {
        for (const auto* table : {&code_.varnames, &code_.cellvars, &code_.freevars})
            if (std::find(table->begin(), table->end(), id) != table->end()) return true;
        return false;
    }

    // How often each table entry is used in a body (names, then consts).
    using UseCounts = std::array<std::unordered_map<int64_t, int>, 2>;
    UseCounts use_counts(const Body& body) const {
        std::vector<int64_t> names, consts;
        table_uses(body, names, consts);
        UseCounts counts;
        for (int64_t k : names) ++counts[0][k];
        for (int64_t k : consts) ++counts[1][k];
        return counts;
    }

    // The entries of each table that `part` alone uses in the body `whole` was counted over.
    std::array<std::vector<int64_t>, 2> used_only_in(const Body& part, const UseCounts& whole) const {
        UseCounts counts = use_counts(part);
        std::array<std::vector<int64_t>, 2> only;
        for (int table = 0; table < 2; ++table)
            for (auto [k, n] : counts[table])
                if (auto w = whole[table].find(k); w != whole[table].end() && w->second == n) only[table].push_back(k);
        return only;
    }

    // Whether the tables say `later` was compiled after `earlier`: an entry `later` uses comes after
    // one that only `earlier` uses in all of `whole` (the rest of the function): that entry was
    // added in `earlier`, and `later` would have added its own entries first were it compiled first.
    // (The counts of `whole` are kept until the body changes: see whole_counts_.)
    bool tables_say_after(const Body& earlier, const Body& later, const Body& whole) const {
        std::vector<int64_t> l[2];
        table_uses(later, l[0], l[1]);
        // (Nothing to tell by where `later` uses no entry: `return x` of a local. Said before the
        // uses of `earlier` are counted, which for an elif chain is the rest of the chain at each
        // level.)
        if (l[0].empty() && l[1].empty()) return false;
        if (!whole_counts_) whole_counts_ = use_counts(whole);
        const auto only = used_only_in(earlier, *whole_counts_);
        for (int table = 0; table < 2; ++table) {
            int64_t only_earlier = INT64_MAX;
            for (int64_t k : only[table]) only_earlier = std::min(only_earlier, k);
            for (int64_t k : l[table])
                if (k > only_earlier) return true;
        }
        return false;
    }

    // 3.10+ copy a short block that ends the function (a `return`) into the jump to it, so
    // `if t: A else: B` followed by that block lays out like `if t: A; <copy>` followed by B and
    // the block: the same code, but for the order of co_names and co_consts, which says which the
    // source had (the block compiled after B: the else). Inner bodies first, last candidates first
    // (an elif chain).
    void restore_else_before_copied_tail(Body& body) {
        whole_counts_.reset();
        restore_else_before_copied_tail(body, body);
        hoist_copied_function_end(body);
        whole_counts_.reset();
    }

    // Likewise the function's end (a statement, then `return None`) copied into both sides of a
    // last `if t: A else: B`: each side ends with the same statement; the tables say whether it was
    // compiled after B (once, after the if) or in each side.
    void hoist_copied_function_end(Body& body) {
        size_t n = body.size();
        if (n > 0 && is_return_none(body[n - 1])) --n;  // (the function's own end, not yet dropped)
        if (n == 0 || body[n - 1]->kind != StmtKind::If) return;
        Stmt& s = *body[n - 1];
        // (Each side may still end with its copy of the `return None` too.)
        bool returns = !s.body.empty() && !s.orelse.empty() && is_return_none(s.body.back()) && is_return_none(s.orelse.back());
        size_t k = returns ? 1 : 0;
        if (s.body.size() < 2 + k || s.orelse.size() < 2 + k) return;
        const StmtPtr end = s.orelse[s.orelse.size() - 1 - k];
        if (end->kind != StmtKind::Expr && end->kind != StmtKind::Assign && end->kind != StmtKind::AugAssign) return;
        const std::string end_text = print_module(Body{end});
        if (print_module(Body{s.body[s.body.size() - 1 - k]}) != end_text) return;
        Body rest(s.orelse.begin(), s.orelse.end() - 1 - std::ptrdiff_t(k));
        if (!tables_say_after(rest, Body{end}, body)) return;
        whole_counts_.reset();  // (a copy goes: the function uses its entries once less)
        s.body.resize(s.body.size() - 1 - k);
        s.orelse.resize(s.orelse.size() - 1 - k);
        body.insert(body.begin() + std::ptrdiff_t(n), end);
    }

    void restore_else_before_copied_tail(Body& body, const Body& whole) {
        for (const StmtPtr& st : body) {
            if (st->kind == StmtKind::FunctionDef || st->kind == StmtKind::ClassDef) continue;
            for_each_nested_body(*st, [&](Body& b) { restore_else_before_copied_tail(b, whole); });
        }
        restore_try_body_before_copied_tail(body, whole);
        if (body.size() < 3 || body.back()->kind != StmtKind::Return) return;
        const StmtPtr tail = body.back();
        std::optional<std::string> tail_text;  // (printed once an if ends with a statement of its kind)
        for (size_t i = body.size() - 2; i-- > 0;) {
            Stmt& s = *body[i];
            if (s.kind != StmtKind::If || !s.orelse.empty() || s.body.size() < 2 || s.body.back()->kind != tail->kind)
                continue;
            if (!tail_text) tail_text = print_module(Body{tail});
            if (print_module(Body{s.body.back()}) != *tail_text) continue;
            Body rest(body.begin() + std::ptrdiff_t(i) + 1, body.end() - 1);
            // (Without a sign here, an earlier if's else may still hold this one: an elif chain.)
            if (!tables_say_after(rest, Body{tail}, whole)) continue;
            whole_counts_.reset();  // (a copy goes: the function uses its entries once less)
            s.body.pop_back();
            s.orelse = std::move(rest);
            body.erase(body.begin() + std::ptrdiff_t(i) + 1, body.end() - 1);
        }
    }

    // The same copy where the block ends the function after a try statement: the jump out of the
    // try body (`if t: A` falling out of it) gets a copy, past the end of the protected range, so
    // `try: if t: A; <tail>` then B, where the source had `try: if t: A else: B` (B maybe empty)
    // and the tail after the statement. A return written in the body compiles the same; the
    // tables tell them apart: the tail's entries come after the except clauses' where the source
    // had it after the statement. (A finally body would run between the two: left as it is.)
    void restore_try_body_before_copied_tail(Body& body, const Body& whole) {
        if (body.size() < 2 || !is_copied_tail(body.back()) || is_reraise(body.back())) return;
        Stmt& t = *body[body.size() - 2];
        if (t.kind != StmtKind::Try || t.handlers.empty() || !t.finalbody.empty() || !t.orelse.empty()) return;
        const StmtPtr tail = body.back();
        const std::string tail_text = print_module(Body{tail});
        Body clauses;
        for (const auto& h : t.handlers) clauses.insert(clauses.end(), h.body.begin(), h.body.end());
        // (Last candidates first: an elif chain's ifs each got a copy; each folded one is the rest
        // of the one before it.)
        for (size_t i = t.body.size(); i-- > 0;) {
            Stmt& s = *t.body[i];
            if (s.kind != StmtKind::If || !s.orelse.empty() || s.body.size() < 2 || print_module(Body{s.body.back()}) != tail_text)
                continue;
            Body rest(t.body.begin() + std::ptrdiff_t(i) + 1, t.body.end());
            Body earlier = rest;
            earlier.insert(earlier.end(), clauses.begin(), clauses.end());
            if (!tables_say_after(earlier, Body{tail}, whole)) continue;
            whole_counts_.reset();  // (a copy goes: the function uses its entries once less)
            s.body.pop_back();
            s.orelse = std::move(rest);
            t.body.erase(t.body.begin() + std::ptrdiff_t(i) + 1, t.body.end());
        }
    }

    // A try statement whose except clauses all leave (return, raise, break, continue) goes on only
    // from its body: an `else:` and the code after the statement are the same code (3.11+ compile
    // the else before the clauses and lay it out so). The tables tell where the source had the
    // statements that follow: each uses entries first used before the clauses' where it was the
    // else, after them where it followed the statement.
    void restore_else_of_leaving_clauses(Body& body) {
        std::optional<UseCounts> whole;  // (counted once a statement of this shape turns up)
        auto only_in = [&](const Body& part) {
            if (!whole) whole = use_counts(body);
            return used_only_in(part, *whole);
        };
        std::function<void(Body&)> walk = [&](Body& b) {
            for (const StmtPtr& st : b) {
                if (st->kind == StmtKind::FunctionDef || st->kind == StmtKind::ClassDef) continue;
                for_each_nested_body(*st, [&](Body& inner) { walk(inner); });
            }
            for (size_t i = 0; i + 1 < b.size(); ++i) {
                Stmt& t = *b[i];
                if (t.kind != StmtKind::Try || t.handlers.empty() || !t.orelse.empty() || !t.finalbody.empty() || t.is_star)
                    continue;
                Body clauses;
                bool leave = true;
                for (const auto& h : t.handlers) {
                    leave = leave && leaves_every_way(h.body);
                    if (h.type) {  // (the clause's exception type, as a statement of its own)
                        auto type = make_stmt(StmtKind::Expr);
                        type->value = h.type;
                        clauses.push_back(type);
                    }
                    clauses.insert(clauses.end(), h.body.begin(), h.body.end());
                }
                if (!leave) continue;
                const auto in_clauses = only_in(clauses);
                // (-1: compiled before the clauses, 1: after, 0: the tables do not say.)
                auto side = [&](const StmtPtr& s) {
                    const auto own = only_in(Body{s});
                    bool before = false, after = false;
                    for (int table = 0; table < 2; ++table)
                        for (int64_t k : own[table])
                            for (int64_t c : in_clauses[table]) (k < c ? before : after) = true;
                    return before == after ? 0 : before ? -1 : 1;
                };
                size_t moved = 0;
                for (size_t j = i + 1; j < b.size(); ++j) {
                    int where = side(b[j]);
                    if (where > 0) break;
                    if (where < 0) moved = j - i;
                }
                if (moved == 0) continue;
                t.orelse.assign(b.begin() + std::ptrdiff_t(i) + 1, b.begin() + std::ptrdiff_t(i + 1 + moved));
                b.erase(b.begin() + std::ptrdiff_t(i) + 1, b.begin() + std::ptrdiff_t(i + 1 + moved));
            }
        };
        walk(body);
    }

    // Every path through the body leaves it by return, raise, break or continue.
    static bool leaves_every_way(const Body& body) {
        if (body.empty()) return false;
        const Stmt& last = *body.back();
        if (last.kind == StmtKind::Break || last.kind == StmtKind::Continue) return true;
        if (last.kind == StmtKind::If) return leaves_every_way(last.body) && leaves_every_way(last.orelse);
        return leaves_on_every_path(body);
    }

    // The index in `body` of the `while True:` without else that ends the function (but for the
    // implicit `return None`, when still there); body.size() when there is none.
    size_t final_while_true(const Body& body) const {
        size_t n = body.size();
        if (n > 0 && is_return_none(body[n - 1])) --n;
        if (n == 0) return body.size();
        const Stmt& loop = *body[n - 1];
        if (loop.kind != StmtKind::While || !loop.orelse.empty() || !is_const_kind(loop.test, PyValue::Kind::True)) return body.size();
        return n - 1;
    }

    // 3.10+ copy the function's implicit `return None` into the jump of a `break` out of a `while
    // True:` loop that ends the function: it reads as a `return None` written in the loop, the
    // same code. The constants tell them apart where None is not the first (a docstring is): a
    // written return adds None where it stands, the function's end after everything else, so a
    // constant that only code after the return uses, found before None, says it is a break.
    void breaks_for_copied_function_end(Body& body) {
        size_t at = final_while_true(body);
        if (at == body.size()) return;
        Stmt& loop = *body[at];
        auto none = std::find_if(code_.consts.begin(), code_.consts.end(),
                                 [](const ObjectRef& c) { return c->kind == PyValue::Kind::None; });
        if (none == code_.consts.end()) return;
        const int64_t none_index = none - code_.consts.begin();
        const UseCounts whole = use_counts(body);
        // (Not True, 1 or 0, which the compiler may add where the source shows none: the loop's
        // own test, written `while 1:`, and an import's level.)
        auto hidden_use_possible = [&](int64_t k) {
            const PyValue& c = *code_.consts[size_t(k)];
            return c.kind == PyValue::Kind::True || (c.kind == PyValue::Kind::Int && c.big_digits.empty() && (c.small == 0 || c.small == 1));
        };
        auto added_after_none = [&](const Body& after) {
            const auto only = used_only_in(after, whole);
            for (int64_t k : only[1])
                if (k < none_index && !hidden_use_possible(k)) return true;
            return false;
        };
        // (Only returns in the loop's body and its ifs' sides, which a `break` leaves the loop from;
        // `after`: what the compiler compiled after the statement, up to the loop's end.)
        std::function<void(Body&, const Body&)> walk = [&](Body& b, const Body& after) {
            for (size_t i = 0; i < b.size(); ++i) {
                Body rest(b.begin() + std::ptrdiff_t(i) + 1, b.end());
                rest.insert(rest.end(), after.begin(), after.end());
                StmtPtr& s = b[i];
                if (is_return_none(s) && added_after_none(rest)) {
                    s = make_stmt(StmtKind::Break);
                } else if (s->kind == StmtKind::If) {
                    Body then_after = s->orelse;
                    then_after.insert(then_after.end(), rest.begin(), rest.end());
                    walk(s->body, then_after);
                    walk(s->orelse, rest);
                }
            }
        };
        walk(loop.body, Body{});
    }

    // The code after the function's final `while True:` that its `break`s leave to, as the
    // compiler copied it in place of each break's jump (3.10+): a `return` in the loop on the
    // function's last line, after every other op's, where the loop has code after it (a return
    // written in the loop comes before the rest of the loop's code), and all such returns return
    // the same. They become `break`s, and the return follows the loop. (The same code either way:
    // the compiler copies it back.)
    void breaks_for_copied_last_line(Body& body) {
        size_t at = final_while_true(body);
        if (at == body.size() || return_lines_.empty()) return;
        int first_line = INT_MAX, last_line = -1;
        for (const NeutralOp& op : ops_)
            if (op.line >= 0) {
                first_line = std::min(first_line, op.line);
                last_line = std::max(last_line, op.line);
            }
        if (last_line < 0 || first_line == last_line) return;
        std::vector<StmtPtr*> copies;
        bool followed = false;  // (some copy has loop code after it: no return the source ends the loop with)
        std::function<void(Body&, bool)> walk = [&](Body& b, bool code_after) {
            for (size_t i = 0; i < b.size(); ++i) {
                StmtPtr& s = b[i];
                bool after = code_after || i + 1 < b.size();
                if (s->kind == StmtKind::Return) {
                    auto it = return_lines_.find(s.get());
                    if (it != return_lines_.end() && it->second == last_line) {
                        copies.push_back(&s);
                        followed = followed || after;
                    }
                } else if (s->kind == StmtKind::If) {
                    walk(s->body, after);
                    walk(s->orelse, after);
                }
            }
        };
        walk(body[at]->body, false);
        if (!followed) return;
        std::string shown = print_module(Body{*copies[0]});
        for (StmtPtr* c : copies)
            if (print_module(Body{*c}) != shown) return;
        StmtPtr ret = *copies[0];
        for (StmtPtr* c : copies) *c = make_stmt(StmtKind::Break);
        // (What followed the loop, the implicit `return None`, is dead after it.)
        body.resize(at + 1);
        body.push_back(ret);
    }

    // Whether `body` holds a statement for which `pred` holds, at any depth (not in nested definitions).
    template <class P>
    static bool holds_any(const Body& body, const P& pred) {
        for (const StmtPtr& st : body) {
            if (pred(*st)) return true;
            if (st->kind == StmtKind::FunctionDef || st->kind == StmtKind::ClassDef) continue;
            for (const Body* b : {&st->body, &st->orelse, &st->finalbody})
                if (holds_any(*b, pred)) return true;
            for (const auto& h : st->handlers)
                if (holds_any(h.body, pred)) return true;
            for (const auto& c : st->cases)
                if (holds_any(c.body, pred)) return true;
        }
        return false;
    }

    // What the compiler copies into branches that fall out of the statement before it: a `return`
    // of a constant, or the re-raise that ends a finally handler.
    bool is_copied_tail(const StmtPtr& s) const {
        return is_reraise(s) || (s->kind == StmtKind::Return && (!s->value || s->value->kind == ExprKind::Constant));
    }

    // The statement a path through the first branches of `s` ends with.
    static StmtPtr trailing_statement(const StmtPtr& s) {
        bool compound = s->kind == StmtKind::If || s->kind == StmtKind::With || s->kind == StmtKind::Try;
        const Body& branch = s->kind == StmtKind::Try && !s->orelse.empty() ? s->orelse : s->body;
        if (!compound || branch.empty()) return s;
        return trailing_statement(branch.back());
    }

    // Takes the copies of `tail_text` (a statement that ends flow, see is_copied_tail) out of the
    // branches of the last statement of `body` that fall out of it: each reached `tail` next anyway.
    // A try/finally body's copy evaluates a returned value before the finally body runs, so copies
    // inside one are taken out only where `through_finally` says the tail's value cannot change.
    static void strip_copied_tail(Body& body, const std::string& tail_text, bool through_finally) {
        if (body.empty()) return;
        const StmtPtr& last = body.back();
        // (What a branch's copy followed falls out of the branch too: its copies are taken out as well.)
        auto strip_branch = [&](Body& branch, bool needs_statement) {
            if (branch.empty()) return;
            if (print_module(Body{branch.back()}) == tail_text) branch.pop_back();
            strip_copied_tail(branch, tail_text, through_finally);
            if (branch.empty() && needs_statement) branch.push_back(make_stmt(StmtKind::Pass));
        };
        switch (last->kind) {
        case StmtKind::If: strip_branch(last->body, true); strip_branch(last->orelse, false); break;
        case StmtKind::With: strip_branch(last->body, true); break;
        case StmtKind::Match:
            for (auto& c : last->cases) strip_branch(c.body, true);
            break;
        case StmtKind::Try:
            if (!last->finalbody.empty() && !through_finally) break;
            if (last->orelse.empty()) strip_branch(last->body, true);
            else strip_branch(last->orelse, false);
            for (auto& h : last->handlers) strip_branch(h.body, true);
            break;
        default: break;
        }
    }

    // Statements printed `tail_text` in a loop's `body` (and the sides of its ifs, not nested
    // loops, whose `break` would leave those) made `break`, where the loop is followed by that
    // statement; whether any was.
    static bool returns_as_breaks(Body& body, const std::string& tail_text) {
        bool any = false;
        for (StmtPtr& st : body) {
            if (st->kind == StmtKind::Return && print_module(Body{st}) == tail_text) {
                st = make_stmt(StmtKind::Break);
                any = true;
            } else if (st->kind == StmtKind::If) {
                any = returns_as_breaks(st->body, tail_text) || any;
                any = returns_as_breaks(st->orelse, tail_text) || any;
            }
        }
        return any;
    }

    // A finally body ending with an if whose then-side falls out while the rest of the body follows
    // it (`if t: A` then B at the end, or an else arm) reads, with the ending `tail_text` copied into
    // the then-side, `if t: A; <tail>` then B (the compiler copies the short ending into the jump
    // over B). With the tail after `body` (taken off it), that is `if t: A else: B`: each side
    // reached the tail next. Each such if in `body` is rewritten so (in place: pass clones).
    static void fold_copied_tail(Body& body, const std::string& tail_text) {
        for (size_t i = 0; i + 1 < body.size(); ++i) {
            StmtPtr& s = body[i];
            if (s->kind != StmtKind::If || !s->orelse.empty() || s->body.empty() || print_module(Body{s->body.back()}) != tail_text)
                continue;
            s->body.pop_back();
            if (s->body.empty()) s->body.push_back(make_stmt(StmtKind::Pass));
            s->orelse.assign(body.begin() + long(i) + 1, body.end());
            body.resize(i + 1);
            // (The then-side now falls out to the tail as well: an if inside it reads the same way.)
            fold_copied_tail(s->body, tail_text);
            fold_copied_tail(s->orelse, tail_text);
            strip_copied_tail(s->orelse, tail_text, true);
            return;
        }
        // (The branches of the last statement that fall out of it reach the tail next as well: an
        // if inside one reads the same way, `if a: if b: A; <tail>` then B: `if a: if b: A else: B`.)
        if (body.empty()) return;
        const StmtPtr& last = body.back();
        switch (last->kind) {
        case StmtKind::If:
            fold_copied_tail(last->body, tail_text);
            fold_copied_tail(last->orelse, tail_text);
            break;
        case StmtKind::With: fold_copied_tail(last->body, tail_text); break;
        case StmtKind::Match:
            for (auto& c : last->cases) fold_copied_tail(c.body, tail_text);
            break;
        case StmtKind::Try:
            if (!last->finalbody.empty()) break;
            fold_copied_tail(last->orelse.empty() ? last->body : last->orelse, tail_text);
            for (auto& h : last->handlers) fold_copied_tail(h.body, tail_text);
            break;
        default: break;
        }
    }

    // 3.12+ copy a short block that ends the code (the end of a finally handler: `STORE x;
    // RERAISE`) into each unconditional jump to it, so the handler's copy of a finally body whose
    // last statement holds one conditional expression reads `if t: <it with a> else: <it with b>`.
    // That if, for a simple statement `s` with exactly one `a if t else b` (nullptr: none).
    static StmtPtr split_conditional(const StmtPtr& s) {
        switch (s->kind) {
        case StmtKind::Assign: case StmtKind::AugAssign: case StmtKind::AnnAssign: case StmtKind::Expr: case StmtKind::Delete:
            break;
        default:
            return nullptr;
        }
        // (The outermost one; others only inside its two values, each side split again: the
        // compiler copies the tail into the jump after each value.)
        const Expr* found = nullptr;
        int count = 0, inside = 0;
        std::function<void(const ExprPtr&, bool)> walk = [&](const ExprPtr& e, bool in_value) {
            if (!e || is_leaf(*e) || e->kind == ExprKind::Lambda) return;
            bool outermost = false;
            if (e->kind == ExprKind::IfExp) {
                ++count;
                inside += in_value;
                if (!found) {
                    found = e.get();
                    outermost = true;
                }
            }
            for_each_child_slot(*e, [&](ExprPtr& c) { walk(c, in_value || (outermost && c.get() != e->test.get())); });
        };
        for_each_own_expr(*s, [&](const ExprPtr& e) { walk(e, false); });
        if (count == 0 || count != 1 + inside) return nullptr;
        auto side = [&](const ExprPtr& value) {
            auto c = std::make_shared<Stmt>(*s);
            auto replaced = [&](const ExprPtr& e) { return replace_node(e, found, value, [](const Expr*, const ExprPtr&) {}); };
            for (ExprPtr* p : {&c->target, &c->value, &c->test, &c->iter, &c->annotation, &c->cause, &c->msg}) *p = replaced(*p);
            for (ExprPtr& t : c->targets) t = replaced(t);
            return c;
        };
        auto split = make_stmt(StmtKind::If);
        split->test = found->test;
        for (auto [value, branch] : {std::pair{found->body, &split->body}, std::pair{found->orelse, &split->orelse}}) {
            StmtPtr one = side(value);
            if (count > 1)
                if (StmtPtr again = split_conditional(one)) one = again;
            branch->push_back(one);
        }
        return split;
    }

    // `with a: with b: ...` as `with a, b: ...` (the same code); the inner statement's exits are
    // then this one's.
    void merge_nested_with(const StmtPtr& w) {
        if (w->kind != StmtKind::With || w->body.size() != 1 || w->body[0]->kind != StmtKind::With || w->body[0]->is_async != w->is_async)
            return;
        StmtPtr inner = w->body[0];
        if (auto it = with_statement_exits_.find(inner.get()); it != with_statement_exits_.end()) {
            std::vector<const Expr*> exits = it->second;
            auto& own = with_statement_exits_[w.get()];
            own.insert(own.end(), exits.begin(), exits.end());
        }
        w->items.insert(w->items.end(), inner->items.begin(), inner->items.end());
        w->body = inner->body;
    }

    // Blocks only a with-handler reaches (its own code and any tail the compiler copied for it).
    // Marks the blocks only the handler reaches as emitted (its code is the statement's own). For a
    // with statement's handler (`with_cleanup`), a block with code other than the clean-up (the
    // __exit__ call, its test, re-raise, stack pops) is not part of it: those blocks are returned.
    // A clean-up that ends with its block goes on in a block the normal path reaches too: that
    // block goes to `joins`.
    std::vector<std::pair<int, size_t>> mark_handler_region(int handler, bool with_cleanup = false,
                                                            std::vector<int>* joins = nullptr) {
        std::vector<std::pair<int, size_t>> beyond;  // (block, index of its first op past the clean-up)
        std::vector<bool> normal = reached_avoiding(handler);
        std::vector<std::pair<int, int>> work = {{handler, -1}};  // (see with_cleanup_end)
        std::vector<bool> seen(cfg_.size(), false);
        while (!work.empty()) {
            auto [b, pops_left] = work.back();
            work.pop_back();
            if (b >= 0 && normal[b] && joins && std::find(joins->begin(), joins->end(), b) == joins->end()) joins->push_back(b);
            if (b < 0 || seen[b] || normal[b]) continue;
            seen[b] = true;
            if (with_cleanup) {
                if (size_t end = with_cleanup_end(b, pops_left); end != cfg_.block(b).last) {
                    beyond.push_back({b, end});
                    continue;
                }
            }
            emitted_[b] = true;
            for (int s : cfg_.block(b).succs) work.push_back({s, pops_left});
        }
        std::sort(beyond.begin(), beyond.end());
        return beyond;
    }

    // Where a with statement's clean-up on the way of a suppressed exception ends in block `b`: the
    // index of the first op of the code after the statement (blk.last: all of it is clean-up).
    // `pops_left` is how many pops of the clean-up follow on this path once its POP_EXCEPT has
    // run (-1: not yet), and is updated (see with_pops_after_suppression). Whatever follows them (a `continue` in a finally body popping the
    // value a `return` left, the re-raise ending a finally body) is code after the statement.
    size_t with_cleanup_end(int b, int& pops_left) const {
        const Block& blk = cfg_.block(b);
        for (size_t i = blk.first; i < blk.last; ++i) {
            switch (ops_[i].kind) {
            case N::PopExcept:
                if (pops_left >= 0) return i;
                pops_left = with_pops_after_suppression_;
                break;
            case N::Pop:
                if (pops_left == 0) return i;
                if (pops_left > 0) --pops_left;
                break;
            case N::Reraise: case N::Copy: case N::Swap: case N::JumpIf: case N::PushExcInfo: case N::WithExceptStart:
            case N::Await:
                if (pops_left >= 0) return i;
                break;
            case N::Nop: case N::Jump:
                break;
            default:
                return i;
            }
        }
        return blk.last;
    }

    bool is_except_clause_test(const ExprPtr& test) const {
        return test->kind == ExprKind::Call && exception_matches_.is(test->value);
    }

    bool is_reraise(const StmtPtr& s) const { return s->kind == StmtKind::Raise && reraise_.is(s->value); }

    // The handler body simulates to `if <match T1>: ... elif <match T2>: ... else: <re-raise>` or
    // ends in a bare `except` body; each branch is one clause.
    std::vector<ExceptHandler> except_clauses(const Body& handler_body) {
        std::vector<ExceptHandler> clauses;
        Body rest = handler_body;
        while (true) {
            if (rest.size() == 1 && rest[0]->kind == StmtKind::If && is_except_clause_test(rest[0]->test)) {
                ExceptHandler h;
                h.type = rest[0]->test->elts[0];
                h.body = rest[0]->body;
                finish_clause(h);
                clauses.push_back(std::move(h));
                Body next = rest[0]->orelse;
                rest = std::move(next);
                continue;
            }
            // (Not a re-raise after the POP_EXCEPT, the compiler's copy of the one that ends an
            // enclosing finally body, after a bare `except: pass`.)
            if (rest.size() == 1 && is_reraise(rest[0]) && !tail_after_clause_.count(rest[0].get())) break;
            // (Nothing left, after the clauses that match: the bare `except: pass`, whose pops of
            // the exception simulate to nothing.)
            ExceptHandler h;
            h.body = rest;
            finish_clause(h);
            clauses.push_back(std::move(h));
            break;
        }
        if (clauses.empty()) unsupported("a try statement without except clauses");
        return clauses;
    }

    void finish_clause(ExceptHandler& h) {
        auto& b = h.body;
        if (!b.empty() && b[0]->kind == StmtKind::Assign && exception_.is(b[0]->value) && b[0]->targets.size() == 1 &&
            b[0]->targets[0]->kind == ExprKind::Name) {
            h.name = b[0]->targets[0]->id;
            b.erase(b.begin());
            strip_name_cleanup(b, h.name);
        }
        if (b.empty() || (b.size() == 1 && b[0]->kind == StmtKind::Expr && b[0]->value->kind == ExprKind::Constant &&
                          b[0]->value->constant->kind == PyValue::Kind::None))
            b = {make_stmt(StmtKind::Pass)};
    }

    // `name = None; del name`, which the compiler adds on every way out of `except ... as name`.
    static void strip_name_cleanup(Body& body, const std::string& name) {
        for (size_t i = 0; i + 1 < body.size();) {
            const StmtPtr& a = body[i];
            const StmtPtr& d = body[i + 1];
            bool is_cleanup = a->kind == StmtKind::Assign && a->targets.size() == 1 && a->targets[0]->kind == ExprKind::Name &&
                              a->targets[0]->id == name && a->value->kind == ExprKind::Constant &&
                              a->value->constant->kind == PyValue::Kind::None && d->kind == StmtKind::Delete &&
                              d->targets.size() == 1 && d->targets[0]->kind == ExprKind::Name && d->targets[0]->id == name;
            if (is_cleanup) body.erase(body.begin() + i, body.begin() + i + 2);
            else ++i;
        }
        for (auto& s : body) for_each_child_body(s, [&](Body& child, bool) { strip_name_cleanup(child, name); });
    }

    template <typename F>
    static void for_each_child_body(const StmtPtr& s, F&& f) {
        switch (s->kind) {
        case StmtKind::If: case StmtKind::With: f(s->body, false); f(s->orelse, false); break;
        case StmtKind::Match:
            for (auto& c : s->cases) f(c.body, false);
            break;
        case StmtKind::For: case StmtKind::While: f(s->body, true); f(s->orelse, false); break;
        case StmtKind::Try:
            f(s->body, false);
            for (auto& h : s->handlers) f(h.body, false);
            f(s->orelse, false);
            f(s->finalbody, false);
            break;
        default: break;
        }
    }

    // The creation serial of some expression of `s` (0: none), or of the first statement inside it
    // that has one (a try statement has none of its own).
    static uint64_t some_serial(const StmtPtr& s) {
        for (const ExprPtr& e : {s->value, s->test, s->target, s->targets.empty() ? ExprPtr() : s->targets[0]})
            if (e) return e->serial;
        uint64_t inner = 0;
        for_each_child_body(s, [&](Body& child, bool) {
            for (const StmtPtr& c : child)
                if (!inner) inner = some_serial(c);
        });
        return inner;
    }

    // `return`, `break` and `continue` inside try/finally run a copy of the finally body first:
    // the copies of `t`'s finally body are taken out before each statement that leaves `t`.
    // Returns whether one was.
    bool strip_copies_of(const StmtPtr& t) {
        bool empty = t->finalbody.size() == 1 && t->finalbody[0]->kind == StmtKind::Pass;  // `finally: pass` copies nothing
        std::string text = empty ? std::string() : print_module(t->finalbody);
        size_t size = empty ? 0 : t->finalbody.size();
        bool changed = strip_final_copies(t->body, t.get(), text, size, false);
        for (auto& h : t->handlers) changed = strip_final_copies(h.body, t.get(), text, size, false) || changed;
        return strip_final_copies(t->orelse, t.get(), text, size, false) || changed;
    }

    // The re-raise that ends an enclosing finally handler leaves too: the compiler copies it, after
    // this statement's finally body, into branches that fall out of the statement. A copy that
    // belongs to a nested try statement is still in front of ours when that one is built: once ours
    // is taken out, the nested statement's copies are taken out again.
    bool strip_final_copies(Body& body, const Stmt* owner, const std::string& copy_text, size_t copy_size, bool in_loop) {
        bool changed = false;
        for (size_t i = 0; i < body.size(); ++i) {
            if (!dropped_returns_.empty() && copy_size > 0 && resolve_dropped_return(body, i, owner, copy_text, copy_size)) {
                changed = true;
                continue;
            }
            StmtKind k = body[i]->kind;
            bool leaves = k == StmtKind::Return || is_reraise(body[i]) || (!in_loop && (k == StmtKind::Break || k == StmtKind::Continue));
            if (!leaves || i < copy_size || left_through_.count({body[i].get(), owner})) continue;
            size_t n = copy_before(body, i, copy_text, copy_size);
            if (n == 0 && copy_size > 0) continue;
            // A value computed after the copy ran is returned by code after the statement, which the
            // compiler copied into this path (a constant is always loaded late: either way is the same).
            uint64_t copy_serial = k == StmtKind::Return ? some_serial(body[i - n]) : 0;
            if (copy_serial && i > n && fold_spilled_return(body, i, n, copy_text)) --i;
            const ExprPtr& value = body[i]->value;
            if (value && copy_serial && evaluated_serial(value) > copy_serial)
                unsupported("code after a try/finally statement that the compiler copied into each path");
            left_through_.insert({body[i].get(), owner});
            body.erase(body.begin() + long(i - n), body.begin() + long(i));
            i -= n;
            changed = true;
        }
        for (auto& s : body) {
            bool inner = false;
            for_each_child_body(s, [&](Body& child, bool loop_body) {
                inner = strip_final_copies(child, owner, copy_text, copy_size, in_loop || loop_body) || inner;
            });
            if (inner && s->kind == StmtKind::Try && !s->finalbody.empty()) strip_copies_of(s);
            changed = changed || inner;
        }
        return changed;
    }

    // When the value was created (0: a constant, loaded late or early alike). A lambda is built
    // when the statement is, from a function object made where its defaults were evaluated.
    static uint64_t evaluated_serial(const ExprPtr& value) {
        if (value->kind == ExprKind::Constant) return 0;
        if (value->kind != ExprKind::Lambda) return value->serial;
        uint64_t last = 0;
        for (const auto* list : {&value->args->defaults, &value->args->kw_defaults})
            for (const ExprPtr& d : *list)
                if (d) last = std::max(last, d->serial);
        return last;
    }

    // `__stackN = value; <copy>; return __stackN`: the value, computed before the copy, was spilled
    // because the copy has effects; it is returned from inside the statement (`return value`).
    bool fold_spilled_return(Body& body, size_t i, size_t copy_size, const std::string& copy_text) const {
        const StmtPtr& def = body[i - copy_size - 1];
        const ExprPtr& value = body[i]->value;
        if (!value || value->kind != ExprKind::Name || def->kind != StmtKind::Assign ||
            def->targets.size() != 1 || def->targets[0]->kind != ExprKind::Name || def->targets[0]->id != value->id ||
            value->id.compare(0, 7, "__stack") != 0)
            return false;
        if (copy_text.find(value->id) != std::string::npos) return false;
        body[i]->value = def->value;
        body.erase(body.begin() + long(i - copy_size - 1));
        return true;
    }

    // How many statements before body[i] are the finally body (0: none): the `copy_size` statements
    // as written, or with the compiler's copies of body[i] (a `return` after the statement) in
    // branches that fall out (3.10+: at any depth, an `if a and b:` read `if a: if b:`), or more
    // statements where an if of the copy reads `if t: A; <return>` followed by the rest (see
    // fold_copied_tail), each copy returning the same value.
    size_t copy_before(const Body& body, size_t i, const std::string& copy_text, size_t copy_size) const {
        auto window = [&](size_t n) {
            Body before(body.begin() + long(i - n), body.begin() + long(i));
            return dropped_returns_.empty() ? before : without_dropped_returns(before);
        };
        if (print_module(window(copy_size)) == copy_text) return copy_size;
        // (3.10 and 3.12+ split the handler's copy at a conditional expression in its last
        // statement, the tail after it copied into both sides; a way out's copy keeps it.)
        if (copy_size > 0 && i >= copy_size) {
            Body before = window(copy_size);
            if (StmtPtr split = before.empty() ? nullptr : split_conditional(before.back())) {
                before.back() = split;
                if (print_module(before) == copy_text) return copy_size;
            }
        }
        if (copy_size == 0 || body[i]->kind != StmtKind::Return) return 0;
        const std::string tail_text = print_module(Body{body[i]});
        auto matches = [&](Body before, bool fold) {
            for (StmtPtr& s : before) s = clone_statement(s);
            if (fold) fold_copied_tail(before, tail_text);
            strip_copied_tail(before, tail_text, is_copied_tail(body[i]) || fold);
            return print_module(before) == copy_text || print_module(joined_ifs(before)) == copy_text;
        };
        if (matches(window(copy_size), false)) return copy_size;
        // (Folding takes the copies for the same statement: only where each returns the same value.)
        const ExprPtr& value = body[i]->value;
        for (size_t n = copy_size + 1; n <= std::min(i, copy_size + 8); ++n) {
            Body before = window(n);
            if (!is_copied_tail(body[i]) && holds_any(before, [&](const Stmt& s) {
                    return s.kind == StmtKind::Return && s.value != value && print_module(Body{std::make_shared<Stmt>(s)}) == tail_text;
                }))
                return 0;
            if (matches(before, true)) return n;
        }
        return 0;
    }

    // A return whose value a way out of the finally copy it ran dropped (see dropped_returns_),
    // body[i] or inside it: where the statements around it, up to where they all leave, are that
    // copy (`owner`'s), they are the return, which leaves `owner` through it. body[i] is then the
    // return.
    bool resolve_dropped_return(Body& body, size_t i, const Stmt* owner, const std::string& copy_text, size_t copy_size) {
        StmtPtr mark;
        bool one_value = true;
        std::function<void(const StmtPtr&)> find = [&](const StmtPtr& s) {
            if (dropped_returns_.count(s.get())) {
                if (!mark) mark = s;
                one_value = one_value && s->value == mark->value;
            }
            if (s->kind != StmtKind::FunctionDef && s->kind != StmtKind::ClassDef)
                for_each_child_body(s, [&](Body& child, bool) { for (const StmtPtr& c : child) find(c); });
        };
        find(body[i]);
        if (!mark || !one_value) return false;
        // (A copy that goes on is followed by the return itself: see copy_before. One that returns
        // `a if t else b` may read `if t: return a` then `return b`: see split_returns.)
        std::string split_text;
        const size_t most = copy_size + 4;
        for (size_t end = i + 1; end <= std::min(i + 1 + most, body.size()); ++end) {
            Body ending = without_dropped_returns(Body(body.begin() + long(i), body.begin() + long(end)));
            if (ending.empty() || (!leaves_on_every_path(ending) && ending.back()->kind != StmtKind::Break &&
                                   ending.back()->kind != StmtKind::Continue))
                continue;
            for (size_t start = i + 1; start-- > (end > most ? end - most : 0);) {
                Body window = without_dropped_returns(Body(body.begin() + long(start), body.begin() + long(end)));
                if (print_module(window) != copy_text) {
                    if (split_text.empty()) split_text = print_module(split_returns(owner->finalbody));
                    if (print_module(split_returns(window)) != split_text) continue;
                }
                dropped_returns_.erase(mark.get());
                return_dropped_by_[mark.get()] = owner;
                left_through_.insert({mark.get(), owner});
                body.erase(body.begin() + long(start) + 1, body.begin() + long(end));
                body[start] = mark;
                return true;
            }
        }
        return false;
    }

    // `if t: A else: B` ending `body`, where A always leaves, is `if t: A` followed by B: where B
    // ends in `end` (a finally body's re-raise, a return after its copy), the layout of an if in
    // a copy of a finally body decided which (each ending in `if t: A` once the tail is taken off).
    template <class P>
    void hoist_else_after_leaving_if(Body& body, const P& end) const {
        Body flat(body);
        while (!flat.empty() && flat.back()->kind == StmtKind::If && !flat.back()->orelse.empty() &&
               !is_except_clause_test(flat.back()->test) && leaves_on_every_path(flat.back()->body)) {
            auto s = std::make_shared<Stmt>(*flat.back());  // (the statements in it stay shared)
            Body rest = std::move(s->orelse);
            s->orelse.clear();
            flat.back() = s;
            flat.insert(flat.end(), rest.begin(), rest.end());
        }
        if (flat.size() != body.size() && end(flat.back())) body = std::move(flat);
    }

    // A copy of `body` without the returns that a finally copy's way out dropped, which are no
    // statements of the copy.
    Body without_dropped_returns(const Body& body) const {
        Body out;
        for (const StmtPtr& s : body) {
            if (dropped_returns_.count(s.get())) continue;
            auto c = std::make_shared<Stmt>(*s);
            for_each_nested_body(*c, [this](Body& b) { b = without_dropped_returns(b); });
            out.push_back(c);
        }
        return out;
    }

    // A copy of a statement and of the statements in it (expressions stay shared).
    static StmtPtr clone_statement(const StmtPtr& s) {
        auto c = std::make_shared<Stmt>(*s);
        for_each_nested_body(*c, [](Body& b) {
            for (StmtPtr& child : b) child = clone_statement(child);
        });
        return c;
    }

    // Invariant: every return, break and continue that leaves a try statement with a finally body
    // had the compiler's copy of that body in front of it (taken out when it was matched).
    // A return or raise after a with statement's __exit__ call known only from the flow graph
    // (see with_exit_called_before), left in that statement's body once the function is structured:
    // checked here, when the compiler's copies of finally bodies around it have been dropped.
    void refuse_code_after_exits(const Body& body) const {
        for (const StmtPtr& s : body) {
            if (s->kind == StmtKind::FunctionDef || s->kind == StmtKind::ClassDef) continue;
            if (auto w = with_statement_exits_.find(s.get()); s->kind == StmtKind::With && w != with_statement_exits_.end()) {
                const std::vector<const Expr*>& exits = w->second;
                if (holds_any(s->body, [&](const Stmt& st) {
                        auto it = late_exit_before_tail_.find(&st);
                        return it != late_exit_before_tail_.end() &&
                               std::find(exits.begin(), exits.end(), it->second) != exits.end() &&
                               (st.kind != StmtKind::Return || !is_fast_local(st.value));
                    }))
                    unsupported("a return or raise after a with statement's exit printed in its body");
            }
            for_each_nested_body(*s, [this](const Body& b) { refuse_code_after_exits(b); });
        }
    }

    // A raise its try statement's handler does not cover (see uncovered_raises_), left in that
    // statement's body once the function is structured.
    void refuse_uncovered_raises(const Body& body) const {
        for (const StmtPtr& s : body) {
            if (s->kind == StmtKind::FunctionDef || s->kind == StmtKind::ClassDef) continue;
            if (auto h = try_handler_.find(s.get()); s->kind == StmtKind::Try && h != try_handler_.end()) {
                const std::vector<int>& handlers = h->second;
                if (holds_any(s->body, [&](const Stmt& st) {
                        auto it = uncovered_raises_.find(&st);
                        return it != uncovered_raises_.end() && std::any_of(it->second.begin(), it->second.end(), [&](int u) {
                                   return std::find(handlers.begin(), handlers.end(), u) != handlers.end();
                               });
                    }))
                    unsupported("a raise outside a try statement's protected range printed in its body");
            }
            for_each_nested_body(*s, [this](const Body& b) { refuse_uncovered_raises(b); });
        }
    }

    void check_finally_copies(const Body& body, std::vector<const Stmt*>& for_return, std::vector<const Stmt*>& for_jump) const {
        for (const StmtPtr& s : body) {
            bool is_jump = s->kind == StmtKind::Break || s->kind == StmtKind::Continue;
            if (dropped_returns_.count(s.get())) unsupported("a returned value that a finally body's way out drops");
            if (s->kind == StmtKind::Return || is_jump) {
                const std::vector<const Stmt*>& owners = is_jump ? for_jump : for_return;
                // (A return whose value a finally copy's way out dropped leaves no statement outside
                // that try: that way out does.)
                auto from = owners.begin();
                if (auto d = return_dropped_by_.find(s.get()); d != return_dropped_by_.end()) {
                    from = std::find(owners.begin(), owners.end(), d->second);
                    if (from == owners.end()) unsupported("a returned value that a finally body's way out drops");
                }
                for (auto t = from; t != owners.end(); ++t)
                    if (!left_through_.count({s.get(), *t}))
                        unsupported("a way out of a try/finally statement without the compiler's copy of the finally body");
            }
            switch (s->kind) {
            case StmtKind::FunctionDef: case StmtKind::ClassDef: break;  // code objects of their own
            case StmtKind::For: case StmtKind::While: {
                std::vector<const Stmt*> none;
                check_finally_copies(s->body, for_return, none);
                check_finally_copies(s->orelse, for_return, for_jump);
                break;
            }
            case StmtKind::Try:
                if (!s->finalbody.empty()) {
                    for_return.push_back(s.get());
                    for_jump.push_back(s.get());
                }
                check_finally_copies(s->body, for_return, for_jump);
                for (const auto& h : s->handlers) check_finally_copies(h.body, for_return, for_jump);
                check_finally_copies(s->orelse, for_return, for_jump);
                if (!s->finalbody.empty()) {
                    for_return.pop_back();
                    for_jump.pop_back();
                }
                check_finally_copies(s->finalbody, for_return, for_jump);
                break;
            default:
                for_each_child_body(s, [&](const Body& child, bool) { check_finally_copies(child, for_return, for_jump); });
            }
        }
    }

    // `a or b`, `a and b` as values: the left value stays on the stack for the jump.
    int emit_short_circuit_value(int b, const NeutralOp& jump, Loop* loop, std::vector<ExprPtr>& stack, size_t base, int stop) {
        ExprPtr left = pop(stack);
        int target = cfg_.block_at_offset(jump.target);
        int fall = b + 1;
        std::vector<ExprPtr> right_stack = stack_copy(stack);
        Body scratch;
        // The right side runs until it reaches the target (or, for a comparison chain, the block after
        // the target's clean-up).
        int end = target;
        bool chain = is_chain_cleanup(target);
        // (A clean-up that jumps goes on where it jumps: past the other side of a conditional
        // expression whose side the chain is, `(a <= x < b) if c else d`.)
        if (chain) {
            const NeutralOp& last = ops_[cfg_.block(target).last - 1];
            end = last.kind == N::Jump ? cfg_.block_at_offset(last.target) : target + 1;
        }
        // `(b or c)` as the right side of `a and (b or c) or d`: b's jump to J (`or d`) is threaded
        // past J to where J jumps (J passes a true value on); this value ends at J.
        if (!chain && stop > b && target > stop && continues_short_circuit(stop, jump)) end = stop;
        // (A chain's right side takes the shared middle operand: its value replaces that one.)
        size_t right_size = stack.size() + (chain ? 0 : 1);
        if (!emit_region(fall, end, scratch, loop, right_stack, base) || !scratch.empty() || right_stack.size() != right_size)
            unsupported("short-circuit expression of an unusual shape");
        ExprPtr right = right_stack.back();
        const char* op = jump.condition == JumpCondition::IfTrue ? "or" : "and";
        if (chain) {
            emitted_[target] = true;
            stack.pop_back();  // the duplicated middle operand, consumed by the right side
        }
        stack.push_back(bool_op(op, left, right));
        return end;
    }

    // Whether `block` starts with a jump-or-pop of the same polarity and target as `jump`.
    bool continues_short_circuit(int block, const NeutralOp& jump) const {
        const Block& blk = cfg_.block(block);
        if (blk.last == blk.first) return false;
        const NeutralOp& first = ops_[blk.first];
        return first.kind == N::JumpIfOrPop && first.condition == jump.condition && first.target == jump.target;
    }

    // The clean-up block of a comparison chain: SWAP 2; POP_TOP, falling through.
    bool is_chain_cleanup(int block) const {
        if (block < 0) return false;
        const Block& b = cfg_.block(block);
        if (b.last - b.first < 2) return false;
        const NeutralOp& a = ops_[b.first];
        const NeutralOp& p = ops_[b.first + 1];
        bool shape = a.kind == N::Swap && a.arg == 2 && p.kind == N::Pop;
        if (!shape) return false;
        if (b.last - b.first == 2) return true;
        return b.last - b.first == 3 && ops_[b.first + 2].kind == N::Jump;
    }

    static bool is_return_none(const StmtPtr& s) {
        return s->kind == StmtKind::Return && (!s->value || is_const_kind(s->value, PyValue::Kind::None));
    }

    // An async generator may only `return` bare (`return None` is a SyntaxError there); the same code.
    static void bare_returns(Body& body) {
        for (const StmtPtr& s : body) {
            if (s->kind == StmtKind::Return && s->value && is_const_kind(s->value, PyValue::Kind::None)) s->value = nullptr;
            for_each_child_body(s, [](Body& b, bool) { bare_returns(b); });  // (not into a def's or class's)
        }
    }

    // (`written`: the body's `return None` statements that the source wrote, see is_written_return_none.)
    void strip_implicit_return(Body& body, const std::set<const Stmt*>& written) {
        if (!body.empty() && is_return_none(body.back())) {
            // Keep an explicit `return None` only if the line table would show it; the bytecode is the same.
            if (!written.count(body.back().get())) body.pop_back();
        } else if (!body.empty() && code_.version >= PyVersion{3, 10} && is_branching(*body.back()) &&
                   leaves_on_every_path(body)) {
            strip_copied_returns(*body.back());
        } else if (!body.empty() && code_.version >= PyVersion{3, 10} && body.back()->kind == StmtKind::Try &&
                   !body.back()->finalbody.empty() && !returns_in(body.back()->finalbody)) {
            // (A last try/finally: the copies sit at the ends of its body's paths, each before the
            // finally body's copy, which runs either way.)
            Stmt& t = *body.back();
            strip_tail_returns(t.orelse.empty() ? t.body : t.orelse, !t.orelse.empty());
            for (ExceptHandler& h : t.handlers) strip_tail_returns(h.body, true);
        }
    }

    // `return None` ending `body`, whose end is the function's (the ends of its last statement's
    // branches too): dropped, or kept where it is all a body has that may not be left empty.
    static void strip_tail_returns(Body& body, bool may_empty) {
        if (body.empty()) return;
        if (is_return_none(body.back())) {
            if (body.size() == 1 && !may_empty) return;
            body.pop_back();
            strip_tail_returns(body, may_empty);
            return;
        }
        Stmt& last = *body.back();
        if (last.kind == StmtKind::If) {
            strip_tail_returns(last.body, false);
            strip_tail_returns(last.orelse, true);
        } else if (last.kind == StmtKind::Try && (last.finalbody.empty() || !returns_in(last.finalbody))) {
            strip_tail_returns(last.orelse.empty() ? last.body : last.orelse, !last.orelse.empty());
            for (ExceptHandler& h : last.handlers) strip_tail_returns(h.body, true);
        }
    }

public:
    // A module's statements: its end (`return None`, which 3.10+ copies into the branches of a
    // trailing if or try, e.g. `if __name__ == "__main__":`) is not printed.
    Body run_module() {
        Body body = run();
        string_statement_not_docstring(body);
        check_no_markers(body);
        if (auto why = unprintable_reason(body, print_options(code_.version))) unsupported(*why);
        strip_module_tail(body);
        std::function<void(const Body&)> no_return = [&](const Body& b) {
            for (const auto& st : b) {
                if (st->kind == StmtKind::Return) unsupported("a return at module level");
                for_each_child_body(st, [&](const Body& child, bool) { no_return(child); });  // (not into a def's or class's)
            }
        };
        no_return(body);
        // A module's STORE_GLOBAL: a function declared the name global (whether or not it stores
        // it), which a module-level `global` statement reproduces (and means nothing more). It
        // goes after the docstring (here still a store to __doc__) and the `from __future__`
        // imports, which must come first.
        Body declared = declarations();
        size_t at = !body.empty() && is_assign_to(body[0], "__doc__") && body[0]->value->kind == ExprKind::Constant ? 1 : 0;
        while (at < body.size() && body[at]->kind == StmtKind::ImportFrom && body[at]->name == "__future__") ++at;
        body.insert(body.begin() + std::ptrdiff_t(at), declared.begin(), declared.end());
        return body;
    }

private:
    // `return None` where the module's code ends anyway (the last statement, or the end of a
    // branch of a last if or try, where 3.10+ copies it) is that end: dropped, or `pass` where a
    // branch would be left empty.
    static void strip_module_tail(Body& body, bool may_empty = true) {
        if (body.empty()) return;
        restore_module_else(body);
        Stmt& last = *body.back();
        if (is_return_none(body.back())) {
            if (body.size() == 1 && !may_empty) {
                body.back() = make_stmt(StmtKind::Pass);
                return;
            }
            body.pop_back();  // what is now last ends the module too (`if x: return` then the end)
            strip_module_tail(body, may_empty);
            return;
        }
        // (the end of a last with's body: its exit, then the module's end)
        for_each_tail_branch(last, [](Body& branch, bool may_be_empty) { strip_module_tail(branch, may_be_empty); });
    }

    // A try whose else ends the module: 3.10+ copies the module's end into each handler, so what
    // follows the try (every handler having left) is its else. Only the copies are returns.
    static void restore_module_else(Body& body) {
        for (size_t i = body.size(); i-- > 0;) {
            if (i + 1 == body.size()) continue;  // the try has statements after it
            Stmt& s = *body[i];
            if (s.kind != StmtKind::Try || !s.finalbody.empty() || !s.orelse.empty() || s.handlers.empty()) continue;
            bool copied = false;
            for (const ExceptHandler& h : s.handlers) {
                if (!leaves_on_every_path(h.body)) return;
                copied = copied || returns_in(h.body);
            }
            if (!copied) return;
            s.orelse.assign(body.begin() + std::ptrdiff_t(i) + 1, body.end());
            body.resize(i + 1);
            return;
        }
    }

    static bool returns_in(const Body& body) {
        for (const auto& st : body) {
            if (st->kind == StmtKind::Return) return true;
            if (st->kind == StmtKind::FunctionDef || st->kind == StmtKind::ClassDef) continue;
            for (const Body* b : {&st->body, &st->orelse, &st->finalbody})
                if (returns_in(*b)) return true;
            for (const auto& h : st->handlers)
                if (returns_in(h.body)) return true;
        }
        return false;
    }

    static bool is_branching(const Stmt& s) {
        return s.kind == StmtKind::If || (s.kind == StmtKind::Try && s.finalbody.empty());
    }

    // Every path through the body ends in a return or a raise: the shape the compiler's copies of
    // the implicit return leave in a trailing if or try (its other paths end the function on
    // their own). A written early `return` leaves other code after its statement instead.
    static bool leaves_on_every_path(const Body& body) {
        if (body.empty()) return false;
        const Stmt& last = *body.back();
        if (last.kind == StmtKind::Return || last.kind == StmtKind::Raise) return true;
        if (last.kind == StmtKind::If) return leaves_on_every_path(last.body) && leaves_on_every_path(last.orelse);
        if (last.kind != StmtKind::Try || !last.finalbody.empty()) return false;
        if (!leaves_on_every_path(last.orelse.empty() ? last.body : last.orelse)) return false;
        for (const ExceptHandler& h : last.handlers)
            if (!leaves_on_every_path(h.body)) return false;
        return true;
    }

    // 3.10+ copies the function's implicit `return None` into each branch of an if or try that
    // ends it: the copies are the end of the function, not statements. An if or try body keeps
    // one if it would be left empty (an except clause prints `pass` instead).
    static void strip_copied_returns(Stmt& s) {
        std::vector<std::pair<Body*, bool>> branches;  // a branch, whether it may be left empty
        if (s.kind == StmtKind::If) {
            branches = {{&s.body, false}, {&s.orelse, true}};
        } else {
            branches.push_back({s.orelse.empty() ? &s.body : &s.orelse, !s.orelse.empty()});
            for (ExceptHandler& h : s.handlers) branches.push_back({&h.body, true});
        }
        for (auto [branch, may_empty] : branches) {
            if (branch->empty()) continue;
            if (is_return_none(branch->back()) && (branch->size() > 1 || may_empty))
                branch->pop_back();
            else if (is_branching(*branch->back()))
                strip_copied_returns(*branch->back());
        }
    }

    static Body failure_stub(const CodeObject& code, const std::string& why) {
        auto call = make_expr(ExprKind::Call);
        call->value = make_name("RuntimeError");
        auto msg = std::make_shared<PyValue>();
        msg->kind = PyValue::Kind::Str;
        msg->text = "uncompile could not decompile " + code.qualname + ": " + why;
        call->elts.push_back(make_constant(msg));
        auto s = make_stmt(StmtKind::Raise);
        s->value = call;
        return {s};
    }

public:
    // A `def` (or, for a lambda, an expression statement) for a code object outside its parent.
    StmtPtr standalone_definition(const CodeObject& code) {
        FunctionValue f;
        f.code = std::shared_ptr<const CodeObject>(&code, [](const CodeObject*) {});
        if (code.name == "<lambda>") {
            Body body;
            nested_body(code, body, false);
            if (ExprPtr lam = lambda_of(f, body)) {
                auto s = make_stmt(StmtKind::Expr);
                s->value = lam;
                return s;
            }
            // Rewritten code of a lambda (Dynamo's transformed code) need not be one expression:
            // a def of its own then, under a name made an identifier (see identifier_for).
            auto def = make_stmt(StmtKind::FunctionDef);
            def->name = identifier_for(code.name);
            def->args = arguments_of(f);
            def->body = std::move(body);
            return def;
        }
        if (is_comprehension_code(code)) {
            // Its outermost iterable was evaluated by the enclosing code and passed as `.0`; a
            // name stands for it, so the comprehension reads (and compiles) as the one it came from.
            auto s = make_stmt(StmtKind::Expr);
            s->value = comprehension(f, make_name(unused_name(code, "iterable")));
            // A list, set or dict comprehension that awaits compiles only inside an async function
            // (an async generator expression compiles anywhere): it is shown in one, named as the
            // function it was made in, so that it compiles to a code object of the same name.
            if ((code.flags & kCoCoroutine) && code.name != "<genexpr>") {
                auto def = make_stmt(StmtKind::FunctionDef);
                def->is_async = true;
                def->name = async_comprehension_host(code);
                def->args = std::make_shared<Arguments>();
                def->body = {s};
                return def;
            }
            return s;
        }
        if (!generic_subject(code).empty()) {
            // The defaults it is called with are the enclosing code's: `...` stands for them.
            ExprPtr def = generic_definition(f, std::vector<ExprPtr>(size_t(std::max(code.argcount, 0))));
            return generic_defs_.at(def.get());
        }
        if (code.name.empty() || code.name[0] == '<') unsupported("a " + code.name + " code object on its own");
        StmtPtr def = function_def(f);
        if (!is_identifier(def->name)) def->name = identifier_for(def->name);  // (Dynamo's `torch_dynamo_resume_in_<lambda>_at_3`)
        return def;
    }

    // A name that cannot be a def's (`<lambda>`, a rewriter's `resume_in_<lambda>`) made one: each
    // character an identifier cannot hold becomes `_` (`_lambda_`); uncompile's torch integration
    // looks the function up by the same rule.
    static std::string identifier_for(const std::string& name) {
        std::string out;
        for (char ch : name)
            out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || static_cast<unsigned char>(ch) >= 0x80 ? ch : '_';
        if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) || !is_identifier(out)) out = "_" + out;
        return out;
    }

    // The function an async comprehension was made in, by its qualified name (`f` of
    // `C.f.<locals>.<listcomp>`); where the name does not tell (3.8-3.10 keep none), `_`.
    static std::string async_comprehension_host(const CodeObject& code) {
        const std::string suffix = ".<locals>." + code.name;
        const std::string& q = code.qualname;
        if (q.size() <= suffix.size() || q.compare(q.size() - suffix.size(), suffix.size(), suffix) != 0) return "_";
        std::string parent = q.substr(0, q.size() - suffix.size());
        parent = parent.substr(parent.rfind('.') == std::string::npos ? 0 : parent.rfind('.') + 1);
        return is_identifier(parent) ? parent : "_";
    }

    static bool is_comprehension_code(const CodeObject& code) {
        static const std::set<std::string> names = {"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"};
        return names.count(code.name) && code.argcount == 1 && !code.varnames.empty() && code.varnames[0] == ".0";
    }

    // `base`, or `base_2`, `base_3`, ... : the first that no code object inside `code` uses.
    static std::string unused_name(const CodeObject& code, const std::string& base) {
        std::set<std::string> used;
        walk_code_objects(code, [&](const CodeObject& c) {
            for (const auto* names : {&c.names, &c.varnames, &c.cellvars, &c.freevars}) used.insert(names->begin(), names->end());
        });
        std::string name = base;
        for (int n = 2; used.count(name); ++n) name = base + "_" + std::to_string(n);
        return name;
    }

    std::vector<ExprPtr> element_;
    LazyMarker element_marker_{"<element>"};
    int64_t next_loop_constant_ = 0;  // see infinite_loop_test

private:
    const CodeObject& code_;
    std::vector<DecompileFailure>& failures_;
    const DecompileOptions& options_;
    const OpcodeTable& table_;
    std::vector<NeutralOp> ops_;
    std::vector<Instruction> raw_;  // the instructions before normalizing, read when needed
    ControlFlowGraph cfg_;
    std::vector<bool> emitted_;
    // How this version compiles (see normalize.h), whichever constructor made the decompiler.
    bool dead_code_kept_ = keeps_dead_code(code_.version);
    bool else_compiled_after_clauses_ = compiles_else_after_clauses(code_.version);
    bool exits_copied_ = copies_exit_blocks(code_.version);  // the compiler copies short exit blocks into jumps to them (3.10+)
    bool assert_loads_global_ = asserts_load_global(code_.version);
    bool kwargs_display_passed_as_is_ = passes_kwargs_display_as_is(code_.version);
    // Names loaded by LOAD_GLOBAL AssertionError where that is how an assert raises (3.8).
    std::set<const Expr*> global_assertion_errors_;
    bool loop_test_constant_kept_ = keeps_loop_test_constant(code_.version);
    bool while_test_repeated_ = repeats_while_test(code_.version);
    bool comprehension_jumps_by_line_ = threads_comprehension_jumps_by_line(code_.version);
    int with_pops_after_suppression_ = with_pops_after_suppression(code_.version);
    LazyMarker null_{"<NULL>"};
    LazyMarker build_class_{"<build class>"};
    LazyMarker assertion_error_{"AssertionError"};
    ExprPtr for_value_, for_target_;
    LazyMarker exception_{kException};
    LazyMarker previous_exception_{kPreviousException};
    LazyMarker exception_matches_{kExceptionMatches};
    LazyMarker reraise_{kReraise};
    std::map<int, HandlerInfo> handlers_;
    mutable std::map<std::pair<int, int>, bool> loop_edge_cache_;
    mutable std::vector<bool> reachable_;
    std::set<int> open_handlers_;
    struct ProtectedBody {
        int handler, exit;
        const Loop* loop;
        std::vector<bool> uncovered;  // see uncovered_body_blocks
        size_t depth;                 // the stack's depth where the body starts
    };
    std::vector<ProtectedBody> protected_bodies_;  // try/with bodies being emitted, innermost last
    // emitted_ before the normal path of the with statement being finished ran what follows its
    // __exit__ call (see tail_stays_in_body).
    std::vector<bool> emitted_before_normal_tail_;
    // Except clauses being emitted, innermost last: where they go on after POP_EXCEPT, the loop the
    // try statement is in, and how many try/with bodies were open around it.
    struct OpenClause {
        int after;
        const Loop* loop;
        size_t bodies;
    };
    std::vector<OpenClause> open_clauses_;
    std::set<const Stmt*> clause_end_continues_;  // `continue`s read from a clause falling off its end (3.8/3.9)
    std::set<int> clause_exit_copies_;  // copies of the code after try statements, where their clauses go on
    std::map<const Expr*, ExprPtr> with_context_, with_target_;
    std::set<const Expr*> with_exits_;
    // The __exit__ and entered-value markers of async with statements, and their normal-path results (awaited).
    std::set<const Expr*> async_withs_, async_exit_results_;
    // Values GET_AITER made (the first iterable of an async comprehension before 3.12), and
    // comprehensions of coroutine code objects whose await has not been seen yet.
    std::set<const Expr*> async_iterables_, unawaited_comprehensions_;
    std::set<const Expr*> merged_displays_;  // dicts and tuples 3.8's BUILD_*_UNPACK made (not a call's arguments)
    std::set<const Expr*> iterated_by_build_;  // their starred items (ordered_part)
    std::map<const Expr*, FunctionValue> functions_;
    std::map<const Expr*, const Expr*> lambda_made_from_;  // a Lambda node -> its function object
    std::map<const Expr*, StmtPtr> classes_;
    std::map<const Expr*, std::shared_ptr<PendingUnpack>> slots_;
    std::map<const Expr*, ImportValue> imports_;
    std::map<const Expr*, std::pair<ExprPtr, std::string>> import_froms_;
    std::map<const Stmt*, const Expr*> open_from_;
    std::vector<ExprPtr> keep_alive_;
    std::vector<StmtPtr> keep_stmt_;
    std::vector<ExprPtr> parallel_targets_, parallel_values_;
    std::vector<const Expr*> parallel_pending_;  // the values waiting when its first store came
    size_t base_ = 0;  // stack depth below which values belong to enclosing loops, not the statement
    std::vector<ExprPtr>* current_stack_ = nullptr;  // while step() runs: the stack emit_stmt keeps correct
    size_t current_op_ = 0;                          // while step() runs: the op's index in ops_
    std::map<const Expr*, ExprPtr> alias_;  // a duplicated value -> the name a store gave it
    int temporaries_ = 0;
    // This scope's number, unique in the thread (an address could be reused by the next scope).
    const uint64_t scope_number_ = [] {
        static thread_local uint64_t scopes = 0;
        return ++scopes;
    }();
    std::set<const Expr*> consumed_after_cleanup_;
    std::set<std::pair<const Stmt*, const Stmt*>> left_through_;  // (return/break/continue, try/finally it leaves)
    std::set<const Stmt*> dropped_returns_;        // returns a finally copy's way out dropped, not yet put in that copy's place
    std::map<const Stmt*, const Stmt*> return_dropped_by_;  // ... once put there: the try/finally whose copy dropped it
    uint64_t pop_except_serial_ = 0;               // a serial taken at the last POP_EXCEPT simulated
    uint64_t with_exit_serial_ = 0;                // the result's serial of the last __exit__(None, None, None) simulated
    uint32_t with_exit_offset_ = 0;                // ... and the offset of that call
    std::set<const Stmt*> tail_after_with_;        // returns that computed their value after a with's __exit__
    std::set<const Stmt*> written_returns_;        // `return None` statements of the source (is_written_return_none)
    std::map<const Stmt*, int> return_lines_;      // the line of each return statement's RETURN_VALUE
    std::vector<StmtPtr> dropped_copies_;          // copies taken out of bodies (and others), kept alive (their addresses are keys)
    std::map<const Stmt*, const Expr*> exit_before_tail_;  // returns/raises after a with's __exit__ call: that with's exit
    std::set<int> copies_after_exit_;  // see returns_through_finally_copies
    std::set<const Expr*> returned_through_copies_;  // values computed before those copies (see note_returned)
    std::map<const Expr*, const Expr*> exit_of_entered_;   // a with's entered marker -> its exit marker
    const Expr* with_exit_called_ = nullptr;       // the exit of the last __exit__(None, None, None) simulated
    const Expr* finishing_with_exit_ = nullptr;    // the exit of the with statement finish_normal_path is finishing
    std::map<const Expr*, int> handler_of_exit_;   // a with's exit marker -> the block of its handler
    mutable std::vector<bool> handler_entries_;    // by block: where flow can start (see is_entry)
    std::map<const Stmt*, const Expr*> late_exit_before_tail_;  // as exit_before_tail_, known from the flow graph only
    std::map<const Stmt*, std::vector<const Expr*>> with_statement_exits_;  // with statements finished -> their exits (merged ones' too)
    std::map<const Stmt*, std::vector<int>> uncovered_raises_;  // raises outside the range of open try statements' handlers -> those handlers
    std::map<const Stmt*, std::vector<int>> try_handler_;  // try statements made -> their handlers' blocks (except, finally)
    int with_exit_block_ = -1;                     // the block of the last __exit__(None, None, None) simulated
    std::set<const Stmt*> run_after_clause_;       // statements of a clause's block after its POP_EXCEPT
    std::set<const Stmt*> body_never_goes_on_;     // try statements whose body does not go on
    std::set<const Stmt*> tail_after_clause_;      // returns that computed their value after POP_EXCEPT  // (return/break/continue, try/finally it leaves)
    // Conditions probed so far, by block and stack: an if/elif chain re-probes the rest of the
    // chain at every `if`, and merging a chain re-probes the same blocks at every step
    // (exponential in the chain's length without this). A result depends on the code and on which
    // blocks were emitted when it was read: it is reused only while those blocks are as they were.
    struct ProbeKey {
        int block;
        // The stack's values themselves, not their addresses: holding them keeps a freed value's
        // address from being taken by a new value that would match this entry.
        std::vector<ExprPtr> stack;
        std::pair<int, int> owner_sides;  // probed as an operand of another condition: its sides (operand_sides_)
        auto operator<=>(const ProbeKey&) const = default;
    };
    struct ProbeResult {
        std::optional<Condition> result;
        std::vector<std::pair<int, bool>> reads;  // (block, emitted) read while probing
    };
    std::map<ProbeKey, ProbeResult> probe_memo_;
    std::vector<std::pair<int, int>> operand_sides_;  // the sides of the conditions whose operands are being probed
    mutable std::vector<std::vector<std::pair<int, bool>>> probe_reads_;  // one per probe under way
    mutable std::optional<std::vector<int>> ends_before_dead_code_;  // blocks that end where dead code follows
    mutable std::vector<int> common_block_scratch_;  // first_common_block's blocks of the side walked first
    mutable std::optional<std::vector<int>> back_edge_targets_;
    mutable std::optional<Dominance> dominance_;
    mutable int dominance_walks_ = 0;  // dominance questions answered by a walk, before the tree is built
    mutable std::optional<TableIndex> table_index_;
    mutable std::optional<UseCounts> whole_counts_;  // the whole function body's, while restore_else_before_copied_tail runs
    std::vector<uint32_t> read_marks_;  // per (block, emitted): the serial of the last probe that kept that read
    uint32_t read_mark_serial_ = 0;
    std::set<const Expr*> loop_iterators_;  // the iterators of for loops, on the stack while they run
    // The class cell a class body stores as __classcell__ for its methods' super() (LOAD_CLOSURE);
    // a class body's are handed to the decompiler of the class statement, which strips the store.
    std::vector<ExprPtr> class_cell_loads_;
    std::set<const Expr*> import_used_, import_attr_chain_, inplace_, chain_assign_, chain_shared_, converted_, silent_;
    FreeComparisons none_tests_;  // comparisons read from jumps on None
    // Loads of cells and globals: a call may rebind them (a closure's `nonlocal`, a `global`), so
    // such a load that waits on the stack while a statement with effects runs is read first;
    // rewriters (Dynamo) leave them there, ordinary bytecode never does. Locals cannot change
    // behind a call, nor can the globals the caller names stable (DecompileOptions).
    std::set<const Expr*> rebindable_reads_;
    // Assignment expressions built (name, scope); loads of those names after one was built are
    // ordered like effects, so an operand read after the binding is never printed before it.
    std::vector<std::pair<std::string, Scope>> walrus_stores_;
    std::set<const Expr*> ordered_reads_;
    // Those of comprehensions (code objects of their own, before 3.12) built here, which bind in this code.
    std::set<std::pair<std::string, Scope>> comprehension_walrus_stores_;
    // Inlined comprehensions (PEP 709): saved bindings of their variables -> the name, and their
    // accumulators -> the kind of comprehension they become.
    std::map<const Expr*, std::string> saved_bindings_;
    // The function scopes around this code, innermost last (class bodies hide nothing from it).
    std::vector<const CodeObject*> enclosing_functions_;
    std::vector<std::string> declared_global_reads_;  // (note_declared_global_read)
    // Ops of ops_ that name an inlined comprehension's own variable (note_if_comprehension_scoped).
    std::set<const NeutralOp*> comprehension_scoped_;
    std::map<const Expr*, ExprKind> accumulators_;
    // Dict displays of more than 16 entries (3.10+): built by MAP_ADD 1, chunk by chunk.
    std::set<const Expr*> chunked_dicts_;
    // The name of the innermost enclosing class (private names are mangled with it); empty outside.
    std::string private_name_;
    std::map<const Expr*, StmtPtr> type_aliases_;  // `<type alias>` markers -> their statement
    // Type parameters (see type_params.h): `<type parameter>` markers -> what they are; a generic
    // wrapper's `<generic function>` markers -> the function and its type parameter tuple; the
    // calls of generic wrappers -> the definition (def, class or type statement) they make.
    std::map<const Expr*, TypeParam> type_param_values_;
    std::map<const Expr*, std::pair<FunctionValue, ExprPtr>> generic_functions_;
    std::map<const Expr*, StmtPtr> generic_defs_;
    bool annotations_set_up_ = false;  // SETUP_ANNOTATIONS seen
    // A 3.13+ class body's __static_attributes__ (the attributes its methods store on self, as
    // written), and for a function in a class body, its class's.
    std::optional<std::set<std::string>> own_static_attributes_, class_static_attributes_;
    int annotated_assignments_ = 0;
    std::map<size_t, MatchShape> matches_;  // match statements by their first op
    static constexpr size_t kNoOp = size_t(-1);
    size_t guard_at_ = kNoOp;  // the first op of the guard read_guard reads (see there)
    std::map<int, size_t> resume_at_;       // blocks whose first ops belong to a match's pattern code
};

}  // namespace

DecompileOutput decompile(const CodeObject& code, const DecompileOptions& options) {
    DecompileOutput result;
    Body body;
    try {
        if (code.name != "<module>") {
            CodeObject empty;
            empty.version = code.version;
            StructuredDecompiler host(StructuredDecompiler::Host{}, empty, result.failures, options);
            body.push_back(host.standalone_definition(code));
            result.source = print_module(body, print_options(code.version));
            return result;
        }
        StructuredDecompiler top(code, result.failures, options);
        body = top.run_module();
        // A module docstring is stored into __doc__.
        if (!body.empty() && body[0]->kind == StmtKind::Assign && body[0]->targets.size() == 1 &&
            body[0]->targets[0]->kind == ExprKind::Name && body[0]->targets[0]->id == "__doc__" &&
            body[0]->value->kind == ExprKind::Constant) {
            auto doc = make_stmt(StmtKind::Expr);
            doc->value = body[0]->value;
            body[0] = doc;
        }
    } catch (const Error& e) {
        if (e.kind() != Error::Kind::Unsupported) throw;
        result.failures.push_back({code.qualname, code.firstlineno, e.what()});
        body.clear();
        auto s = make_stmt(StmtKind::Raise);
        auto call = make_expr(ExprKind::Call);
        call->value = make_name("RuntimeError");
        auto msg = std::make_shared<PyValue>();
        msg->kind = PyValue::Kind::Str;
        msg->text = "uncompile could not decompile " + code.qualname + ": " + e.what();
        call->elts.push_back(make_constant(msg));
        s->value = call;
        body.push_back(s);
    }
    result.source = print_module(body, print_options(code.version));
    return result;
}

}  // namespace uncompile

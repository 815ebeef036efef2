#pragma once
// The syntax tree the decompiler builds and the printer writes: the node set of Python's own `ast`
// module (3.8-3.13 grammar), in a compact form. Each node has a kind; the fields a kind uses are
// listed next to it, the others stay empty.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/py_value.h"

namespace uncompile::ast {

struct Expr;
struct Stmt;
struct Pattern;
struct Arguments;
using ExprPtr = std::shared_ptr<Expr>;  // shared: the stack simulation may copy a value (COPY, DUP_TOP)
using StmtPtr = std::shared_ptr<Stmt>;
using PatternPtr = std::shared_ptr<Pattern>;
using Body = std::vector<StmtPtr>;

enum class ExprKind {
    Name,           // id
    Constant,       // constant (a marshal value; Placeholder prints as its name)
    Attribute,      // value . id
    Subscript,      // value [ index ]
    Slice,          // lower : upper : step (each may be null)
    Starred,        // * value
    Call,           // func ( args..., keywords... )
    BinOp,          // left op right            (op: "+", "-", "*", "@", "/", "//", "%", "**", "<<", ">>", "&", "|", "^")
    UnaryOp,        // op operand               (op: "-", "+", "~", "not")
    BoolOp,         // values joined by op      (op: "and", "or"; two or more values)
    Compare,        // left (ops[i] comparators[i])...  (ops: "<", "<=", "==", "!=", ">", ">=", "in", "not in", "is", "is not")
    IfExp,          // body if test else orelse
    NamedExpr,      // target := value
    Lambda,         // lambda arguments: body
    Tuple,          // elts
    List,           // elts
    Set,            // elts (never empty)
    Dict,           // keys[i]: values[i]; a null key means ** values[i]
    ListComp,       // [ elt generators ]
    SetComp,        // { elt generators }
    DictComp,       // { key: value generators }
    GeneratorExp,   // ( elt generators )
    Await,          // await value
    Yield,          // yield value (value may be null)
    YieldFrom,      // yield from value
    JoinedStr,      // f-string: values are Constant str parts and FormattedValue
    FormattedValue, // { value !conversion : format_spec }; format_spec is a JoinedStr or null
};

struct Comprehension {
    ExprPtr target;
    ExprPtr iter;
    std::vector<ExprPtr> ifs;
    bool is_async = false;
    // Per condition: printed on a line of its own (the compiler's code depends on whether a
    // condition shares the element's line, see threads_comprehension_jumps_by_line).
    std::vector<bool> ifs_on_own_line;
};

struct Keyword {
    std::optional<std::string> arg;  // nullopt: ** value
    ExprPtr value;
};

struct Expr {
    ExprKind kind = ExprKind::Name;
    uint64_t serial = 0;       // creation order (make_expr): the order the bytecode computed values in
    std::string id;            // Name: identifier; Attribute: attribute name; BinOp/UnaryOp/BoolOp: operator
    ObjectRef constant;        // Constant
    ExprPtr value;             // Attribute, Subscript, Starred, Await, Yield, YieldFrom, FormattedValue, NamedExpr,
                               // DictComp (value); Call: func; Lambda: body; UnaryOp: operand
    ExprPtr index;             // Subscript
    ExprPtr left, right;       // BinOp; Compare: left; NamedExpr: left = target
    ExprPtr test, body, orelse;  // IfExp
    ExprPtr lower, upper, step;  // Slice
    ExprPtr elt;               // ListComp, SetComp, GeneratorExp; DictComp: key
    ExprPtr format_spec;       // FormattedValue
    std::vector<ExprPtr> elts;    // Tuple, List, Set, BoolOp values, Call args, Compare comparators,
                                  // JoinedStr values, Dict keys
    std::vector<ExprPtr> values;  // Dict values
    std::vector<std::string> ops;  // Compare
    std::vector<Keyword> keywords;  // Call
    std::vector<Comprehension> generators;
    std::shared_ptr<Arguments> args;  // Lambda
    int conversion = -1;       // FormattedValue: -1 none, else 's', 'r' or 'a'
    // Scratch space of the structurer (not part of the tree): the effect span it computed for this
    // node, and which of its scopes computed it (a node may be seen from a nested scope too). A
    // copy of a node starts without it: copies are made to be changed.
    struct SpanMemo {
        uint64_t owner = 0;  // the scope's number (never 0)
        uint64_t first = 0, last = 0;
        SpanMemo() = default;
        SpanMemo(const SpanMemo&) {}
        SpanMemo& operator=(const SpanMemo&) {
            owner = 0;
            return *this;
        }
    } span;
    // Scratch space of duplicated_effect: the number of the walk that last met this node (a copy
    // starts unmet).
    struct VisitMark {
        uint64_t walk = 0;
        VisitMark() = default;
        VisitMark(const VisitMark&) {}
        VisitMark& operator=(const VisitMark&) {
            walk = 0;
            return *this;
        }
    } visited;
};

struct Arg {
    std::string name;
    ExprPtr annotation;  // may be null
};

struct Arguments {
    std::vector<Arg> posonlyargs;
    std::vector<Arg> args;
    std::optional<Arg> vararg;
    std::vector<Arg> kwonlyargs;
    std::vector<ExprPtr> kw_defaults;  // one per kwonlyarg, null where there is none
    std::optional<Arg> kwarg;
    std::vector<ExprPtr> defaults;     // for the last len(defaults) of posonlyargs + args
};

enum class StmtKind {
    FunctionDef,       // decorators, name, args, returns, type_params, body; is_async
    ClassDef,          // decorators, name, bases, keywords, type_params, body
    Return,            // value (may be null)
    Delete,            // targets
    Assign,            // targets (chained: a = b = value), value
    AugAssign,         // target op= value
    AnnAssign,         // target: annotation = value (value may be null); simple
    For,               // for target in iter: body else: orelse; is_async
    While,             // while test: body else: orelse
    If,                // if test: body else: orelse (an orelse that is exactly one If prints as elif)
    With,              // with items: body; is_async
    Match,             // match subject: cases
    Raise,             // raise exc from cause (both may be null)
    Try,               // try: body handlers else: orelse finally: finalbody; is_star for except*
    Assert,            // assert test, msg
    Import,            // import names
    ImportFrom,        // from (level dots) module import names
    Global,            // global identifiers
    Nonlocal,          // nonlocal identifiers
    Expr,              // value
    Pass,
    Break,
    Continue,
    TypeAlias,         // type name[type_params] = value (3.12+)
};

struct Alias {
    std::string name;    // dotted for Import; "*" for a star import
    std::string asname;  // empty when none
};

struct WithItem {
    ExprPtr context;
    ExprPtr target;  // may be null
};

struct ExceptHandler {
    ExprPtr type;      // null for a bare except
    std::string name;  // empty when none
    Body body;
};

enum class PatternKind {
    MatchValue,      // value
    MatchSingleton,  // constant (None, True, False)
    MatchSequence,   // patterns
    MatchMapping,    // keys[i]: patterns[i], ** rest (name; empty when none)
    MatchClass,      // cls(patterns..., kwd_attrs[i]=kwd_patterns[i]...)
    MatchStar,       // * name (empty name: *_)
    MatchAs,         // pattern as name; no pattern and empty name: _ ; no pattern: capture name
    MatchOr,         // patterns joined by |
};

struct Pattern {
    PatternKind kind = PatternKind::MatchAs;
    ExprPtr value;
    ObjectRef constant;
    std::vector<PatternPtr> patterns;
    std::vector<ExprPtr> keys;
    std::string name;
    ExprPtr cls;
    std::vector<std::string> kwd_attrs;
    std::vector<PatternPtr> kwd_patterns;
    PatternPtr pattern;
};

struct MatchCase {
    PatternPtr pattern;
    ExprPtr guard;  // may be null
    Body body;
};

enum class TypeParamKind { TypeVar, ParamSpec, TypeVarTuple };

struct TypeParam {
    TypeParamKind kind = TypeParamKind::TypeVar;
    std::string name;
    ExprPtr bound;          // TypeVar only; may be null
    ExprPtr default_value;  // 3.13; may be null
};

struct Stmt {
    StmtKind kind = StmtKind::Pass;
    std::string name;     // FunctionDef, ClassDef, TypeAlias name; ImportFrom module; AugAssign operator
    int level = 0;        // ImportFrom
    bool is_async = false;
    bool is_star = false; // Try with except*
    bool simple = true;   // AnnAssign: target is a plain name written without parentheses
    std::vector<ExprPtr> targets;  // Assign, Delete
    ExprPtr target;       // AugAssign, AnnAssign, For
    ExprPtr value;        // Return, Assign, AugAssign, AnnAssign, Expr, TypeAlias; Raise: exc; Match: subject
    ExprPtr test;         // If, While, Assert
    ExprPtr iter;         // For
    ExprPtr annotation;   // AnnAssign; FunctionDef: return annotation
    ExprPtr cause;        // Raise
    ExprPtr msg;          // Assert
    Body body, orelse, finalbody;
    std::vector<ExceptHandler> handlers;
    std::vector<WithItem> items;
    std::vector<Alias> aliases;
    std::vector<std::string> identifiers;  // Global, Nonlocal
    std::vector<ExprPtr> decorators;
    std::shared_ptr<Arguments> args;       // FunctionDef
    std::vector<ExprPtr> bases;            // ClassDef
    std::vector<Keyword> keywords;         // ClassDef
    std::vector<MatchCase> cases;
    std::vector<TypeParam> type_params;
};

// Small constructors for the common nodes.
ExprPtr make_name(std::string id);
ExprPtr make_constant(ObjectRef value);
ExprPtr make_expr(ExprKind kind);
// Takes `n` consecutive creation serials now, for nodes made later that are to be ordered as if
// made now (their maker sets them); returns the first.
uint64_t reserve_serials(uint64_t n);
StmtPtr make_stmt(StmtKind kind);

// Whether a body starts with its docstring: a string statement first (the decompiler writes code
// that makes a string there as an f-string, so a plain one is the docstring).
inline bool starts_with_docstring(const Body& body) {
    return !body.empty() && body[0]->kind == StmtKind::Expr && body[0]->value->kind == ExprKind::Constant &&
           body[0]->value->constant->kind == PyValue::Kind::Str;
}

// Names and constants have no operands: make_name and make_constant build them, a node's kind
// never changes, and nothing gives one children. Walks pass them without looking at a dozen empty
// fields (most nodes of a tree are such leaves).
inline bool is_leaf(const Expr& e) { return e.kind == ExprKind::Name || e.kind == ExprKind::Constant; }

// Every expression field of a node, in no particular order (for searching and rewriting).
template <class F>
void for_each_child_slot(Expr& e, F&& f) {
    if (is_leaf(e)) return;
    for (ExprPtr* p : {&e.value, &e.index, &e.left, &e.right, &e.test, &e.body, &e.orelse, &e.lower, &e.upper, &e.step,
                       &e.elt, &e.format_spec})
        if (*p) f(*p);
    for (auto& x : e.elts)
        if (x) f(x);
    for (auto& x : e.values)
        if (x) f(x);
    for (auto& k : e.keywords)
        if (k.value) f(k.value);
    for (auto& g : e.generators) {
        if (g.target) f(g.target);
        if (g.iter) f(g.iter);
        for (auto& x : g.ifs)
            if (x) f(x);
    }
    if (e.args) {
        for (auto& x : e.args->defaults)
            if (x) f(x);
        for (auto& x : e.args->kw_defaults)
            if (x) f(x);
    }
}

// Calls f(body) for each statement list directly inside the statement, in order: its body, else
// and finally parts, then its except clauses' and its cases' bodies (`S`: Stmt or const Stmt).
template <class S, class F>
void for_each_nested_body(S& s, F&& f) {
    f(s.body);
    f(s.orelse);
    f(s.finalbody);
    for (auto& h : s.handlers) f(h.body);
    for (auto& c : s.cases) f(c.body);
}

// Calls f(node) for the statement's own expressions (not those of its nested bodies). (A template,
// like the one above: every pass over a body calls it per statement, and a std::function there
// cost a call through a pointer per expression.)
template <class F>
void for_each_own_expr(const Stmt& s, F&& f) {
    for (const ExprPtr* p : {&s.target, &s.value, &s.test, &s.iter, &s.annotation, &s.cause, &s.msg})
        if (*p) f(*p);
    for (const auto& t : s.targets) f(t);
    for (const auto& item : s.items) {
        if (item.context) f(item.context);
        if (item.target) f(item.target);
    }
    for (const auto& h : s.handlers)
        if (h.type) f(h.type);
    for (const auto& d : s.decorators) f(d);
    for (const auto& b : s.bases) f(b);
    for (const auto& k : s.keywords)
        if (k.value) f(k.value);
    for (const auto& c : s.cases)
        if (c.guard) f(c.guard);
    if (s.args) {
        for (const auto& d : s.args->defaults)
            if (d) f(d);
        for (const auto& d : s.args->kw_defaults)
            if (d) f(d);
    }
}

}  // namespace uncompile::ast

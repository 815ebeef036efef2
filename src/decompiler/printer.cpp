#include "printer.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/code_object.h"
#include "core/concat.h"
#include "core/error.h"
#include "core/text_encoding.h"
#include "core/value_format.h"
#include "docstring.h"

namespace uncompile::ast {

namespace {

// Binding strength, weakest first (Lib/ast.py's _Precedence has the same order).
enum Prec : int {
    kNamedExpr, kTuple, kYield, kTest, kOr, kAnd, kNot, kCmp, kExpr, kBor, kBxor, kBand, kShift, kArith, kTerm,
    kFactor, kPower, kAwait, kAtom
};

int binop_precedence(const std::string& op) {
    // (By the text's characters: a map lookup per operator printed cost string comparisons.)
    if (op.size() == 1) {
        switch (op[0]) {
        case '|': return kBor;
        case '^': return kBxor;
        case '&': return kBand;
        case '+': case '-': return kArith;
        default: return kTerm;  // * @ / %
        }
    }
    if (op == "<<" || op == ">>") return kShift;
    if (op == "**") return kPower;
    return kTerm;  // //
}

// Opens or closes the parentheses around a part when `parens` (the part is written between).
void paren(std::string& out, bool parens, char c) {
    if (parens) out += c;
}

std::string wrap(const std::string& text, bool parens) { return parens ? concat("(", text, ")") : text; }

bool is_tuple(const Expr& e) {
    return e.kind == ExprKind::Tuple || (e.kind == ExprKind::Constant && e.constant->kind == PyValue::Kind::Tuple);
}

// Long text of several lines (a usage message, a template, a verbose pattern) is written as the
// triple-quoted block it was written as; short text with a newline or two ('%s\n') stays on its
// line, and so does text with control characters, which a block would show as escapes anyway.
bool reads_as_block(const std::string& text) {
    constexpr size_t kMinLines = 3, kMinSize = 40;
    size_t newlines = 0;
    for (char ch : text) {
        auto c = static_cast<unsigned char>(ch);
        if (c == '\n') ++newlines;
        else if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
    }
    return newlines + 1 >= kMinLines && text.size() >= kMinSize;
}

// Every part is appended to one output string (a string per node, joined by the parent, cost an
// allocation and a copy per node and level).
class Printer {
public:
    explicit Printer(PrintOptions options) : options_(options) {}

    // ------------------------------------------------------------------ expressions
    void expr(const Expr& e, int prec, std::string& out) {
        switch (e.kind) {
        case ExprKind::Name: out += e.id; return;
        case ExprKind::Constant: return constant(*e.constant, prec, out);
        case ExprKind::Attribute: {
            size_t at = out.size();
            expr(*e.value, kAtom, out);
            // `1.real` would read as a float literal.
            if (e.value->kind == ExprKind::Constant && e.value->constant->kind == PyValue::Kind::Int && out[at] != '(') {
                out.insert(at, 1, '(');
                out += ')';
            }
            return append(out, ".", e.id);
        }
        case ExprKind::Subscript:
            expr(*e.value, kAtom, out);
            out += '[';
            subscript_index(*e.index, out);
            out += ']';
            return;
        case ExprKind::Slice: return slice(e, out);
        case ExprKind::Starred: out += '*'; return expr(*e.value, kExpr, out);
        case ExprKind::Call: return call(e, out);
        case ExprKind::BinOp: {
            int p = binop_precedence(e.id);
            bool right_assoc = e.id == "**";
            paren(out, prec > p, '(');
            expr(*e.left, right_assoc ? p + 1 : p, out);
            append(out, " ", e.id, " ");
            expr(*e.right, right_assoc ? p : p + 1, out);
            return paren(out, prec > p, ')');
        }
        case ExprKind::UnaryOp: {
            if (e.id == "not") {
                paren(out, prec > kNot, '(');
                out += "not ";
                expr(*e.value, kNot, out);
                return paren(out, prec > kNot, ')');
            }
            paren(out, prec > kFactor, '(');
            out += e.id;
            expr(*e.value, kFactor, out);
            return paren(out, prec > kFactor, ')');
        }
        case ExprKind::BoolOp: {
            int p = e.id == "and" ? kAnd : kOr;
            paren(out, prec > p, '(');
            for (size_t i = 0; i < e.elts.size(); ++i) {
                if (i) append(out, " ", e.id, " ");
                expr(*e.elts[i], p + 1, out);
            }
            return paren(out, prec > p, ')');
        }
        case ExprKind::Compare: {
            paren(out, prec > kCmp, '(');
            expr(*e.left, kCmp + 1, out);
            for (size_t i = 0; i < e.ops.size(); ++i) {
                append(out, " ", e.ops[i], " ");
                expr(*e.elts[i], kCmp + 1, out);
            }
            return paren(out, prec > kCmp, ')');
        }
        case ExprKind::IfExp:
            paren(out, prec > kTest, '(');
            expr(*e.body, kTest + 1, out);
            out += " if ";
            expr(*e.test, kTest + 1, out);
            out += " else ";
            expr(*e.orelse, kTest, out);
            return paren(out, prec > kTest, ')');
        case ExprKind::NamedExpr:
            out += '(';
            expr(*e.left, kAtom, out);
            out += " := ";
            expr(*e.value, kTest, out);
            out += ')';
            return;
        case ExprKind::Lambda: {
            paren(out, prec > kTest, '(');
            out += "lambda ";
            size_t at = out.size();
            arguments(*e.args, false, out);
            if (out.size() == at) out.pop_back();  // no arguments: no space
            out += ": ";
            expr(*e.value, kTest, out);
            return paren(out, prec > kTest, ')');
        }
        case ExprKind::Tuple: {
            if (e.elts.empty()) {
                out += "()";
                return;
            }
            // `return a, b` and `x = a, b` as people write them. Only the value of a return, yield
            // or assignment asks kTuple; a starred item keeps the parentheses, which 3.8 needs
            // after `+=` and `in`, and a lone item too, whose bare comma is easily missed.
            bool bare = prec == kTuple && e.elts.size() > 1 &&
                        std::none_of(e.elts.begin(), e.elts.end(),
                                     [](const ExprPtr& x) { return x->kind == ExprKind::Starred; });
            paren(out, !bare, '(');
            items(e.elts, kTest, out);
            if (e.elts.size() == 1) out += ',';
            return paren(out, !bare, ')');
        }
        case ExprKind::List:
            out += '[';
            items(e.elts, kTest, out);
            out += ']';
            return;
        case ExprKind::Set:
            if (e.elts.empty()) {
                out += "{*()}";
                return;
            }
            out += '{';
            items(e.elts, kTest, out);
            out += '}';
            return;
        case ExprKind::Dict: {
            out += '{';
            for (size_t i = 0; i < e.values.size(); ++i) {
                if (i) out += ", ";
                if (!e.elts[i]) {
                    out += "**";
                    expr(*e.values[i], kExpr, out);
                } else {
                    expr(*e.elts[i], kTest, out);
                    out += ": ";
                    expr(*e.values[i], kTest, out);
                }
            }
            out += '}';
            return;
        }
        case ExprKind::ListComp: return comprehension(e, '[', ']', out);
        case ExprKind::SetComp: return comprehension(e, '{', '}', out);
        case ExprKind::DictComp:
            out += '{';
            expr(*e.elt, kTest, out);
            out += ": ";
            expr(*e.value, kTest, out);
            generators(e, out);
            out += '}';
            return;
        case ExprKind::GeneratorExp: return comprehension(e, '(', ')', out);
        case ExprKind::Await:
            paren(out, prec > kAwait, '(');
            out += "await ";
            expr(*e.value, kAtom, out);
            return paren(out, prec > kAwait, ')');
        // A yield needs no parentheses only as a statement of its own (the one place asking kYield).
        case ExprKind::Yield:
            paren(out, prec != kYield, '(');
            out += "yield";
            if (e.value) {
                out += ' ';
                expr(*e.value, kTuple, out);
            }
            return paren(out, prec != kYield, ')');
        case ExprKind::YieldFrom:
            paren(out, prec != kYield, '(');
            out += "yield from ";
            expr(*e.value, kTest, out);
            return paren(out, prec != kYield, ')');
        case ExprKind::JoinedStr: out += fstring(e); return;
        case ExprKind::FormattedValue: {
            auto js = std::make_shared<Expr>();
            js->kind = ExprKind::JoinedStr;
            js->elts.push_back(std::make_shared<Expr>(e));
            out += fstring(*js);
            return;
        }
        }
        out += '?';
    }

    std::string expr(const Expr& e, int prec) {
        std::string out;
        expr(e, prec, out);
        return out;
    }

    // Prints `e` and drops the text: throws where it cannot be printed.
    void try_expr(const Expr& e) {
        scratch_.clear();
        expr(e, kTest, scratch_);
    }

    void comprehension(const Expr& e, char open, char close, std::string& out) {
        out += open;
        expr(*e.elt, kTest, out);
        generators(e, out);
        out += close;
    }

    void items(const std::vector<ExprPtr>& list, int prec, std::string& out) {
        for (size_t i = 0; i < list.size(); ++i) {
            if (i) out += ", ";
            expr(*list[i], prec, out);
        }
    }

    void subscript_index(const Expr& index, std::string& out) {
        if (index.kind == ExprKind::Tuple && !index.elts.empty()) {
            bool has_starred = false;
            for (const auto& x : index.elts) has_starred |= x->kind == ExprKind::Starred;
            if (!has_starred) {
                for (size_t i = 0; i < index.elts.size(); ++i) {
                    const Expr& x = *index.elts[i];
                    if (i) out += ", ";
                    if (x.kind == ExprKind::Slice) slice(x, out);
                    else expr(x, kTest, out);
                }
                if (index.elts.size() == 1) out += ',';
                return;
            }
        }
        if (index.kind == ExprKind::Slice) slice(index, out);
        else expr(index, kTuple, out);
    }

    void slice(const Expr& s, std::string& out) {
        if (s.lower) expr(*s.lower, kTest, out);
        out += ':';
        if (s.upper) expr(*s.upper, kTest, out);
        if (s.step) {
            out += ':';
            expr(*s.step, kTest, out);
        }
    }

    void call(const Expr& e, std::string& out) {
        expr(*e.value, kAtom, out);
        if (e.elts.size() == 1 && e.keywords.empty() && e.elts[0]->kind == ExprKind::GeneratorExp)
            return expr(*e.elts[0], kTest, out);
        out += '(';
        bool first = true;
        auto separate = [&] {
            if (!first) out += ", ";
            first = false;
        };
        for (const auto& a : e.elts) {
            separate();
            expr(*a, kTest, out);
        }
        for (const auto& k : e.keywords) {
            separate();
            keyword(k, out);
        }
        out += ')';
    }

    void keyword(const Keyword& k, std::string& out) {
        if (k.arg) {
            append(out, *k.arg, "=");
            expr(*k.value, kTest, out);
        } else {
            out += "**";
            expr(*k.value, kExpr, out);
        }
    }

    void generators(const Expr& e, std::string& out) {
        for (const auto& g : e.generators) {
            out += g.is_async ? " async for " : " for ";
            target(*g.target, out);
            out += " in ";
            expr(*g.iter, kTest + 1, out);
            for (size_t k = 0; k < g.ifs.size(); ++k) {
                // (Inside brackets a line may break; not inside an f-string's braces.)
                bool own_line = k < g.ifs_on_own_line.size() && g.ifs_on_own_line[k] && in_fstring_ == 0;
                if (own_line) {
                    out += '\n';
                    out.append(size_t((depth_ + 1) * options_.indent), ' ');
                    out += "if ";
                } else {
                    out += " if ";
                }
                expr(*g.ifs[k], kTest + 1, out);
            }
        }
    }

    // Assignment and loop targets: tuples without parentheses read as people write them.
    void target(const Expr& t, std::string& out) {
        if (t.kind == ExprKind::Tuple && !t.elts.empty()) {
            items(t.elts, kTest, out);
            if (t.elts.size() == 1) out += ',';
            return;
        }
        expr(t, kTest, out);
    }

    void constant(const PyValue& v, int prec, std::string& out) {
        using K = PyValue::Kind;
        switch (v.kind) {
        case K::None: out += "None"; return;
        case K::True: out += "True"; return;
        case K::False: out += "False"; return;
        case K::Ellipsis: out += "..."; return;
        case K::Int: {
            std::string text = int_text(v);
            return wrapped(out, text, text[0] == '-' && prec > kFactor);
        }
        case K::Float: {
            if (std::isnan(v.real)) return wrapped(out, "1e309 - 1e309", prec > kArith);
            if (std::isinf(v.real)) return wrapped(out, v.real < 0 ? "-1e309" : "1e309", v.real < 0 && prec > kFactor);
            std::string text = float_repr(v.real);
            return wrapped(out, text, text[0] == '-' && prec > kFactor);
        }
        case K::Complex: {
            if (std::isnan(v.real) || std::isnan(v.imag) || std::isinf(v.real) || std::isinf(v.imag))
                throw Error(Error::Kind::Unsupported, "a complex constant with inf or nan parts");
            std::optional<std::string> text = complex_source(v.real, v.imag);
            if (!text) throw Error(Error::Kind::Unsupported, "a complex constant with signed zero parts that no literal gives");
            return wrapped(out, *text, (*text)[0] == '-' && prec > kFactor);
        }
        case K::Str:
            if (in_fstring_ && !options_.nested_fstring_quotes) out += field_str_literal(v.text);
            else if (!in_fstring_ && reads_as_block(v.text)) out += triple_quoted_block(v.text);
            else if (std::optional<std::string> raw = raw_str_literal(v.text)) out += *raw;
            else out += str_literal(v.text);
            return;
        case K::Bytes: out += bytes_literal(v.text); return;
        case K::Tuple:
            if (v.items.empty()) {
                out += "()";
                return;
            }
            paren(out, prec != kTuple || v.items.size() == 1, '(');  // (as a tuple display)
            constant_items(v, out);
            if (v.items.size() == 1) out += ',';
            return paren(out, prec != kTuple || v.items.size() == 1, ')');
        case K::FrozenSet:
            if (v.items.empty()) {
                out += "frozenset()";
                return;
            }
            out += "frozenset({";
            constant_items(v, out);
            out += "})";
            return;
        case K::StopIteration: out += "StopIteration"; return;
        case K::Placeholder: out += v.text; return;
        case K::Code: append(out, "__code_", v.code->name); return;
        default: out += value_repr(v); return;
        }
    }

    void constant_items(const PyValue& v, std::string& out) {
        for (size_t i = 0; i < v.items.size(); ++i) {
            if (i) out += ", ";
            constant(*v.items[i], kTest, out);
        }
    }

    static void wrapped(std::string& out, std::string_view text, bool parens) {
        paren(out, parens, '(');
        out += text;
        paren(out, parens, ')');
    }

    // A string inside a replacement field before 3.12, which may hold no backslash: one that only
    // escapes quotes or newlines is written between triple quotes of the kind it does not end with
    // instead (newlines as they are: the f-string around it is triple-quoted then).
    static std::string field_str_literal(const std::string& utf8) {
        std::string lit = str_literal(utf8);
        if (lit.find('\\') == std::string::npos) return lit;
        for (size_t i = 0; i < lit.size(); ++i) {
            if (lit[i] != '\\') continue;
            if (i + 1 == lit.size() || (lit[i + 1] != '\'' && lit[i + 1] != '"' && lit[i + 1] != 'n')) return lit;
            ++i;
        }
        for (const char* q : {"\"\"\"", "'''"})
            if (utf8.find(q) == std::string::npos && utf8.back() != q[0]) return concat(q, utf8, q);
        return lit;
    }

    // f-strings: the quote is chosen so that no nested expression contains it (before 3.12 a
    // replacement field may contain neither the outer quote nor a backslash; a triple quote only
    // ends at three of a kind). From 3.12 on (PEP 701) a field may hold anything.
    std::string fstring(const Expr& e) {
        struct Inside {
            int& n;
            explicit Inside(int& count) : n(count) { ++n; }
            ~Inside() { --n; }
        } inside(in_fstring_);
        std::vector<std::string> exprs;
        collect_fstring_exprs(e, exprs);
        static const char* quotes[] = {"'", "\"", "'''", "\"\"\""};
        for (const char* q : quotes) {
            bool ok = true;
            for (const auto& x : exprs)
                ok &= x.find(q) == std::string::npos && x.find('\\') == std::string::npos && (q[1] || x.find('\n') == std::string::npos);
            if (!ok) continue;
            return concat("f", q, fstring_body(e, q), q);
        }
        if (options_.nested_fstring_quotes) return concat("f'", fstring_body(e, "'"), "'");
        throw Error(Error::Kind::Unsupported, "an f-string whose expressions need both quote kinds");
    }

    void collect_fstring_exprs(const Expr& e, std::vector<std::string>& out) {
        for (const auto& part : e.elts) {
            if (part->kind != ExprKind::FormattedValue) continue;
            out.push_back(expr(*part->value, kTest + 1));
            if (part->format_spec) collect_fstring_exprs(*part->format_spec, out);
        }
    }

    std::string fstring_body(const Expr& e, const char* quote) {
        std::string text;
        for (const auto& part : e.elts) {
            if (part->kind == ExprKind::Constant && part->constant->kind == PyValue::Kind::Str) {
                text += fstring_literal(part->constant->text, quote);
            } else if (part->kind == ExprKind::FormattedValue) {
                std::string inner = expr(*part->value, kTest + 1);
                if (!inner.empty() && inner[0] == '{') inner = " " + inner;
                append(text, "{", inner);
                if (part->conversion > 0) append(text, "!", std::string(1, char(part->conversion)));
                if (part->format_spec) append(text, ":", fstring_body(*part->format_spec, quote));
                text += "}";
            } else {
                throw Error(Error::Kind::Unsupported, "an f-string part that is neither text nor a field");
            }
        }
        return text;
    }

    static std::string fstring_literal(const std::string& utf8, const char* quote) {
        // Reuse the string-literal escaping, then drop its quotes and double the braces.
        std::string lit = str_literal(utf8);
        char used = lit[0];
        std::string body = lit.substr(1, lit.size() - 2);
        std::string out;
        for (size_t i = 0; i < body.size(); ++i) {
            char c = body[i];
            if (c == '\\' && i + 1 < body.size() && body[i + 1] == used) {  // an escaped quote of the literal
                out += used == quote[0] ? concat("\\", std::string(1, used)) : std::string(1, used);
                ++i;
            } else if (c == '\\' && i + 1 < body.size()) {
                out += body.substr(i, 2);
                ++i;
            } else if (c == quote[0]) {
                append(out, "\\", std::string(1, c));
            } else if (c == '{' || c == '}') {
                out += std::string(2, c);
            } else {
                out += c;
            }
        }
        return out;
    }

    void arguments(const Arguments& a, bool annotations, std::string& out) {
        size_t positional = a.posonlyargs.size() + a.args.size();
        size_t first_default = positional - std::min(positional, a.defaults.size());
        size_t index = 0;
        bool first = true;
        auto separate = [&] {
            if (!first) out += ", ";
            first = false;
        };
        auto one = [&](const Arg& arg, const ExprPtr& def) {
            out += arg.name;
            if (annotations && arg.annotation) {
                out += ": ";
                expr(*arg.annotation, kTest, out);
            }
            if (def) {
                out += annotations && arg.annotation ? " = " : "=";
                expr(*def, kTest, out);
            }
        };
        for (const auto& arg : a.posonlyargs) {
            separate();
            one(arg, index >= first_default ? a.defaults[index - first_default] : nullptr);
            ++index;
        }
        if (!a.posonlyargs.empty()) {
            separate();
            out += '/';
        }
        for (const auto& arg : a.args) {
            separate();
            one(arg, index >= first_default ? a.defaults[index - first_default] : nullptr);
            ++index;
        }
        if (a.vararg) {
            separate();
            out += '*';
            one(*a.vararg, nullptr);
        } else if (!a.kwonlyargs.empty()) {
            separate();
            out += '*';
        }
        for (size_t k = 0; k < a.kwonlyargs.size(); ++k) {
            separate();
            one(a.kwonlyargs[k], k < a.kw_defaults.size() ? a.kw_defaults[k] : nullptr);
        }
        if (a.kwarg) {
            separate();
            out += "**";
            one(*a.kwarg, nullptr);
        }
    }

    // ------------------------------------------------------------------ statements
    void body(const Body& stmts, int depth) {
        if (stmts.empty()) return line(depth, "pass");
        for (const auto& s : stmts) stmt(*s, depth);
    }

    // The body of a module, class or function, whose docstring (starts_with_docstring) is written
    // as a triple-quoted block. Definitions are set apart by `blank_lines` empty lines, as PEP 8
    // asks (two in a module, one in a class).
    void scope_body(const Body& stmts, int depth, int blank_lines) {
        if (stmts.empty()) return line(depth, "pass");
        bool after_definition = false;
        for (size_t i = 0; i < stmts.size(); ++i) {
            const Stmt& s = *stmts[i];
            bool definition = s.kind == StmtKind::FunctionDef || s.kind == StmtKind::ClassDef;
            if (i > 0 && (definition || after_definition)) out_.append(size_t(blank_lines), '\n');
            after_definition = definition;
            if (i == 0 && starts_with_docstring(stmts)) {
                indent(depth);
                out_ += docstring_literal(s.value->constant->text, std::string(size_t(depth * options_.indent), ' '),
                                          options_.docstrings_cleaned);
                out_ += '\n';
            } else {
                stmt(s, depth);
            }
        }
    }

    void line(int depth, std::string_view text) {
        indent(depth);
        out_ += text;
        out_ += '\n';
    }

    // Starts a line that the caller writes into out_ and ends with '\n'.
    void indent(int depth) { out_.append(size_t(depth * options_.indent), ' '); }

    // An else-like clause and its body.
    void clause(int depth, const char* head, const Body& stmts) {
        line(depth, head);
        body(stmts, depth + 1);
    }

    void stmt(const Stmt& s, int depth) {
        depth_ = depth;
        std::string& out = out_;
        switch (s.kind) {
        case StmtKind::FunctionDef: {
            decorators(s, depth);
            indent(depth);
            append(out, s.is_async ? "async def " : "def ", s.name);
            type_params(s, out);
            out += '(';
            arguments(*s.args, true, out);
            out += ')';
            if (s.annotation) {
                out += " -> ";
                expr(*s.annotation, kTest, out);
            }
            out += ":\n";
            return scope_body(s.body, depth + 1, 0);
        }
        case StmtKind::ClassDef: {
            decorators(s, depth);
            indent(depth);
            append(out, "class ", s.name);
            type_params(s, out);
            if (!s.bases.empty() || !s.keywords.empty()) {
                out += '(';
                items(s.bases, kTest, out);
                for (size_t i = 0; i < s.keywords.size(); ++i) {
                    if (i || !s.bases.empty()) out += ", ";
                    keyword(s.keywords[i], out);
                }
                out += ')';
            }
            out += ":\n";
            return scope_body(s.body, depth + 1, 1);
        }
        case StmtKind::Return:
            indent(depth);
            out += "return";
            if (s.value) {
                out += ' ';
                expr(*s.value, kTuple, out);
            }
            out += '\n';
            return;
        case StmtKind::Delete:
            indent(depth);
            out += "del ";
            for (size_t i = 0; i < s.targets.size(); ++i) {
                if (i) out += ", ";
                target(*s.targets[i], out);
            }
            out += '\n';
            return;
        case StmtKind::Assign:
            indent(depth);
            for (const auto& t : s.targets) {
                target(*t, out);
                out += " = ";
            }
            expr(*s.value, kTuple, out);
            out += '\n';
            return;
        case StmtKind::AugAssign:
            indent(depth);
            target(*s.target, out);
            append(out, " ", s.name, "= ");
            expr(*s.value, kTuple, out);
            out += '\n';
            return;
        case StmtKind::AnnAssign:
            indent(depth);
            paren(out, !s.simple, '(');
            target(*s.target, out);
            paren(out, !s.simple, ')');
            out += ": ";
            expr(*s.annotation, kTest, out);
            if (s.value) {
                out += " = ";
                expr(*s.value, kTuple, out);
            }
            out += '\n';
            return;
        case StmtKind::For:
            indent(depth);
            out += s.is_async ? "async for " : "for ";
            target(*s.target, out);
            out += " in ";
            expr(*s.iter, is_tuple(*s.iter) ? kTest : kTuple, out);  // (`in (a, b)`, as people write it)
            out += ":\n";
            body(s.body, depth + 1);
            if (!s.orelse.empty()) clause(depth, "else:", s.orelse);
            return;
        case StmtKind::While:
            indent(depth);
            out += "while ";
            expr(*s.test, kNamedExpr + 1, out);
            out += ":\n";
            body(s.body, depth + 1);
            if (!s.orelse.empty()) clause(depth, "else:", s.orelse);
            return;
        case StmtKind::If: return if_chain(s, depth, "if ");
        case StmtKind::With: {
            indent(depth);
            out += s.is_async ? "async with " : "with ";
            for (size_t i = 0; i < s.items.size(); ++i) {
                if (i) out += ", ";
                expr(*s.items[i].context, kTest, out);
                if (s.items[i].target) {  // a tuple target needs its parentheses: `with a as (x, y)`
                    const Expr& t = *s.items[i].target;
                    out += " as ";
                    paren(out, t.kind == ExprKind::Tuple, '(');
                    target(t, out);
                    paren(out, t.kind == ExprKind::Tuple, ')');
                }
            }
            out += ":\n";
            return body(s.body, depth + 1);
        }
        case StmtKind::Raise:
            indent(depth);
            out += "raise";
            if (s.value) {
                out += ' ';
                expr(*s.value, kTest, out);
            }
            if (s.cause) {
                out += " from ";
                expr(*s.cause, kTest, out);
            }
            out += '\n';
            return;
        case StmtKind::Try: {
            clause(depth, "try:", s.body);
            for (const auto& h : s.handlers) {
                indent(depth);
                out += s.is_star ? "except*" : "except";
                if (h.type) {
                    out += ' ';
                    expr(*h.type, kTest, out);
                }
                if (!h.name.empty()) append(out, " as ", h.name);
                out += ":\n";
                body(h.body, depth + 1);
            }
            if (!s.orelse.empty()) clause(depth, "else:", s.orelse);
            if (!s.finalbody.empty()) clause(depth, "finally:", s.finalbody);
            return;
        }
        case StmtKind::Assert:
            indent(depth);
            out += "assert ";
            expr(*s.test, kTest, out);
            if (s.msg) {
                out += ", ";
                expr(*s.msg, kTest, out);
            }
            out += '\n';
            return;
        case StmtKind::Import:
            indent(depth);
            out += "import ";
            aliases(s, out);
            return;
        case StmtKind::ImportFrom:
            indent(depth);
            out += "from ";
            out.append(size_t(s.level), '.');
            append(out, s.name, " import ");
            aliases(s, out);
            return;
        case StmtKind::Global: case StmtKind::Nonlocal:
            indent(depth);
            out += s.kind == StmtKind::Global ? "global " : "nonlocal ";
            for (size_t i = 0; i < s.identifiers.size(); ++i) append(out, i ? ", " : "", s.identifiers[i]);
            out += '\n';
            return;
        case StmtKind::Expr:
            indent(depth);
            expr(*s.value, kYield, out);
            out += '\n';
            return;
        case StmtKind::Pass: return line(depth, "pass");
        case StmtKind::Break: return line(depth, "break");
        case StmtKind::Continue: return line(depth, "continue");
        case StmtKind::TypeAlias:
            indent(depth);
            append(out, "type ", s.name);
            type_params(s, out);
            out += " = ";
            expr(*s.value, kTest, out);
            out += '\n';
            return;
        case StmtKind::Match:
            indent(depth);
            out += "match ";
            expr(*s.value, kNamedExpr, out);
            out += ":\n";
            for (const auto& c : s.cases) {
                indent(depth + 1);
                append(out, "case ", pattern(*c.pattern, false));
                if (c.guard) {
                    out += " if ";
                    expr(*c.guard, kNamedExpr, out);
                }
                out += ":\n";
                body(c.body, depth + 2);
            }
            return;
        }
    }

    void decorators(const Stmt& s, int depth) {
        for (const auto& d : s.decorators) {
            indent(depth);
            out_ += '@';
            expr(*d, kExpr, out_);
            out_ += '\n';
        }
    }

    // An import's names, and the end of its line.
    static void aliases(const Stmt& s, std::string& out) {
        for (size_t i = 0; i < s.aliases.size(); ++i) {
            append(out, i ? ", " : "", s.aliases[i].name);
            if (!s.aliases[i].asname.empty()) append(out, " as ", s.aliases[i].asname);
        }
        out += '\n';
    }

    // ------------------------------------------------------------------ patterns
    // `as` and `|` bind loosest; inside an or-pattern or before `as` they need parentheses.
    std::string pattern(const Pattern& p, bool nested) {
        switch (p.kind) {
        case PatternKind::MatchValue: return expr(*p.value, kTest);
        case PatternKind::MatchSingleton: {
            std::string text;
            constant(*p.constant, kAtom, text);
            return text;
        }
        case PatternKind::MatchSequence: return concat("[", patterns(p.patterns), "]");
        case PatternKind::MatchMapping: {
            std::string text;
            for (size_t i = 0; i < p.keys.size(); ++i)
                append(text, i ? ", " : "", expr(*p.keys[i], kTest), ": ", pattern(*p.patterns[i], false));
            if (!p.name.empty()) append(text, p.keys.empty() ? "" : ", ", "**", p.name);
            return concat("{", text, "}");
        }
        case PatternKind::MatchClass: {
            std::string text = patterns(p.patterns);
            for (size_t i = 0; i < p.kwd_attrs.size(); ++i)
                append(text, text.empty() ? "" : ", ", p.kwd_attrs[i], "=", pattern(*p.kwd_patterns[i], false));
            return concat(expr(*p.cls, kAtom), "(", text, ")");
        }
        case PatternKind::MatchStar: return concat("*", p.name.empty() ? "_" : p.name);
        case PatternKind::MatchAs:
            if (!p.pattern) return p.name.empty() ? "_" : p.name;
            return wrap(concat(pattern(*p.pattern, true), " as ", p.name), nested);
        case PatternKind::MatchOr: {
            std::string text;
            for (size_t i = 0; i < p.patterns.size(); ++i) append(text, i ? " | " : "", pattern(*p.patterns[i], true));
            return wrap(text, nested);
        }
        }
        return "_";
    }

    std::string patterns(const std::vector<PatternPtr>& ps) {
        std::string text;
        for (size_t i = 0; i < ps.size(); ++i) append(text, i ? ", " : "", pattern(*ps[i], false));
        return text;
    }

    void if_chain(const Stmt& s, int depth, const char* keyword) {
        indent(depth);
        out_ += keyword;
        expr(*s.test, kNamedExpr + 1, out_);
        out_ += ":\n";
        body(s.body, depth + 1);
        if (s.orelse.size() == 1 && s.orelse[0]->kind == StmtKind::If) return if_chain(*s.orelse[0], depth, "elif ");
        if (!s.orelse.empty()) clause(depth, "else:", s.orelse);
    }

    void type_params(const Stmt& s, std::string& out) {
        if (s.type_params.empty()) return;
        out += '[';
        for (size_t i = 0; i < s.type_params.size(); ++i) {
            const TypeParam& p = s.type_params[i];
            out += i ? ", " : "";
            out += p.kind == TypeParamKind::ParamSpec ? "**" : p.kind == TypeParamKind::TypeVarTuple ? "*" : "";
            out += p.name;
            if (p.bound) {
                out += ": ";
                expr(*p.bound, kTest, out);
            }
            if (p.default_value) {
                out += " = ";
                expr(*p.default_value, kTest, out);
            }
        }
        out += ']';
    }

    std::string take() { return std::move(out_); }

private:
    PrintOptions options_;
    std::string out_;
    int depth_ = 0;       // of the statement being printed (for lines broken inside brackets)
    int in_fstring_ = 0;  // f-strings being printed around the expression
    std::string scratch_;  // try_expr's text, dropped (kept for its capacity)
};

}  // namespace

std::string print_module(const Body& body, const PrintOptions& options) {
    Printer p(options);
    if (!body.empty()) p.scope_body(body, 0, 2);
    return p.take();
}

std::string print_expression(const Expr& e, const PrintOptions& options) { return Printer(options).expr(e, kTest); }

namespace {

// Constants whose spelling can fail: complex numbers, also inside constant tuples and frozensets.
bool may_be_unprintable(const PyValue& v) {
    using K = PyValue::Kind;
    return v.kind == K::Complex || v.kind == K::Tuple || v.kind == K::FrozenSet;
}

// The nodes whose spelling can fail (see Printer::constant and Printer::fstring), tried on their
// own; an f-string is tried whole (its fields with it), so its children are not walked again.
void check_printable(Printer& p, const ExprPtr& e) {
    if (e->kind == ExprKind::JoinedStr) {
        p.try_expr(*e);
        return;
    }
    if (e->kind == ExprKind::Constant && may_be_unprintable(*e->constant)) p.try_expr(*e);
    for_each_child_slot(*e, [&](const ExprPtr& c) { check_printable(p, c); });
}

void check_printable(Printer& p, const Body& body) {
    for (const auto& s : body) {
        for_each_own_expr(*s, [&](const ExprPtr& e) { check_printable(p, e); });
        // A def's or class's own body was checked when it was decompiled.
        if (s->kind != StmtKind::FunctionDef && s->kind != StmtKind::ClassDef) check_printable(p, s->body);
        check_printable(p, s->orelse);
        check_printable(p, s->finalbody);
        for (const auto& h : s->handlers) check_printable(p, h.body);
        for (const auto& c : s->cases) check_printable(p, c.body);
    }
}

}  // namespace

std::optional<std::string> unprintable_reason(const Body& body, const PrintOptions& options) {
    Printer p(options);
    try {
        check_printable(p, body);
    } catch (const Error& e) {
        if (e.kind() != Error::Kind::Unsupported) throw;
        return std::string(e.what());
    }
    return std::nullopt;
}

}  // namespace uncompile::ast

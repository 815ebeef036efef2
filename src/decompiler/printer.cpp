#include "printer.h"

#include <cmath>
#include <map>

#include "core/code_object.h"
#include "core/concat.h"
#include "core/error.h"
#include "core/text_encoding.h"
#include "core/value_format.h"

namespace uncompile::ast {

namespace {

// Binding strength, weakest first (Lib/ast.py's _Precedence has the same order).
enum Prec : int {
    kNamedExpr, kTuple, kYield, kTest, kOr, kAnd, kNot, kCmp, kExpr, kBor, kBxor, kBand, kShift, kArith, kTerm,
    kFactor, kPower, kAwait, kAtom
};

int binop_precedence(const std::string& op) {
    static const std::map<std::string, int> table = {
        {"|", kBor}, {"^", kBxor}, {"&", kBand}, {"<<", kShift}, {">>", kShift}, {"+", kArith}, {"-", kArith},
        {"*", kTerm}, {"@", kTerm}, {"/", kTerm}, {"//", kTerm}, {"%", kTerm}, {"**", kPower},
    };
    auto it = table.find(op);
    return it == table.end() ? kTerm : it->second;
}

std::string wrap(const std::string& text, bool parens) { return parens ? concat("(", text, ")") : text; }

class Printer {
public:
    explicit Printer(PrintOptions options) : options_(options) {}

    // ------------------------------------------------------------------ expressions
    std::string expr(const Expr& e, int prec) {
        switch (e.kind) {
        case ExprKind::Name: return e.id;
        case ExprKind::Constant: return constant(*e.constant, prec);
        case ExprKind::Attribute: {
            std::string base = expr(*e.value, kAtom);
            // `1.real` would read as a float literal.
            if (e.value->kind == ExprKind::Constant && e.value->constant->kind == PyValue::Kind::Int && base[0] != '(')
                base = concat("(", base, ")");
            return concat(base, ".", e.id);
        }
        case ExprKind::Subscript: return concat(expr(*e.value, kAtom), "[", subscript_index(*e.index), "]");
        case ExprKind::Slice: return slice(e);
        case ExprKind::Starred: return concat("*", expr(*e.value, kExpr));
        case ExprKind::Call: return call(e);
        case ExprKind::BinOp: {
            int p = binop_precedence(e.id);
            bool right_assoc = e.id == "**";
            std::string text = concat(expr(*e.left, right_assoc ? p + 1 : p), " ", e.id, " ",
                                      expr(*e.right, right_assoc ? p : p + 1));
            return wrap(text, prec > p);
        }
        case ExprKind::UnaryOp: {
            if (e.id == "not") return wrap(concat("not ", expr(*e.value, kNot)), prec > kNot);
            return wrap(concat(e.id, expr(*e.value, kFactor)), prec > kFactor);
        }
        case ExprKind::BoolOp: {
            int p = e.id == "and" ? kAnd : kOr;
            std::string text;
            for (size_t i = 0; i < e.elts.size(); ++i) append(text, i ? concat(" ", e.id, " ") : "", expr(*e.elts[i], p + 1));
            return wrap(text, prec > p);
        }
        case ExprKind::Compare: {
            std::string text = expr(*e.left, kCmp + 1);
            for (size_t i = 0; i < e.ops.size(); ++i) append(text, " ", e.ops[i], " ", expr(*e.elts[i], kCmp + 1));
            return wrap(text, prec > kCmp);
        }
        case ExprKind::IfExp:
            return wrap(concat(expr(*e.body, kTest + 1), " if ", expr(*e.test, kTest + 1), " else ", expr(*e.orelse, kTest)),
                        prec > kTest);
        case ExprKind::NamedExpr: return concat("(", expr(*e.left, kAtom), " := ", expr(*e.value, kTest), ")");
        case ExprKind::Lambda: {
            std::string args = arguments(*e.args, false);
            return wrap(concat("lambda", args.empty() ? "" : " ", args, ": ", expr(*e.value, kTest)), prec > kTest);
        }
        case ExprKind::Tuple: {
            if (e.elts.empty()) return "()";
            std::string text = items(e.elts, kTest);
            if (e.elts.size() == 1) text += ",";
            return concat("(", text, ")");
        }
        case ExprKind::List: return concat("[", items(e.elts, kTest), "]");
        case ExprKind::Set: return e.elts.empty() ? std::string("{*()}") : concat("{", items(e.elts, kTest), "}");
        case ExprKind::Dict: {
            std::string text;
            for (size_t i = 0; i < e.values.size(); ++i) {
                if (i) text += ", ";
                if (!e.elts[i]) append(text, "**", expr(*e.values[i], kExpr));
                else append(text, expr(*e.elts[i], kTest), ": ", expr(*e.values[i], kTest));
            }
            return concat("{", text, "}");
        }
        case ExprKind::ListComp: return concat("[", expr(*e.elt, kTest), generators(e), "]");
        case ExprKind::SetComp: return concat("{", expr(*e.elt, kTest), generators(e), "}");
        case ExprKind::DictComp: return concat("{", expr(*e.elt, kTest), ": ", expr(*e.value, kTest), generators(e), "}");
        case ExprKind::GeneratorExp: return concat("(", expr(*e.elt, kTest), generators(e), ")");
        case ExprKind::Await: return wrap(concat("await ", expr(*e.value, kAtom)), prec > kAwait);
        // A yield needs no parentheses only as a statement of its own (the one place asking kYield).
        case ExprKind::Yield: return wrap(e.value ? concat("yield ", expr(*e.value, kTuple)) : "yield", prec != kYield);
        case ExprKind::YieldFrom: return wrap(concat("yield from ", expr(*e.value, kTest)), prec != kYield);
        case ExprKind::JoinedStr: return fstring(e);
        case ExprKind::FormattedValue: {
            auto js = std::make_shared<Expr>();
            js->kind = ExprKind::JoinedStr;
            js->elts.push_back(std::make_shared<Expr>(e));
            return fstring(*js);
        }
        }
        return "?";
    }

    std::string items(const std::vector<ExprPtr>& list, int prec) {
        std::string text;
        for (size_t i = 0; i < list.size(); ++i) {
            if (i) text += ", ";
            text += expr(*list[i], prec);
        }
        return text;
    }

    std::string subscript_index(const Expr& index) {
        if (index.kind == ExprKind::Tuple && !index.elts.empty()) {
            bool has_starred = false;
            for (const auto& x : index.elts) has_starred |= x->kind == ExprKind::Starred;
            if (!has_starred) {
                std::string text;
                for (size_t i = 0; i < index.elts.size(); ++i) {
                    const Expr& x = *index.elts[i];
                    append(text, i ? ", " : "", x.kind == ExprKind::Slice ? slice(x) : expr(x, kTest));
                }
                return index.elts.size() == 1 ? text + "," : text;
            }
        }
        return index.kind == ExprKind::Slice ? slice(index) : expr(index, kTuple);
    }

    std::string slice(const Expr& s) {
        std::string text = concat(s.lower ? expr(*s.lower, kTest) : "", ":", s.upper ? expr(*s.upper, kTest) : "");
        if (s.step) append(text, ":", expr(*s.step, kTest));
        return text;
    }

    std::string call(const Expr& e) {
        std::string text = expr(*e.value, kAtom);
        if (e.elts.size() == 1 && e.keywords.empty() && e.elts[0]->kind == ExprKind::GeneratorExp)
            return concat(text, expr(*e.elts[0], kTest));
        text += "(";
        bool first = true;
        auto argument = [&](const std::string& part) {
            if (!first) text += ", ";
            text += part;
            first = false;
        };
        for (const auto& a : e.elts) argument(expr(*a, kTest));
        for (const auto& k : e.keywords)
            argument(k.arg ? concat(*k.arg, "=", expr(*k.value, kTest)) : concat("**", expr(*k.value, kExpr)));
        text += ")";
        return text;
    }

    std::string generators(const Expr& e) {
        std::string text;
        for (const auto& g : e.generators) {
            append(text, g.is_async ? " async for " : " for ", target(*g.target), " in ", expr(*g.iter, kTest + 1));
            for (size_t k = 0; k < g.ifs.size(); ++k) {
                // (Inside brackets a line may break; not inside an f-string's braces.)
                bool own_line = k < g.ifs_on_own_line.size() && g.ifs_on_own_line[k] && in_fstring_ == 0;
                append(text, own_line ? concat("\n", std::string(size_t((depth_ + 1) * options_.indent), ' '), "if ") : " if ",
                               expr(*g.ifs[k], kTest + 1));
            }
        }
        return text;
    }

    // Assignment and loop targets: tuples without parentheses read as people write them.
    std::string target(const Expr& t) {
        if (t.kind == ExprKind::Tuple && !t.elts.empty()) {
            std::string text = items(t.elts, kTest);
            return t.elts.size() == 1 ? text + "," : text;
        }
        return expr(t, kTest);
    }

    std::string constant(const PyValue& v, int prec) {
        using K = PyValue::Kind;
        switch (v.kind) {
        case K::None: return "None";
        case K::True: return "True";
        case K::False: return "False";
        case K::Ellipsis: return "...";
        case K::Int: {
            std::string text = int_text(v);
            return wrap(text, text[0] == '-' && prec > kFactor);
        }
        case K::Float: {
            if (std::isnan(v.real)) return wrap("1e309 - 1e309", prec > kArith);
            if (std::isinf(v.real)) return wrap(v.real < 0 ? "-1e309" : "1e309", v.real < 0 && prec > kFactor);
            std::string text = float_repr(v.real);
            return wrap(text, text[0] == '-' && prec > kFactor);
        }
        case K::Complex: {
            if (std::isnan(v.real) || std::isnan(v.imag) || std::isinf(v.real) || std::isinf(v.imag))
                throw Error(Error::Kind::Unsupported, "a complex constant with inf or nan parts");
            std::optional<std::string> text = complex_source(v.real, v.imag);
            if (!text) throw Error(Error::Kind::Unsupported, "a complex constant with signed zero parts that no literal gives");
            return wrap(*text, (*text)[0] == '-' && prec > kFactor);
        }
        case K::Str: return in_fstring_ && !options_.nested_fstring_quotes ? field_str_literal(v.text) : str_literal(v.text);
        case K::Bytes: return bytes_literal(v.text);
        case K::Tuple: {
            if (v.items.empty()) return "()";
            std::string text;
            for (size_t i = 0; i < v.items.size(); ++i) append(text, i ? ", " : "", constant(*v.items[i], kTest));
            return concat("(", text, v.items.size() == 1 ? ",)" : ")");
        }
        case K::FrozenSet: {
            std::string text;
            for (size_t i = 0; i < v.items.size(); ++i) append(text, i ? ", " : "", constant(*v.items[i], kTest));
            return v.items.empty() ? std::string("frozenset()") : concat("frozenset({", text, "})");
        }
        case K::StopIteration: return "StopIteration";
        case K::Placeholder: return v.text;
        case K::Code: return concat("__code_", v.code->name);
        default: return value_repr(v);
        }
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

    std::string arguments(const Arguments& a, bool annotations) {
        std::vector<std::string> parts;
        size_t positional = a.posonlyargs.size() + a.args.size();
        size_t first_default = positional - std::min(positional, a.defaults.size());
        size_t index = 0;
        auto one = [&](const Arg& arg, const ExprPtr& def) {
            std::string text = arg.name;
            if (annotations && arg.annotation) append(text, ": ", expr(*arg.annotation, kTest));
            if (def) append(text, annotations && arg.annotation ? " = " : "=", expr(*def, kTest));
            return text;
        };
        for (const auto& arg : a.posonlyargs) {
            parts.push_back(one(arg, index >= first_default ? a.defaults[index - first_default] : nullptr));
            ++index;
        }
        if (!a.posonlyargs.empty()) parts.push_back("/");
        for (const auto& arg : a.args) {
            parts.push_back(one(arg, index >= first_default ? a.defaults[index - first_default] : nullptr));
            ++index;
        }
        if (a.vararg) parts.push_back(concat("*", one(*a.vararg, nullptr)));
        else if (!a.kwonlyargs.empty()) parts.push_back("*");
        for (size_t k = 0; k < a.kwonlyargs.size(); ++k)
            parts.push_back(one(a.kwonlyargs[k], k < a.kw_defaults.size() ? a.kw_defaults[k] : nullptr));
        if (a.kwarg) parts.push_back(concat("**", one(*a.kwarg, nullptr)));
        std::string text;
        for (size_t i = 0; i < parts.size(); ++i) append(text, i ? ", " : "", parts[i]);
        return text;
    }

    // ------------------------------------------------------------------ statements
    void body(const Body& stmts, int depth) {
        if (stmts.empty()) return line(depth, "pass");
        for (const auto& s : stmts) stmt(*s, depth);
    }

    void line(int depth, const std::string& text) {
        out_.append(size_t(depth * options_.indent), ' ');
        out_ += text;
        out_ += '\n';
    }

    void stmt(const Stmt& s, int depth) {
        depth_ = depth;
        switch (s.kind) {
        case StmtKind::FunctionDef: {
            for (const auto& d : s.decorators) line(depth, concat("@", expr(*d, kExpr)));
            std::string head = concat(s.is_async ? "async def " : "def ", s.name, type_params(s), "(",
                                      arguments(*s.args, true), ")");
            if (s.annotation) append(head, " -> ", expr(*s.annotation, kTest));
            line(depth, head + ":");
            return body(s.body, depth + 1);
        }
        case StmtKind::ClassDef: {
            for (const auto& d : s.decorators) line(depth, concat("@", expr(*d, kExpr)));
            std::vector<std::string> parts;
            for (const auto& b : s.bases) parts.push_back(expr(*b, kTest));
            for (const auto& k : s.keywords)
                parts.push_back(k.arg ? concat(*k.arg, "=", expr(*k.value, kTest)) : concat("**", expr(*k.value, kExpr)));
            std::string head = concat("class ", s.name, type_params(s));
            if (!parts.empty()) {
                head += "(";
                for (size_t i = 0; i < parts.size(); ++i) append(head, i ? ", " : "", parts[i]);
                head += ")";
            }
            line(depth, head + ":");
            return body(s.body, depth + 1);
        }
        case StmtKind::Return: return line(depth, s.value ? concat("return ", expr(*s.value, kTuple)) : "return");
        case StmtKind::Delete: {
            std::string text = "del ";
            for (size_t i = 0; i < s.targets.size(); ++i) append(text, i ? ", " : "", target(*s.targets[i]));
            return line(depth, text);
        }
        case StmtKind::Assign: {
            std::string text;
            for (const auto& t : s.targets) append(text, target(*t), " = ");
            return line(depth, text + expr(*s.value, kTuple));
        }
        case StmtKind::AugAssign:
            return line(depth, concat(target(*s.target), " ", s.name, "= ", expr(*s.value, kTuple)));
        case StmtKind::AnnAssign: {
            std::string t = s.simple ? target(*s.target) : concat("(", target(*s.target), ")");
            std::string text = concat(t, ": ", expr(*s.annotation, kTest));
            if (s.value) append(text, " = ", expr(*s.value, kTuple));
            return line(depth, text);
        }
        case StmtKind::For:
            line(depth, concat(s.is_async ? "async for " : "for ", target(*s.target), " in ", expr(*s.iter, kTuple), ":"));
            body(s.body, depth + 1);
            if (!s.orelse.empty()) {
                line(depth, "else:");
                body(s.orelse, depth + 1);
            }
            return;
        case StmtKind::While:
            line(depth, concat("while ", expr(*s.test, kNamedExpr + 1), ":"));
            body(s.body, depth + 1);
            if (!s.orelse.empty()) {
                line(depth, "else:");
                body(s.orelse, depth + 1);
            }
            return;
        case StmtKind::If: return if_chain(s, depth, "if ");
        case StmtKind::With: {
            std::string text = s.is_async ? "async with " : "with ";
            for (size_t i = 0; i < s.items.size(); ++i) {
                append(text, i ? ", " : "", expr(*s.items[i].context, kTest));
                if (s.items[i].target) {  // a tuple target needs its parentheses: `with a as (x, y)`
                    const Expr& t = *s.items[i].target;
                    append(text, " as ", t.kind == ExprKind::Tuple ? concat("(", target(t), ")") : target(t));
                }
            }
            line(depth, text + ":");
            return body(s.body, depth + 1);
        }
        case StmtKind::Raise: {
            std::string text = "raise";
            if (s.value) append(text, " ", expr(*s.value, kTest));
            if (s.cause) append(text, " from ", expr(*s.cause, kTest));
            return line(depth, text);
        }
        case StmtKind::Try: {
            line(depth, "try:");
            body(s.body, depth + 1);
            for (const auto& h : s.handlers) {
                std::string text = s.is_star ? "except*" : "except";
                if (h.type) append(text, " ", expr(*h.type, kTest));
                if (!h.name.empty()) append(text, " as ", h.name);
                line(depth, text + ":");
                body(h.body, depth + 1);
            }
            if (!s.orelse.empty()) {
                line(depth, "else:");
                body(s.orelse, depth + 1);
            }
            if (!s.finalbody.empty()) {
                line(depth, "finally:");
                body(s.finalbody, depth + 1);
            }
            return;
        }
        case StmtKind::Assert:
            return line(depth, concat("assert ", expr(*s.test, kTest), s.msg ? concat(", ", expr(*s.msg, kTest)) : ""));
        case StmtKind::Import: {
            std::string text = "import ";
            for (size_t i = 0; i < s.aliases.size(); ++i)
                append(text, i ? ", " : "", s.aliases[i].name, s.aliases[i].asname.empty() ? "" : concat(" as ", s.aliases[i].asname));
            return line(depth, text);
        }
        case StmtKind::ImportFrom: {
            std::string text = concat("from ", std::string(size_t(s.level), '.'), s.name, " import ");
            for (size_t i = 0; i < s.aliases.size(); ++i)
                append(text, i ? ", " : "", s.aliases[i].name, s.aliases[i].asname.empty() ? "" : concat(" as ", s.aliases[i].asname));
            return line(depth, text);
        }
        case StmtKind::Global: case StmtKind::Nonlocal: {
            std::string text = s.kind == StmtKind::Global ? "global " : "nonlocal ";
            for (size_t i = 0; i < s.identifiers.size(); ++i) append(text, i ? ", " : "", s.identifiers[i]);
            return line(depth, text);
        }
        case StmtKind::Expr: return line(depth, expr(*s.value, kYield));
        case StmtKind::Pass: return line(depth, "pass");
        case StmtKind::Break: return line(depth, "break");
        case StmtKind::Continue: return line(depth, "continue");
        case StmtKind::TypeAlias: return line(depth, concat("type ", s.name, type_params(s), " = ", expr(*s.value, kTest)));
        case StmtKind::Match:
            line(depth, concat("match ", expr(*s.value, kNamedExpr), ":"));
            for (const auto& c : s.cases) {
                std::string head = concat("case ", pattern(*c.pattern, false));
                if (c.guard) append(head, " if ", expr(*c.guard, kNamedExpr));
                line(depth + 1, head + ":");
                body(c.body, depth + 2);
            }
            return;
        }
    }

    // ------------------------------------------------------------------ patterns
    // `as` and `|` bind loosest; inside an or-pattern or before `as` they need parentheses.
    std::string pattern(const Pattern& p, bool nested) {
        switch (p.kind) {
        case PatternKind::MatchValue: return expr(*p.value, kTest);
        case PatternKind::MatchSingleton: return constant(*p.constant, kAtom);
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
        line(depth, concat(keyword, expr(*s.test, kNamedExpr + 1), ":"));
        body(s.body, depth + 1);
        if (s.orelse.size() == 1 && s.orelse[0]->kind == StmtKind::If) return if_chain(*s.orelse[0], depth, "elif ");
        if (!s.orelse.empty()) {
            line(depth, "else:");
            body(s.orelse, depth + 1);
        }
    }

    std::string type_params(const Stmt& s) {
        if (s.type_params.empty()) return "";
        std::string text = "[";
        for (size_t i = 0; i < s.type_params.size(); ++i) {
            const TypeParam& p = s.type_params[i];
            text += i ? ", " : "";
            text += p.kind == TypeParamKind::ParamSpec ? "**" : p.kind == TypeParamKind::TypeVarTuple ? "*" : "";
            text += p.name;
            if (p.bound) append(text, ": ", expr(*p.bound, kTest));
            if (p.default_value) append(text, " = ", expr(*p.default_value, kTest));
        }
        return text + "]";
    }

    std::string take() { return std::move(out_); }

private:
    PrintOptions options_;
    std::string out_;
    int depth_ = 0;       // of the statement being printed (for lines broken inside brackets)
    int in_fstring_ = 0;  // f-strings being printed around the expression
};

}  // namespace

std::string print_module(const Body& body, const PrintOptions& options) {
    Printer p(options);
    for (const auto& s : body) p.stmt(*s, 0);
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
        p.expr(*e, kTest);
        return;
    }
    if (e->kind == ExprKind::Constant && may_be_unprintable(*e->constant)) p.expr(*e, kTest);
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

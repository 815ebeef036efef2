#include "type_params.h"

#include "core/error.h"
#include "core/instruction.h"

namespace uncompile {

using namespace ast;

namespace {

[[noreturn]] void unsupported(const std::string& what) { throw Error(Error::Kind::Unsupported, what); }

bool is_name(const ExprPtr& e, const char* id) { return e && e->kind == ExprKind::Name && e->id == id; }

bool is_assign_to(const Stmt& s, const char* name) {
    return s.kind == StmtKind::Assign && s.targets.size() == 1 && is_name(s.targets[0], name);
}

}  // namespace

bool type_param_op(const std::string& intrinsic, NeutralOp& op) {
    struct Row {
        const char* intrinsic;
        N kind;
        TypeParamKind param;
        const char* with;
    };
    static const Row rows[] = {
        {"INTRINSIC_TYPEVAR", N::TypeParam, TypeParamKind::TypeVar, ""},
        {"INTRINSIC_PARAMSPEC", N::TypeParam, TypeParamKind::ParamSpec, ""},
        {"INTRINSIC_TYPEVARTUPLE", N::TypeParam, TypeParamKind::TypeVarTuple, ""},
        {"INTRINSIC_TYPEVAR_WITH_BOUND", N::TypeParam, TypeParamKind::TypeVar, "bound"},
        {"INTRINSIC_TYPEVAR_WITH_CONSTRAINTS", N::TypeParam, TypeParamKind::TypeVar, "constraints"},
        {"INTRINSIC_SET_TYPEPARAM_DEFAULT", N::TypeParamDefault, TypeParamKind::TypeVar, ""},
        {"INTRINSIC_SET_FUNCTION_TYPE_PARAMS", N::SetFunctionTypeParams, TypeParamKind::TypeVar, ""},
        {"INTRINSIC_SUBSCRIPT_GENERIC", N::GenericBase, TypeParamKind::TypeVar, ""},
    };
    for (const Row& row : rows) {
        if (intrinsic != row.intrinsic) continue;
        op.kind = row.kind;
        op.arg = int64_t(row.param);
        op.name = row.with;
        return true;
    }
    return false;
}

std::string generic_subject(const CodeObject& code) {
    static const std::string prefix = "<generic parameters of ";
    const std::string& n = code.name;
    if (n.size() <= prefix.size() + 1 || n.compare(0, prefix.size(), prefix) != 0 || n.back() != '>') return "";
    return n.substr(prefix.size(), n.size() - prefix.size() - 1);
}

GenericScope read_generic_scope(const Body& body) {
    GenericScope scope;
    size_t k = 0;
    if (k < body.size() && is_assign_to(*body[k], ".type_params")) scope.type_params = body[k++]->value;
    if (scope.type_params && k < body.size() && is_assign_to(*body[k], ".generic_base")) scope.generic_base = body[k++]->value;
    if (k + 1 != body.size() || body[k]->kind != StmtKind::Return || !body[k]->value)
        unsupported("generic parameters of unusual bytecode");
    scope.result = body[k]->value;
    return scope;
}

void strip_generic_class(Stmt& cls) {
    if (cls.bases.empty() || !is_name(cls.bases.back(), ".generic_base")) unsupported("a generic class of unusual bytecode");
    cls.bases.pop_back();
}

bool is_type_params_store(const Stmt& s) { return is_assign_to(s, "__type_params__") && is_name(s.value, ".type_params"); }

bool makes_generic_function(const CodeObject& wrapper, const OpcodeTable& table) {
    for (const Instruction& i : decode_instructions(wrapper, table))
        if (i.op == Opcode::CALL_INTRINSIC_2 && size_t(i.arg) < table.intrinsic_2.size() &&
            table.intrinsic_2[size_t(i.arg)] == "INTRINSIC_SET_FUNCTION_TYPE_PARAMS")
            return true;
    return false;
}

void check_type_param_bound(const TypeParam& p, bool constraints) {
    bool tuple = p.bound->kind == ExprKind::Tuple ||
                 (p.bound->kind == ExprKind::Constant && p.bound->constant && p.bound->constant->kind == PyValue::Kind::Tuple);
    // The parser makes constraints of a bound written as a tuple, and only of one.
    if (p.kind != TypeParamKind::TypeVar || tuple != constraints) unsupported("a type parameter bound of unusual bytecode");
}

}  // namespace uncompile

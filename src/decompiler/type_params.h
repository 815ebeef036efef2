#pragma once
// Type parameters (PEP 695, 3.12+; defaults PEP 696, 3.13+). The compiler wraps a generic
// definition in a function of its own, `<generic parameters of X>`, called right away (with the
// function's default values as arguments) where the definition stands:
//   def f[T: B = D](x=1) -> T: ...     <generic parameters of f>((1,))
//     T = TypeVar('T') with its bound and default computed lazily (code objects of their own),
//     the function made with annotations that read T, and given __type_params__ = (T,)
//   class C[T](Base): ...              .type_params = (T,); the class built with the bases and a
//                                      last Generic[T] base (.generic_base); its body starts with
//                                      __type_params__ = .type_params
//   type A[T] = v                      the type alias made with its type parameter tuple
// normalize turns the intrinsics into neutral ops (type_param_op); the structurer decompiles the
// wrapper's code like any function's and reads the definition back from its statements
// (read_generic_scope) when its call is seen.
#include <string>

#include "ast.h"
#include "core/code_object.h"
#include "core/opcode_table.h"
#include "neutral_op.h"

namespace uncompile {

// The neutral op of a CALL_INTRINSIC_1/2 about type parameters (by its name in the opcode table),
// written into `op`; false for any other intrinsic.
bool type_param_op(const std::string& intrinsic, NeutralOp& op);

// The X of a `<generic parameters of X>` code object; empty for any other code object.
std::string generic_subject(const CodeObject& code);

// What a generic wrapper's statements say: the type parameter tuple stored as `.type_params` and
// the Generic[...] base stored as `.generic_base` (a class's; null otherwise), and the value it returns.
struct GenericScope {
    ast::ExprPtr type_params, generic_base, result;
};
GenericScope read_generic_scope(const ast::Body& body);

// A generic class as built inside its wrapper: drops the `.generic_base` base (the last of its
// positional bases); refuses any other shape. (Its body's `__type_params__ = .type_params`, which
// no source can write, goes with the other stores the compiler adds to every class body.)
void strip_generic_class(ast::Stmt& cls);

// `__type_params__ = .type_params`, which a generic class's body starts with.
bool is_type_params_store(const ast::Stmt& s);

// Whether a `<generic parameters of X>` code object makes a function (not a class or a type alias).
bool makes_generic_function(const CodeObject& wrapper, const OpcodeTable& table);

// A bound (constraints: a tuple of them) as the source writes it; refuses what no source compiles to.
void check_type_param_bound(const ast::TypeParam& p, bool constraints);

}  // namespace uncompile

#include "ast.h"

#include "core/node_allocator.h"

namespace uncompile::ast {

ExprPtr make_expr(ExprKind kind) {
    static thread_local uint64_t next_serial = 0;
    auto e = std::allocate_shared<Expr>(NodeAllocator<Expr>());
    e->kind = kind;
    e->serial = ++next_serial;
    return e;
}

ExprPtr make_name(std::string id) {
    auto e = make_expr(ExprKind::Name);
    e->id = std::move(id);
    return e;
}

ExprPtr make_constant(ObjectRef value) {
    auto e = make_expr(ExprKind::Constant);
    e->constant = std::move(value);
    return e;
}

StmtPtr make_stmt(StmtKind kind) {
    auto s = std::allocate_shared<Stmt>(NodeAllocator<Stmt>());
    s->kind = kind;
    return s;
}

}  // namespace uncompile::ast

#include "ast.h"

#include "core/node_allocator.h"

namespace uncompile::ast {

namespace {
thread_local uint64_t last_serial = 0;  // the creation serial given last (see Expr::serial)
}  // namespace

ExprPtr make_expr(ExprKind kind) {
    auto e = std::allocate_shared<Expr>(NodeAllocator<Expr>());
    e->kind = kind;
    e->serial = ++last_serial;
    return e;
}

uint64_t reserve_serials(uint64_t n) {
    uint64_t first = last_serial + 1;
    last_serial += n;
    return first;
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

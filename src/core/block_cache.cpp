// The global operator new and delete of everything linked with the core (the CLI, the Python
// extension, the test and bench drivers): small freed blocks are kept per thread, by size, for the
// next allocation of that size, instead of going back to malloc. Decompiling one function makes and
// drops thousands of small vectors and strings; glibc keeps only 7 freed blocks per size in its
// per-thread cache, so most of them went through its slower paths (a sixth of all instructions).
//
// Every block stays a plain malloc block, so it does not matter which operator new made a block or
// which operator delete (or free) ends it: libstdc++'s own code, compiled outside this library,
// still uses its own operator new and delete, and may free a block made here or hand one here to
// free. The size class of a freed block is read from malloc itself (malloc_usable_size), so a block
// from anywhere is filed under a size it can hold. The Python extension links the core with its
// symbols hidden (CMakeLists.txt): these serve the extension only, never the interpreter, torch or
// another library in the process. (In the CLI, a program of its own, they are the process's.)
//
// Sanitizer builds keep malloc and free for every block, so a use after free is still caught.
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define UNCOMPILE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  // (clang's spelling)
#define UNCOMPILE_UNDER_ASAN 1
#endif
#endif

#if !defined(UNCOMPILE_UNDER_ASAN) && !defined(UNCOMPILE_NO_BLOCK_CACHE) && defined(__GLIBC__)
#define UNCOMPILE_BLOCK_CACHE 1
#include <malloc.h>
#endif

#ifdef UNCOMPILE_BLOCK_CACHE
namespace {

constexpr size_t kGranule = 16;
constexpr size_t kClasses = 32;                  // blocks of up to 512 bytes are kept
constexpr size_t kMaxKeptBytes = size_t(1) << 20;  // per thread; beyond it, blocks go back to malloc

struct FreeBlock {
    FreeBlock* next;
};

// Trivial, so reaching it costs no lazy-initialization check; its blocks go back to malloc when
// the thread ends (BlockReaper, registered by the first block kept).
struct BlockCache {
    FreeBlock* heads[kClasses + 1];
    size_t kept_bytes;
    bool reaper_registered;
    bool torn_down;  // this thread's cache was emptied at its end: later frees go to malloc
};
constinit thread_local BlockCache cache{};

struct BlockReaper {
    ~BlockReaper() {
        cache.torn_down = true;
        cache.reaper_registered = false;  // (so a later free asks register_reaper, which refuses)
        for (FreeBlock*& head : cache.heads)
            while (head) {
                FreeBlock* b = head;
                head = b->next;
                std::free(b);
            }
        cache.kept_bytes = 0;
    }
};
thread_local BlockReaper reaper;

inline void* allocate(size_t size) noexcept {
    size_t cls = size == 0 ? 1 : (size + kGranule - 1) / kGranule;
    if (cls <= kClasses) {
        BlockCache& c = cache;
        if (FreeBlock* b = c.heads[cls]) {
            c.heads[cls] = b->next;
            c.kept_bytes -= cls * kGranule;
            return b;
        }
        return std::malloc(cls * kGranule);  // the whole class, so the block can serve any size of it
    }
    return std::malloc(size);
}

[[gnu::noinline]] bool register_reaper(BlockCache& c) noexcept {
    if (c.torn_down) return false;
    (void)&reaper;  // its first use on this thread registers its destructor
    c.reaper_registered = true;
    return true;
}

inline void release(void* p) noexcept {
    if (!p) return;
    // A block holds at least usable/granule granules: it may serve any request of that class.
    size_t cls = malloc_usable_size(p) / kGranule;
    if (cls >= 1 && cls <= kClasses) {
        BlockCache& c = cache;
        if (c.kept_bytes + cls * kGranule <= kMaxKeptBytes && (c.reaper_registered || register_reaper(c))) {
            auto* b = static_cast<FreeBlock*>(p);
            b->next = c.heads[cls];
            c.heads[cls] = b;
            c.kept_bytes += cls * kGranule;
            return;
        }
    }
    std::free(p);
}

// What operator new does when malloc has no memory: the new-handler loop, then bad_alloc.
[[gnu::noinline]] void* allocate_after_failure(size_t size) {
    for (;;) {
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
        if (void* p = allocate(size)) return p;
    }
}

inline void* allocate_or_throw(size_t size) {
    if (void* p = allocate(size)) [[likely]]
        return p;
    return allocate_after_failure(size);
}

void* allocate_or_null(size_t size) noexcept {
    try {
        return allocate_or_throw(size);
    } catch (...) {
        return nullptr;
    }
}

}  // namespace

void* operator new(size_t size) { return allocate_or_throw(size); }
void* operator new[](size_t size) { return allocate_or_throw(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept { return allocate_or_null(size); }
void* operator new[](size_t size, const std::nothrow_t&) noexcept { return allocate_or_null(size); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, size_t) noexcept { release(p); }
void operator delete[](void* p, size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
#endif

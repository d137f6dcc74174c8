// Interposes the allocator inside the benchmark executable: an executable's definitions of malloc
// and friends take precedence over libc's for the whole process. Each call is counted and passed
// to glibc's own implementation (__libc_*), so nothing else changes.
#include "MallocCounter.h"

// Any libc header defines __GLIBC__; it must come before the check below.
#include <stdlib.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic long count = 0;
static _Atomic long live = 0;

static void *counted(void *pointer) {
    if (pointer) {
        atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&live, (long)malloc_usable_size(pointer), memory_order_relaxed);
    }
    return pointer;
}

int waypoint_malloc_counter_available(void) { return 1; }
long waypoint_malloc_count(void) { return atomic_load(&count); }
long waypoint_malloc_live_bytes(void) { return atomic_load(&live); }

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t number, size_t size) { return counted(__libc_calloc(number, size)); }
void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    void *pointer = counted(__libc_memalign(alignment, size));
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

void free(void *pointer) {
    if (pointer) atomic_fetch_sub_explicit(&live, (long)malloc_usable_size(pointer), memory_order_relaxed);
    __libc_free(pointer);
}

void *realloc(void *pointer, size_t size) {
    if (pointer) atomic_fetch_sub_explicit(&live, (long)malloc_usable_size(pointer), memory_order_relaxed);
    return counted(__libc_realloc(pointer, size));
}
#else
int waypoint_malloc_counter_available(void) { return 0; }
long waypoint_malloc_count(void) { return 0; }
long waypoint_malloc_live_bytes(void) { return 0; }
#endif

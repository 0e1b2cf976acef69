// Memory hints: huge pages for large buffers, and the allocator's free pages handed back.
#include "compass_machine.h"
#include <stdlib.h>

#ifdef __linux__
#include <sys/mman.h>
void compass_advise_huge_pages(void *address, size_t length) {
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)address + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)address + length) & ~(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
}
#else
void compass_advise_huge_pages(void *address, size_t length) { (void)address; (void)length; }
#endif

#ifdef __GLIBC__
#include <malloc.h>
void compass_return_freed_memory(void) { (void)malloc_trim(0); }
#else
void compass_return_freed_memory(void) {}
#endif

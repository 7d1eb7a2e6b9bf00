/* SPDX-License-Identifier: MIT */
/* Memory for the hash tables (table_memory.h). */
#define _DEFAULT_SOURCE /* mmap, madvise */

#include "table_memory.h"

#include <stdint.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)
#define LINE      ((size_t)64)

void *table_memory_alloc(TableMemory *m, size_t bytes)
{
    *m = (TableMemory){ NULL, 0 };
#ifdef __linux__
    if (bytes >= HUGE_PAGE) {
        size_t mapped = bytes + HUGE_PAGE;
        void *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        uintptr_t aligned = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        madvise((void *)aligned, bytes, MADV_HUGEPAGE); /* a hint: failure changes nothing */
        *m = (TableMemory){ p, mapped };
        return (void *)aligned;
    }
#endif
    void *p = calloc(1, bytes + LINE);
    if (!p)
        return NULL;
    m->memory = p;
    return (void *)(((uintptr_t)p + LINE - 1) & ~(uintptr_t)(LINE - 1));
}

void table_memory_free(TableMemory *m)
{
#ifdef __linux__
    if (m->mapped)
        munmap(m->memory, m->mapped);
    else
#endif
        free(m->memory);
    *m = (TableMemory){ NULL, 0 };
}

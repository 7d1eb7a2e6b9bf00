/* SPDX-License-Identifier: MIT */
/* Memory for the hash tables (the perft table, the search's table): zeroed, aligned to a cache
 * line, and on Linux, from 2 MiB on, mapped lazily in transparent huge pages where the system
 * allows them, so that random probes into a large table do not spend their time in page faults
 * and TLB misses (docs/benchmarks.md, "Measurements behind the design"). */
#ifndef CARRERA_TABLE_MEMORY_H
#define CARRERA_TABLE_MEMORY_H

#include <stddef.h>

typedef struct TableMemory {
    void *memory;  /* what was allocated (NULL: nothing) */
    size_t mapped; /* bytes mapped with mmap, 0 when memory came from calloc */
} TableMemory;

/* At least bytes of zeroed memory aligned to 64 bytes, or NULL when memory runs out (m then holds
 * nothing). */
void *table_memory_alloc(TableMemory *m, size_t bytes);

/* Gives back what m holds (nothing when it holds nothing) and empties it. */
void table_memory_free(TableMemory *m);

#endif

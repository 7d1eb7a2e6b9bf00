/* SPDX-License-Identifier: MIT */
/* A perft result file read back in tests with the plain HDF5 API (docs/result-files.md): its
 * units, total, divide and provenance counts, as the tests of distributed and batch jobs check
 * them. */
#ifndef CARRERA_TEST_PERFT_RESULT_H
#define CARRERA_TEST_PERFT_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NOT_DONE UINT64_MAX

typedef struct UnitRow {
    uint64_t id, multiplicity, nodes;
    int32_t run;
} UnitRow;

typedef struct Result {
    uint64_t nodes;      /* /perft nodes */
    uint64_t divide_sum; /* sum of /perft/divide nodes */
    size_t n_divide;
    UnitRow *units;
    size_t n_units;
    int32_t ranks, resumed;
    size_t n_hosts;
    uint64_t key_seed; /* /perft key_seed (0 when absent) */
    char tables[512];  /* the root's tables ("" when absent) */
    size_t n_work;     /* rows of /perft/work (0 when absent) */
    uint64_t probes, shared_probes, shared_hits, shared_remote; /* summed over its rows */
} Result;

/* Reads the units (and, when complete, the total and divide) of the file; -1 if it cannot be
 * read (a writer in the middle of a write, when polling a running job). r->units is malloc'd. */
int read_result(const char *path, bool complete, Result *r);

/* How many units have a count. */
size_t units_done(const Result *r);

/* Fails the running test unless every unit is counted, each id 0..n-1 exactly once, and the
 * units add up to total. */
void check_units(const Result *r, uint64_t total);

#endif

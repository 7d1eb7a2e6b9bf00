/* Counting work units on one rank, and the loop of the ranks other than 0: receive a unit, count
 * it with every thread of the rank and the rank's hash table, send the count back, until rank 0
 * says stop. Rank 0 counts units with the same UnitCounter (cluster/coordinator.c). */
#ifndef CARRERA_WORKER_H
#define CARRERA_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "comm.h"
#include "perft_tt.h"
#include "rules.h"
#include "variant.h"

/* What a rank counts units with: the rules, its threads and one transposition table kept for
 * the whole job, so that positions shared by several units are counted once per rank. */
typedef struct UnitCounter {
    const Variant *variant;
    Rules rules;
    int threads; /* at least 1 */
    PerftTT *tt; /* NULL: no table */
} UnitCounter;

/* threads below 1 mean 1; hash_bytes 0 means no table. Returns 0, or -1 with a message when the
 * table's memory cannot be had. */
int unit_counter_init(UnitCounter *c, const Variant *v, const Rules *r, int threads,
                      size_t hash_bytes, char *err, size_t errlen);
void unit_counter_free(UnitCounter *c);

/* Counts the unit (its FEN to its depth) on c's threads; *seconds receives the wall time.
 * Returns 0, or -1 with a message when the FEN is not a valid position under the rules. */
int unit_count(UnitCounter *c, const CommUnit *u, uint64_t *nodes, double *seconds, char *err,
               size_t errlen);

/* The loop of a worker rank (rank > 0): counts the units rank 0 sends until it sends stop.
 * Returns 0. */
int worker_run(UnitCounter *c);

#endif

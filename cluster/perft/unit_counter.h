/* SPDX-License-Identifier: MIT */
/* Counting work units on one rank: a unit's subtree on every thread of the rank, all probing the
 * rank's one hash table. Every rank, rank 0 included, counts its units with one UnitCounter
 * (perft_distribute.c hands the units out). */
#ifndef CARRERA_UNIT_COUNTER_H
#define CARRERA_UNIT_COUNTER_H

#include <stddef.h>
#include <stdint.h>

#include "perft_tt.h"
#include "rules.h"
#include "split.h"
#include "variant.h"

/* What a rank counts units with: the rules, its threads and one transposition table kept for
 * the whole job, so that positions shared by several units are counted once per rank. */
typedef struct UnitCounter {
    const Variant *variant;
    Rules rules;
    int threads;      /* at least 1 */
    PerftTT *tt;      /* NULL: no table */
    PerftTTWork work; /* what the rank's threads did with the table, over all its units */
} UnitCounter;

/* threads below 1 mean 1; hash_bytes 0 means no table. Returns 0, or -1 with a message when the
 * table's memory cannot be had. */
int unit_counter_init(UnitCounter *c, const Variant *v, const Rules *r, int threads,
                      size_t hash_bytes, char *err, size_t errlen);
void unit_counter_free(UnitCounter *c);

/* Counts the unit (its FEN to its depth) on c's threads; *seconds receives the wall time.
 * Returns 0, or -1 with a message when the FEN is not a valid position under the rules. */
int unit_counter_count(UnitCounter *c, const WorkUnit *u, uint64_t *nodes, double *seconds,
                       char *err, size_t errlen);

#endif

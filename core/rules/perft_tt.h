/* SPDX-License-Identifier: MIT */
/* The perft transposition table: counts of subtrees by (position, depth), shared by all threads
 * without locks. An entry is trusted only when both 64-bit halves of the 128-bit Zobrist key
 * match (the low half also picks the slot), and its words are written so that a read that sees
 * a mix of two writes fails that check: a wrong count is as likely as a 128-bit key collision. */
#ifndef CARRERA_PERFT_TT_H
#define CARRERA_PERFT_TT_H

#include "types.h"

typedef struct PerftTT PerftTT;

/* A table of at most bytes bytes (at least one bucket); NULL when memory runs out. */
PerftTT *perft_tt_new(size_t bytes);

/* A table of at most bytes bytes whose buckets lie evenly spread over span bytes of memory, each
 * written once here: its probes miss the caches and the address translation as those of a table
 * of span bytes do, at a small table's rate of hits. What --estimate counts a small tree with, to
 * time a large table. span no larger than bytes gives perft_tt_new's table; NULL when memory
 * runs out. */
PerftTT *perft_tt_new_spread(size_t bytes, size_t span);
void perft_tt_free(PerftTT *tt);

/* The number of bytes the table really uses. */
size_t perft_tt_bytes(const PerftTT *tt);

/* Whether a count for (key, depth) is stored; if so *count receives it. */
bool perft_tt_probe(const PerftTT *tt, u128 key, int depth, uint64_t *count);

/* Starts loading the bucket of (key, depth) into the cache, for a probe a little later. */
void perft_tt_prefetch(const PerftTT *tt, u128 key, int depth);

/* Stores a count, replacing the shallowest of the four entries of its bucket. */
void perft_tt_store(PerftTT *tt, u128 key, int depth, uint64_t count);

#endif

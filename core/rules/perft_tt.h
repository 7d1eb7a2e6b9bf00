/* SPDX-License-Identifier: MIT */
/* The perft transposition table: counts of subtrees by (position, depth), shared by all threads
 * without locks. An entry is trusted only when both 64-bit halves of the 128-bit Zobrist key
 * match (the low half also picks the slot), and its words are written so that a read that sees
 * a mix of two writes fails that check: a wrong count is as likely as a 128-bit key collision.
 *
 * A table may have a second level (PerftTTShared): a table elsewhere, such as one spread over the
 * processes of a distributed job, that the deep entries go to as well and that a probe of a deep
 * entry asks when this table misses. The core knows it only as two callbacks. */
#ifndef CARRERA_PERFT_TT_H
#define CARRERA_PERFT_TT_H

#include "types.h"

typedef struct PerftTT PerftTT;

/* What one thread did with a table while counting: its own plain counters, summed by whoever
 * started the threads. Every probe at depth 2 or more of a count with a table is one position
 * reached; each probe that misses is a position whose subtree was then generated. */
typedef struct PerftTTWork {
    uint64_t probes, hits;                              /* the table itself */
    uint64_t shared_probes, shared_hits, shared_stores; /* the second level */
    uint64_t shared_remote; /* of those accesses, the ones that left the process */
    uint64_t shared_bytes;  /* bytes the second level moved between processes */
} PerftTTWork;

/* Adds a thread's work to a total. */
void perft_tt_work_add(PerftTTWork *total, const PerftTTWork *w);

/* The second level of a table. Keys are given as the table's two halves of its salted key (the
 * depth folded in, so a key names one count): lo picks the place, hi verifies it. Both callbacks
 * are called from every counting thread at once and must tolerate it; they count what they do
 * (shared_remote, shared_bytes) in the caller's work. probe returns whether a count for the key
 * is there and trusted; store may keep it or not. */
typedef struct PerftTTShared {
    void *ctx;
    int min_depth; /* entries of at least this depth go to the second level */
    bool (*probe)(void *ctx, uint64_t lo, uint64_t hi, uint64_t *count, PerftTTWork *w);
    void (*store)(void *ctx, uint64_t lo, uint64_t hi, int depth, uint64_t count, PerftTTWork *w);
    /* Starts loading the place of lo into the cache where it is memory (NULL: nothing to do). */
    void (*prefetch)(void *ctx, uint64_t lo);
} PerftTTShared;

/* A table of at most bytes bytes (at least one bucket); NULL when memory runs out. */
PerftTT *perft_tt_new(size_t bytes);

/* A table of at most bytes bytes whose buckets lie evenly spread over span bytes of memory, each
 * written once here: its probes miss the caches and the address translation as those of a table
 * of span bytes do, at a small table's rate of hits. What --estimate counts a small tree with, to
 * time a large table. span no larger than bytes gives perft_tt_new's table; NULL when memory
 * runs out. */
PerftTT *perft_tt_new_spread(size_t bytes, size_t span);
void perft_tt_free(PerftTT *tt);

/* Gives the table a second level (copied), or none (NULL). Not while threads count with it. */
void perft_tt_set_shared(PerftTT *tt, const PerftTTShared *shared);

/* The number of bytes the table really uses. */
size_t perft_tt_bytes(const PerftTT *tt);

/* A thread's use of a table: the table and what the thread did with it. */
typedef struct PerftTTThread {
    PerftTT *tt;
    PerftTTWork work;
} PerftTTThread;

/* Whether a count for (key, depth) is stored, here or in the second level (a count found there
 * is kept here too); if so *count receives it. */
bool perft_tt_probe(PerftTTThread *t, u128 key, int depth, uint64_t *count);

/* Starts loading the bucket of (key, depth) into the cache, for a probe a little later, and its
 * place in the second level when that is asked at the depth. */
void perft_tt_prefetch(const PerftTT *tt, u128 key, int depth);

/* Stores a count, replacing the shallowest of the four entries of its bucket, and in the second
 * level too when it is deep enough. */
void perft_tt_store(PerftTTThread *t, u128 key, int depth, uint64_t count);

/* ---- the entry, for a second level that keeps entries of the same form ---------------------
 * An entry is two words: data, the count shifted left 8 bits with the depth in the low byte (0:
 * empty), and check, the key's high half XORed with data. A count of 2^56 or more is not
 * stored. */

/* Whether the words hold a count for hi; if so *count receives it. */
static inline bool perft_tt_entry_read(uint64_t check, uint64_t data, uint64_t hi, uint64_t *count)
{
    if (!data || (check ^ data) != hi)
        return false;
    *count = data >> 8;
    return true;
}

/* The data word of a count (0 when it cannot be stored). */
static inline uint64_t perft_tt_entry_data(int depth, uint64_t count)
{
    return count >> 56 ? 0 : count << 8 | (uint64_t)(depth & 255);
}

/* The depth an entry's data word holds (0: empty). */
static inline int perft_tt_entry_depth(uint64_t data) { return (int)(data & 255); }

#endif

/* SPDX-License-Identifier: MIT */
/* The search's transposition table (private to the search's files): 16-byte slots, four to a
 * 64-byte bucket, verified by 96 key bits, replaced shallowest first and entries of earlier
 * searches before those of this one; a position's entry keeps a bound from more than 3 plies
 * deeper against a shallower one that is not exact (taking only its turn), as Stockfish's. Every
 * thread of a search shares one table without a lock (Lazy SMP, search_pool.h): a slot is two
 * 64-bit words, each read and written whole (relaxed atomics, plain moves on the machines Carrera
 * runs on), and the word that holds the key's check also holds the check XOR a mix of the rest, so
 * a slot torn by two threads writing at once reads as no entry for the key instead of a wrong one.
 * The probe is inline: it runs at every node. */
#ifndef CARRERA_SEARCH_TT_H
#define CARRERA_SEARCH_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search.h"
#include "table_memory.h"

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* A slot: turn = m1 | m2 << 32 (a turn as its two movements, m2 == 0 for a one-movement turn;
 * m1 == 0: an empty slot; m1 == TT_NO_TURN: an entry without a turn); meta = (check ^ mix(turn) ^
 * info) | info << 32, info = score (16 bits) | depth << 16 | flags << 24. The slot comes from the
 * key's low half, check from its high half, so a wrong hit needs a 96-bit collision; a torn slot
 * (turn of one write, meta of another) fails the check but for a 32-bit accident. */
typedef struct TTSlot {
    _Atomic uint64_t turn, meta;
} TTSlot;

/* The first movement of an entry without a turn: no move's encoding (types.h) sets bit 31. */
#define TT_NO_TURN 0x80000000u

/* A slot read back whole. */
typedef struct TTEntry {
    uint32_t check;
    uint32_t m1, m2;
    int16_t score;
    uint8_t depth;
    uint8_t flags; /* bound in bits 0-1, generation in bits 2-7 */
} TTEntry;

#define BUCKET_SIZE 4
typedef struct TTBucket {
    TTSlot e[BUCKET_SIZE];
} TTBucket;

typedef struct SearchTT {
    TTBucket *buckets; /* aligned inside memory */
    TableMemory memory;
    size_t n_buckets;
    uint8_t generation; /* of the search in progress: one more per search */
} SearchTT;

/* Replaces the table by an empty one of at most hash_mb MiB (at least one bucket); false, the old
 * table kept, when memory runs out. */
bool search_tt_alloc(SearchTT *tt, size_t hash_mb);
void search_tt_free(SearchTT *tt);

/* Empties the table and starts the generations again (no search may run). */
void search_tt_clear(SearchTT *tt);

/* Stores what a search of depth found for key: score (search_tt_score_in), its bound and the turn
 * (n == 0: none; an earlier search's turn for the position is kept, or the entry has none). */
void search_tt_store(SearchTT *tt, u128 key, int depth, int score, int bound, const Turn *t);

/* Entries of this search per mille, from the first 250 buckets. */
int search_tt_hashfull(const SearchTT *tt);

static inline TTBucket *search_tt_bucket(const SearchTT *tt, u128 key)
{
    /* multiply-shift maps the key onto any number of buckets without a division */
    return &tt->buckets[(size_t)(((unsigned __int128)(uint64_t)key * tt->n_buckets) >> 64)];
}

static inline uint32_t search_tt_check(u128 key) { return (uint32_t)(key >> 96); }

/* The turn word folded to 32 bits by a multiplication, so that turns that differ only in the
 * order of their halves fold apart. */
static inline uint32_t search_tt_mix(uint64_t turn)
{
    return (uint32_t)((turn * 0x9E3779B97F4A7C15u) >> 32);
}

/* Reads a slot whole into *out; its check is what the slot verifies (garbage when torn). */
static inline void search_tt_read(const TTSlot *slot, TTEntry *out)
{
    uint64_t turn = atomic_load_explicit(&slot->turn, memory_order_relaxed);
    uint64_t meta = atomic_load_explicit(&slot->meta, memory_order_relaxed);
    uint32_t info = (uint32_t)(meta >> 32);
    out->check = (uint32_t)meta ^ search_tt_mix(turn) ^ info;
    out->m1 = (uint32_t)turn;
    out->m2 = (uint32_t)(turn >> 32);
    out->score = (int16_t)(uint16_t)info;
    out->depth = (uint8_t)(info >> 16);
    out->flags = (uint8_t)(info >> 24);
}

/* The entry for key copied into *hit and returned, or NULL. */
static inline const TTEntry *search_tt_probe(const SearchTT *tt, u128 key, TTEntry *hit)
{
    const TTBucket *b = search_tt_bucket(tt, key);
    uint32_t check = search_tt_check(key);
    for (int i = 0; i < BUCKET_SIZE; i++) {
        search_tt_read(&b->e[i], hit);
        if (hit->check == check && hit->m1 != 0)
            return hit;
    }
    return NULL;
}

/* The entry's turn (n 0: none). */
static inline Turn search_tt_turn(const TTEntry *e)
{
    if (e->m1 == TT_NO_TURN)
        return (Turn){ { MOVE_NONE, MOVE_NONE }, 0 };
    Turn t = { { e->m1, e->m2 }, e->m2 ? 2 : 1 };
    return t;
}

/* Mate scores count from the root in the tree and from the node in the table. */
static inline int search_tt_score_in(int v, int ply)
{
    return v >= SCORE_MATE_BOUND ? v + ply : v <= -SCORE_MATE_BOUND ? v - ply : v;
}

static inline int search_tt_score_out(int v, int ply)
{
    return v >= SCORE_MATE_BOUND ? v - ply : v <= -SCORE_MATE_BOUND ? v + ply : v;
}

#endif

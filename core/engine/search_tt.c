/* SPDX-License-Identifier: MIT */
/* The search's transposition table (search_tt.h). */
#include "search_tt.h"

#include <string.h>

bool search_tt_alloc(SearchTT *tt, size_t hash_mb)
{
    size_t n = hash_mb * 1024 * 1024 / sizeof(TTBucket);
    if (n == 0)
        n = 1;
    TableMemory m;
    TTBucket *b = table_memory_alloc(&m, n * sizeof *b);
    if (!b)
        return false;
    table_memory_free(&tt->memory);
    tt->memory = m;
    tt->buckets = b;
    tt->n_buckets = n;
    return true;
}

void search_tt_free(SearchTT *tt)
{
    table_memory_free(&tt->memory);
    tt->buckets = NULL;
    tt->n_buckets = 0;
}

void search_tt_clear(SearchTT *tt)
{
    memset(tt->buckets, 0, tt->n_buckets * sizeof *tt->buckets);
    tt->generation = 0;
}

/* Writes a slot whole (see TTSlot). */
static void write_slot(TTSlot *slot, uint32_t check, uint64_t turn, int score, int depth, int flags)
{
    uint32_t info = (uint32_t)(uint16_t)score | (uint32_t)depth << 16 | (uint32_t)flags << 24;
    uint64_t meta = (uint64_t)(check ^ search_tt_mix(turn) ^ info) | (uint64_t)info << 32;
    atomic_store_explicit(&slot->turn, turn, memory_order_relaxed);
    atomic_store_explicit(&slot->meta, meta, memory_order_relaxed);
}

/* A turn as a slot's turn word. */
static uint64_t pack_turn(const Turn *t)
{
    return t->m[0] | (uint64_t)(t->n == 2 ? t->m[1] : 0) << 32;
}

void search_tt_store(SearchTT *tt, u128 key, int depth, int score, int bound, const Turn *t)
{
    TTBucket *b = search_tt_bucket(tt, key);
    uint32_t check = search_tt_check(key);
    int at = 0, worst = INT32_MAX;
    TTEntry slot, e;
    search_tt_read(&b->e[0], &slot);
    for (int i = 0; i < BUCKET_SIZE; i++) {
        search_tt_read(&b->e[i], &e);
        if (e.m1 == 0 || e.check == check) {
            at = i;
            slot = e;
            break;
        }
        /* replace the shallowest entry, entries of earlier searches first */
        int stale = ((e.flags >> 2) != (tt->generation & 63)) ? 256 : 0;
        if (e.depth - stale < worst) {
            worst = e.depth - stale;
            at = i;
            slot = e;
        }
    }
    const bool same = slot.check == check && slot.m1 != 0;
    uint64_t turn;
    if (same && bound != BOUND_EXACT && depth < slot.depth - 3) {
        /* a much deeper bound for the position stays; a new turn is still taken (Stockfish's) */
        if (t->n > 0)
            write_slot(&b->e[at], check, pack_turn(t), slot.score, slot.depth, slot.flags);
        return;
    }
    if (same && t->n == 0) {
        /* keep the turn an earlier search found for this position */
        turn = slot.m1 | (uint64_t)slot.m2 << 32;
    } else if (t->n > 0) {
        turn = pack_turn(t);
    } else {
        turn = TT_NO_TURN;
    }
    write_slot(&b->e[at], check, turn, (int16_t)score, depth < 0 ? 0 : (uint8_t)depth,
               bound | ((tt->generation & 63) << 2));
}

int search_tt_hashfull(const SearchTT *tt)
{
    size_t buckets = tt->n_buckets < 250 ? tt->n_buckets : 250, used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int j = 0; j < BUCKET_SIZE; j++) {
            TTEntry e;
            search_tt_read(&tt->buckets[i].e[j], &e);
            used += e.m1 != 0 && (e.flags >> 2) == (tt->generation & 63);
        }
    return (int)(used * 1000 / (buckets * BUCKET_SIZE));
}

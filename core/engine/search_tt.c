/* SPDX-License-Identifier: MIT */
/* The search's transposition table (search_tt.h). */
#include "search_tt.h"

#include <stdlib.h>
#include <string.h>

bool search_tt_alloc(SearchTT *tt, size_t hash_mb)
{
    size_t n = hash_mb * 1024 * 1024 / sizeof(TTBucket);
    if (n == 0)
        n = 1;
    TTBucket *b = calloc(n, sizeof *b);
    if (!b)
        return false;
    free(tt->buckets);
    tt->buckets = b;
    tt->n_buckets = n;
    return true;
}

void search_tt_free(SearchTT *tt)
{
    free(tt->buckets);
    tt->buckets = NULL;
    tt->n_buckets = 0;
}

void search_tt_clear(SearchTT *tt)
{
    memset(tt->buckets, 0, tt->n_buckets * sizeof *tt->buckets);
    tt->generation = 0;
}

void search_tt_store(SearchTT *tt, u128 key, int depth, int score, int bound, const Turn *t)
{
    TTBucket *b = search_tt_bucket(tt, key);
    uint32_t check = search_tt_check(key);
    TTEntry *slot = &b->e[0];
    int worst = INT32_MAX;
    for (int i = 0; i < BUCKET_SIZE; i++) {
        TTEntry *e = &b->e[i];
        if (e->m1 == 0 || e->check == check) {
            slot = e;
            break;
        }
        /* replace the shallowest entry, entries of earlier searches first */
        int stale = ((e->flags >> 2) != (tt->generation & 63)) ? 256 : 0;
        if (e->depth - stale < worst) {
            worst = e->depth - stale;
            slot = e;
        }
    }
    if (slot->check == check && slot->m1 != 0 && t->n == 0) {
        /* keep the turn an earlier search found for this position */
    } else if (t->n > 0) {
        slot->m1 = t->m[0];
        slot->m2 = t->n == 2 ? t->m[1] : 0;
    } else {
        return; /* nothing worth keeping: no turn and no entry to refresh */
    }
    slot->check = check;
    slot->score = (int16_t)score;
    slot->depth = (uint8_t)(depth < 0 ? 0 : depth);
    slot->flags = (uint8_t)(bound | ((tt->generation & 63) << 2));
}

int search_tt_hashfull(const SearchTT *tt)
{
    size_t buckets = tt->n_buckets < 250 ? tt->n_buckets : 250, used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int j = 0; j < BUCKET_SIZE; j++)
            used += tt->buckets[i].e[j].m1 != 0 &&
                    (tt->buckets[i].e[j].flags >> 2) == (tt->generation & 63);
    return (int)(used * 1000 / (buckets * BUCKET_SIZE));
}

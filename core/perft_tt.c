/* The lock-free perft table. Each entry is four relaxed atomic words: the key's halves each
 * XORed with the count, the count, and the depth (used only to choose what to replace). A probe
 * reads the count and checks both XORed words against it; a torn entry, mixed from two writers,
 * passes only if its words happen to satisfy both 64-bit equations. The depth is folded into the
 * key so that one position's counts at different depths never match each other. */
#include "perft_tt.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct Entry {
    _Atomic uint64_t lo, hi, count, depth;
} Entry;

/* Two entries per bucket: one 64-byte cache line. */
typedef struct Bucket {
    Entry e[2];
} Bucket;

struct PerftTT {
    Bucket *buckets;
    size_t mask;
};

PerftTT *perft_tt_new(size_t bytes)
{
    size_t n = 1;
    while (n * 2 * sizeof(Bucket) <= bytes)
        n *= 2;
    PerftTT *tt = malloc(sizeof *tt);
    if (!tt)
        return NULL;
    /* Zeroed memory is a table of empty entries: depth 0 is never stored. */
    tt->buckets = aligned_alloc(64, n * sizeof(Bucket));
    if (!tt->buckets) {
        free(tt);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            atomic_init(&tt->buckets[i].e[k].lo, 0);
            atomic_init(&tt->buckets[i].e[k].hi, 0);
            atomic_init(&tt->buckets[i].e[k].count, 0);
            atomic_init(&tt->buckets[i].e[k].depth, 0);
        }
    tt->mask = n - 1;
    return tt;
}

void perft_tt_free(PerftTT *tt)
{
    if (tt)
        free(tt->buckets);
    free(tt);
}

size_t perft_tt_bytes(const PerftTT *tt) { return (tt->mask + 1) * sizeof(Bucket); }

static u128 salted(u128 key, int depth)
{
    /* Different odd multipliers for the two halves keep them independent. */
    u128 salt = (u128)((uint64_t)depth * 0x9E3779B97F4A7C15ull) << 64
              | (uint64_t)depth * 0xD1B54A32D192ED03ull;
    return key ^ salt;
}

bool perft_tt_probe(const PerftTT *tt, u128 key, int depth, uint64_t *count)
{
    u128 k = salted(key, depth);
    uint64_t lo = (uint64_t)k, hi = (uint64_t)(k >> 64);
    const Bucket *b = &tt->buckets[lo & tt->mask];
    for (int i = 0; i < 2; i++) {
        const Entry *e = &b->e[i];
        uint64_t c = atomic_load_explicit(&e->count, memory_order_relaxed);
        if ((atomic_load_explicit(&e->lo, memory_order_relaxed) ^ c) == lo
            && (atomic_load_explicit(&e->hi, memory_order_relaxed) ^ c) == hi) {
            *count = c;
            return true;
        }
    }
    return false;
}

void perft_tt_store(PerftTT *tt, u128 key, int depth, uint64_t count)
{
    u128 k = salted(key, depth);
    uint64_t lo = (uint64_t)k, hi = (uint64_t)(k >> 64);
    Bucket *b = &tt->buckets[lo & tt->mask];
    /* Keep the deeper entry: it saved more work. */
    Entry *e = atomic_load_explicit(&b->e[0].depth, memory_order_relaxed)
                       <= atomic_load_explicit(&b->e[1].depth, memory_order_relaxed)
                   ? &b->e[0]
                   : &b->e[1];
    atomic_store_explicit(&e->count, count, memory_order_relaxed);
    atomic_store_explicit(&e->lo, lo ^ count, memory_order_relaxed);
    atomic_store_explicit(&e->hi, hi ^ count, memory_order_relaxed);
    atomic_store_explicit(&e->depth, (uint64_t)depth, memory_order_relaxed);
}

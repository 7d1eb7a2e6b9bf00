/* SPDX-License-Identifier: MIT */
/* The lock-free perft table. Each entry is two relaxed atomic words (perft_tt.h gives their
 * form): the count with the depth in its low byte, and the key's high half XORed with that word.
 * The key's low half picks the bucket. A probe checks the XOR against the key: a torn entry,
 * mixed from two writers, passes only if its words happen to satisfy that 64-bit equation. The
 * depth is folded into the key so that one position's counts at different depths never match
 * each other; the depth byte is there to choose what to replace. A second level, when there is
 * one, is asked after a miss at its depths and given the counts of those depths. */
#include "perft_tt.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "table_memory.h"

typedef struct Entry {
    _Atomic uint64_t check, data; /* key high half ^ data; count << 8 | depth */
} Entry;

/* Four entries per bucket: one 64-byte cache line. */
#define WAYS 4
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "the table needs lock-free 64-bit atomics");
typedef struct Bucket {
    Entry e[WAYS];
} Bucket;

struct PerftTT {
    Bucket *buckets; /* aligned inside memory */
    TableMemory memory;
    size_t n;             /* buckets */
    size_t stride;        /* bucket i is at buckets[i * stride] */
    PerftTTShared shared; /* min_depth 0: no second level */
};

/* How many buckets fit in bytes (at least one). */
static size_t buckets_in(size_t bytes)
{
    return bytes >= sizeof(Bucket) ? bytes / sizeof(Bucket) : 1;
}

PerftTT *perft_tt_new_spread(size_t bytes, size_t span)
{
    const size_t n = buckets_in(bytes), stride = span > bytes ? buckets_in(span) / n : 1,
                 slots = (n - 1) * stride + 1;
    PerftTT *tt = malloc(sizeof *tt);
    if (!tt)
        return NULL;
    /* Zero bytes are empty entries (depth 0 is never stored): lock-free 64-bit atomics are
     * plain words, so zero bytes are zero values. The memory is mapped lazily in huge pages
     * (table_memory.h): a table of gigabytes costs nothing until used and nothing to clear. */
    tt->buckets = table_memory_alloc(&tt->memory, slots * sizeof(Bucket));
    if (!tt->buckets) {
        free(tt);
        return NULL;
    }
    tt->n = n;
    tt->stride = stride;
    tt->shared = (PerftTTShared){ 0 };
    if (stride > 1) /* the pages are mapped now, not while the table is being timed */
        for (size_t i = 0; i < n; i++)
            atomic_store_explicit(&tt->buckets[i * stride].e[0].data, 0, memory_order_relaxed);
    return tt;
}

PerftTT *perft_tt_new(size_t bytes) { return perft_tt_new_spread(bytes, bytes); }

void perft_tt_free(PerftTT *tt)
{
    if (tt)
        table_memory_free(&tt->memory);
    free(tt);
}

void perft_tt_set_shared(PerftTT *tt, const PerftTTShared *shared)
{
    tt->shared = shared ? *shared : (PerftTTShared){ 0 };
    if (shared && tt->shared.min_depth < 1)
        tt->shared.min_depth = 1;
}

void perft_tt_work_add(PerftTTWork *total, const PerftTTWork *w)
{
    total->probes += w->probes;
    total->hits += w->hits;
    total->shared_probes += w->shared_probes;
    total->shared_hits += w->shared_hits;
    total->shared_stores += w->shared_stores;
    total->shared_remote += w->shared_remote;
    total->shared_bytes += w->shared_bytes;
}

size_t perft_tt_bytes(const PerftTT *tt) { return tt->n * sizeof(Bucket); }

/* The bucket of a key's low half: its place among n by a multiplication, so that n need not be
 * a power of two and a table uses all the memory it was given. */
static inline Bucket *bucket_of(const PerftTT *tt, uint64_t lo)
{
    return &tt->buckets[(size_t)(((u128)lo * tt->n) >> 64) * tt->stride];
}

static u128 salted(u128 key, int depth)
{
    /* Different odd multipliers for the two halves keep them independent. */
    u128 salt = (u128)((uint64_t)depth * 0x9E3779B97F4A7C15ull) << 64 |
                (uint64_t)depth * 0xD1B54A32D192ED03ull;
    return key ^ salt;
}

void perft_tt_prefetch(const PerftTT *tt, u128 key, int depth)
{
    const uint64_t lo = (uint64_t)salted(key, depth);
    __builtin_prefetch(bucket_of(tt, lo));
    /* The second level is asked only after a miss here, but a miss is the common case there:
     * its latency too is better overlapped with the elder sibling's count. */
    const PerftTTShared *sh = &tt->shared;
    if (sh->prefetch && sh->min_depth && depth >= sh->min_depth)
        sh->prefetch(sh->ctx, lo);
}

static bool probe_here(const PerftTT *tt, uint64_t lo, uint64_t hi, uint64_t *count)
{
    const Bucket *b = bucket_of(tt, lo);
    for (int i = 0; i < WAYS; i++) {
        const Entry *e = &b->e[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        if (perft_tt_entry_read(atomic_load_explicit(&e->check, memory_order_relaxed), data, hi,
                                count))
            return true;
    }
    return false;
}

/* The shallowest entry of the bucket gives way (an empty one has depth 0): deep counts save the
 * most work and stay. A count too large for an entry is not stored. */
static void store_here(PerftTT *tt, uint64_t lo, uint64_t hi, int depth, uint64_t count)
{
    const uint64_t data = perft_tt_entry_data(depth, count);
    if (!data)
        return;
    Bucket *b = bucket_of(tt, lo);
    Entry *victim = &b->e[0];
    int shallowest = 256;
    for (int i = 0; i < WAYS; i++) {
        int d = perft_tt_entry_depth(atomic_load_explicit(&b->e[i].data, memory_order_relaxed));
        if (d < shallowest) {
            shallowest = d;
            victim = &b->e[i];
        }
    }
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, hi ^ data, memory_order_relaxed);
}

bool perft_tt_probe(PerftTTThread *t, u128 key, int depth, uint64_t *count)
{
    PerftTT *tt = t->tt;
    u128 k = salted(key, depth);
    uint64_t lo = (uint64_t)k, hi = (uint64_t)(k >> 64);
    t->work.probes++;
    if (probe_here(tt, lo, hi, count)) {
        t->work.hits++;
        return true;
    }
    const PerftTTShared *sh = &tt->shared;
    if (!sh->min_depth || depth < sh->min_depth)
        return false;
    t->work.shared_probes++;
    if (!sh->probe(sh->ctx, lo, hi, count, &t->work))
        return false;
    t->work.shared_hits++;
    store_here(tt, lo, hi, depth, *count);
    return true;
}

void perft_tt_store(PerftTTThread *t, u128 key, int depth, uint64_t count)
{
    PerftTT *tt = t->tt;
    u128 k = salted(key, depth);
    uint64_t lo = (uint64_t)k, hi = (uint64_t)(k >> 64);
    store_here(tt, lo, hi, depth, count);
    const PerftTTShared *sh = &tt->shared;
    if (sh->min_depth && depth >= sh->min_depth && !(count >> 56)) {
        t->work.shared_stores++;
        sh->store(sh->ctx, lo, hi, depth, count, &t->work);
    }
}

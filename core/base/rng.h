/* SPDX-License-Identifier: MIT */
/* A small deterministic pseudo-random generator (SplitMix64) for Zobrist keys, magic number
 * search, random start arrays and random test positions. State is explicit: no globals. */
#ifndef CARRERA_RNG_H
#define CARRERA_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t state;
} Rng;

static inline Rng rng_new(uint64_t seed) { return (Rng){ seed }; }

static inline uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (rejection sampling: no modulo bias). */
static inline uint64_t rng_below(Rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = rng_next(r);
    } while (x >= limit);
    return x % n;
}

#endif

/* SPDX-License-Identifier: MIT */
/* Zobrist keys from a seed, so that keys are the same in every run and on every rank of a cluster
 * job that uses the same seed (hash tables and transposition merging may compare keys across
 * processes), and unrelated between two seeds (a second run with other keys verifies a count). */
#include "zobrist.h"

#include "rng.h"

static Zobrist keys;

/* The generator's seed for key seed 0: the keys of every version before key seeds existed. */
#define ZOBRIST_BASE 0xCA22E2A5EEDull

static u128 key128(Rng *r)
{
    u128 lo = rng_next(r);
    return lo | (u128)rng_next(r) << 64;
}

void zobrist_fill(Zobrist *z, uint64_t key_seed)
{
    /* Seeds other than 0 are mixed through one SplitMix64 step before they start the generator:
     * nearby seeds then start far apart in its sequence, instead of yielding the same keys one
     * step shifted (SplitMix64 from state s + k*gamma is the stream of s, k steps on). */
    Rng mix = rng_new(key_seed);
    Rng r = rng_new(key_seed == 0 ? ZOBRIST_BASE : ZOBRIST_BASE ^ rng_next(&mix));
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < TYPE_NB; t++)
            for (int s = 0; s < MAX_SQUARES; s++)
                z->piece[c][t][s] = t == NO_TYPE ? 0 : key128(&r);
    z->side = key128(&r);
    /* Castling keys are XORs of one key per right, so that a rights change is one XOR pair. */
    u128 right[4];
    for (int i = 0; i < 4; i++)
        right[i] = key128(&r);
    for (int m = 0; m < 16; m++) {
        z->castling[m] = 0;
        for (int i = 0; i < 4; i++)
            if (m & (1 << i))
                z->castling[m] ^= right[i];
    }
    for (int f = 0; f < MAX_FILES; f++)
        z->ep[f] = key128(&r);
    z->first_turn = key128(&r);
}

void zobrist_init(uint64_t key_seed) { zobrist_fill(&keys, key_seed); }

const Zobrist *zobrist(void) { return &keys; }

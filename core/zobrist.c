/* SPDX-License-Identifier: MIT */
/* Zobrist keys from a fixed seed, so that keys are the same in every run and on every rank of a
 * cluster job (hash tables and transposition merging may compare keys across processes). */
#include "zobrist.h"

#include "rng.h"

static Zobrist keys;

static u128 key128(Rng *r)
{
    u128 lo = rng_next(r);
    return lo | (u128)rng_next(r) << 64;
}

void zobrist_init(void)
{
    Rng r = rng_new(0xCA22E2A5EEDull);
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < TYPE_NB; t++)
            for (int s = 0; s < MAX_SQUARES; s++)
                keys.piece[c][t][s] = t == NO_TYPE ? 0 : key128(&r);
    keys.side = key128(&r);
    /* Castling keys are XORs of one key per right, so that a rights change is one XOR pair. */
    u128 right[4];
    for (int i = 0; i < 4; i++)
        right[i] = key128(&r);
    for (int m = 0; m < 16; m++) {
        keys.castling[m] = 0;
        for (int i = 0; i < 4; i++)
            if (m & (1 << i))
                keys.castling[m] ^= right[i];
    }
    for (int f = 0; f < MAX_FILES; f++)
        keys.ep[f] = key128(&r);
    keys.first_turn = key128(&r);
}

const Zobrist *zobrist(void) { return &keys; }

/* SPDX-License-Identifier: MIT */
/* Zobrist hashing keys, shared by both board sizes: read-only after zobrist_init(). */
#ifndef CARRERA_ZOBRIST_H
#define CARRERA_ZOBRIST_H

#include "types.h"

typedef struct Zobrist {
    u128 piece[2][TYPE_NB][MAX_SQUARES];
    u128 side;          /* Black to move */
    u128 castling[16];  /* by castling-rights bitmask */
    u128 ep[MAX_FILES]; /* by file of the en passant square */
    u128 first_turn;    /* White's one-movement first turn of the balanced double-move rules */
} Zobrist;

/* Fills *z with the keys of key_seed: the same keys for the same seed, unrelated keys for
 * another; key seed 0 (the default) gives the keys of every version before key seeds existed. */
void zobrist_fill(Zobrist *z, uint64_t key_seed);

/* Fills the shared table with the keys of key_seed; call once before zobrist() is used (not
 * thread-safe by itself: position.c calls it once, under a lock). */
void zobrist_init(uint64_t key_seed);

/* The keys. */
const Zobrist *zobrist(void);

#endif

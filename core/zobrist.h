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

/* Fills the table from a fixed seed; call once before zobrist() is used (not thread-safe by
 * itself: position.c calls it under pthread_once). */
void zobrist_init(void);

/* The keys. */
const Zobrist *zobrist(void);

#endif

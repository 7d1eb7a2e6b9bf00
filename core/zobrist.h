/* Zobrist hashing keys, shared by both board sizes: read-only after zobrist_init(). */
#ifndef CARRERA_ZOBRIST_H
#define CARRERA_ZOBRIST_H

#include "types.h"

typedef struct Zobrist {
    uint64_t piece[2][TYPE_NB][MAX_SQUARES];
    uint64_t side;          /* Black to move */
    uint64_t castling[16];  /* by castling-rights bitmask */
    uint64_t ep[MAX_FILES]; /* by file of the en passant square */
} Zobrist;

/* Fills the table from a fixed seed; call once before zobrist() is used (not thread-safe by
 * itself: position.c calls it under call_once). */
void zobrist_init(void);

/* The keys. */
const Zobrist *zobrist(void);

#endif

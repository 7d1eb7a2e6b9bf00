/* SPDX-License-Identifier: MIT */
/* Positions for testing move generators, reached by seeded random play and weighted towards
 * what breaks them: en passant chances, castling (with its squares attacked or occupied),
 * promotions with and without capture, checks by every piece (the knight part of the Archbishop
 * and the Chancellor included), pins, and under double-move rules the turns a check cuts short.
 * The same seed gives the same position. */
#ifndef CARRERA_RANDOM_POSITION_H
#define CARRERA_RANDOM_POSITION_H

#include <stdint.h>

#include "rules.h"
#include "setup.h"

/* Plays from start under the rules r, guided by seed, and writes to out the most testing of the
 * positions passed in the second half of the game (one with legal moves; start itself when it
 * has none). Returns false when memory runs out. */
bool random_position(const Setup *start, const Rules *r, uint64_t seed, Setup *out);

#endif

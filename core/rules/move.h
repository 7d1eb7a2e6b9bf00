/* SPDX-License-Identifier: MIT */
/* Moves as UCI text: files a-j, ranks 1-8, a lower-case promotion letter (b7b8c); castling as
 * the king's destination (e1g1, f1i1) or, in Chess960 notation, king takes own rook (e1h1). */
#ifndef CARRERA_MOVE_H
#define CARRERA_MOVE_H

#include "types.h"
#include "variant.h"

/* Longest move text plus the NUL. */
#define MOVE_TEXT_MAX 8

/* Writes m as UCI text. castle960 selects king-takes-own-rook castling text. */
void move_to_uci(Move m, const Variant *v, bool castle960, char out[MOVE_TEXT_MAX]);

/* The move among legal[0..n) whose UCI text is text, or MOVE_NONE. */
Move move_from_uci(const char *text, const Move *legal, int n, const Variant *v, bool castle960);

#endif

/* SPDX-License-Identifier: MIT */
/* Positions for tests, from a variant's name and a FEN; fails the running cmocka test when the
 * variant is unknown or the FEN is refused. */
#ifndef CARRERA_TEST_LOAD_FEN_H
#define CARRERA_TEST_LOAD_FEN_H

#include "position.h"

/* Sets *p to the position fen describes in the variant named variant (its default rules). */
void load_fen(Position *p, const char *variant, const char *fen);

#endif

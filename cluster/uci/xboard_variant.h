/* SPDX-License-Identifier: MIT */
/* Carrera's variants under their xboard-protocol names, and how moves are written for xboard.
 * XBoard knows normal, fischerandom, capablanca, gothic, janus and caparandom by name; Embassy
 * is an engine-defined variant, which the engine describes to the GUI with a `setup` line: its
 * start position on a 10x8 board with Capablanca's pieces and castling (the king moves three
 * squares, as XBoard moves it on that board from the e-file). */
#ifndef CARRERA_XBOARD_VARIANT_H
#define CARRERA_XBOARD_VARIANT_H

#include <stddef.h>

#include "types.h"
#include "variant.h"

/* Room enough for the `setup` line and for the list of names. */
#define XBOARD_SETUP_MAX 256

/* The variant an xboard name stands for, or NULL when Carrera does not play it. */
const Variant *xboard_variant(const char *name);

/* The xboard name of a variant (NULL when it has none). */
const char *xboard_variant_name(const Variant *v);

/* The value of `feature variants=`: every name, comma-separated (XBOARD_SETUP_MAX is enough). */
void xboard_variant_list(char *out, size_t outlen);

/* The `setup` line an engine-defined variant sends in reply to `variant` (the piece letters,
 * the board and the parent variant whose rules XBoard applies, then the start position): true
 * with the line in out; false for a variant XBoard knows by itself. */
bool xboard_variant_setup(const Variant *v, char *out, size_t outlen);

/* A movement in the notation xboard reads: coordinates with a lower-case promotion letter
 * (e7e8q, b7b8c), castling as the king's move (e1g1, f1i1), except in the shuffle variants
 * (fischerandom, caparandom), where it is O-O or O-O-O, as XBoard itself sends it there. */
#define XBOARD_MOVE_MAX 8
void xboard_move_text(Move m, const Variant *v, char out[XBOARD_MOVE_MAX]);

#endif

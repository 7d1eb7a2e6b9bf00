/* SPDX-License-Identifier: MIT */
/* The openings of a match: the position each game pair starts from, a pure function of the
 * configuration and the pair's number, so that the same match gives the same games however many
 * ranks and threads play it. A position is the variant's start, a random start array, or a line
 * of an opening file (FEN, or EPD: its first four fields), followed by a number of random legal
 * turns drawn from the seed. */
#ifndef CARRERA_OPENINGS_H
#define CARRERA_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_config.h"
#include "position.h"

typedef struct Openings {
    const MatchConfig *cfg;
    Setup *lines; /* OPENINGS_FILE: every position of the file, checked */
    size_t n_lines;
    bool edit_only; /* a player is an xboard engine: only positions edit can set up */
} Openings;

/* Prepares the openings of c (reading and checking the whole file for OPENINGS_FILE: a bad
 * line is reported with the file and line before any game is played). Returns 0, or -1 with a
 * message in err. */
int openings_load(Openings *o, const MatchConfig *c, char *err, size_t errlen);
void openings_free(Openings *o);

/* The start position of game (0 or 1) of pair number pair (0, 1, ...): the same for both games
 * of a pair, except in a material-odds match (MatchConfig imbalances): there the pair's
 * imbalance changes the material of the side player 1 does not play (Black in game 1, White in
 * game 2) before the random turns. Random turns never end the game: an
 * opening whose random turns would is drawn again, and so is one that the xboard protocol's edit
 * command cannot set up (a castling right lost by a king or rook that went back to its square, an
 * en passant square) when a player is an xboard engine: such an engine may lack setboard, and the
 * openings must not depend on what an engine says (every rank computes them alone). With
 * opening_balance, so is one that Carrera's own search (opening_nodes nodes, one thread, a fresh
 * table, the default evaluation: deterministic) scores beyond +-opening_balance. Returns 0, or
 * -1 with a message when no opening with the game still on (and balanced) can be found (a position
 * with hardly any play left) or the imbalance does not fit the array. */
int openings_position(const Openings *o, uint64_t pair, int game, Position *out, char *err,
                      size_t errlen);

/* Both games' start positions of pair (out[0] for game 0, out[1] for game 1), as
 * openings_position gives them; a pair without an imbalance is drawn once for both. Returns 0, or
 * -1 with its message. */
int openings_pair(const Openings *o, uint64_t pair, Position out[2], char *err, size_t errlen);

#endif

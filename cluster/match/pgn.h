/* SPDX-License-Identifier: MIT */
/* PGN of a match's games: the seven standard tags plus Variant, TurnRules and EnPassantRule
 * (double-move rule sets), SetUp and FEN, PlyCount, TimeControl-free limits in a comment, and
 * Termination; the movetext in SAN, double-move turns in the source notation of docs/rules.md 4.1
 * rule 7 (1.e4/Nf3//e5/Nc6), lines at most 79 characters. */
#ifndef CARRERA_PGN_H
#define CARRERA_PGN_H

#include <stdio.h>

#include "referee.h"

typedef struct PgnGame {
    const char *event, *site, *date; /* date as YYYY.MM.DD */
    const char *round;               /* "pair.game", e.g. "12.2" */
    const char *white, *black;       /* player names */
    const char *limits;              /* the players' limits in words, for a comment; may be NULL */
    const GameRecord *record;
} PgnGame;

/* Writes one game and a blank line after it. Returns 0, or -1 with a message in err when a turn
 * cannot be written (never for a game a match played) or the stream fails. */
int pgn_write(FILE *out, const PgnGame *g, char *err, size_t errlen);

/* "1-0", "0-1" or "1/2-1/2". */
const char *pgn_result(int result);

#endif

/* Perft as a user sees it: optionally the count below each root move ("divide"), then
 * `Nodes searched: N`, in the format of Stockfish's `go perft` so the outputs of Carrera,
 * Stockfish and Fairy-Stockfish can be compared line by line. Shared by the perft command and
 * the UCI loop, which must print exactly the same thing. */
#ifndef CARRERA_DIVIDE_H
#define CARRERA_DIVIDE_H

#include <stdio.h>

#include "position.h"

/* Deepest perft the command line accepts: far beyond anything that finishes, small enough
 * that a typo (300 for 3) is caught. */
#define PERFT_MAX_DEPTH 30

/* Reads a depth: a plain decimal number from 0 to PERFT_MAX_DEPTH. Returns 0, or -1 with a
 * message in err. */
int divide_parse_depth(const char *text, int *depth, char *err, size_t errlen);

/* Runs perft(p, depth) and prints it to out: with divide, one `move: count` line per legal
 * move in generation order (castling text king-takes-rook when castle960) and a blank line;
 * then `Nodes searched: N`. Returns the total. */
uint64_t divide_print(FILE *out, const Position *p, int depth, bool divide, bool castle960);

#endif

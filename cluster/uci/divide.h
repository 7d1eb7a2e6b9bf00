/* SPDX-License-Identifier: MIT */
/* Perft as a user sees it: optionally the count below each root move ("divide"), then
 * `Nodes searched: N`, in the format of Stockfish's `go perft` so the outputs of Carrera,
 * Stockfish and Fairy-Stockfish can be compared line by line. Shared by the perft command and
 * the UCI loop, which must print exactly the same thing. */
#ifndef CARRERA_DIVIDE_H
#define CARRERA_DIVIDE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perft.h"
#include "position.h"
#include "turn.h"

/* Deepest perft the command line accepts: far beyond anything that finishes, small enough
 * that a typo (300 for 3) is caught. */
#define PERFT_MAX_DEPTH 30

/* Longest move (or turn) text kept from a divide line, with the NUL. */
#define DIVIDE_MOVE_MAX 40

/* One `move: count` line of a divide. */
typedef struct DivideLine {
    char move[DIVIDE_MOVE_MAX];
    uint64_t count;
} DivideLine;

/* A whole divide: the lines in the order printed, and their sum. Under double-move rules a
 * position can have tens of thousands of turns, so the list grows as needed. */
typedef struct Divide {
    DivideLine *v;
    size_t n, cap;
    uint64_t total;
} Divide;

/* Appends a line; false when memory runs out. */
bool divide_add(Divide *d, const char *move, uint64_t count);
void divide_clear(Divide *d);
void divide_free(Divide *d);

/* Reads a whole decimal count (blanks, digits, then nothing); false for anything else. */
bool divide_parse_count(const char *text, uint64_t *count);

/* Reads a divide line "MOVE<sep>COUNT" (the move one word: ':' in `go perft` answers, ' ' in
 * perftree's); false for anything else. */
bool divide_parse_line(const char *line, char sep, char move[DIVIDE_MOVE_MAX], uint64_t *count);

/* Reads a depth: a plain decimal number from 0 to PERFT_MAX_DEPTH. Returns 0, or -1 with a
 * message in err. */
int divide_parse_depth(const char *text, int *depth, char *err, size_t errlen);

/* What perft counts under double-move rules: complete turns (the default) or movements. */
typedef enum PerftUnit { UNIT_TURN, UNIT_MOVEMENT } PerftUnit;

/* How a perft runs: threads (0: OpenMP's default), hash table size (0: none), and whether
 * progress goes to stderr. */
typedef struct PerftRunOptions {
    int threads;
    size_t hash_bytes;
    bool quiet;
} PerftRunOptions;

/* Runs perft of depth units under the rules r and prints it to out: with divide, one
 * `move: count` line per legal move in generation order (castling text king-takes-rook when
 * castle960), for double-move rules one `e2e4/g1f3: count` line per complete turn (by movement
 * unit: one line per first movement), and a blank line; under double-move rules or by movement
 * a line `Unit: ...` naming what was counted; then `Nodes searched: N`. Counting by turn (and
 * every single-move perft) runs on the threads and table of o; counting by movement, a debugging
 * aid, on one thread. Returns 0, or -1 (after a message on stderr) when memory runs out. */
int divide_print(FILE *out, const Position *p, const Rules *r, PerftUnit unit, int depth,
                 bool divide, bool castle960, const PerftRunOptions *o);

#endif

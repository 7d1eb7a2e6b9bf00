/* SPDX-License-Identifier: MIT */
/* The positions of Texel's method from recorded games (`carrera texel-data`, docs/texel.md):
 * every game replayed from its opening, each position at a turn boundary past the opening
 * resolved to its quiet leaf (core/engine/quiet.h) and written with the game's result as a row of
 * the data file (texel_file.h). State and arithmetic; h5/match_games.h feeds it the games. */
#ifndef CARRERA_TEXEL_DATA_H
#define CARRERA_TEXEL_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "eval.h"
#include "game_record.h"
#include "rules.h"
#include "variant.h"

/* What the extraction saw, position by position: every position at a turn boundary (before each
 * turn) of a game not lost by a fault is counted once in exactly one of opening, in_check,
 * not_single, leaf_check and written. */
typedef struct TexelCounts {
    uint64_t games, faults, pairs;
    uint64_t opening;    /* among the first skip_plies turns */
    uint64_t in_check;   /* the side to move in check */
    uint64_t not_single; /* not a position of single-move chess (Galvin's king left attacked) */
    uint64_t leaf_check; /* its quiet leaf in check (a capture that gives check ends the line) */
    uint64_t written;
    uint64_t resolved; /* of the written: a leaf other than the position itself */
} TexelCounts;

typedef struct TexelData {
    FILE *out; /* the rows */
    int skip_plies;
    Eval eval; /* the quiet leaves' evaluation */
    TexelCounts counts;
    /* the file being read */
    const Variant *variant;
    Rules rules;
    const char *last_path;
    uint64_t last_pair;
} TexelData;

/* Starts an extraction into out, the turns of each game before skip_plies left out, the leaves
 * resolved with the evaluation params. 0, or -1 with a message (a negative skip_plies). */
int texel_data_start(TexelData *d, FILE *out, int skip_plies, const EvalParams *params, char *err,
                     size_t errlen);

/* The variant, turn rules and en passant rule (by name) of the games of the file at path, which
 * come next; files of any variant and rules may follow each other. 0, or -1 with a message
 * naming the file. */
int texel_data_file(TexelData *d, const char *path, const char *variant, const char *turns,
                    const char *ep, char *err, size_t errlen);

/* Replays g, each turn checked legal, and writes the rows of its positions. Games lost by a
 * player's fault (time, crash, illegal move, ...) are replayed and give none: their result says
 * nothing about the positions. Returns 0, or -1 with a message naming the file, the row and for
 * a bad turn the turn; or when a row cannot be written. */
int texel_data_game(TexelData *d, const RecordedGame *g, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/* The search of `carrera bisect`, shared with `carrera verify`: Carrera's divide (in process)
 * against an external engine's, descending into a move whose counts differ, one ply shallower
 * each time, until the position whose move lists differ. The result is data (a Finding) that
 * each command prints or records in its own way. */
#ifndef CARRERA_BISECT_SEARCH_H
#define CARRERA_BISECT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "exit_status.h"
#include "oracle.h"
#include "position.h"
#include "setup.h"
#include "turn.h"

/* The move path from the root: at most PERFT_MAX_DEPTH turns. */
#define PATH_TEXT_MAX ((PERFT_MAX_DEPTH + 1) * (TURN_TEXT_MAX + 1))

/* Outcomes of a search; also bisect's exit statuses (exit_status.h). */
#define BISECT_SAME      EXIT_OK       /* the divides agree at the root */
#define BISECT_DIFFERENT EXIT_NEGATIVE /* a difference was found */
#define BISECT_FAILED    EXIT_FAILED   /* the engine failed (or memory ran out) */

/* What a difference is. */
typedef enum FindingKind {
    FINDING_NONE,    /* the divides agree */
    FINDING_LISTS,   /* the move (turn) lists differ at fen */
    FINDING_PLAYING, /* the engine counts a move differently from the position it leads to */
    FINDING_COUNTS   /* the same moves at depth 1, some counted as other than 1 */
} FindingKind;

typedef struct Finding {
    FindingKind kind;
    char path[PATH_TEXT_MAX]; /* from the root to fen, "" at the root */
    char fen[FEN_MAX];        /* the position of the difference (PLAYING: the move's parent) */
    int depth;                /* the depth of the divides there */
    size_t n_moves;           /* NONE: the root's moves (turns), and its nodes */
    uint64_t nodes;
    /* The moves behind the difference, space-separated, "" for none: LISTS, those only Carrera
     * (ours) and only the engine (theirs) lists; PLAYING, the move (ours); COUNTS, the moves
     * counted differently (ours). */
    char *ours, *theirs;
    char *report; /* the lines bisect prints (difference:, root:, path:, fen:, ...) */
} Finding;

void finding_free(Finding *f);

/* The rules a search runs under and how it writes positions and moves. */
typedef struct BisectRules {
    const Variant *variant;
    Rules rules;
    bool castle960;    /* castling text king-takes-rook, as the engine is told to write it */
    FenCastling style; /* castling rights in every FEN sent and printed */
} BisectRules;

/* The rules for variant v: castling text and FEN style as the engine is set up to use them. */
BisectRules bisect_rules(const Variant *v, Rules r);

/* FEN of p in the style of b. */
void bisect_fen(const BisectRules *b, const Position *p, char fen[FEN_MAX]);

/* Searches from root at depth (1 or more) against the engine: BISECT_SAME or BISECT_DIFFERENT
 * with *f filled (free it with finding_free), or BISECT_FAILED with the engine's failure in err.
 * Unless quiet, a line per step on stderr. */
int bisect_search(const BisectRules *b, Oracle *engine, const Position *root, int depth, bool quiet,
                  Finding *f, char *err, size_t errlen);

#endif

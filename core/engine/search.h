/* SPDX-License-Identifier: MIT */
/* The engine's search: iterative deepening over complete turns with principal variation search,
 * a transposition table, quiescence, null move, late move reductions and a check extension.
 * A turn is one movement under single-move rules and one or two under the double-move rules, so
 * the score changes sign only at turn boundaries and every rule set's game ends are scored where
 * the turn rules say. One Searcher is one thread's search; with a node limit its result depends
 * only on its inputs and on what its table holds (searcher_clear empties it). */
#ifndef CARRERA_SEARCH_H
#define CARRERA_SEARCH_H

#include <stdatomic.h>

#include "eval.h"
#include "turn.h"

#define MAX_PLY    128
#define SCORE_MATE 32000
#define SCORE_INF  32500
/* Scores beyond this are mates: SCORE_MATE - n means mate n turns from the root. */
#define SCORE_MATE_BOUND (SCORE_MATE - MAX_PLY)

typedef struct SearchLimits {
    int depth;           /* in turns; 0: no limit */
    uint64_t nodes;      /* 0: no limit */
    int64_t movetime_ms; /* 0: no limit */
    int64_t time_ms[2];  /* clock of White and Black; negative: no clock */
    int64_t inc_ms[2];
    int movestogo; /* 0: sudden death */
    bool infinite; /* only depth, nodes and the stop flag end it */
} SearchLimits;

/* A limit that sets nothing: every field zero, clocks absent. */
SearchLimits search_limits_none(void);

/* What an iteration found, for `info` lines. */
typedef struct SearchReport {
    int depth, seldepth;
    int score; /* centipawns from the root side's view */
    int mate;  /* non-zero: mate in that many of the root side's turns (< 0: mated) */
    bool lowerbound, upperbound;
    uint64_t nodes;
    int64_t ms;
    int hashfull; /* per mille */
    int pv_len;
    Turn pv[MAX_PLY];
} SearchReport;

typedef void (*SearchReportFn)(const SearchReport *report, void *ctx);

typedef struct SearchInput {
    const Position *root;
    const Rules *rules;
    const Eval *eval;
    /* Keys of the positions before the root at turn boundaries, oldest first, the root's own
     * excluded: a repetition of one of them in the tree is scored as a draw. */
    const u128 *history;
    size_t n_history;
    SearchLimits limits;
    atomic_bool *stop;     /* may be NULL; set by another thread to end the search */
    SearchReportFn report; /* may be NULL; called after every iteration */
    void *ctx;
} SearchInput;

typedef struct Searcher Searcher;

/* A searcher with a transposition table of at most hash_mb MiB (at least one bucket);
 * NULL when memory runs out. */
Searcher *searcher_new(size_t hash_mb);
void searcher_free(Searcher *s);

/* Replaces the table by one of hash_mb MiB (emptied); false, the old table kept, when memory
 * runs out. */
bool searcher_resize(Searcher *s, size_t hash_mb);

/* Empties the table and the move-ordering statistics: a new game. */
void searcher_clear(Searcher *s);

/* Searches in->root and returns the best turn (n == 0 when the root has no legal turn); *final
 * (may be NULL) receives the last complete iteration's report. */
Turn search_run(Searcher *s, const SearchInput *in, SearchReport *final);

/* How many milliseconds a search under l for side may use at most, and in *soft after how many
 * no new iteration starts; 0 (both) for no time limit. Exposed for tests. */
int64_t search_time_budget(const SearchLimits *l, int side, int64_t *soft);

#endif

/* SPDX-License-Identifier: MIT */
/* The engine's search: iterative deepening over complete turns with principal variation search,
 * a transposition table, quiescence, null move, late move reductions and a check extension.
 * A turn is one movement under single-move rules and one or two under the double-move rules, so
 * the score changes sign only at turn boundaries and every rule set's game ends are scored where
 * the turn rules say. A Searcher searches on the calling thread and, with more than one thread
 * (searcher_set_threads), on helper threads too, all over one shared table (Lazy SMP); with one
 * thread and a node limit its result depends only on its inputs and on what its table holds
 * (searcher_clear empties it). With MultiPV (SearchInput.multipv) each iteration finds the best
 * root turns one after another, each searched without the ones found before it; with searchmoves
 * only the root turns listed are searched. */
#ifndef CARRERA_SEARCH_H
#define CARRERA_SEARCH_H

#include <stdatomic.h>

#include "eval.h"
#include "search_params.h"
#include "turn.h"

#define MAX_PLY    128
#define SCORE_MATE 32000
#define SCORE_INF  32500
/* Scores beyond this are mates: SCORE_MATE - n means mate n turns from the root. */
#define SCORE_MATE_BOUND (SCORE_MATE - MAX_PLY)

/* The most threads and principal variations a search takes. */
#define SEARCH_THREADS_MAX 256
#define SEARCH_MULTIPV_MAX 256

typedef struct SearchLimits {
    int depth;           /* in turns; 0: no limit */
    uint64_t nodes;      /* 0: no limit; with several threads, all of their nodes together */
    int64_t movetime_ms; /* 0: no limit */
    int64_t time_ms[2];  /* clock of White and Black; negative: no clock */
    int64_t inc_ms[2];
    int movestogo; /* 0: sudden death */
    bool infinite; /* only depth, nodes and the stop flag end it */
    /* what each reply costs on the clock besides the search (the process's and the GUI's
     * latency): kept free on every move, and on the last one before a time control */
    int64_t overhead_ms;
} SearchLimits;

#define SEARCH_OVERHEAD_DEFAULT_MS 10
#define SEARCH_OVERHEAD_MAX_MS     5000

/* A limit that sets nothing: every field zero but the overhead (its default), clocks absent. */
SearchLimits search_limits_none(void);

/* What an iteration found for one principal variation, for `info` lines. */
typedef struct SearchReport {
    int multipv; /* which of the best root turns, from 1 */
    int depth, seldepth;
    int score; /* centipawns from the root side's view */
    int mate;  /* non-zero: mate in that many of the root side's turns (< 0: mated) */
    bool lowerbound, upperbound;
    uint64_t nodes; /* of every thread */
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
    const SearchParams *params; /* NULL: search_params_default's */
    /* Keys of the positions before the root at turn boundaries, oldest first, the root's own
     * excluded: a repetition of one of them in the tree is scored as a draw. */
    const u128 *history;
    size_t n_history;
    SearchLimits limits;
    atomic_bool *stop; /* may be NULL; set by another thread to end the search */
    int multipv;       /* the best root turns to find, each with its line (0 or 1: one) */
    /* Only these root turns are searched (UCI's searchmoves); those that are not turns of the root
     * are left out, and with none left (or n_searchmoves 0) every turn is searched. */
    const Turn *searchmoves;
    size_t n_searchmoves;
    SearchReportFn report; /* may be NULL; called after every iteration, once per line, best
                            * first, on the calling thread */
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

/* Searches on n threads (1 to SEARCH_THREADS_MAX) from now on: the calling one and n - 1
 * helpers; false, the threads as they were, when the system refuses a thread or memory runs
 * out. */
bool searcher_set_threads(Searcher *s, int n);

/* Empties the table and the move-ordering statistics: a new game. */
void searcher_clear(Searcher *s);

/* Searches in->root and returns the best turn (n == 0 when the root has no legal turn); *final
 * (may be NULL) receives the report of the turn's line, its nodes those of the whole search: the
 * last complete iteration's, or the unfinished one's when that found a better turn (then it goes
 * to the reports too, last). With several threads the turn is that of the thread that completed the
 * deepest iteration, the calling thread's on a tie (with MultiPV always the calling thread's). */
Turn search_run(Searcher *s, const SearchInput *in, SearchReport *final);

/* How many milliseconds a search under l for side may use at most, and in *soft after how many
 * no new iteration starts; 0 (both) for no time limit. Exposed for tests. */
int64_t search_time_budget(const SearchLimits *l, int side, int64_t *soft);

#endif

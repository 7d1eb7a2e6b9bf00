/* SPDX-License-Identifier: MIT */
/* The engine session: everything a protocol front end (the UCI server, Carrera's own player in a
 * match, the bench) drives, and nothing of a protocol. It owns the game being played (its start,
 * the turns since and their keys, which the search needs for repetitions), the evaluation
 * parameters in their prepared form, the transposition table and the searcher with its threads.
 * A front end only translates its protocol into these calls, so a second protocol is one new file
 * beside the first.
 *
 * Threads. A session is driven by one thread at a time, except for its search: engine_search may
 * run in a thread of its own (the UCI server's search thread) while the driving thread waits for
 * commands. During a search:
 *   - the only way to reach it is the stop flag the caller passed in EngineGo, which any thread
 *     may set (the caller clears it before the search starts, so a stop that comes early is not
 *     lost);
 *   - engine_game() and engine_eval_params() may be read by any thread (the search only reads);
 *   - every call that changes the session (and a second engine_search) fails at once with an
 *     error instead of racing with the search: the front end must stop the search and wait for
 *     its thread (join) first, which is also what orders the search's writes before its next
 *     reads.
 * The search itself may run on several threads (engine_set_threads): they are the session's own,
 * started by it and idle between searches, and they have stopped when engine_search returns.
 * Distinct sessions share nothing: any number of threads may each drive their own. */
#ifndef CARRERA_ENGINE_H
#define CARRERA_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "eval.h"
#include "game.h"
#include "search.h"

/* The table size a session starts with unless told otherwise, and the largest it accepts. */
#define ENGINE_HASH_DEFAULT_MB 16
#define ENGINE_HASH_MAX_MB     65536

typedef struct Engine Engine;

/* A session with a hash_mb MiB table (1 to ENGINE_HASH_MAX_MB), the evaluation parameters params
 * and the game at the start of standard chess under single-move rules. NULL with a message in err
 * when memory runs out or hash_mb is out of range. */
Engine *engine_new(size_t hash_mb, const EvalParams *params, char *err, size_t errlen);
void engine_free(Engine *e);

/* The game as it stands: start, turns, current position, rules, castling notation. The pointer
 * stays valid for the session's life; what it points to changes with the calls below. */
const Game *engine_game(const Engine *e);

/* A new game from start (a turn boundary) under rules r, castling written king-takes-rook when
 * castle960: the game so far, the table and the move-ordering statistics are forgotten. Returns
 * 0, or -1 with err (the session unchanged) when memory runs out or a search is running. */
int engine_new_game(Engine *e, const Position *start, const Rules *r, bool castle960, char *err,
                    size_t errlen);

/* Sets the game to start followed by turns[0..n) under rules r; the table is kept (a GUI sends
 * the whole game before every search). Stops at the first turn that is not legal where it comes
 * (or that memory runs out for): the game is then the position before it. Returns the number of
 * turns played (n when all were), or -1 with err, the game unchanged, when memory runs out at the
 * start or a search is running. When the game already holds a prefix of this one (same start,
 * rules and turns), only the turns after it are played: a match asks every turn. */
int engine_set_position(Engine *e, const Position *start, const Rules *r, bool castle960,
                        const Turn *turns, int n, char *err, size_t errlen);

/* The same with the turns in UCI text (a double-move turn's movements joined by ',' or '/'). */
int engine_set_position_text(Engine *e, const Position *start, const Rules *r, bool castle960,
                             const char *const *turns, int n, char *err, size_t errlen);

/* Changes the rules the game goes on under and how castling is written, its turns kept (a UCI
 * option may change them between `position` commands). 0, or -1 with err during a search. */
int engine_set_rules(Engine *e, const Rules *r, bool castle960, char *err, size_t errlen);

/* The evaluation parameters searches use from now on (the table is kept: scores of the old ones
 * may stay in it until engine_clear_hash). These are the session's values over the single-move
 * defaults: a search under a double-move rule set uses them resolved by eval_turns_resolve (each
 * value the session left at its single-move default takes that rule set's fitted one), and
 * engine_eval_params returns them as set. engine_set_eval_param sets one by name from text and
 * fails with eval_param_set's message for an unknown name or a bad value. 0, or -1 with err. */
int engine_set_eval(Engine *e, const EvalParams *params, char *err, size_t errlen);
int engine_set_eval_param(Engine *e, const char *name, const char *value, char *err, size_t errlen);
const EvalParams *engine_eval_params(const Engine *e);

/* The search parameters searches use from now on (a session starts with the defaults);
 * engine_set_search_param sets one by name from text and fails with search_param_set's message
 * for an unknown name or a bad value. 0, or -1 with err. */
int engine_set_search(Engine *e, const SearchParams *params, char *err, size_t errlen);
int engine_set_search_param(Engine *e, const char *name, const char *value, char *err,
                            size_t errlen);
const SearchParams *engine_search_params(const Engine *e);

/* Replaces the table by an empty one of hash_mb MiB (1 to ENGINE_HASH_MAX_MB). 0, or -1 with err
 * (the old table kept) when out of range, out of memory or during a search. */
int engine_set_hash(Engine *e, size_t hash_mb, char *err, size_t errlen);

/* Searches on n threads (1 to SEARCH_THREADS_MAX; a session starts with 1) sharing the table
 * (search.h). 0, or -1 with err when out of range, during a search or when the system refuses a
 * thread (the old number kept). */
int engine_set_threads(Engine *e, int n, char *err, size_t errlen);

/* Empties the table and the move-ordering statistics, the game kept. 0, or -1 during a search. */
int engine_clear_hash(Engine *e, char *err, size_t errlen);

/* How to search: the limits, the stop flag (may be NULL; set by any thread to end the search), the
 * number of best root turns to find with their lines (MultiPV; 0 or 1: one), the root turns to
 * search (searchmoves, n_searchmoves of them; 0: all) and the callback (may be NULL) called with
 * ctx after every completed iteration, once per line, in the searching thread. */
typedef struct EngineGo {
    SearchLimits limits;
    atomic_bool *stop;
    int multipv;
    const Turn *searchmoves;
    size_t n_searchmoves;
    SearchReportFn report;
    void *ctx;
} EngineGo;

/* What a search found. */
typedef struct EngineResult {
    Turn best;          /* n == 0: no turn to play (the game is over, or memory ran out) */
    GameEnd end;        /* with best.n == 0, how the position stands (GAME_ON: memory ran out);
                         * GAME_ON otherwise */
    SearchReport final; /* the last complete iteration; its nodes count the whole search */
} EngineResult;

/* Searches the game's current position with its history. Returns 0 with *out filled, or -1 with
 * err when a search is already running or the session is being changed (see the top). */
int engine_search(Engine *e, const EngineGo *go, EngineResult *out, char *err, size_t errlen);

#endif

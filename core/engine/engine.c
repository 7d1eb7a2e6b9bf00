/* SPDX-License-Identifier: MIT */
/* The engine session (engine.h). One atomic flag guards it: a search holds it for its whole
 * length and every change for the moment it takes, so a change that overlaps a search (or a
 * second search) fails with a message instead of racing with it. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "eval_turns.h"
#include "setup.h"
#include "variant.h"

struct Engine {
    atomic_bool busy; /* a search or a change holds the session */
    Game game;
    EvalParams params; /* the session's, over the single-move defaults */
    /* params resolved for the rule set eval_turns (eval_turns.h) and prepared: read by the
     * search, prepared again when a search finds its game under other rules */
    Eval eval;
    TurnRules eval_turns;
    SearchParams search;
    Searcher *searcher;
};

/* The evaluation of the session's parameters under the game's rule set. */
static void prepare_eval(Engine *e)
{
    EvalParams used;
    eval_turns_resolve(&e->params, e->game.rules.turns, &used);
    eval_prepare(&e->eval, &used);
    e->eval_turns = e->game.rules.turns;
}

/* Takes the session for a search or a change; false with a message when it is taken. */
static bool take(Engine *e, char *err, size_t errlen)
{
    bool expected = false;
    if (atomic_compare_exchange_strong(&e->busy, &expected, true))
        return true;
    errmsg_set(err, errlen, "a search is running: stop it first");
    return false;
}

static void give_back(Engine *e) { atomic_store(&e->busy, false); }

static bool hash_in_range(size_t hash_mb, char *err, size_t errlen)
{
    if (hash_mb >= 1 && hash_mb <= ENGINE_HASH_MAX_MB)
        return true;
    errmsg_set(err, errlen, "the table takes 1 to %d MiB, not %zu", ENGINE_HASH_MAX_MB, hash_mb);
    return false;
}

Engine *engine_new(size_t hash_mb, const EvalParams *params, char *err, size_t errlen)
{
    if (!hash_in_range(hash_mb, err, errlen))
        return NULL;
    Engine *e = calloc(1, sizeof *e);
    if (!e) {
        errmsg_set(err, errlen, "out of memory");
        return NULL;
    }
    atomic_init(&e->busy, false);
    e->params = *params;
    search_params_default(&e->search);
    Setup s;
    Position start;
    setup_start(&s, variant_by_name("chess"));
    position_from_setup(&start, &s);
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    e->searcher = searcher_new(hash_mb);
    if (!e->searcher || !game_init(&e->game, &start, &single, false)) {
        errmsg_set(err, errlen, "no memory for a %zu MiB table", hash_mb);
        engine_free(e);
        return NULL;
    }
    prepare_eval(e);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    game_free(&e->game);
    searcher_free(e->searcher);
    free(e);
}

const Game *engine_game(const Engine *e) { return &e->game; }

const EvalParams *engine_eval_params(const Engine *e) { return &e->params; }

/* The game starts again at start (the old one kept when memory runs out: false, a message). */
static bool restart(Engine *e, const Position *start, const Rules *r, bool castle960, char *err,
                    size_t errlen)
{
    Game g;
    if (!game_init(&g, start, r, castle960)) {
        errmsg_set(err, errlen, "out of memory");
        return false;
    }
    game_free(&e->game);
    e->game = g;
    return true;
}

int engine_new_game(Engine *e, const Position *start, const Rules *r, bool castle960, char *err,
                    size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    if (!restart(e, start, r, castle960, err, errlen)) {
        give_back(e);
        return -1;
    }
    searcher_clear(e->searcher);
    give_back(e);
    return 0;
}

/* Whether a and b are the same position: by their FEN (castling written as each was read), which
 * says everything a position holds, since comparing the structs' bytes would read their padding.
 * The keys turn most other positions away first. */
static bool same_position(const Position *a, const Position *b)
{
    if (a->variant != b->variant || a->castling_text != b->castling_text ||
        position_key128(a) != position_key128(b))
        return false;
    Setup s;
    char fa[FEN_MAX], fb[FEN_MAX];
    position_to_setup(a, &s);
    setup_to_fen(&s, a->castling_text, fa, sizeof fa);
    position_to_setup(b, &s);
    setup_to_fen(&s, b->castling_text, fb, sizeof fb);
    return strcmp(fa, fb) == 0;
}

/* How many of turns[0..n) the session's game already holds, played from the same start under the
 * same rules; -1 when it is another game. */
static int common_prefix(const Game *g, const Position *start, const Rules *r, bool castle960,
                         const Turn *turns, int n)
{
    if (g->rules.turns != r->turns || g->rules.ep != r->ep || g->castle960 != castle960 ||
        g->n_turns > (size_t)n || !same_position(&g->start, start))
        return -1;
    for (size_t i = 0; i < g->n_turns; i++) {
        const Turn *a = &g->turns[i], *b = &turns[i];
        if (a->n != b->n || a->m[0] != b->m[0] || (a->n == 2 && a->m[1] != b->m[1]))
            return -1;
    }
    return (int)g->n_turns;
}

int engine_set_position(Engine *e, const Position *start, const Rules *r, bool castle960,
                        const Turn *turns, int n, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    int played = common_prefix(&e->game, start, r, castle960, turns, n);
    if (played < 0) {
        if (!restart(e, start, r, castle960, err, errlen)) {
            give_back(e);
            return -1;
        }
        played = 0;
    }
    while (played < n && game_play(&e->game, &turns[played]))
        played++;
    give_back(e);
    return played;
}

int engine_set_position_text(Engine *e, const Position *start, const Rules *r, bool castle960,
                             const char *const *turns, int n, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    Game g;
    if (!game_init(&g, start, r, castle960)) {
        give_back(e);
        return errmsg_fail(err, errlen, "out of memory");
    }
    int played = 0;
    while (played < n && game_play_text(&g, turns[played]))
        played++;
    game_free(&e->game);
    e->game = g;
    give_back(e);
    return played;
}

int engine_set_rules(Engine *e, const Rules *r, bool castle960, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    e->game.rules = *r;
    e->game.castle960 = castle960;
    give_back(e);
    return 0;
}

int engine_set_eval(Engine *e, const EvalParams *params, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    e->params = *params;
    prepare_eval(e);
    give_back(e);
    return 0;
}

int engine_set_eval_param(Engine *e, const char *name, const char *value, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    int rc = eval_param_set(&e->params, name, value, err, errlen);
    if (rc == 0)
        prepare_eval(e);
    give_back(e);
    return rc == 0 ? 0 : -1;
}

int engine_set_search(Engine *e, const SearchParams *params, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    e->search = *params;
    give_back(e);
    return 0;
}

int engine_set_search_param(Engine *e, const char *name, const char *value, char *err,
                            size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    int rc = search_param_set(&e->search, name, value, err, errlen);
    give_back(e);
    return rc == 0 ? 0 : -1;
}

const SearchParams *engine_search_params(const Engine *e) { return &e->search; }

int engine_set_hash(Engine *e, size_t hash_mb, char *err, size_t errlen)
{
    if (!hash_in_range(hash_mb, err, errlen) || !take(e, err, errlen))
        return -1;
    bool ok = searcher_resize(e->searcher, hash_mb);
    give_back(e);
    if (!ok)
        return errmsg_fail(err, errlen, "no memory for a %zu MiB table: the old one is kept",
                           hash_mb);
    return 0;
}

int engine_set_threads(Engine *e, int n, char *err, size_t errlen)
{
    if (n < 1 || n > SEARCH_THREADS_MAX)
        return errmsg_fail(err, errlen, "the search takes 1 to %d threads, not %d",
                           SEARCH_THREADS_MAX, n);
    if (!take(e, err, errlen))
        return -1;
    bool ok = searcher_set_threads(e->searcher, n);
    give_back(e);
    if (!ok)
        return errmsg_fail(err, errlen, "cannot start %d search threads: the old ones are kept", n);
    return 0;
}

int engine_clear_hash(Engine *e, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    searcher_clear(e->searcher);
    give_back(e);
    return 0;
}

int engine_search(Engine *e, const EngineGo *go, EngineResult *out, char *err, size_t errlen)
{
    if (!take(e, err, errlen))
        return -1;
    const Game *g = &e->game;
    if (g->rules.turns != e->eval_turns)
        prepare_eval(e);
    SearchInput in = { .root = &g->pos,
                       .rules = &g->rules,
                       .eval = &e->eval,
                       .params = &e->search,
                       .history = g->keys,
                       .n_history = g->n_turns,
                       .limits = go->limits,
                       .stop = go->stop,
                       .multipv = go->multipv,
                       .searchmoves = go->searchmoves,
                       .n_searchmoves = go->n_searchmoves,
                       .report = go->report,
                       .ctx = go->ctx };
    out->best = search_run(e->searcher, &in, &out->final);
    /* only a position without a turn needs its end worked out (a full generation) */
    out->end = out->best.n ? GAME_ON : position_game_end(&g->pos, &g->rules);
    give_back(e);
    return 0;
}

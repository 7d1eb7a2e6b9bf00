/* SPDX-License-Identifier: MIT */
/* The engine session (core/engine/engine.h): its searches are the searcher's own, a game set again
 * with more turns is the game played from scratch, an illegal turn stops the game before it, and a
 * search running in another thread refuses every change until it is stopped (the UCI server's
 * use; run under the tsan preset, the check that the session shares nothing unguarded). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "errmsg.h"
#include "eval_turns.h"
#include "setup.h"
#include "variant.h"

static Position start_of(const char *variant)
{
    Setup s;
    Position p;
    setup_start(&s, variant_by_name(variant));
    position_from_setup(&p, &s);
    return p;
}

static Engine *new_engine(void)
{
    EvalParams params;
    eval_defaults(&params);
    char err[ERRMSG_LEN];
    Engine *e = engine_new(4, &params, err, sizeof err);
    if (!e)
        fail_msg("engine_new: %s", err);
    return e;
}

static EngineResult search_nodes(Engine *e, uint64_t nodes)
{
    EngineGo go = { .limits = search_limits_none() };
    go.limits.nodes = nodes;
    EngineResult r;
    char err[ERRMSG_LEN];
    if (engine_search(e, &go, &r, err, sizeof err) != 0)
        fail_msg("engine_search: %s", err);
    return r;
}

/* A searcher's own search (a new one, 4 MiB, the rule set's default evaluation) of the game from
 * start after the two turns, with limits and params; *best receives its turn. */
static SearchReport searcher_search(const Position *start, const Rules *rules,
                                    const char *const moves[2], const SearchLimits *limits,
                                    const SearchParams *params, Turn *best)
{
    Game g;
    assert_true(game_init(&g, start, rules, false));
    assert_true(game_play_text(&g, moves[0]) && game_play_text(&g, moves[1]));
    EvalParams eval_params;
    eval_turns_defaults(&eval_params, rules->turns);
    Eval eval;
    eval_prepare(&eval, &eval_params);
    Searcher *s = searcher_new(4);
    SearchInput in = { .root = &g.pos,
                       .rules = &g.rules,
                       .eval = &eval,
                       .params = params,
                       .history = g.keys,
                       .n_history = g.n_turns,
                       .limits = *limits };
    SearchReport final;
    *best = search_run(s, &in, &final);
    searcher_free(s);
    game_free(&g);
    return final;
}

/* The session searches exactly as the searcher does given the same game, table and evaluation:
 * the rule set's own (eval_turns.h) when the session's parameters are the defaults, as under
 * Bennekom's rules, which have fitted values of their own. */
static void search_is_the_searchers(const Rules rules, const char *moves[2])
{
    Position start = start_of("chess");
    Engine *e = new_engine();
    char err[ERRMSG_LEN];
    assert_int_equal(engine_new_game(e, &start, &rules, false, err, sizeof err), 0);
    assert_int_equal(engine_set_position_text(e, &start, &rules, false, moves, 2, err, sizeof err),
                     2);
    EngineResult r = search_nodes(e, 4000);
    SearchLimits limits = search_limits_none();
    limits.nodes = 4000;
    Turn best;
    SearchReport final = searcher_search(&start, &rules, moves, &limits, NULL, &best);
    assert_int_equal(best.n, r.best.n);
    assert_int_equal(best.m[0], r.best.m[0]);
    assert_int_equal(final.nodes, r.final.nodes);
    assert_int_equal(final.score, r.final.score);
    assert_int_equal(r.end, GAME_ON);
    engine_free(e);
}

static void test_search_is_the_searchers(void **state)
{
    (void)state;
    const char *marseillais[] = { "e2e4,d2d4", "d7d5,d5e4" }, *bennekom[] = { "e2e4", "d7d5,d5e4" };
    search_is_the_searchers((Rules){ TURNS_MARSEILLAIS, EP_CLASSIC }, marseillais);
    search_is_the_searchers((Rules){ TURNS_BENNEKOM, EP_CLASSIC }, bennekom);
}

/* The session's search parameters are the searcher's: a depth-limited search with one of them
 * set by name searches the tree the searcher searches with the same parameters, and another
 * tree than the defaults'. */
static void test_search_params_reach_the_search(void **state)
{
    (void)state;
    const Rules rules = { TURNS_SINGLE, EP_CLASSIC };
    Position start = start_of("capablanca");
    const char *moves[] = { "e2e4", "e7e5" };
    uint64_t nodes[2];
    for (int run = 0; run < 2; run++) {
        Engine *e = new_engine();
        char err[ERRMSG_LEN];
        assert_int_equal(engine_new_game(e, &start, &rules, false, err, sizeof err), 0);
        assert_int_equal(
            engine_set_position_text(e, &start, &rules, false, moves, 2, err, sizeof err), 2);
        if (run == 1) {
            assert_int_equal(engine_set_search_param(e, "LmrDivisor", "9999", err, sizeof err), -1);
            assert_non_null(strstr(err, "LmrDivisor: 9999 is out of range 50..600"));
            assert_int_equal(engine_set_search_param(e, "lmrdivisor", "120", err, sizeof err), 0);
            assert_int_equal(engine_search_params(e)->lmr_divisor, 120);
        }
        EngineGo go = { .limits = search_limits_none() };
        go.limits.depth = 8;
        EngineResult r;
        assert_int_equal(engine_search(e, &go, &r, err, sizeof err), 0);
        nodes[run] = r.final.nodes;
        Turn best;
        SearchReport final =
            searcher_search(&start, &rules, moves, &go.limits, engine_search_params(e), &best);
        assert_int_equal(final.nodes, r.final.nodes);
        engine_free(e);
    }
    assert_int_not_equal(nodes[0], nodes[1]);
}

/* A game set turn by turn (the session keeps the turns it has) is the game set at once. */
static void test_growing_game(void **state)
{
    (void)state;
    const Rules rules = { TURNS_SINGLE, EP_CLASSIC };
    Position start = start_of("capablanca");
    Game g;
    assert_true(game_init(&g, &start, &rules, false));
    Engine *grown = new_engine(), *whole = new_engine();
    char err[ERRMSG_LEN];
    assert_int_equal(engine_new_game(grown, &start, &rules, false, err, sizeof err), 0);
    for (int i = 0; i < 12; i++) {
        EngineResult r = search_nodes(grown, 300);
        assert_int_not_equal(r.best.n, 0);
        assert_true(game_play(&g, &r.best));
        int n = (int)g.n_turns;
        assert_int_equal(
            engine_set_position(grown, &g.start, &g.rules, false, g.turns, n, err, sizeof err), n);
    }
    int n = (int)g.n_turns;
    assert_int_equal(
        engine_set_position(whole, &g.start, &g.rules, false, g.turns, n, err, sizeof err), n);
    const Game *a = engine_game(grown), *b = engine_game(whole);
    assert_int_equal(a->n_turns, g.n_turns);
    assert_int_equal(b->n_turns, g.n_turns);
    assert_memory_equal(a->keys, g.keys, (g.n_turns + 1) * sizeof *g.keys);
    assert_memory_equal(b->keys, g.keys, (g.n_turns + 1) * sizeof *g.keys);
    assert_true(position_key128(&a->pos) == position_key128(&g.pos));
    /* a shorter game from the same start replaces the longer one */
    assert_int_equal(
        engine_set_position(grown, &g.start, &g.rules, false, g.turns, 3, err, sizeof err), 3);
    assert_int_equal(engine_game(grown)->n_turns, 3);
    assert_memory_equal(engine_game(grown)->keys, g.keys, 4 * sizeof *g.keys);
    game_free(&g);
    engine_free(grown);
    engine_free(whole);
}

static void test_illegal_turn_and_options(void **state)
{
    (void)state;
    const Rules rules = { TURNS_SINGLE, EP_CLASSIC };
    Position start = start_of("chess");
    const char *moves[] = { "e2e4", "e7e5", "e1e3", "g8f6" };
    Engine *e = new_engine();
    char err[ERRMSG_LEN];
    assert_int_equal(engine_set_position_text(e, &start, &rules, false, moves, 4, err, sizeof err),
                     2);
    assert_int_equal(engine_game(e)->n_turns, 2);
    assert_int_equal(engine_set_hash(e, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "1 to 65536"));
    assert_int_equal(engine_set_hash(e, 2, err, sizeof err), 0);
    assert_int_equal(engine_set_threads(e, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "1 to 256 threads"));
    assert_int_equal(engine_set_threads(e, SEARCH_THREADS_MAX + 1, err, sizeof err), -1);
    /* two threads: the node limit counts both, and the turn is legal */
    assert_int_equal(engine_set_threads(e, 2, err, sizeof err), 0);
    EngineResult two = search_nodes(e, 4000);
    assert_true(two.final.nodes > 0 && two.final.nodes <= 4000);
    Game copy;
    const Game *now = engine_game(e);
    assert_true(game_init(&copy, &now->pos, &now->rules, false));
    assert_true(game_play(&copy, &two.best));
    game_free(&copy);
    assert_int_equal(engine_set_threads(e, 1, err, sizeof err), 0);
    assert_int_equal(engine_set_eval_param(e, "ValueKnightMg", "99999", err, sizeof err), -1);
    assert_non_null(strstr(err, "ValueKnightMg"));
    assert_int_equal(engine_set_eval_param(e, "ValueKnightMg", "400", err, sizeof err), 0);
    assert_int_equal(engine_eval_params(e)->value_mg[KNIGHT], 400);
    /* checkmated: no turn, and the end says so */
    Setup s;
    assert_int_equal(setup_from_fen_rules(&s, variant_by_name("chess"), &rules,
                                          "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", err, sizeof err),
                     0);
    Position mated;
    position_from_setup(&mated, &s);
    assert_int_equal(engine_new_game(e, &mated, &rules, false, err, sizeof err), 0);
    EngineResult r = search_nodes(e, 1000);
    assert_int_equal(r.best.n, 0);
    assert_int_equal(r.end, GAME_CHECKMATE);
    engine_free(e);
}

typedef struct Background {
    Engine *engine;
    atomic_bool stop, started;
    EngineResult result;
    int rc;
} Background;

static void note_started(const SearchReport *r, void *ctx)
{
    (void)r;
    atomic_store(&((Background *)ctx)->started, true);
}

static void *search_in_background(void *arg)
{
    Background *b = arg;
    EngineGo go = {
        .limits = search_limits_none(), .stop = &b->stop, .report = note_started, .ctx = b
    };
    go.limits.infinite = true;
    char err[ERRMSG_LEN];
    b->rc = engine_search(b->engine, &go, &b->result, err, sizeof err);
    return NULL;
}

/* While a search runs in its own thread, every change (and a second search) fails with a message,
 * the game can be read, and the stop flag ends the search; then changes work again. */
static void test_changes_during_a_search_fail(void **state)
{
    (void)state;
    Background b = { .engine = new_engine() };
    atomic_init(&b.stop, false);
    atomic_init(&b.started, false);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, search_in_background, &b), 0);
    while (!atomic_load(&b.started)) {
        struct timespec pause = { 0, 1000000 };
        nanosleep(&pause, NULL);
    }
    char err[ERRMSG_LEN];
    const Rules rules = { TURNS_SINGLE, EP_CLASSIC };
    Position start = start_of("chess");
    const char *moves[] = { "e2e4" };
    EvalParams params;
    eval_defaults(&params);
    assert_int_equal(engine_game(b.engine)->n_turns, 0);
    assert_int_equal(engine_new_game(b.engine, &start, &rules, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "a search is running"));
    assert_int_equal(
        engine_set_position_text(b.engine, &start, &rules, false, moves, 1, err, sizeof err), -1);
    assert_int_equal(engine_set_rules(b.engine, &rules, true, err, sizeof err), -1);
    assert_int_equal(engine_set_eval(b.engine, &params, err, sizeof err), -1);
    assert_int_equal(engine_set_hash(b.engine, 2, err, sizeof err), -1);
    assert_int_equal(engine_clear_hash(b.engine, err, sizeof err), -1);
    assert_int_equal(engine_set_threads(b.engine, 2, err, sizeof err), -1);
    EngineGo go = { .limits = search_limits_none() };
    EngineResult r;
    assert_int_equal(engine_search(b.engine, &go, &r, err, sizeof err), -1);
    atomic_store(&b.stop, true);
    pthread_join(thread, NULL);
    assert_int_equal(b.rc, 0);
    assert_int_not_equal(b.result.best.n, 0);
    assert_int_equal(
        engine_set_position_text(b.engine, &start, &rules, false, moves, 1, err, sizeof err), 1);
    engine_free(b.engine);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_is_the_searchers),
        cmocka_unit_test(test_search_params_reach_the_search),
        cmocka_unit_test(test_growing_game),
        cmocka_unit_test(test_illegal_turn_and_options),
        cmocka_unit_test(test_changes_during_a_search_fail),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

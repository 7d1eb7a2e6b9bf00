/* SPDX-License-Identifier: MIT */
/* The openings of a match (cluster/match/openings.c) when a player is an xboard engine: every
 * position of many pairs, with random turns and material odds, is one the protocol's edit command
 * can set up (an engine without setboard gets nothing else), while the same match between
 * Carrera's own players does draw positions that edit cannot say, so the filter is what makes
 * the difference; and the positions stay a function of the configuration alone. Balanced
 * openings (opening_balance): every position a search of its own scores within the bound, the
 * same for both games and every call, where the same seed unfiltered draws many that are not;
 * and a match file that asks for them without random turns, or with material odds, is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "errmsg.h"
#include "eval.h"
#include "files.h"
#include "openings.h"
#include "xboard_client.h"

#define PAIRS 300

/* The match file of variant with random_plies random turns, its players xboard engines or
 * Carrera's, read into *c. */
static void read_config(MatchConfig *c, const char *variant, int random_plies, bool xboard)
{
    char text[1024], path[512], err[ERRMSG_LEN];
    const char *player = xboard ? "engine = xboard\ncommand = /usr/games/fairymax\n" : "";
    snprintf(text, sizeof text,
             "[match]\nvariant = %s\nimbalances = P, R:NPP\ngames = 600\nrandom_plies = %d\n"
             "seed = 9\n[player1]\n%sdepth = 2\n[player2]\n%sdepth = 2\n",
             variant, random_plies, player, player);
    snprintf(path, sizeof path, "%s/%s.ini", scratch_dir, xboard ? "xboard" : "carrera");
    write_bytes(path, text, strlen(text));
    if (match_config_read(path, c, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* How many of the positions of the first PAIRS pairs edit cannot set up. */
static int not_for_edit(const char *variant, int random_plies, bool xboard)
{
    MatchConfig c;
    Openings o;
    char err[ERRMSG_LEN];
    read_config(&c, variant, random_plies, xboard);
    assert_int_equal(openings_load(&o, &c, err, sizeof err), 0);
    int refused = 0;
    for (uint64_t pair = 0; pair < PAIRS; pair++)
        for (int game = 0; game < 2; game++) {
            Position p, again;
            if (openings_position(&o, pair, game, &p, err, sizeof err) != 0)
                fail_msg("pair %llu: %s", (unsigned long long)pair, err);
            assert_int_equal(openings_position(&o, pair, game, &again, err, sizeof err), 0);
            assert_true(position_key128(&p) == position_key128(&again));
            Setup s;
            position_to_setup(&p, &s);
            char commands[4096];
            refused += xboard_edit_commands(&s, commands, sizeof commands, err, sizeof err) != 0;
        }
    openings_free(&o);
    match_config_free(&c);
    return refused;
}

static void xboard_players_get_positions_edit_can_say(void **state)
{
    (void)state;
    static const char *const variants[] = { "chess", "capablanca", "gothic" };
    for (int i = 0; i < 3; i++) {
        int carrera = not_for_edit(variants[i], 8, false);
        int xboard = not_for_edit(variants[i], 8, true);
        printf("%s: %d of %d positions not for edit between Carrera's players, %d with xboard "
               "players\n",
               variants[i], carrera, 2 * PAIRS, xboard);
        assert_true(carrera > 0);
        assert_int_equal(xboard, 0);
    }
}

#define BALANCE_PAIRS 12
#define BALANCE_CP    100
#define BALANCE_NODES 2000

/* Writes the match file of extra under [match] (Bennekom's rules, 4 random turns, seed 5) and
 * reads it: 0, or -1 with the reader's message in err. */
static int read_balance_config(MatchConfig *c, const char *name, const char *extra, char *err,
                               size_t errlen)
{
    char text[1024], path[512];
    snprintf(text, sizeof text,
             "[match]\nturns = bennekom\ngames = %d\nseed = 5\n%s\n[player1]\nnodes = 1000\n"
             "[player2]\nnodes = 1000\n",
             2 * BALANCE_PAIRS, extra);
    snprintf(path, sizeof path, "%s/%s.ini", scratch_dir, name);
    write_bytes(path, text, strlen(text));
    return match_config_read(path, c, err, errlen);
}

/* The score of p by a search of BALANCE_NODES nodes of a session of the test's own (default
 * evaluation, one thread, an empty table: what the filter runs). */
static int score_of(const Position *p, const Rules *r)
{
    char err[ERRMSG_LEN];
    EvalParams params;
    eval_defaults(&params);
    Engine *e = engine_new(1, &params, err, sizeof err);
    assert_non_null(e);
    assert_int_equal(engine_new_game(e, p, r, false, err, sizeof err), 0);
    EngineGo go = { .limits = search_limits_none() };
    go.limits.nodes = BALANCE_NODES;
    EngineResult res;
    assert_int_equal(engine_search(e, &go, &res, err, sizeof err), 0);
    engine_free(e);
    return res.final.mate ? 100000 : res.final.score;
}

/* How many of the first BALANCE_PAIRS pairs' openings of the match with extra score beyond
 * +-BALANCE_CP, each checked the same for both games and a second call. */
static int unbalanced(const char *extra)
{
    MatchConfig c;
    Openings o;
    char err[ERRMSG_LEN];
    if (read_balance_config(&c, "balance", extra, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(openings_load(&o, &c, err, sizeof err), 0);
    int out = 0;
    for (uint64_t pair = 0; pair < BALANCE_PAIRS; pair++) {
        Position p[2], again;
        for (int game = 0; game < 2; game++)
            if (openings_position(&o, pair, game, &p[game], err, sizeof err) != 0)
                fail_msg("pair %llu: %s", (unsigned long long)pair, err);
        assert_int_equal(openings_position(&o, pair, 0, &again, err, sizeof err), 0);
        assert_true(position_key128(&p[0]) == position_key128(&p[1]));
        assert_true(position_key128(&p[0]) == position_key128(&again));
        int score = score_of(&p[0], &c.rules);
        out += score > BALANCE_CP || score < -BALANCE_CP;
    }
    openings_free(&o);
    match_config_free(&c);
    return out;
}

static void balanced_openings_stay_within_the_bound(void **state)
{
    (void)state;
    char extra[256];
    int any = unbalanced("random_plies = 4");
    snprintf(extra, sizeof extra, "random_plies = 4\nopening_balance = %d\nopening_nodes = %d",
             BALANCE_CP, BALANCE_NODES);
    int balanced = unbalanced(extra);
    printf("Bennekom, 4 random turns: %d of %d openings beyond +-%d cp, %d with opening_balance\n",
           any, BALANCE_PAIRS, BALANCE_CP, balanced);
    assert_true(any >= BALANCE_PAIRS / 4);
    assert_int_equal(balanced, 0);
}

static void balanced_openings_need_random_turns_and_no_odds(void **state)
{
    (void)state;
    MatchConfig c;
    char err[ERRMSG_LEN];
    assert_int_equal(read_balance_config(&c, "no-turns", "opening_balance = 100", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "random_plies > 0"));
    assert_int_equal(read_balance_config(&c, "odds",
                                         "random_plies = 2\nopening_balance = 100\nimbalances = P",
                                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "material odds"));
    assert_int_equal(read_balance_config(&c, "few-nodes",
                                         "random_plies = 2\nopening_balance = 100\n"
                                         "opening_nodes = 10",
                                         err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "opening_nodes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(xboard_players_get_positions_edit_can_say),
        cmocka_unit_test(balanced_openings_stay_within_the_bound),
        cmocka_unit_test(balanced_openings_need_random_turns_and_no_odds),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}

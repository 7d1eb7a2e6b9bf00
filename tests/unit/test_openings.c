/* SPDX-License-Identifier: MIT */
/* The openings of a match (cluster/match/openings.c) when a player is an xboard engine: every
 * position of many pairs, with random turns and material odds, is one the protocol's edit command
 * can set up (an engine without setboard gets nothing else), while the same match between
 * Carrera's own players does draw positions that edit cannot say, so the filter is what makes
 * the difference; and the positions stay a function of the configuration alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(xboard_players_get_positions_edit_can_say),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}

/* SPDX-License-Identifier: MIT */
/* The xboard-protocol client's parsers (cluster/uci/xboard_client.c) on good and bad input:
 * feature lines (quoted values, options, done=0 and done=1, lines the protocol does not allow),
 * the variants and options an engine offers, move lines, moves in every notation an engine may
 * use (10x8 promotions, castling as the king's move, O-O, illegal and unreadable ones), thinking
 * lines, and the commands that set a position up with edit or setboard, with the positions edit
 * cannot say refused. Then what a match file may ask of an xboard player, and the clear errors
 * for what it may not (double-move turns, limits finer than seconds, cores for other engines). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "game.h"
#include "match_config.h"
#include "position.h"
#include "setup.h"
#include "variant.h"
#include "xboard_client.h"

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC };

static void test_feature_lines(void **state)
{
    (void)state;
    XboardFeatures f = { .any = false };
    char err[ERRMSG_LEN];
    assert_int_equal(xboard_features_read(&f,
                                          "feature myname=\"Fairy-Max 5.0b\" ping=1 "
                                          "setboard=0 done=0",
                                          err, sizeof err),
                     XBOARD_FEATURES_WAIT);
    assert_true(f.any);
    assert_string_equal(f.myname, "Fairy-Max 5.0b");
    assert_true(f.ping);
    assert_false(f.setboard);
    assert_int_equal(xboard_features_read(&f,
                                          "feature variants=\"normal,capablanca, gothic\" "
                                          "option=\"Resign Threshold -spin 800 200 1200\" "
                                          "option=\"Clear Hash -button\" usermove=1 nps=1",
                                          err, sizeof err),
                     XBOARD_FEATURES_MORE);
    assert_true(f.usermove && f.nps && !f.memory && !f.smp);
    assert_true(xboard_features_variant(&f, "capablanca"));
    assert_true(xboard_features_variant(&f, "gothic"));
    assert_true(xboard_features_variant(&f, "normal"));
    assert_false(xboard_features_variant(&f, "janus"));
    assert_false(xboard_features_variant(&f, "capa"));
    assert_true(xboard_features_option(&f, "Resign Threshold"));
    assert_true(xboard_features_option(&f, "Clear Hash"));
    assert_false(xboard_features_option(&f, "Resign"));
    assert_int_equal(
        xboard_features_read(&f, "feature memory=1 smp=1 unknown=7 done=1", err, sizeof err),
        XBOARD_FEATURES_DONE);
    assert_true(f.memory && f.smp);

    /* what the protocol does not allow, each with its reason */
    static const char *const bad[][2] = {
        { "feature myname=\"no end", "is not closed" }, { "feature ping", "is not NAME=VALUE" },
        { "feature =1", "is not NAME=VALUE" },          { "featureping=1", "not a feature line" },
        { "move e2e4", "not a feature line" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(xboard_features_read(&f, bad[i][0], err, sizeof err), XBOARD_FEATURES_BAD);
        if (!strstr(err, bad[i][1]))
            fail_msg("'%s': '%s', expected '%s'", bad[i][0], err, bad[i][1]);
    }
    /* a variants list longer than the client keeps */
    char *line = malloc(XBOARD_VARIANTS_MAX + 64);
    assert_non_null(line);
    int n = snprintf(line, 64, "feature variants=\"");
    memset(line + n, 'x', XBOARD_VARIANTS_MAX);
    strcpy(line + n + XBOARD_VARIANTS_MAX, "\"");
    assert_int_equal(xboard_features_read(&f, line, err, sizeof err), XBOARD_FEATURES_BAD);
    assert_non_null(strstr(err, "longer than"));
    free(line);
    /* options beyond the client's room are dropped, never written past it */
    XboardFeatures g = { .any = false };
    for (int i = 0; i < XBOARD_OPTIONS_MAX + 5; i++) {
        char text[128];
        snprintf(text, sizeof text, "feature option=\"Option %d -check 0\"", i);
        assert_int_equal(xboard_features_read(&g, text, err, sizeof err), XBOARD_FEATURES_MORE);
    }
    assert_int_equal(g.n_options, XBOARD_OPTIONS_MAX);
}

static void test_move_lines(void **state)
{
    (void)state;
    char move[16];
    assert_true(xboard_move_line("move e2e4", move, sizeof move));
    assert_string_equal(move, "e2e4");
    assert_true(xboard_move_line("move  e7e8a extra", move, sizeof move));
    assert_string_equal(move, "e7e8a");
    assert_true(xboard_move_line("My move is: O-O", move, sizeof move));
    assert_string_equal(move, "O-O");
    assert_false(xboard_move_line("move ", move, sizeof move));
    assert_false(xboard_move_line("move", move, sizeof move));
    assert_false(xboard_move_line("moves e2e4", move, sizeof move));
    assert_false(xboard_move_line("Illegal move: e2e4", move, sizeof move));
    assert_false(xboard_move_line("move abcdefghijklmnopqrstuvwxyz", move, sizeof move));

    XboardThinking t;
    assert_true(xboard_thinking_line(" 7    21    121    118346  1.  e4  e5", &t));
    assert_int_equal(t.ply, 7);
    assert_int_equal(t.score, 21);
    assert_int_equal(t.nodes, 118346);
    assert_true(xboard_thinking_line("3 -100005 10 99", &t));
    assert_int_equal(t.score, -100005);
    assert_false(xboard_thinking_line("1-0 {White mates}", &t));
    assert_false(xboard_thinking_line("pong 3", &t));
    assert_false(xboard_thinking_line("7. 21 121 118346 e4", &t));
    assert_false(xboard_thinking_line("", &t));
}

/* The game from fen in the variant; free it. */
static void game_at(Game *g, const char *variant, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen(&s, variant_by_name(variant), fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    Position p;
    position_from_setup(&p, &s);
    assert_true(game_init(g, &p, &SINGLE, variant_by_name(variant)->castle960));
}

static void expect_move(const Game *g, const char *text, const char *want)
{
    Turn t;
    char err[ERRMSG_LEN], uci[TURN_TEXT_MAX];
    if (!xboard_parse_move(g, text, &t, err, sizeof err))
        fail_msg("'%s' refused: %s", text, err);
    turn_to_uci(&t, g->pos.variant, g->castle960, uci);
    assert_string_equal(uci, want);
}

static void expect_bad_move(const Game *g, const char *text)
{
    Turn t;
    char err[ERRMSG_LEN] = "";
    if (xboard_parse_move(g, text, &t, err, sizeof err))
        fail_msg("'%s' was taken", text);
    assert_true(err[0] != '\0');
}

static void test_moves(void **state)
{
    (void)state;
    Game g;
    /* Capablanca: promotion to the Archbishop and the Chancellor, castling as the king's move */
    game_at(&g, "capablanca", "4k5/1P8/10/10/10/10/10/R4K3R w KQ - 0 1");
    expect_move(&g, "b7b8a", "b7b8a");
    expect_move(&g, "b7b8c", "b7b8c");
    expect_move(&g, "b7b8q", "b7b8q");
    expect_move(&g, "f1i1", "f1i1");
    expect_move(&g, "f1c1", "f1c1");
    expect_move(&g, "O-O", "f1i1");
    expect_move(&g, "O-O-O", "f1c1");
    expect_bad_move(&g, "b7b8k");
    expect_bad_move(&g, "f1j1x");
    expect_bad_move(&g, "k1k2");
    expect_bad_move(&g, "");
    expect_bad_move(&g, "e8e7");
    game_free(&g);
    /* Chess960 castling as XBoard writes it there (O-O) and as king takes rook */
    game_at(&g, "chess960", "4k3/8/8/8/8/8/8/1RK3R1 w GB - 0 1");
    expect_move(&g, "O-O", "c1g1");
    expect_move(&g, "O-O-O", "c1b1");
    game_free(&g);
    /* double-move turns are refused */
    Setup s;
    setup_start(&s, variant_by_name("chess"));
    Position p;
    position_from_setup(&p, &s);
    const Rules marseillais = { TURNS_MARSEILLAIS, EP_CLASSIC };
    assert_true(game_init(&g, &p, &marseillais, false));
    expect_bad_move(&g, "e2e4");
    game_free(&g);
}

static void expect_edit(const char *variant, const char *fen, const char *want)
{
    Setup s;
    char err[ERRMSG_LEN], out[1024];
    if (setup_from_fen(&s, variant_by_name(variant), fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    int rc = xboard_edit_commands(&s, out, sizeof out, err, sizeof err);
    if (want[0] == '!') { /* refused, with this in the message */
        assert_int_equal(rc, -1);
        if (!strstr(err, want + 1))
            fail_msg("%s: '%s', expected '%s'", fen, err, want + 1);
        return;
    }
    if (rc != 0)
        fail_msg("%s: %s", fen, err);
    assert_string_equal(out, want);
}

static void test_edit_commands(void **state)
{
    (void)state;
    /* White to move: the pieces of each side, square by square from a1 */
    expect_edit("capablanca", "5k3r/10/10/10/10/10/P9/R4K4 w Qk - 0 1",
                "edit\n#\nRa1\nKf1\nPa2\nc\nKf8\nRj8\n.\n");
    /* Black to move: a2a3 first; the castling rights are those of unmoved kings and rooks */
    expect_edit("gothic", "r4k3r/10/10/10/10/10/10/R4K3R b KQkq - 0 1",
                "a2a3\nedit\n#\nRa1\nKf1\nRj1\nc\nRa8\nKf8\nRj8\n.\n");
    expect_edit("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "edit\n#\nKe1\nc\nKe8\n.\n");
    /* a handicap start (Capablanca without White's b-knight); Black's pieces upper case too, after
     * the c that changes the colour */
    expect_edit("capablanca",
                "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R1ABQKBCNR w KQkq - 0 1",
                "edit\n#\nRa1\nAc1\nBd1\nQe1\nKf1\nBg1\nCh1\nNi1\nRj1\nPa2\nPb2\nPc2\nPd2\nPe2\nPf2"
                "\nPg2\nPh2\nPi2\nPj2\nc\nPa7\nPb7\nPc7\nPd7\nPe7\nPf7\nPg7\nPh7\nPi7\nPj7\nRa8"
                "\nNb8\nAc8\nBd8\nQe8\nKf8\nBg8\nCh8\nNi8\nRj8\n.\n");
    /* what edit cannot say */
    expect_edit("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "!en passant");
    expect_edit("chess", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", "!White's castling rights");
    expect_edit("chess", "r3k3/8/8/8/8/8/8/4K3 w - - 0 1", "!Black's castling rights");
    expect_edit("chess960", "1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1", "!castling");
    /* a buffer too small is an error, not an overflow */
    Setup s;
    char err[ERRMSG_LEN], small[8];
    setup_start(&s, variant_by_name("capablanca"));
    assert_int_equal(xboard_edit_commands(&s, small, sizeof small, err, sizeof err), -1);
    assert_non_null(strstr(err, "do not fit"));
}

static void test_setboard_command(void **state)
{
    (void)state;
    Setup s;
    char out[256];
    setup_start(&s, variant_by_name("gothic"));
    xboard_setboard_command(&s, out, sizeof out);
    assert_string_equal(out,
                        "setboard rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq "
                        "- 0 1\n");
    setup_random(&s, variant_by_name("caparandom"), 3);
    xboard_setboard_command(&s, out, sizeof out);
    /* the shuffle variants' rights as rook files */
    assert_null(strstr(out, " KQkq "));
}

/* A match file with [player1] an xboard engine whose section ends with extra. */
static int parse(const char *match_extra, const char *player_extra, char *err, size_t errlen)
{
    char text[2048];
    snprintf(text, sizeof text,
             "[match]\nvariant = capablanca\ngames = 2\n%s"
             "[player1]\nengine = xboard\ncommand = /usr/games/fairymax\n%s"
             "[player2]\nnodes = 1000\n",
             match_extra, player_extra);
    MatchConfig c;
    int rc = match_config_parse(text, "x.ini", &c, err, errlen);
    if (rc == 0) {
        assert_int_equal(c.players[0].kind, PLAYER_XBOARD);
        match_config_free(&c);
    }
    return rc;
}

static void expect_config_error(const char *match_extra, const char *player_extra, const char *want)
{
    char err[ERRMSG_LEN] = "";
    if (parse(match_extra, player_extra, err, sizeof err) == 0)
        fail_msg("taken: %s%s", match_extra, player_extra);
    if (!strstr(err, want))
        fail_msg("'%s', expected '%s'", err, want);
}

static void test_config(void **state)
{
    (void)state;
    char err[ERRMSG_LEN];
    assert_int_equal(
        parse("", "depth = 3\nhash = 16\ncores = 2\noption.Resign = 0\n", err, sizeof err), 0);
    assert_int_equal(parse("", "tc = 60+1\n", err, sizeof err), 0);
    assert_int_equal(parse("", "movetime = 2000\n", err, sizeof err), 0);
    assert_int_equal(parse("", "nodes = 5000\ndepth = 4\n", err, sizeof err), 0);
    expect_config_error("turns = marseillais\n", "depth = 3\n",
                        "x.ini:4: [player1] is an xboard engine, but turns = marseillais");
    expect_config_error("", "movetime = 1500\n", "movetime must be whole seconds");
    expect_config_error("", "tc = 60+0.5\n", "tc must be whole seconds");
    expect_config_error("", "nodes = 1000\ntc = 60+1\n", "cannot go with movetime or tc");
    expect_config_error("", "depth = 3\n[player1.eval]\nValuePawnMg = 90\n",
                        "[player1] is an xboard engine (use option.NAME)");
    expect_config_error(
        "", "depth = 3\n[player1.search]\nRfpStep = 90\n",
        "[player1.search] sets Carrera's search, but [player1] is an xboard engine");
    /* cores is for xboard engines; an xboard engine needs a command */
    static const char *const files[][2] = {
        { "[match]\ngames = 2\n[player1]\nengine = uci\ncommand = x\ncores = 2\nnodes = 9\n"
          "[player2]\nnodes = 9\n",
          "y.ini:6: [player1]: cores is for engine = xboard" },
        { "[match]\ngames = 2\n[player1]\nnodes = 9\n[player2]\nengine = xboard\nnodes = 9\n",
          "y.ini:5: [player2] is an xboard engine without a command" },
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        MatchConfig c;
        assert_int_equal(match_config_parse(files[i][0], "y.ini", &c, err, sizeof err), -1);
        if (!strstr(err, files[i][1]))
            fail_msg("'%s', expected '%s'", err, files[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feature_lines),
        cmocka_unit_test(test_move_lines),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_edit_commands),
        cmocka_unit_test(test_setboard_command),
        cmocka_unit_test(test_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

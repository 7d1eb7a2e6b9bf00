/* SPDX-License-Identifier: MIT */
/* `carrera uci` as a GUI or a match runner meets it: the option list (every variant, the turn
 * rules, Hash, every evaluation parameter), searches under every kind of limit with info lines
 * and a legal bestmove, `stop` and `isready` while searching, the comma notation of double-move
 * turns both ways, and bad input answered with an `info string` and never a crash or a hang. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "setup.h"
#include "subprocess.h"
#include "variant.h"

#ifndef CARRERA_BIN
#error "CARRERA_BIN must name the carrera binary"
#endif

/* A guard against a hang, not a speed requirement: the searches below take milliseconds. */
#define LINE_TIMEOUT_MS 30000

static void start(Subprocess *p)
{
    char *const argv[] = { CARRERA_BIN, "uci", NULL };
    char err[ERRMSG_LEN];
    if (subprocess_start(p, argv, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void send(Subprocess *p, const char *line)
{
    assert_int_equal(subprocess_send(p, line), 0);
    assert_int_equal(subprocess_send(p, "\n"), 0);
}

static void read_line(Subprocess *p, char *line, size_t len)
{
    int got = subprocess_read_line(p, line, len, LINE_TIMEOUT_MS);
    if (got != 1)
        fail_msg("expected a line, got %s", got == 0 ? "end of output" : "nothing (timeout)");
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Reads up to the line starting with prefix; the lines before it must start with allowed (or
 * anything when allowed is NULL). The found line is left in line. */
static void read_until(Subprocess *p, const char *prefix, const char *allowed, char *line,
                       size_t len)
{
    for (;;) {
        read_line(p, line, len);
        if (starts_with(line, prefix))
            return;
        if (allowed && !starts_with(line, allowed))
            fail_msg("waiting for '%s', got the unexpected line '%s'", prefix, line);
    }
}

static void finish(Subprocess *p)
{
    send(p, "quit");
    assert_int_equal(subprocess_finish(p, LINE_TIMEOUT_MS), 0);
}

/* Checks that the info lines before bestmove are well formed and returns the bestmove text.
 * *last_nodes receives the nodes of the last info line (0 without one). */
static void read_search(Subprocess *p, char *best, size_t len, uint64_t *last_nodes)
{
    char line[8192];
    *last_nodes = 0;
    for (;;) {
        read_line(p, line, sizeof line);
        if (starts_with(line, "bestmove ")) {
            snprintf(best, len, "%.200s", line + 9);
            return;
        }
        if (starts_with(line, "info string"))
            continue;
        if (!starts_with(line, "info depth "))
            fail_msg("unexpected line during a search: '%s'", line);
        if (strcmp(line, "info depth 0 score mate 0") == 0 ||
            strcmp(line, "info depth 0 score cp 0") == 0)
            continue;
        static const char *const fields[] = { " seldepth ", " score ", " nodes ", " nps ",
                                              " hashfull ", " time ",  " pv " };
        for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
            if (!strstr(line, fields[i]))
                fail_msg("info line without%s: '%s'", fields[i], line);
        if (!strstr(line, " score cp ") && !strstr(line, " score mate "))
            fail_msg("info score neither cp nor mate: '%s'", line);
        *last_nodes = strtoull(strstr(line, " nodes ") + 7, NULL, 10);
    }
}

/* Whether text is a legal turn of the game (played on a copy). */
static bool legal_in(const Game *g, const char *text)
{
    Game copy;
    assert_true(game_init(&copy, &g->pos, &g->rules, g->castle960));
    bool ok = game_play_text(&copy, text);
    game_free(&copy);
    return ok;
}

static Game game_at_start(const char *variant, TurnRules turns)
{
    Setup s;
    setup_start(&s, variant_by_name(variant));
    Position p;
    position_from_setup(&p, &s);
    Rules r = { turns, EP_CLASSIC };
    Game g;
    assert_true(game_init(&g, &p, &r, false));
    return g;
}

static void test_options(void **state)
{
    (void)state;
    Subprocess p;
    start(&p);
    send(&p, "uci");
    char line[4096];
    read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "id name Carrera"));
    int n_params, n_variants;
    const EvalParamInfo *params = eval_param_list(&n_params);
    const Variant *const *variants = variant_all(&n_variants);
    bool seen_param[256] = { false }, seen_hash = false, seen_turns = false, seen_variant = false;
    assert_true(n_params <= 256);
    for (;;) {
        read_line(&p, line, sizeof line);
        if (strcmp(line, "uciok") == 0)
            break;
        if (starts_with(line, "id "))
            continue;
        assert_true(starts_with(line, "option name "));
        if (starts_with(line, "option name Hash type spin default "))
            seen_hash = true;
        if (starts_with(line, "option name TurnRules type combo")) {
            seen_turns = true;
            for (int t = 0; t < TURNS_NB; t++) {
                char var[64];
                snprintf(var, sizeof var, " var %s", turn_rules_name((TurnRules)t));
                assert_non_null(strstr(line, var));
            }
        }
        if (starts_with(line, "option name UCI_Variant type combo")) {
            seen_variant = true;
            for (int v = 0; v < n_variants; v++) {
                char var[64];
                snprintf(var, sizeof var, " var %s", variants[v]->name);
                assert_non_null(strstr(line, var));
            }
        }
        for (int i = 0; i < n_params; i++) {
            char want[128];
            snprintf(want, sizeof want, "option name %s type spin default ", params[i].name);
            if (starts_with(line, want))
                seen_param[i] = true;
        }
    }
    assert_true(seen_hash && seen_turns && seen_variant);
    for (int i = 0; i < n_params; i++)
        if (!seen_param[i])
            fail_msg("evaluation parameter %s is not a UCI option", params[i].name);
    finish(&p);
}

static void test_searches(void **state)
{
    (void)state;
    Subprocess p;
    start(&p);
    char best[256];
    uint64_t nodes;
    Game chess = game_at_start("chess", TURNS_SINGLE);

    send(&p, "position startpos");
    send(&p, "go depth 5");
    read_search(&p, best, sizeof best, &nodes);
    assert_true(legal_in(&chess, best));
    assert_true(nodes > 0);

    send(&p, "ucinewgame");
    send(&p, "position startpos");
    send(&p, "go nodes 3000");
    read_search(&p, best, sizeof best, &nodes);
    assert_true(legal_in(&chess, best));
    assert_true(nodes <= 3000);

    send(&p, "go movetime 100");
    read_search(&p, best, sizeof best, &nodes);
    assert_true(legal_in(&chess, best));

    send(&p, "go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20");
    read_search(&p, best, sizeof best, &nodes);
    assert_true(legal_in(&chess, best));

    /* isready is answered while thinking; stop ends the search with a legal move */
    char line[4096];
    send(&p, "go infinite");
    send(&p, "isready");
    read_until(&p, "readyok", "info", line, sizeof line);
    send(&p, "stop");
    read_search(&p, best, sizeof best, &nodes);
    assert_true(legal_in(&chess, best));

    /* a mate is reported as such */
    send(&p, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    send(&p, "go depth 3");
    read_until(&p, "info depth 3 ", "info", line, sizeof line);
    assert_non_null(strstr(line, " score mate 1 "));
    read_search(&p, best, sizeof best, &nodes);
    assert_string_equal(best, "a1a8");

    /* a finished game: nothing to play */
    send(&p, "position startpos moves f2f3 e7e5 g2g4 d8h4");
    send(&p, "go depth 3");
    read_until(&p, "info depth 0 score mate 0", NULL, line, sizeof line);
    read_search(&p, best, sizeof best, &nodes);
    assert_string_equal(best, "0000");

    /* the 10x8 board */
    Game capa = game_at_start("capablanca", TURNS_SINGLE);
    send(&p, "setoption name UCI_Variant value capablanca");
    send(&p, "position startpos");
    send(&p, "go nodes 2000");
    read_search(&p, best, sizeof best, &nodes);
    assert_true(legal_in(&capa, best));
    game_free(&capa);
    game_free(&chess);
    finish(&p);
}

static void test_double_move_notation(void **state)
{
    (void)state;
    Subprocess p;
    start(&p);
    char best[256], line[4096];
    uint64_t nodes;
    send(&p, "setoption name TurnRules value marseillais");
    send(&p, "position startpos");
    send(&p, "go depth 2");
    read_search(&p, best, sizeof best, &nodes);
    Game g = game_at_start("chess", TURNS_MARSEILLAIS);
    assert_non_null(strchr(best, ','));
    assert_true(legal_in(&g, best));

    /* the turn read back: the same position as the core reaches */
    assert_true(game_play_text(&g, best));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "position startpos moves %s", best);
    send(&p, cmd);
    send(&p, "d");
    read_line(&p, line, sizeof line);
    Setup s;
    char fen[FEN_MAX], want[FEN_MAX + 8];
    position_to_setup(&g.pos, &s);
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    snprintf(want, sizeof want, "Fen: %s", fen);
    assert_string_equal(line, want);

    /* an illegal turn: the first movement gives no second (e2e4 then e4e6 is no movement) */
    send(&p, "position startpos moves e2e4,e4e6");
    read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "info string error: illegal turn 'e2e4,e4e6'"));
    game_free(&g);
    finish(&p);
}

static void test_bad_input(void **state)
{
    (void)state;
    Subprocess p;
    start(&p);
    char line[4096], best[256];
    uint64_t nodes;
    static const struct {
        const char *command, *answer;
    } cases[] = {
        { "frobnicate", "info string unknown command: frobnicate" },
        { "setoption name Hash value 0", "info string error: Hash takes 1 to " },
        { "setoption name Hash value lots", "info string error: Hash takes 1 to " },
        { "setoption name ValueArchbishopMg value abc", "info string error: " },
        { "setoption name ValueArchbishopMg value 999999999", "info string error: " },
        { "setoption name NoSuchOption value 1",
          "info string error: unknown option 'NoSuchOption'" },
        { "setoption", "info string error: expected 'setoption name NAME [value VALUE]'" },
        { "setoption name UCI_Variant value shogi", "info string error: unknown variant 'shogi'" },
        { "position", "info string error: expected 'position (startpos | fen FEN) [moves ...]'" },
        { "position fen 8/8/8 w - - 0 1", "info string error: bad FEN: " },
        { "position startpos moves e2e5", "info string error: illegal move 'e2e5'" },
        { "go perft", "info string error: expected 'go perft N'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        send(&p, cases[i].command);
        read_line(&p, line, sizeof line);
        if (!starts_with(line, cases[i].answer))
            fail_msg("'%s' answered '%s', expected '%s...'", cases[i].command, line,
                     cases[i].answer);
    }
    /* bad go words are reported, and the search still answers */
    send(&p, "position startpos");
    send(&p, "go depth x sideways nodes 500");
    read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "info string error: go depth needs a number, not 'x'"));
    read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "info string error: unknown go parameter 'x' ignored") ||
                starts_with(line, "info string error: unknown go parameter 'sideways'"));
    read_search(&p, best, sizeof best, &nodes);
    assert_true(nodes <= 500);
    /* still alive and well */
    send(&p, "isready");
    read_until(&p, "readyok", NULL, line, sizeof line);
    /* quit in the middle of an infinite search ends the program */
    send(&p, "go infinite");
    assert_int_equal(subprocess_send(&p, "quit\n"), 0);
    assert_int_equal(subprocess_finish(&p, LINE_TIMEOUT_MS), 0);
}

/* Input that ends during a finite search (a script piping commands in): the search finishes
 * and answers before the program exits. */
static void test_end_of_input(void **state)
{
    (void)state;
    FILE *f =
        popen("printf 'position startpos moves e2e4\\ngo depth 4\\n' | " CARRERA_BIN " uci", "r");
    assert_non_null(f);
    char line[4096];
    bool answered = false;
    while (fgets(line, sizeof line, f))
        answered = answered || starts_with(line, "bestmove ");
    assert_int_equal(pclose(f), 0);
    assert_true(answered);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_searches),
        cmocka_unit_test(test_double_move_notation),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_end_of_input),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

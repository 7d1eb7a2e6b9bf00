/* SPDX-License-Identifier: MIT */
/* `carrera xboard` as XBoard and cutechess meet it, through its pipes: the protover 2 handshake
 * (every feature they need, every evaluation parameter as an option), legal moves in every
 * variant with the GUI's moves in its notation (10x8 promotions, castling as the king's move and
 * O-O in the shuffle variants), Embassy's setup line, the game's end said by rule, `?`, `ping`
 * answered after an owed move and at once during analysis, undo and remove, the time controls
 * (st, sd, nps) obeyed, and bad input (unknown commands, illegal moves, broken setboard, the
 * double-move rule sets) answered as the protocol says and never a crash or a hang. The time
 * controls' arithmetic (xboard_clock.c) and the move notation (xboard_variant.c) are checked in
 * this process too. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "carrera_pipe.h"
#include "errmsg.h"
#include "eval.h"
#include "game.h"
#include "notation.h"
#include "position.h"
#include "setup.h"
#include "subprocess.h"
#include "turn.h"
#include "variant.h"
#include "xboard_clock.h"
#include "xboard_variant.h"

/* Reads up to the line starting with prefix, which is left in line; thinking output (lines
 * starting with a digit) may come before it, nothing else. */
static void expect(Subprocess *p, const char *prefix, char *line, size_t len)
{
    for (;;) {
        pipe_read_line(p, line, len);
        if (starts_with(line, prefix))
            return;
        if (!(line[0] >= '0' && line[0] <= '9'))
            fail_msg("waiting for '%s', got '%s'", prefix, line);
    }
}

/* Sends ping n and checks that the next line (after thinking output) is its pong: every line
 * of the commands before it has been read. */
static void sync_ping(Subprocess *p, int n)
{
    char line[4096], ping[32], pong[32];
    snprintf(ping, sizeof ping, "ping %d", n);
    snprintf(pong, sizeof pong, "pong %d", n);
    pipe_send(p, ping);
    expect(p, "pong", line, sizeof line);
    assert_string_equal(line, pong);
}

/* A started engine past the handshake, with features read. */
static void start_handshaken(Subprocess *p)
{
    pipe_start(p, "xboard");
    pipe_send(p, "xboard");
    pipe_send(p, "protover 2");
    char line[4096];
    do
        pipe_read_line(p, line, sizeof line);
    while (strcmp(line, "feature done=1") != 0);
}

/* The game a test keeps beside the engine's, to check its moves. */
static Game game_from(const char *variant, const char *fen)
{
    const Variant *v = variant_by_name(variant);
    Setup s;
    char err[ERRMSG_LEN];
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    if (fen)
        assert_int_equal(setup_from_fen_rules(&s, v, &single, fen, err, sizeof err), 0);
    else
        setup_start(&s, v);
    Position p;
    position_from_setup(&p, &s);
    Game g;
    assert_true(game_init(&g, &p, &single, v->castle960));
    return g;
}

/* Plays the engine's move text on g; fails when it is not legal. */
static void play_text(Game *g, const char *text)
{
    Move m;
    char err[ERRMSG_LEN];
    if (!notation_move_from_san(&g->pos, text, &m, err, sizeof err))
        fail_msg("the engine played '%s': %s", text, err);
    Turn t = { { m, MOVE_NONE }, 1 };
    assert_true(game_play(g, &t));
}

static void test_handshake(void **state)
{
    (void)state;
    Subprocess p;
    pipe_start(&p, "xboard");
    pipe_send(&p, "xboard");
    pipe_send(&p, "protover 2");
    int n_params;
    const EvalParamInfo *params = eval_param_list(&n_params);
    bool seen_param[1024] = { false }, seen_main = false, seen_clear = false;
    assert_true(n_params <= 1024);
    char line[4096];
    pipe_read_line(&p, line, sizeof line);
    assert_string_equal(line, "feature done=0");
    for (;;) {
        pipe_read_line(&p, line, sizeof line);
        assert_true(starts_with(line, "feature "));
        if (strcmp(line, "feature done=1") == 0)
            break;
        if (strstr(line, " myname=\"Carrera ")) {
            seen_main = true;
            static const char *const needed[] = {
                " variants=\"normal,fischerandom,capablanca,gothic,janus,caparandom,embassy\"",
                " setboard=1",
                " usermove=1",
                " ping=1",
                " sigint=0",
                " sigterm=0",
                " colors=0",
                " memory=1",
                " smp=1",
                " nps=1",
                " playother=1",
                " analyze=1",
                " exclude=1"
            };
            for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
                if (!strstr(line, needed[i]))
                    fail_msg("no%s in '%s'", needed[i], line);
        }
        if (strcmp(line, "feature option=\"Clear Hash -button\"") == 0)
            seen_clear = true;
        for (int i = 0; i < n_params; i++) {
            char want[128];
            snprintf(want, sizeof want, "feature option=\"%s -spin ", params[i].name);
            if (starts_with(line, want))
                seen_param[i] = true;
        }
    }
    assert_true(seen_main && seen_clear);
    /* every parameter but the piece-square shape's hundreds (eval.h) */
    for (int i = 0; i < n_params; i++)
        if (seen_param[i] == eval_param_is_shape(&params[i]))
            fail_msg("evaluation parameter %s is %s", params[i].name,
                     seen_param[i] ? "announced" : "not an option");
    /* an option set by the GUI takes, a bad one is answered with an error */
    char option[128];
    snprintf(option, sizeof option, "option %s=%d", params[0].name, params[0].min);
    pipe_send(&p, option);
    sync_ping(&p, 1);
    pipe_send(&p, "option Clear Hash");
    sync_ping(&p, 2);
    pipe_send(&p, "option NoSuchOption=3");
    expect(&p, "Error (unknown option): option NoSuchOption=3", line, sizeof line);
    pipe_quit(&p);
}

/* Plays `plies` moves from a variant's start (or fen): the engine moves (go), the test answers
 * with the first legal move in xboard notation, and so on; every engine move checked. */
static void play_variant(const char *xboard_name, const char *fen, int plies)
{
    const Variant *v = xboard_variant(xboard_name);
    assert_non_null(v);
    Subprocess p;
    start_handshaken(&p);
    char line[4096], cmd[256];
    pipe_send(&p, "new");
    pipe_send(&p, "force");
    snprintf(cmd, sizeof cmd, "variant %s", xboard_name);
    pipe_send(&p, cmd);
    char setup[XBOARD_SETUP_MAX];
    if (xboard_variant_setup(v, setup, sizeof setup)) {
        pipe_read_line(&p, line, sizeof line);
        assert_string_equal(line, setup);
    }
    if (fen) {
        snprintf(cmd, sizeof cmd, "setboard %s", fen);
        pipe_send(&p, cmd);
    }
    pipe_send(&p, "sd 3");
    Game g = game_from(v->name, fen);
    pipe_send(&p, "go");
    for (int ply = 0; ply < plies; ply += 2) {
        expect(&p, "move ", line, sizeof line);
        play_text(&g, line + 5);
        Move moves[MAX_MOVES];
        if (ply + 2 >= plies || position_legal_moves(&g.pos, moves) == 0)
            break;
        char text[XBOARD_MOVE_MAX];
        xboard_move_text(moves[0], v, text);
        snprintf(cmd, sizeof cmd, "usermove %s", text);
        pipe_send(&p, cmd);
        Turn t = { { moves[0], MOVE_NONE }, 1 };
        assert_true(game_play(&g, &t));
    }
    sync_ping(&p, 9);
    game_free(&g);
    pipe_quit(&p);
}

static void test_variants(void **state)
{
    (void)state;
    static const char *const names[] = { "normal",  "capablanca",   "gothic",    "janus",
                                         "embassy", "fischerandom", "caparandom" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        play_variant(names[i], NULL, 12);
    /* shuffled arrays as XBoard sends them, castling rights as rook files */
    play_variant("fischerandom", "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1", 12);
    play_variant("caparandom",
                 "rbqnkcnbar/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNBAR w JAja - 0 1", 12);
}

/* The GUI's notation read: promotions to the 10x8 pieces, castling as the king's move, O-O and
 * king-takes-rook in the shuffle variants; each move taken (no answer), then undone. */
static void test_gui_moves(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *moves[4];
    } cases[] = {
        { "capablanca", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1", { "b7b8a", "b7b8c", "b7b8q" } },
        { "janus", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1", { "b7b8j", "b7b8q" } },
        { "normal", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", { "e1g1", "e1c1" } },
        { "capablanca", "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", { "f1i1", "f1c1" } },
        { "fischerandom", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", { "O-O", "O-O-O", "b1h1" } },
        { "caparandom", "rk7r/10/10/10/10/10/10/RK7R w JAja - 0 1", { "O-O", "b1j1", "O-O-O" } },
    };
    Subprocess p;
    start_handshaken(&p);
    int ping = 1;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cmd[256];
        pipe_send(&p, "new");
        pipe_send(&p, "force");
        snprintf(cmd, sizeof cmd, "variant %s", cases[i].variant);
        pipe_send(&p, cmd);
        snprintf(cmd, sizeof cmd, "setboard %s", cases[i].fen);
        pipe_send(&p, cmd);
        for (int m = 0; m < 4 && cases[i].moves[m]; m++) {
            snprintf(cmd, sizeof cmd, "usermove %s", cases[i].moves[m]);
            pipe_send(&p, cmd);
            pipe_send(&p, "undo");
            sync_ping(&p, ping++);
        }
    }
    pipe_quit(&p);
}

/* The engine's notation: coordinates, lower-case promotion letters, castling as the king's move
 * or, in the shuffle variants, as O-O/O-O-O. */
static void test_move_text(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen, *san, *text;
    } cases[] = {
        { "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1" },
        { "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", "e1c1" },
        { "capablanca", "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "O-O", "f1i1" },
        { "embassy", "r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1", "O-O-O", "e1b1" },
        { "chess960", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", "O-O", "O-O" },
        { "caparandom", "rk7r/10/10/10/10/10/10/RK7R w JAja - 0 1", "O-O-O", "O-O-O" },
        { "capablanca", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1", "b8=C", "b7b8c" },
        { "janus", "4k5/1P8/10/10/10/10/10/4K5 w - - 0 1", "b8=J", "b7b8j" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Game g = game_from(cases[i].variant, cases[i].fen);
        Move m;
        char err[ERRMSG_LEN], text[XBOARD_MOVE_MAX];
        if (!notation_move_from_san(&g.pos, cases[i].san, &m, err, sizeof err))
            fail_msg("%s: %s", cases[i].san, err);
        xboard_move_text(m, g.pos.variant, text);
        assert_string_equal(text, cases[i].text);
        game_free(&g);
    }
}

static void test_game_end(void **state)
{
    (void)state;
    Subprocess p;
    start_handshaken(&p);
    char line[4096];
    /* mate in one: the move, then the result by rule */
    pipe_send(&p, "new");
    pipe_send(&p, "force");
    pipe_send(&p, "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    pipe_send(&p, "sd 3");
    pipe_send(&p, "go");
    expect(&p, "move ", line, sizeof line);
    assert_string_equal(line, "move a1a8");
    expect(&p, "1-0", line, sizeof line);
    assert_string_equal(line, "1-0 {White mates}");
    sync_ping(&p, 1);
    /* stalemated on its move: only the result */
    pipe_send(&p, "new");
    pipe_send(&p, "force");
    pipe_send(&p, "setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    pipe_send(&p, "go");
    expect(&p, "1/2-1/2", line, sizeof line);
    assert_string_equal(line, "1/2-1/2 {Stalemate}");
    sync_ping(&p, 2);
    /* the opponent's move mates the engine: the result instead of a move */
    pipe_send(&p, "new");
    pipe_send(&p, "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    pipe_send(&p, "usermove a1a8");
    expect(&p, "1-0", line, sizeof line);
    assert_string_equal(line, "1-0 {White mates}");
    sync_ping(&p, 3);
    pipe_quit(&p);
}

/* `?` makes a long search move at once; a ping during the search is answered after the move;
 * undo and remove take moves back; playother waits for the opponent's move. */
static void test_search_control(void **state)
{
    (void)state;
    Subprocess p;
    start_handshaken(&p);
    char line[4096];
    pipe_send(&p, "new");
    pipe_send(&p, "variant capablanca");
    pipe_send(&p, "st 100");
    int64_t t0 = monotonic_ms();
    pipe_send(&p, "go");
    pipe_send(&p, "ping 1");
    pipe_send(&p, "?");
    expect(&p, "move ", line, sizeof line);
    pipe_read_line(&p, line, sizeof line);
    assert_string_equal(line, "pong 1");
    assert_true(monotonic_ms() - t0 < 20000);
    /* force mode: moves are taken, the engine does not answer; its own move taken back first,
     * whichever it was */
    pipe_send(&p, "force");
    pipe_send(&p, "undo");
    pipe_send(&p, "usermove e2e4");
    pipe_send(&p, "usermove e7e5");
    pipe_send(&p, "remove");
    /* back at the start: nothing left to take back */
    pipe_send(&p, "undo");
    expect(&p, "Error (command not legal now", line, sizeof line);
    pipe_send(&p, "usermove e2e4");
    pipe_send(&p, "st 1");
    pipe_send(&p, "playother");
    sync_ping(&p, 2); /* no move: it is not the engine's turn */
    pipe_send(&p, "usermove e7e5");
    t0 = monotonic_ms();
    expect(&p, "move ", line, sizeof line);
    assert_true(monotonic_ms() - t0 < 10000);
    /* the engine plays Black: its move must be Black's */
    Game g = game_from("capablanca", NULL);
    play_text(&g, "e2e4");
    play_text(&g, "e7e5");
    play_text(&g, line + 5);
    game_free(&g);
    pipe_quit(&p);
}

/* Analysis: thinking output without a move, pings answered at once, moves and undo restart it,
 * exit ends it. */
static void test_analyze(void **state)
{
    (void)state;
    Subprocess p;
    start_handshaken(&p);
    char line[4096];
    pipe_send(&p, "new");
    pipe_send(&p, "variant gothic");
    pipe_send(&p, "post");
    pipe_send(&p, "analyze");
    pipe_read_line(&p, line, sizeof line);
    int depth, score;
    long long cs, nodes;
    assert_int_equal(sscanf(line, "%d %d %lld %lld", &depth, &score, &cs, &nodes), 4);
    pipe_send(&p, "ping 1");
    expect(&p, "pong", line, sizeof line);
    assert_string_equal(line, "pong 1");
    pipe_send(&p, "usermove e2e4");
    pipe_send(&p, "undo");
    pipe_send(&p, "usermove d2d4");
    pipe_send(&p, "exit");
    sync_ping(&p, 2);
    /* after exit nothing more is printed until asked */
    pipe_send(&p, "ping 3");
    pipe_read_line(&p, line, sizeof line);
    assert_string_equal(line, "pong 3");
    pipe_quit(&p);
}

/* Reads thinking output up to its line of depth 6 (the analyses below stop there, `sd 6`), or with
 * none expected up to the pong of a ping; every line's first move must be one of only
 * (space-separated). */
static void thinking_within(Subprocess *p, bool none, const char *only)
{
    char line[4096], padded[256];
    snprintf(padded, sizeof padded, " %s ", only);
    if (none)
        pipe_send(p, "ping 7");
    for (;;) {
        pipe_read_line(p, line, sizeof line);
        if (none && strcmp(line, "pong 7") == 0)
            return;
        int depth, score, used;
        long long cs, nodes;
        if (sscanf(line, "%d %d %lld %lld %n", &depth, &score, &cs, &nodes, &used) != 4)
            fail_msg("waiting for thinking output, got '%s'", line);
        if (none)
            fail_msg("every move excluded, yet '%s'", line);
        char first[64];
        snprintf(first, sizeof first, " %.*s ", (int)strcspn(line + used, " "), line + used);
        if (!strstr(padded, first))
            fail_msg("excluded: the line '%s' starts with another move than %s", line, only);
        if (depth == 6)
            return;
    }
}

/* exclude and include: the analysis keeps to the moves left in, a new position ends them. */
static void test_exclude(void **state)
{
    (void)state;
    Subprocess p;
    start_handshaken(&p);
    char line[4096];
    pipe_send(&p, "new");
    pipe_send(&p, "post");
    pipe_send(&p, "sd 6");
    pipe_send(&p, "exclude all");
    pipe_send(&p, "include e2e4");
    pipe_send(&p, "include d2d4");
    pipe_send(&p, "analyze");
    thinking_within(&p, false, "e2e4 d2d4");
    pipe_send(&p, "exclude d2d4");
    thinking_within(&p, false, "e2e4");
    pipe_send(&p, "exclude e2e5");
    expect(&p, "Illegal move: e2e5", line, sizeof line);
    thinking_within(&p, false, "e2e4"); /* the analysis restarted after the error too */
    /* every move out: nothing to analyse */
    pipe_send(&p, "exclude e2e4");
    thinking_within(&p, true, "");
    /* a move played: the new position has every move again */
    pipe_send(&p, "usermove e2e4");
    thinking_within(&p, false,
                    "a7a6 a7a5 b7b6 b7b5 c7c6 c7c5 d7d6 d7d5 e7e6 e7e5 f7f6 f7f5 g7g6 g7g5 h7h6 "
                    "h7h5 b8a6 b8c6 g8f6 g8h6");
    pipe_send(&p, "exit");
    pipe_quit(&p);
}

/* sd caps the depth, st the time, nps turns time into nodes. */
/* Reads thinking output up to the move; the most nodes a line reported. */
static long long most_nodes(Subprocess *p)
{
    char line[4096];
    long long most = 0;
    for (;;) {
        pipe_read_line(p, line, sizeof line);
        if (starts_with(line, "move "))
            return most;
        int depth, score;
        long long cs, nodes;
        assert_int_equal(sscanf(line, "%d %d %lld %lld", &depth, &score, &cs, &nodes), 4);
        most = nodes > most ? nodes : most;
    }
}

static void test_limits(void **state)
{
    (void)state;
    Subprocess p;
    start_handshaken(&p);
    char line[4096];
    pipe_send(&p, "new");
    pipe_send(&p, "post");
    pipe_send(&p, "sd 2");
    pipe_send(&p, "go");
    int deepest = 0;
    for (;;) {
        pipe_read_line(&p, line, sizeof line);
        if (starts_with(line, "move "))
            break;
        int depth = atoi(line);
        deepest = depth > deepest ? depth : deepest;
    }
    assert_int_equal(deepest, 2);
    pipe_send(&p, "new");
    pipe_send(&p, "nps 20000");
    pipe_send(&p, "st 1"); /* 1 s at 20,000 nodes a second: at most 20,000 nodes */
    pipe_send(&p, "go");
    long long most = most_nodes(&p);
    assert_true(most > 0 && most <= 20000);
    pipe_quit(&p);
}

/* cores 2: a game of a few moves searched on two threads, every move legal, and a node limit
 * (nps) that counts both threads' nodes. */
static void test_cores(void **state)
{
    (void)state;
    Subprocess p;
    start_handshaken(&p);
    char line[4096];
    pipe_send(&p, "cores 2");
    pipe_send(&p, "new");
    pipe_send(&p, "variant capablanca");
    pipe_send(&p, "sd 5");
    Game g = game_from("capablanca", NULL);
    pipe_send(&p, "go");
    for (int turn = 0; turn < 4; turn++) {
        expect(&p, "move ", line, sizeof line);
        play_text(&g, line + 5);
        /* the reply: the engine's first legal turn in the position, as usermove */
        Move moves[MAX_MOVES];
        assert_true(position_legal_moves(&g.pos, moves) > 0);
        Turn reply = { { moves[0], MOVE_NONE }, 1 };
        char text[TURN_TEXT_MAX], command[TURN_TEXT_MAX + 16];
        turn_to_uci(&reply, g.pos.variant, false, text);
        assert_true(game_play(&g, &reply));
        snprintf(command, sizeof command, "usermove %s", text);
        pipe_send(&p, command);
    }
    expect(&p, "move ", line, sizeof line);
    play_text(&g, line + 5);
    game_free(&g);
    pipe_send(&p, "new");
    pipe_send(&p, "post");
    pipe_send(&p, "nps 20000");
    pipe_send(&p, "st 1");
    pipe_send(&p, "go");
    long long most = most_nodes(&p);
    assert_true(most > 0 && most <= 20000);
    pipe_quit(&p);
}

/* Bad input: each answered as the protocol says, and the engine still answers a ping after. */
static void test_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *line, *answer;
    } cases[] = {
        { "frobnicate 3", "Error (unknown command): frobnicate 3" },
        { "usermove e2e5", "Illegal move: e2e5" },
        { "e2e5", "Illegal move: e2e5" },
        { "usermove j2j4", "Illegal move: j2j4" },
        { "usermove", "Error (usermove takes one move): usermove" },
        { "usermove @@@@", "Illegal move: @@@@" },
        { "level 40 x 0", "Error (level: BASE must be minutes or minutes:seconds, not 'x')" },
        { "level 40", "Error (level takes MPS BASE INC): level 40" },
        { "st -3", "Error (st takes a positive number of seconds, not '-3')" },
        { "sd 0", "Error (sd takes a depth of at least 1 ply, not '0')" },
        { "nps many", "Error (nps takes a number of nodes per second, not 'many')" },
        { "time", "Error (time takes centiseconds, not '')" },
        { "memory 0", "Error (memory takes a number of MiB): memory 0" },
        { "cores 0", "Error (cores takes a number of threads): cores 0" },
        { "cores two", "Error (cores takes a number of threads): cores two" },
        { "variant xiangqi", "Error (unsupported variant): variant xiangqi" },
        { "variant marseillais", "Error (double-move rules cannot be played" },
        { "variant galvin", "Error (double-move rules cannot be played" },
        { "option TurnRules=bennekom", "Error (double-move rules cannot be played" },
        { "undo", "Error (command not legal now: not that many moves played): undo" },
        { "setboard 8/8/8 w - - 0 1", "tellusererror Illegal position: " },
        { "usermove e2e4", "Illegal move (no position: the last setboard was refused): e2e4" },
        { "go", "Error (command not legal now: no position, the last setboard was refused): go" },
        { "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
          "tellusererror Illegal position: " },
        { "setboard", "tellusererror Illegal position: " },
    };
    Subprocess p;
    start_handshaken(&p);
    pipe_send(&p, "new");
    pipe_send(&p, "force");
    char line[4096];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pipe_send(&p, cases[i].line);
        pipe_read_line(&p, line, sizeof line);
        if (!starts_with(line, cases[i].answer))
            fail_msg("'%s' was answered '%s', not '%s...'", cases[i].line, line, cases[i].answer);
        sync_ping(&p, (int)i);
    }
    /* a good setboard brings the game back */
    pipe_send(&p, "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    pipe_send(&p, "usermove e2e4");
    sync_ping(&p, 100);
    /* a line of 100,000 characters and one of binary junk */
    char *long_line = malloc(100001);
    assert_non_null(long_line);
    memset(long_line, 'x', 100000);
    long_line[100000] = '\0';
    pipe_send(&p, long_line);
    free(long_line);
    pipe_send(&p, "ping 101");
    pipe_read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "Error (unknown command): xxx"));
    /* the pipe reader cuts the answer into pieces of its buffer's size */
    do
        pipe_read_line(&p, line, sizeof line);
    while (strspn(line, "x") == strlen(line));
    assert_string_equal(line, "pong 101");
    pipe_send(&p, "\x01\x02\xff \x7f");
    pipe_read_line(&p, line, sizeof line);
    assert_true(starts_with(line, "Error (unknown command): "));
    sync_ping(&p, 102);
    pipe_quit(&p);
}

/* The clock's arithmetic, in this process. */
static void test_clock(void **state)
{
    (void)state;
    XboardClock c;
    char err[ERRMSG_LEN];
    xboard_clock_init(&c);
    SearchLimits l = xboard_clock_limits(&c, WHITE, 0);
    assert_int_equal(l.time_ms[WHITE], 300000); /* xboard's default: 40 moves in 5 minutes */
    assert_int_equal(l.movestogo, 40);
    assert_int_equal(xboard_clock_level(&c, "40", "0:30", "0", 0, err, sizeof err), 0);
    assert_int_equal(xboard_clock_time(&c, true, "2500", err, sizeof err), 0);
    assert_int_equal(xboard_clock_time(&c, false, "-40", err, sizeof err), 0);
    l = xboard_clock_limits(&c, BLACK, 21); /* Black after 10 of its moves */
    assert_int_equal(l.time_ms[BLACK], 25000);
    assert_int_equal(l.time_ms[WHITE], 0);
    assert_int_equal(l.movestogo, 30);
    assert_int_equal(xboard_clock_level(&c, "0", "2", "12", 0, err, sizeof err), 0);
    assert_int_equal(xboard_clock_level(&c, "0", "25+5", "0.5", 0, err, sizeof err), 0);
    assert_int_equal(c.base_ms, 25 * 60000);
    assert_int_equal(c.inc_ms, 500);
    assert_int_equal(xboard_clock_st(&c, "2", err, sizeof err), 0);
    assert_int_equal(xboard_clock_sd(&c, "7", err, sizeof err), 0);
    l = xboard_clock_limits(&c, WHITE, 0);
    assert_int_equal(l.movetime_ms, 2000);
    assert_int_equal(l.depth, 7);
    assert_int_equal(xboard_clock_nps(&c, "1000", err, sizeof err), 0);
    l = xboard_clock_limits(&c, WHITE, 0);
    assert_int_equal(l.movetime_ms, 0);
    assert_true(l.nodes > 1900 && l.nodes <= 2000);
    xboard_clock_new_game(&c);
    assert_int_equal(c.depth, 0);
    assert_int_equal(c.nps, 0);
    static const char *const bad[][3] = { { "-1", "5", "0" }, { "40", "", "0" },
                                          { "40", "5", "x" }, { "40", ":30", "0" },
                                          { "4x", "5", "0" }, { "40", "99999999999", "0" } };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(
            xboard_clock_level(&c, bad[i][0], bad[i][1], bad[i][2], 0, err, sizeof err), -1);
        assert_true(strstr(err, "level: ") == err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake), cmocka_unit_test(test_variants),
        cmocka_unit_test(test_gui_moves), cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_game_end),  cmocka_unit_test(test_search_control),
        cmocka_unit_test(test_analyze),   cmocka_unit_test(test_exclude),
        cmocka_unit_test(test_limits),    cmocka_unit_test(test_cores),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

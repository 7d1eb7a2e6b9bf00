/* SPDX-License-Identifier: MIT */
/* Tests of core/play/game.c: turns played from text and as structs, illegal turns rejected with the
 * game unchanged, and the ends of docs/rules.md sections 3, 4.1 (rules 5 and 9), 4.3 and 5 in their
 * order of precedence: checkmate, stalemate, king capture, threefold repetition, the 50-move rule
 * and insufficient material. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "game.h"
#include "game_record.h"

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC },
                   CLASSIC = { TURNS_MARSEILLAIS, EP_CLASSIC },
                   BALANCED = { TURNS_BALANCED, EP_CLASSIC }, GALVIN = { TURNS_GALVIN, EP_CLASSIC },
                   EXTRAMOVE = { TURNS_EXTRAMOVE, EP_CLASSIC };

static void position_of(Position *p, const char *vname, const Rules *r, const char *fen)
{
    const Variant *v = variant_by_name(vname);
    if (!v)
        fail_msg("no variant %s", vname);
    Setup s;
    char err[ERRMSG_LEN] = "";
    if (setup_from_fen_rules(&s, v, r, fen, err, sizeof err) != 0)
        fail_msg("%s \"%s\" rejected: %s", vname, fen, err);
    position_from_setup(p, &s);
}

/* A game of chess (or of variant vname) from fen under rules r. */
static void start(Game *g, const char *vname, const Rules *r, const char *fen, bool castle960)
{
    Position p;
    position_of(&p, vname, r, fen);
    assert_true(game_init(g, &p, r, castle960));
    assert_int_equal(g->n_turns, 0);
    assert_true(g->keys[0] == position_key128(&p));
}

#define CHESS_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Plays the space-separated turns of line, each of which must be legal. */
static void play(Game *g, const char *line)
{
    char buf[512];
    strcpy(buf, line);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        size_t n = g->n_turns;
        if (!game_play_text(g, tok))
            fail_msg("turn %s of \"%s\" rejected", tok, line);
        assert_int_equal(g->n_turns, n + 1);
        assert_true(g->keys[g->n_turns] == position_key128(&g->pos));
    }
}

static void fen_of(const Position *p, char out[FEN_MAX])
{
    Setup s;
    position_to_setup(p, &s);
    setup_to_fen(&s, s.castling_text, out, FEN_MAX);
}

static int clock_of(const Game *g)
{
    Setup s;
    position_to_setup(&g->pos, &s);
    return s.halfmove;
}

static void expect(const Game *g, Termination t, int winner)
{
    int w = 99;
    Termination got = game_status(g, &w);
    if (got != t || w != winner)
        fail_msg("after %zu turns: %s (winner %d), expected %s (winner %d)", g->n_turns,
                 termination_name(got), w, termination_name(t), winner);
}

/* text must be refused with nothing in the game changed. */
static void refuse(Game *g, const char *text)
{
    char before[FEN_MAX], after[FEN_MAX];
    size_t n = g->n_turns;
    u128 key = position_key128(&g->pos);
    fen_of(&g->pos, before);
    if (game_play_text(g, text))
        fail_msg("\"%s\" was accepted in %s", text, before);
    fen_of(&g->pos, after);
    assert_int_equal(g->n_turns, n);
    assert_string_equal(after, before);
    assert_true(position_key128(&g->pos) == key);
    assert_true(g->keys[n] == key);
}

/* ---- repetition ---- */

static void threefold_in_chess(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, CHESS_START, false);
    assert_int_equal(game_repetitions(&g), 1);
    play(&g, "g1f3 g8f6 f3g1 f6g8");
    assert_true(g.keys[4] == g.keys[0]);
    assert_int_equal(game_repetitions(&g), 2); /* the second occurrence is no draw */
    expect(&g, TERM_NONE, -1);
    play(&g, "g1f3");
    assert_int_equal(game_repetitions(&g), 2);
    play(&g, "g8f6 f3g1");
    expect(&g, TERM_NONE, -1);
    play(&g, "f6g8");
    assert_int_equal(game_repetitions(&g), 3);
    expect(&g, TERM_REPETITION, -1);
    game_free(&g);
}

static void threefold_in_marseillais(void **state)
{
    (void)state;
    /* Repetition counts positions at turn boundaries (docs/rules.md 4.1 rule 9): each turn here is
     * two knight movements, written with either separator. */
    Game g;
    start(&g, "chess", &CLASSIC, CHESS_START, false);
    play(&g, "g1f3,b1c3 g8f6/b8c6 f3g1,c3b1 f6g8/c6b8");
    assert_int_equal(g.n_turns, 4);
    assert_int_equal(game_repetitions(&g), 2);
    expect(&g, TERM_NONE, -1);
    play(&g, "g1f3,b1c3 g8f6/b8c6 f3g1,c3b1");
    assert_int_equal(game_repetitions(&g), 2);
    expect(&g, TERM_NONE, -1);
    play(&g, "f6g8/c6b8");
    assert_int_equal(game_repetitions(&g), 3);
    expect(&g, TERM_REPETITION, -1);
    game_free(&g);
}

static void repetition_window_ends_at_capture(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, "4k3/8/8/8/8/2p5/8/RN2K3 w - - 0 30", false);
    play(&g, "a1a2 e8d8 a2a1 d8e8");
    assert_int_equal(game_repetitions(&g), 2);
    play(&g, "b1c3"); /* the capture: turn 5, Black to move */
    assert_int_equal(clock_of(&g), 0);
    play(&g, "e8d8 c3b1 d8e8 b1c3");
    assert_true(g.keys[9] == g.keys[5]);
    /* Positions on either side of a capture differ in material, so only a key collision could
     * match them: plant such collisions at the Black-to-move boundaries before the capture. */
    g.keys[1] = g.keys[3] = g.keys[9];
    assert_int_equal(game_repetitions(&g), 2);
    expect(&g, TERM_NONE, -1);
    play(&g, "e8d8 c3b1 d8e8 b1c3");
    assert_int_equal(game_repetitions(&g), 3);
    expect(&g, TERM_REPETITION, -1);
    game_free(&g);
}

static void balanced_first_turn_is_not_repeated(void **state)
{
    (void)state;
    /* White's one-movement first turn is a different position from the same board later, when
     * White moves twice, though the key is the same. */
    Game g;
    start(&g, "chess", &BALANCED, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false);
    play(&g, "a1a2 e8d8,d8e8 a2a3,a3a1 e8d8,d8e8");
    assert_true(g.keys[4] == g.keys[0]);
    assert_int_equal(game_repetitions(&g), 1);
    play(&g, "a1a2,a2a1 e8d8,d8e8");
    assert_int_equal(game_repetitions(&g), 2);
    expect(&g, TERM_NONE, -1);
    play(&g, "a1a2,a2a1 e8d8,d8e8");
    assert_int_equal(game_repetitions(&g), 3);
    expect(&g, TERM_REPETITION, -1);
    game_free(&g);
}

/* ---- the 50-move rule ---- */

static void fifty_moves_in_chess(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", false);
    play(&g, "a1a2");
    assert_int_equal(clock_of(&g), 99);
    expect(&g, TERM_NONE, -1);
    play(&g, "e8d8");
    assert_int_equal(clock_of(&g), 100);
    expect(&g, TERM_FIFTY_MOVES, -1);
    game_free(&g);

    start(&g, "chess", &SINGLE, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", false);
    expect(&g, TERM_NONE, -1);
    play(&g, "a1a2");
    expect(&g, TERM_FIFTY_MOVES, -1);
    game_free(&g);

    /* A capture as the 100th ply resets the clock. */
    start(&g, "chess", &SINGLE, "4k3/8/8/8/8/8/p7/R3K3 w - - 99 80", false);
    play(&g, "a1a2");
    assert_int_equal(clock_of(&g), 0);
    expect(&g, TERM_NONE, -1);
    game_free(&g);
}

static void fifty_turns_in_marseillais(void **state)
{
    (void)state;
    /* The clock counts turns (docs/rules.md 4.1 rule 9): one two-movement turn adds one. */
    Game g;
    start(&g, "chess", &CLASSIC, "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", false);
    play(&g, "a1a2,a2a3");
    assert_int_equal(clock_of(&g), 99);
    expect(&g, TERM_NONE, -1);
    play(&g, "e8d8,d8e8");
    assert_int_equal(clock_of(&g), 100);
    expect(&g, TERM_FIFTY_MOVES, -1);
    game_free(&g);
}

static void checkmate_beats_fifty_moves(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", false);
    play(&g, "a1a8");
    assert_int_equal(clock_of(&g), 100);
    expect(&g, TERM_CHECKMATE, WHITE);
    game_free(&g);
}

/* ---- insufficient material ---- */

static bool bare(const char *vname, const Rules *r, const char *fen)
{
    Position p;
    position_of(&p, vname, r, fen);
    return position_insufficient_material(&p, r);
}

static void insufficient_material(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *fen;
        bool draw;
    } table[] = {
        { "chess", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true },      /* K v K */
        { "chess", "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true },    /* K+B v K */
        { "chess", "8/8/8/4k3/8/8/8/1N2K3 b - - 0 1", true },    /* K+N v K */
        { "chess", "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true },  /* c1, f8: both dark */
        { "chess", "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", false }, /* c1 dark, c8 light */
        { "chess", "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1", false },  /* K+N+N: mate exists */
        { "chess", "8/8/8/4k3/8/8/8/1N2K1b1 w - - 0 1", false }, /* K+N v K+B */
        { "chess", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", false },   /* K+P v K */
        { "chess", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", false },    /* K+R v K */
        { "chess", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", false },    /* K+Q v K */
        /* 10x8: (file + rank) parity, not the square number's (a rank is 10 squares). a1, c3
         * and d8 are all dark, a2 light. */
        { "capablanca", "3b1k4/10/10/10/10/2B7/10/B4K4 w - - 0 1", true },
        { "capablanca", "5k4/3b6/10/10/10/2B7/10/B4K4 w - - 0 1", false },
        { "capablanca", "5k4/10/10/10/10/10/B9/B4K4 w - - 0 1", false },
        { "capablanca", "5k4/10/10/10/10/10/10/5K4 w - - 0 1", true },
        { "capablanca", "5k4/10/10/10/10/10/10/A4K4 w - - 0 1", false }, /* K+A v K */
        { "capablanca", "5k4/10/10/10/10/10/10/C4K4 w - - 0 1", false }, /* K+C v K */
        { "capablanca", "5k4/10/10/10/10/10/10/N4K4 w - - 0 1", true },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (bare(table[i].variant, &SINGLE, table[i].fen) != table[i].draw)
            fail_msg("%s %s: expected %s", table[i].variant, table[i].fen,
                     table[i].draw ? "insufficient material" : "mating material");
    /* The same under double-move rules, but never in Galvin's game, where kings are captured. */
    assert_true(bare("chess", &CLASSIC, "8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
    assert_false(bare("chess", &GALVIN, "8/8/8/4k3/8/8/8/4K3 w - - 0 1"));
    assert_false(bare("chess", &GALVIN, "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1"));

    /* game_status reports it, here once the last pawn is taken. */
    Game g;
    start(&g, "chess", &SINGLE, "8/8/8/8/6k1/3p4/8/2B1K3 w - - 0 40", false);
    expect(&g, TERM_NONE, -1);
    play(&g, "e1d2 g4f5");
    expect(&g, TERM_NONE, -1);
    play(&g, "d2d3");
    expect(&g, TERM_MATERIAL, -1);
    game_free(&g);
    start(&g, "chess", &GALVIN, "k7/8/8/8/8/8/8/K7 w - - 0 5", false);
    expect(&g, TERM_NONE, -1);
    game_free(&g);
}

/* ---- checkmate, stalemate, king capture ---- */

static void fools_mate(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, CHESS_START, false);
    play(&g, "f2f3 e7e5 g2g4");
    expect(&g, TERM_NONE, -1);
    play(&g, "d8h4");
    expect(&g, TERM_CHECKMATE, BLACK);
    refuse(&g, "e1f2"); /* the game is over: no turn is legal */
    game_free(&g);
}

static void stalemate_in_chess(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, "7k/8/6K1/8/8/8/5Q2/8 w - - 0 60", false);
    play(&g, "f2f7");
    expect(&g, TERM_STALEMATE, -1);
    game_free(&g);
}

static void marseillais_stalemate(void **state)
{
    (void)state;
    /* docs/rules.md 4.1 rule 5: 1. Qb7/Qf7+ and Black's only parry Kh8 has no second movement after
     * it: stalemate, a draw, not mate. */
    Game g;
    start(&g, "chess", &CLASSIC, "6k1/8/5K2/8/8/8/8/1Q6 w - - 0 10", false);
    refuse(&g, "b1b7"); /* no check: one movement is no turn */
    play(&g, "b1b7/b7f7");
    expect(&g, TERM_STALEMATE, -1);
    game_free(&g);
}

static void galvin_king_capture(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &GALVIN, "k7/8/8/8/8/8/Q7/K7 w - - 0 5", false);
    expect(&g, TERM_NONE, -1);
    play(&g, "a2a8"); /* the capture ends the turn at once */
    assert_int_equal(g.turns[0].n, 1);
    expect(&g, TERM_KING_CAPTURED, WHITE);
    game_free(&g);
}

/* ---- turns as text and as structs ---- */

static void illegal_turns_change_nothing(void **state)
{
    (void)state;
    Game g;
    start(&g, "chess", &SINGLE, CHESS_START, false);
    const char *bad[] = { "e2e5", "e7e5",  "e1g1", "e2e4,g1f3",  "e2e4/", "",
                          "e2",   "e2e4 ", "E2E4", "e2e4e2e4e2", "0000" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refuse(&g, bad[i]);
    play(&g, "e2e4");
    refuse(&g, "e2e4");
    const Turn two = {
        { move_new(52, 36, MOVE_NORMAL, NO_TYPE), move_new(62, 45, MOVE_NORMAL, NO_TYPE) }, 2
    };
    assert_false(game_play(&g, &two)); /* e7e5 then g8f6: one movement per turn in chess */
    assert_int_equal(g.n_turns, 1);
    const Turn one = { { two.m[0], two.m[1] }, 1 }; /* m[1] means nothing when n is 1 */
    assert_true(game_play(&g, &one));
    assert_int_equal(g.n_turns, 2);
    assert_true(g.turns[1].m[0] == two.m[0] && g.turns[1].m[1] == MOVE_NONE);
    game_free(&g);

    start(&g, "chess", &CLASSIC, CHESS_START, false);
    const char *bad2[] = { "e2e4",  "e2e4/e7e5", "e2e4,e4e5,e5e6", "e2e4//g1f3",
                           "/e2e4", "e2e4,",     "e2e4;g1f3",      "e2e4,g1g3" };
    for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; i++)
        refuse(&g, bad2[i]);
    const Turn e4 = { { move_new(12, 28, MOVE_NORMAL, NO_TYPE), MOVE_NONE }, 1 };
    assert_false(game_play(&g, &e4));
    const Turn e4nf3 = { { e4.m[0], move_new(6, 21, MOVE_NORMAL, NO_TYPE) }, 2 };
    assert_true(game_play(&g, &e4nf3));
    assert_int_equal(g.n_turns, 1);
    assert_true(g.keys[1] == position_key128(&g.pos));
    char fen[FEN_MAX];
    fen_of(&g.pos, fen);
    assert_string_equal(fen, "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 1");
    game_free(&g);

    /* Extra Move: Ng8-f6 alone is a turn, but the knight may not make the second movement. */
    start(&g, "chess", &EXTRAMOVE, CHESS_START, false);
    play(&g, "e2e4");
    const Turn nf6ng4 = {
        { move_new(62, 45, MOVE_NORMAL, NO_TYPE), move_new(45, 30, MOVE_NORMAL, NO_TYPE) }, 2
    };
    assert_false(game_play(&g, &nf6ng4));
    refuse(&g, "g8f6/f6g4");
    play(&g, "g8f6/e7e5");
    assert_int_equal(g.n_turns, 2);
    game_free(&g);
}

static void castling_text(void **state)
{
    (void)state;
    const char *fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    char out[FEN_MAX];
    Game g;
    start(&g, "chess", &SINGLE, fen, false);
    refuse(&g, "e1h1");
    play(&g, "e1g1");
    fen_of(&g.pos, out);
    assert_string_equal(out, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    game_free(&g);
    start(&g, "chess", &SINGLE, fen, true);
    refuse(&g, "e1g1");
    play(&g, "e1h1");
    fen_of(&g.pos, out);
    assert_string_equal(out, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    game_free(&g);
    /* Castling as the first movement of a Marseillais turn. */
    start(&g, "chess", &CLASSIC, fen, false);
    play(&g, "e1c1/h1h2");
    fen_of(&g.pos, out);
    assert_string_equal(out, "r3k2r/8/8/8/8/8/7R/2KR4 b kq - 1 1");
    game_free(&g);
}

static void names(void **state)
{
    (void)state;
    assert_string_equal(termination_name(TERM_NONE), "none");
    assert_string_equal(termination_name(TERM_CHECKMATE), "checkmate");
    assert_string_equal(termination_name(TERM_STALEMATE), "stalemate");
    assert_string_equal(termination_name(TERM_KING_CAPTURED), "king captured");
    assert_string_equal(termination_name(TERM_REPETITION), "threefold repetition");
    assert_string_equal(termination_name(TERM_FIFTY_MOVES), "50-move rule");
    assert_string_equal(termination_name(TERM_MATERIAL), "insufficient material");
    /* the endings as result files record them, read back; a stall under its earlier name too */
    for (int e = 0; e < END_NB; e++)
        assert_int_equal(game_ending_by_name(game_ending_name((GameEnding)e)), e);
    assert_int_equal(game_ending_by_name("engine stall"), END_STALL);
    assert_int_equal(game_ending_by_name("engine timeout"), END_STALL);
    assert_int_equal(game_ending_by_name("engine tired"), END_NB);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threefold_in_chess),
        cmocka_unit_test(threefold_in_marseillais),
        cmocka_unit_test(repetition_window_ends_at_capture),
        cmocka_unit_test(balanced_first_turn_is_not_repeated),
        cmocka_unit_test(fifty_moves_in_chess),
        cmocka_unit_test(fifty_turns_in_marseillais),
        cmocka_unit_test(checkmate_beats_fifty_moves),
        cmocka_unit_test(insufficient_material),
        cmocka_unit_test(fools_mate),
        cmocka_unit_test(stalemate_in_chess),
        cmocka_unit_test(marseillais_stalemate),
        cmocka_unit_test(galvin_king_capture),
        cmocka_unit_test(illegal_turns_change_nothing),
        cmocka_unit_test(castling_text),
        cmocka_unit_test(names),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Tests of position_game_end (core/rules/turn.c): checkmate, stalemate and Galvin's captured king
 * per rule set, docs/rules.md 4.1 rules 4-5 (a parried check with no second movement is stalemate,
 * not mate), 4.3 and 4.5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "turn.h"

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC },
                   CLASSIC = { TURNS_MARSEILLAIS, EP_CLASSIC },
                   BALANCED = { TURNS_BALANCED, EP_CLASSIC }, GALVIN = { TURNS_GALVIN, EP_CLASSIC },
                   BENNEKOM = { TURNS_BENNEKOM, EP_CLASSIC },
                   EXTRAMOVE = { TURNS_EXTRAMOVE, EP_CLASSIC };

static GameEnd end_of(const char *fen, const Rules *r)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, variant_by_name("chess"), r, fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    Position p;
    position_from_setup(&p, &s);
    return position_game_end(&p, r);
}

static void checkmate(void **state)
{
    (void)state;
    /* Qg7 guarded by Kg6: no first movement leaves the check, under every rule set with check. */
    const char *mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    const Rules *all[] = { &SINGLE, &CLASSIC, &BALANCED, &BENNEKOM, &EXTRAMOVE };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        assert_int_equal(end_of(mate, all[i]), GAME_CHECKMATE);
    /* Galvin's game has no check: the king simply moves (onto an attacked square or not). */
    assert_int_equal(end_of(mate, &GALVIN), GAME_ON);
}

static void parried_check_without_second_movement_is_stalemate(void **state)
{
    (void)state;
    /* docs/rules.md 4.1 rule 5, K+Q v K after 1. Qb7/Qf7+: Kh8 parries, then Black has no second
     * movement. Stalemate under double-move rules; in ordinary chess Kh8 is simply a move. */
    const char *fen = "6k1/5Q2/5K2/8/8/8/8/8 b - - 1 10";
    assert_int_equal(end_of(fen, &CLASSIC), GAME_STALEMATE);
    assert_int_equal(end_of(fen, &BALANCED), GAME_STALEMATE);
    assert_int_equal(end_of(fen, &SINGLE), GAME_ON);
    /* Bennekom skips the missing second movement, and so does Extra Move: Kh8 is a turn. */
    assert_int_equal(end_of(fen, &BENNEKOM), GAME_ON);
    assert_int_equal(end_of(fen, &EXTRAMOVE), GAME_ON);
}

static void stalemate_without_check(void **state)
{
    (void)state;
    /* Black's only movement a6-a5 has nothing after it: no complete classic turn, no check. */
    const char *fen = "7k/5Q2/p7/8/P7/8/8/2K5 b - - 0 10";
    assert_int_equal(end_of(fen, &CLASSIC), GAME_STALEMATE);
    assert_int_equal(end_of(fen, &SINGLE), GAME_ON);
    assert_int_equal(end_of(fen, &EXTRAMOVE), GAME_ON);
}

static void galvin_king_captured(void **state)
{
    (void)state;
    /* Under Galvin's rules Black's king may stand attacked with White to move; Qxa8 captures it
     * and ends the turn and the game. */
    Setup s;
    char err[ERRMSG_LEN];
    assert_int_equal(setup_from_fen_rules(&s, variant_by_name("chess"), &GALVIN,
                                          "k7/8/8/8/8/8/Q7/K7 w - - 0 5", err, sizeof err),
                     0);
    Position p, after;
    position_from_setup(&p, &s);
    assert_int_equal(position_game_end(&p, &GALVIN), GAME_ON);
    TurnList turns = { 0 };
    assert_true(position_turns(&p, &GALVIN, &turns));
    const Turn *capture = NULL;
    for (size_t i = 0; i < turns.n; i++) {
        char text[TURN_TEXT_MAX];
        turn_to_uci(&turns.v[i], p.variant, false, text);
        if (strcmp(text, "a2a8") == 0)
            capture = &turns.v[i];
    }
    assert_non_null(capture);
    position_make_turn(&p, &GALVIN, capture, &after);
    assert_int_equal(position_game_end(&after, &GALVIN), GAME_KING_CAPTURED);
    assert_true(perft_turns(&after, &GALVIN, 1) == 0);
    turn_list_free(&turns);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(checkmate),
        cmocka_unit_test(parried_check_without_second_movement_is_stalemate),
        cmocka_unit_test(stalemate_without_check),
        cmocka_unit_test(galvin_king_captured),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

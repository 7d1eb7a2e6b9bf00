/* SPDX-License-Identifier: MIT */
/* Tests of detailed perft (core/perft/perft_stats.c) against the chessprogramming wiki's published
 * tables (start position, Kiwipete, position 3), and its consistency under double-move rules
 * (node counts equal turn perft, one- and two-movement turns add up, thread counts agree). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "perft_stats.h"

static void position_of(const char *variant, const char *fen, Position *p)
{
    Setup s;
    char err[ERRMSG_LEN];
    const Variant *v = variant_by_name(variant);
    if (!fen)
        setup_start(&s, v);
    else if (setup_from_fen(&s, v, fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    position_from_setup(p, &s);
}

/* nodes, captures, e.p., castles, promotions, checks, discovered, double, checkmates */
typedef struct Row {
    uint64_t v[9];
} Row;

static void check_table(const char *fen, int depth, const Row *want)
{
    Position p;
    position_of("chess", fen, &p);
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    PerftStats st[8];
    assert_int_equal(perft_stats(&p, &single, depth, 2, st), 0);
    for (int d = 0; d < depth; d++) {
        const PerftStats *s = &st[d];
        uint64_t got[9] = { s->nodes,      s->captures, s->en_passant,        s->castles,
                            s->promotions, s->checks,   s->discovered_checks, s->double_checks,
                            s->checkmates };
        for (int k = 0; k < 9; k++)
            if (got[k] != want[d].v[k])
                fail_msg("%s depth %d column %d: %llu, published %llu", fen ? fen : "startpos",
                         d + 1, k, (unsigned long long)got[k], (unsigned long long)want[d].v[k]);
        assert_true(s->one_movement == s->nodes && s->two_movement == 0);
    }
}

static void start_position(void **state)
{
    (void)state;
    static const Row want[] = {
        { { 20, 0, 0, 0, 0, 0, 0, 0, 0 } },
        { { 400, 0, 0, 0, 0, 0, 0, 0, 0 } },
        { { 8902, 34, 0, 0, 0, 12, 0, 0, 0 } },
        { { 197281, 1576, 0, 0, 0, 469, 0, 0, 8 } },
        { { 4865609, 82719, 258, 0, 0, 27351, 6, 0, 347 } },
    };
    check_table(NULL, 5, want);
}

static void kiwipete(void **state)
{
    (void)state;
    static const Row want[] = {
        { { 48, 8, 0, 2, 0, 0, 0, 0, 0 } },
        { { 2039, 351, 1, 91, 0, 3, 0, 0, 0 } },
        { { 97862, 17102, 45, 3162, 0, 993, 0, 0, 1 } },
        { { 4085603, 757163, 1929, 128013, 15172, 25523, 42, 6, 43 } },
    };
    check_table("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, want);
}

static void position_3(void **state)
{
    (void)state;
    static const Row want[] = {
        { { 14, 1, 0, 0, 0, 2, 0, 0, 0 } },
        { { 191, 14, 0, 0, 0, 10, 0, 0, 0 } },
        { { 2812, 209, 2, 0, 0, 267, 3, 0, 0 } },
        { { 43238, 3348, 123, 0, 0, 1680, 106, 0, 17 } },
        { { 674624, 52051, 1165, 0, 0, 52950, 1292, 3, 0 } },
    };
    check_table("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, want);
}

static void double_move_rules(void **state)
{
    (void)state;
    for (int t = TURNS_MARSEILLAIS; t < TURNS_NB; t++) {
        Rules r = { (TurnRules)t, EP_CLASSIC };
        Position p;
        position_of("chess", NULL, &p);
        const int depth = t == TURNS_MARSEILLAIS ? 2 : 3;
        PerftStats one[3], two[3];
        assert_int_equal(perft_stats(&p, &r, depth, 1, one), 0);
        assert_int_equal(perft_stats(&p, &r, depth, 2, two), 0);
        assert_memory_equal(one, two, sizeof(PerftStats) * (size_t)depth);
        for (int d = 0; d < depth; d++) {
            assert_true(one[d].nodes == perft_turns(&p, &r, d + 1));
            assert_true(one[d].one_movement + one[d].two_movement == one[d].nodes);
            assert_true(one[d].checkmates <= one[d].checks);
            if (t == TURNS_GALVIN)
                assert_true(one[d].checks == 0 && one[d].en_passant == 0);
        }
        /* Classic Marseillais: every turn from the start has two movements. */
        if (t == TURNS_MARSEILLAIS)
            assert_true(one[0].two_movement == one[0].nodes);
    }
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(start_position),
        cmocka_unit_test(kiwipete),
        cmocka_unit_test(position_3),
        cmocka_unit_test(double_move_rules),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

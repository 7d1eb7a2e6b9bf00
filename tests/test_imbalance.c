/* SPDX-License-Identifier: MIT */
/* Material imbalances: the text read, the material vector, and the changed start arrays, which
 * must stay valid positions (FEN round trip under the rules) with exactly the material asked. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "imbalance.h"
#include "setup.h"
#include "variant.h"

static void count(const Setup *s, int color, int out[MATERIAL_TYPES])
{
    memset(out, 0, MATERIAL_TYPES * sizeof *out);
    for (int sq = 0; sq < s->variant->files * RANKS; sq++)
        for (int i = 0; i < MATERIAL_TYPES; i++)
            if (s->board[sq] == make_piece(color, material_types[i]))
                out[i]++;
}

static void test_parse(void **state)
{
    (void)state;
    Imbalance im;
    char err[256];
    int diff[MATERIAL_TYPES];
    assert_int_equal(imbalance_parse("Q:A", &im, err, sizeof err), 0);
    imbalance_vector(&im, diff);
    int q_a[MATERIAL_TYPES] = { 0, 0, 0, 0, -1, 0, 1 };
    assert_memory_equal(diff, q_a, sizeof diff);
    assert_int_equal(imbalance_parse("A:RN", &im, err, sizeof err), 0);
    imbalance_vector(&im, diff);
    int a_rn[MATERIAL_TYPES] = { 0, -1, 0, -1, 1, 0, 0 };
    assert_memory_equal(diff, a_rn, sizeof diff);
    assert_int_equal(imbalance_parse("P", &im, err, sizeof err), 0);
    imbalance_vector(&im, diff);
    assert_int_equal(diff[0], 1);
    assert_int_equal(imbalance_parse("BB:NN", &im, err, sizeof err), 0);
    /* the Janus letter is the Archbishop */
    assert_int_equal(imbalance_parse("J:C", &im, err, sizeof err), 0);
    assert_int_equal(im.keep[0], ARCHBISHOP);

    static const struct {
        const char *text, *message;
    } bad[] = {
        { "Q", "write X:Y" },
        { "Q:", "1 to 4 piece letters" },
        { ":A", "1 to 4 piece letters" },
        { "K:Q", "'K' is not one of the pieces" },
        { "PP:PP", "the same pieces" },
        { "Q:Z", "'Z' is not one" },
        { "RN:NR", "the same pieces" },
        { "QQQQQ:A", "1 to 4" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (imbalance_parse(bad[i].text, &im, err, sizeof err) == 0 || !strstr(err, bad[i].message))
            fail_msg("'%s': expected an error with '%s', got '%s'", bad[i].text, bad[i].message,
                     err);
    }
}

/* Each imbalance on many random Capablanca arrays, for either side: the other side's material
 * changes by exactly the vector, the side under test keeps its army, and the position is valid. */
static void test_apply(void **state)
{
    (void)state;
    const Variant *v = variant_by_name("caparandom");
    static const char *const tests[] = { "Q:A",  "Q:C",   "C:A", "A:RN",  "C:RN",  "A:RB",
                                         "Q:RR", "BB:NN", "P",   "N:PPP", "BN:RP", "PPP:N" };
    Rules single = { TURNS_SINGLE, EP_CLASSIC };
    for (size_t t = 0; t < sizeof tests / sizeof *tests; t++) {
        Imbalance im;
        char err[256];
        assert_int_equal(imbalance_parse(tests[t], &im, err, sizeof err), 0);
        int diff[MATERIAL_TYPES];
        imbalance_vector(&im, diff);
        for (uint64_t seed = 0; seed < 100; seed++) {
            Setup s, back;
            setup_random(&s, v, seed);
            int other = (int)(seed & 1), before[2][MATERIAL_TYPES], after[2][MATERIAL_TYPES];
            count(&s, WHITE, before[WHITE]);
            count(&s, BLACK, before[BLACK]);
            Rng rng = rng_new(seed);
            if (imbalance_apply(&im, &s, other, &rng, err, sizeof err) != 0)
                fail_msg("%s, seed %llu: %s", tests[t], (unsigned long long)seed, err);
            count(&s, WHITE, after[WHITE]);
            count(&s, BLACK, after[BLACK]);
            assert_memory_equal(after[other ^ 1], before[other ^ 1], sizeof after[0]);
            for (int i = 0; i < MATERIAL_TYPES; i++)
                assert_int_equal(after[other][i], before[other][i] - diff[i]);
            char fen[FEN_MAX];
            setup_to_fen(&s, s.castling_text, fen, sizeof fen);
            if (setup_from_fen_rules(&back, v, &single, fen, err, sizeof err) != 0)
                fail_msg("%s, seed %llu: the changed array %s is no valid position: %s", tests[t],
                         (unsigned long long)seed, fen, err);
        }
    }
}

static void test_missing_piece(void **state)
{
    (void)state;
    Setup s;
    setup_start(&s, variant_by_name("janus")); /* no Chancellor */
    Imbalance im;
    char err[256];
    assert_int_equal(imbalance_parse("Q:C", &im, err, sizeof err), 0);
    Rng rng = rng_new(1);
    /* the side giving up the Queen has one; the Janus army has no Chancellor to give up */
    assert_int_equal(imbalance_apply(&im, &s, BLACK, &rng, err, sizeof err), 0);
    assert_int_equal(imbalance_parse("C:Q", &im, err, sizeof err), 0);
    assert_int_equal(imbalance_apply(&im, &s, WHITE, &rng, err, sizeof err), -1);
    assert_non_null(strstr(err, "White has no C to give up in janus"));
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_missing_piece),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

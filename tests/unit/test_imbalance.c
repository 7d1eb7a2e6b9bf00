/* SPDX-License-Identifier: MIT */
/* Material imbalances: the text read, the material vector, and the changed start arrays, which
 * must stay valid positions (FEN round trip under the rules) with exactly the material asked,
 * made by taking pieces off only: no pawn doubled, the two colours' changes mirror images. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "errmsg.h"
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
    char err[ERRMSG_LEN];
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
    int p[MATERIAL_TYPES] = { 1, 0, 0, 0, 0, 0, 0 };
    assert_memory_equal(diff, p, sizeof diff);
    assert_int_equal(imbalance_parse("NP", &im, err, sizeof err), 0);
    imbalance_vector(&im, diff);
    int np[MATERIAL_TYPES] = { 1, 1, 0, 0, 0, 0, 0 };
    assert_memory_equal(diff, np, sizeof diff);
    assert_int_equal(imbalance_parse("BB:NN", &im, err, sizeof err), 0);
    /* the Janus letter is the Archbishop */
    assert_int_equal(imbalance_parse("J:C", &im, err, sizeof err), 0);
    assert_int_equal(im.keep[0], ARCHBISHOP);

    static const struct {
        const char *text, *message;
    } bad[] = {
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

/* Each imbalance on many random Capablanca arrays, for either side: the other side loses exactly
 * the pieces X, the side under test exactly the pieces Y, and the position is valid. */
static void test_apply(void **state)
{
    (void)state;
    const Variant *v = variant_by_name("caparandom");
    static const char *const tests[] = { "Q:A",   "Q:C",   "C:A",   "A:RN",  "C:RN",
                                         "A:RB",  "Q:RR",  "BB:NN", "P",     "N:PPP",
                                         "BN:RP", "PPP:N", "PP",    "A:RNP", "R:NPP" };
    Rules single = { TURNS_SINGLE, EP_CLASSIC };
    for (size_t t = 0; t < sizeof tests / sizeof *tests; t++) {
        Imbalance im;
        char err[ERRMSG_LEN];
        assert_int_equal(imbalance_parse(tests[t], &im, err, sizeof err), 0);
        int x[MATERIAL_TYPES] = { 0 }, y[MATERIAL_TYPES] = { 0 };
        for (int i = 0; i < im.n_keep; i++)
            for (int k = 0; k < MATERIAL_TYPES; k++)
                x[k] += material_types[k] == im.keep[i];
        for (int i = 0; i < im.n_get; i++)
            for (int k = 0; k < MATERIAL_TYPES; k++)
                y[k] += material_types[k] == im.get[i];
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
            for (int i = 0; i < MATERIAL_TYPES; i++) {
                assert_int_equal(after[other][i], before[other][i] - x[i]);
                assert_int_equal(after[other ^ 1][i], before[other ^ 1][i] - y[i]);
            }
            char fen[FEN_MAX];
            setup_to_fen(&s, s.castling_text, fen, sizeof fen);
            if (setup_from_fen_rules(&back, v, &single, fen, err, sizeof err) != 0)
                fail_msg("%s, seed %llu: the changed array %s is no valid position: %s", tests[t],
                         (unsigned long long)seed, fen, err);
        }
    }
}

/* The pair of games of one imbalance test: the array changed for Black as the other side (game 1
 * of the pair) and for White (game 2), from the same random state. The second must be the first
 * with the board mirrored and the colours swapped; in neither may a pawn stand off its start rank
 * or two pawns of one colour share a file; and over many arrays, the pawns taken off come from
 * every file. */
static void test_pair_symmetric(void **state)
{
    (void)state;
    const Variant *v = variant_by_name("caparandom");
    const int files = v->files;
    static const char *const tests[] = { "P", "PP", "N:PPP", "R:NPP", "A:RNP", "C:RNP", "BN:RP" };
    for (size_t t = 0; t < sizeof tests / sizeof *tests; t++) {
        Imbalance im;
        char err[ERRMSG_LEN];
        assert_int_equal(imbalance_parse(tests[t], &im, err, sizeof err), 0);
        int taken[MAX_FILES] = { 0 };
        for (uint64_t seed = 0; seed < 300; seed++) {
            Setup s[2];
            for (int g = 0; g < 2; g++) {
                setup_random(&s[g], v, seed);
                Rng rng = rng_new(seed * 7 + 1);
                assert_int_equal(
                    imbalance_apply(&im, &s[g], g == 0 ? BLACK : WHITE, &rng, err, sizeof err), 0);
            }
            for (int r = 0; r < RANKS; r++)
                for (int f = 0; f < files; f++) {
                    Piece a = s[0].board[r * files + f],
                          b = s[1].board[(RANKS - 1 - r) * files + f];
                    Piece swapped =
                        a == NO_PIECE ? NO_PIECE : make_piece(piece_color(a) ^ 1, piece_type(a));
                    if (b != swapped)
                        fail_msg("%s, seed %llu: the colour-reversed game differs on file %c, "
                                 "rank %d",
                                 tests[t], (unsigned long long)seed, 'a' + f, RANKS - r);
                }
            for (int f = 0; f < files; f++)
                for (int c = 0; c < 2; c++) {
                    int pawns = 0;
                    for (int r = 0; r < RANKS; r++)
                        if (s[0].board[r * files + f] == make_piece(c, PAWN)) {
                            pawns++;
                            assert_int_equal(r, c == WHITE ? 1 : RANKS - 2);
                        }
                    assert_true(pawns <= 1);
                    taken[f] += pawns == 0;
                }
        }
        for (int f = 0; f < files; f++)
            if (im.n_get && im.get[0] == PAWN && taken[f] == 0)
                fail_msg("%s: no pawn of file %c was ever taken off", tests[t], 'a' + f);
    }
}

static void test_missing_piece(void **state)
{
    (void)state;
    Setup s;
    setup_start(&s, variant_by_name("janus")); /* no Chancellor */
    Imbalance im;
    char err[ERRMSG_LEN];
    assert_int_equal(imbalance_parse("Q:A", &im, err, sizeof err), 0);
    Rng rng = rng_new(1);
    assert_int_equal(imbalance_apply(&im, &s, BLACK, &rng, err, sizeof err), 0);
    /* the Janus army has no Chancellor: the side under test (White) cannot give one up */
    assert_int_equal(imbalance_parse("Q:C", &im, err, sizeof err), 0);
    setup_start(&s, variant_by_name("janus"));
    assert_int_equal(imbalance_apply(&im, &s, BLACK, &rng, err, sizeof err), -1);
    assert_non_null(strstr(err, "White has no C to give up in janus"));
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_pair_symmetric),
        cmocka_unit_test(test_missing_piece),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Tests of the match statistics (core/stats/stats.c) against numbers computed independently of it:
 * by hand from docs/statistics.md's formulas, and with a throwaway mpmath script (50 digits) that
 * finds the SPRT's maximum-likelihood distributions by damped Newton maximisation of
 * sum q_i ln p_i directly on the constraint set {sum p = 1, sum p a = s} (no Lagrange multiplier,
 * no secular equation, no bisection), with the same regularisation of empty classes (1e-3). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "stats.h"

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, want %.12g (tolerance %g)", what, got, want, tol);
}

static void elo_and_score(void **state)
{
    (void)state;
    near(stats_elo(0.5), 0.0, 1e-12, "E(0.5)");
    /* E(3/4) = 400 log10(3) = 190.848501887865 */
    near(stats_elo(0.75), 190.848501887865, 1e-9, "E(0.75)");
    near(stats_elo(0.25), -190.848501887865, 1e-9, "E(0.25)");
    /* Near 50 %, 1 % of score is about 7 Elo: E(0.51) = 400 log10(51/49) = 6.949638 */
    near(stats_elo(0.51), 6.949638, 1e-6, "E(0.51)");
    assert_true(isinf(stats_elo(0.0)) && stats_elo(0.0) < 0);
    assert_true(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0);
    assert_true(isnan(stats_elo(-0.1)) && isnan(stats_elo(1.5)) && isnan(stats_elo(NAN)));
    near(stats_score(0.0), 0.5, 1e-15, "s(0)");
    /* s(400) = 1 / (1 + 1/10) */
    near(stats_score(400.0), 10.0 / 11.0, 1e-15, "s(400)");
    near(stats_score(-INFINITY), 0.0, 0.0, "s(-inf)");
    near(stats_score(INFINITY), 1.0, 0.0, "s(inf)");
    for (double e = -800; e <= 800; e += 37.5)
        near(stats_elo(stats_score(e)), e, 1e-9, "E(s(e))");
}

/* W=60 D=20 L=20, N=100: s = 0.7; w,d,l = .6,.2,.2; sigma^2 = .6*.09 + .2*.04 + .2*.49 = .16;
 * SE = sqrt(.16/100) = .04; score interval .7 -+ .0784 = [.6216, .7784];
 * E(.7) = 400 log10(7/3) = 147.190714; E(.6216) = 86.223951; E(.7784) = 218.253228;
 * LOS = Phi(40 / sqrt(80)) = Phi(4.47214) = 0.999996128. */
static void trinomial_example(void **state)
{
    (void)state;
    TrinomialStats t;
    assert_true(stats_trinomial(60, 20, 20, &t));
    assert_int_equal(t.games, 100);
    near(t.score, 0.7, 1e-15, "score");
    near(t.draw_ratio, 0.2, 1e-15, "draw ratio");
    near(t.variance, 0.16, 1e-15, "variance");
    near(t.se, 0.04, 1e-15, "SE");
    near(t.score_lo, 0.6216, 1e-14, "score lo");
    near(t.score_hi, 0.7784, 1e-14, "score hi");
    near(t.elo, 147.190714117838, 1e-9, "Elo");
    near(t.elo_lo, 86.2239512252411, 1e-9, "Elo lo");
    near(t.elo_hi, 218.253228481561, 1e-9, "Elo hi");
    near(t.los, 0.999996127891784, 1e-12, "LOS");
}

static void trinomial_edges(void **state)
{
    (void)state;
    TrinomialStats t;
    assert_false(stats_trinomial(0, 0, 0, &t));
    assert_int_equal(t.games, 0);

    /* All draws: s = 1/2, no variance, LOS 1/2 (W + L = 0). */
    assert_true(stats_trinomial(0, 30, 0, &t));
    near(t.score, 0.5, 0, "all draws: score");
    near(t.variance, 0.0, 0, "all draws: variance");
    near(t.elo_lo, 0.0, 0, "all draws: Elo lo");
    near(t.elo_hi, 0.0, 0, "all draws: Elo hi");
    near(t.los, 0.5, 0, "all draws: LOS");

    /* All won: the interval collapses on 1, Elo is +infinity at both ends. */
    assert_true(stats_trinomial(12, 0, 0, &t));
    near(t.score_lo, 1.0, 0, "all won: score lo");
    assert_true(isinf(t.elo) && t.elo > 0 && isinf(t.elo_lo) && isinf(t.elo_hi));
    /* LOS = Phi(12 / sqrt(12)) = Phi(3.4641) = 0.9997340 */
    near(t.los, 0.9997340, 1e-7, "all won: LOS");

    /* W=10 L=1: s = 10/11, sigma^2 = s(1-s) = 10/121, SE = sqrt(10/1331) = 0.0866784;
     * s + 1.96 SE = 1.0790 > 1: clamped, upper Elo +infinity; lower s - 1.96 SE = 0.7392012,
     * E = 400 log10(0.7392012/0.2607988) = 180.9828. LOS = Phi(9/sqrt(11)) = 0.996672. */
    assert_true(stats_trinomial(10, 0, 1, &t));
    near(t.score_hi, 1.0, 0, "clamped score hi");
    assert_true(isinf(t.elo_hi) && t.elo_hi > 0);
    near(t.score_lo, 0.7392012, 1e-7, "score lo");
    near(t.elo_lo, 180.9828, 1e-4, "Elo lo");
    near(t.los, 0.996672, 1e-6, "LOS");
    /* Mirrored: the losing side. */
    assert_true(stats_trinomial(1, 0, 10, &t));
    near(t.score_lo, 0.0, 0, "clamped score lo");
    assert_true(isinf(t.elo_lo) && t.elo_lo < 0);
    near(t.elo_hi, -180.9828, 1e-4, "Elo hi");
    near(t.los, 1 - 0.996672, 1e-6, "LOS");
}

static void pair_classes(void **state)
{
    (void)state;
    assert_int_equal(stats_pair_class(0, 0), PAIR_LL);
    assert_int_equal(stats_pair_class(0, 0.5), PAIR_LD);
    assert_int_equal(stats_pair_class(0.5, 0), PAIR_LD);
    assert_int_equal(stats_pair_class(1, 0), PAIR_EVEN);
    assert_int_equal(stats_pair_class(0, 1), PAIR_EVEN);
    assert_int_equal(stats_pair_class(0.5, 0.5), PAIR_EVEN);
    assert_int_equal(stats_pair_class(1, 0.5), PAIR_WD);
    assert_int_equal(stats_pair_class(0.5, 1), PAIR_WD);
    assert_int_equal(stats_pair_class(1, 1), PAIR_WW);
    assert_int_equal(stats_pair_class(0.25, 1), -1);
    assert_int_equal(stats_pair_class(1, -1), -1);
    assert_int_equal(stats_pair_class(1.5, 0), -1);
    assert_int_equal(stats_pair_class(NAN, 0), -1);
}

/* Counts 5/10/40/30/15 (100 pairs): mu = (0*5 + .25*10 + .5*40 + .75*30 + 1*15)/100 = 0.6;
 * sigma^2 = .05*.36 + .1*.1225 + .4*.01 + .3*.0225 + .15*.16 = .065; SE = sqrt(.00065) = .025495;
 * interval .6 -+ .049971; E(.6) = 400 log10(1.5) = 70.436504, E(.550029) = 34.880853,
 * E(.649971) = 107.515516; nElo = .1 / sqrt(.13) * 800 / ln 10 = 96.361294. */
static void pentanomial_example(void **state)
{
    (void)state;
    const uint64_t n[PAIR_CLASSES] = { 5, 10, 40, 30, 15 };
    PentanomialStats p;
    assert_true(stats_pentanomial(n, &p));
    assert_int_equal(p.pairs, 100);
    near(p.score, 0.6, 1e-15, "mu");
    near(p.variance, 0.065, 1e-15, "variance");
    near(p.se, 0.0254950975679639, 1e-15, "SE");
    near(p.elo, 70.4365036222725, 1e-9, "Elo");
    near(p.elo_lo, 34.8808525113427, 1e-9, "Elo lo");
    near(p.elo_hi, 107.515516261171, 1e-9, "Elo hi");
    near(p.nelo, 96.3612937325072, 1e-9, "nElo");
}

static void pentanomial_edges(void **state)
{
    (void)state;
    PentanomialStats p;
    const uint64_t none[PAIR_CLASSES] = { 0 };
    assert_false(stats_pentanomial(none, &p));
    assert_int_equal(p.pairs, 0);
    /* Every pair even: mu = 1/2 without variance, so no normalized Elo. */
    const uint64_t even[PAIR_CLASSES] = { 0, 0, 50, 0, 0 };
    assert_true(stats_pentanomial(even, &p));
    near(p.score, 0.5, 0, "even: mu");
    near(p.elo, 0.0, 0, "even: Elo");
    assert_true(isnan(p.nelo));
    /* Symmetric counts: mu = 1/2, nElo 0, Elo interval symmetric. */
    const uint64_t sym[PAIR_CLASSES] = { 3, 7, 20, 7, 3 };
    assert_true(stats_pentanomial(sym, &p));
    near(p.nelo, 0.0, 1e-12, "sym: nElo");
    near(p.elo_lo, -p.elo_hi, 1e-9, "sym: interval");
    /* Two wins only: clamped like the trinomial summary. */
    const uint64_t ww[PAIR_CLASSES] = { 0, 0, 0, 0, 9 };
    assert_true(stats_pentanomial(ww, &p));
    assert_true(isinf(p.elo_lo) && p.elo_lo > 0);
}

/* Exact LLR against the mpmath reference (see the top of the file): counts, elo0, elo1, LLR. */
static const struct {
    uint64_t n[PAIR_CLASSES];
    double elo0, elo1, llr, normal;
} llr_cases[] = {
    { { 27, 260, 820, 290, 43 }, 0, 10, 2.0618538378676464, 2.0598994746707621 },
    { { 5, 10, 40, 30, 15 }, 0, 5, 0.87623804461360941, 1.0671131853925798 },
    { { 5, 10, 40, 30, 15 }, 0, 50, 6.1794971286842501, 7.065881793809367 },
    { { 13, 120, 370, 120, 13 }, 0, 5, -0.48641878365605666, -0.48698685225039219 },
    /* Empty classes, regularised to 1e-3 pairs each. */
    { { 0, 3, 50, 0, 7 }, 0, 5, 0.83934868008974974, 0.60378109579398538 },
    { { 0, 0, 100, 0, 0 }, 0, 5, -1.4416479084497999, -414.18673935056566 },
    { { 0, 0, 1000000, 0, 0 }, 0, 5, -14494.688921387209, -41415360971.263680 },
    { { 0, 0, 0, 0, 40 }, -5, 5, 1.1513501048874745, 6140.7752083697525 },
    { { 0, 0, 0, 0, 0 }, 0, 5, -1.0354483502281528e-6, -1.0353840159985198e-6 },
};

static void llr_known_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof llr_cases / sizeof llr_cases[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "LLR case %zu", i);
        near(stats_sprt_llr(llr_cases[i].n, llr_cases[i].elo0, llr_cases[i].elo1), llr_cases[i].llr,
             1e-6, what);
        snprintf(what, sizeof what, "normal LLR case %zu", i);
        near(stats_sprt_llr_normal(llr_cases[i].n, llr_cases[i].elo0, llr_cases[i].elo1),
             llr_cases[i].normal, 1e-6 * fabs(llr_cases[i].normal), what);
    }
    const uint64_t n[PAIR_CLASSES] = { 5, 10, 40, 30, 15 };
    assert_true(isnan(stats_sprt_llr(n, 0, INFINITY)));
    assert_true(isnan(stats_sprt_llr(n, NAN, 5)));
    assert_true(isnan(stats_sprt_llr(n, -2000, 5)));
}

/* Counts with mu = 0.50670 (score(5) = 0.50720) and, scaled by 10 and 100, the same distribution:
 * with no empty class the LLR is exactly proportional to the number of pairs (reference
 * 0.398469408285379 per 640 pairs); symmetric counts (mu = score(0) = 1/2) go the other way
 * (-0.486418783656057 per 636 pairs). */
static void llr_signs_and_growth(void **state)
{
    (void)state;
    const uint64_t base1[PAIR_CLASSES] = { 13, 117, 360, 128, 16 };
    const uint64_t base0[PAIR_CLASSES] = { 13, 120, 370, 120, 13 };
    double prev1 = 0, prev0 = 0;
    for (uint64_t k = 1; k <= 100; k *= 10) {
        uint64_t n1[PAIR_CLASSES], n0[PAIR_CLASSES];
        for (int i = 0; i < PAIR_CLASSES; i++) {
            n1[i] = k * base1[i];
            n0[i] = k * base0[i];
        }
        const double l1 = stats_sprt_llr(n1, 0, 5), l0 = stats_sprt_llr(n0, 0, 5);
        near(l1, k * 0.398469408285379, 1e-9 * k, "LLR at elo1");
        near(l0, k * -0.486418783656057, 1e-9 * k, "LLR at elo0");
        assert_true(l1 > prev1 && l0 < prev0);
        prev1 = l1;
        prev0 = l0;
        /* Near the hypotheses and with many pairs the normal approximation is close. */
        if (k == 100) {
            near(stats_sprt_llr_normal(n1, 0, 5) / l1, 1.0, 0.02, "normal / exact at elo1");
            near(stats_sprt_llr_normal(n0, 0, 5) / l0, 1.0, 0.02, "normal / exact at elo0");
        }
    }
    /* Swapping the hypotheses changes the sign. */
    near(stats_sprt_llr(base1, 5, 0), -0.398469408285379, 1e-9, "swapped");
}

static void sprt_bounds_and_decision(void **state)
{
    (void)state;
    char err[ERRMSG_LEN];
    Sprt t;
    assert_true(stats_sprt_init(&t, 0, 5, 0.05, 0.05, err, sizeof err));
    /* ln(0.05 / 0.95) = -2.94443897916644 */
    near(t.lower, -2.94443897916644, 1e-12, "lower bound");
    near(t.upper, 2.94443897916644, 1e-12, "upper bound");
    assert_int_equal(t.decision, SPRT_CONTINUE);

    const uint64_t small[PAIR_CLASSES] = { 13, 117, 360, 128, 16 };             /* LLR 0.40 */
    const uint64_t toward1[PAIR_CLASSES] = { 130, 1170, 3600, 1280, 160 };      /* LLR 3.98 */
    const uint64_t toward0[PAIR_CLASSES] = { 1300, 12000, 37000, 12000, 1300 }; /* -48.6 */
    assert_int_equal(stats_sprt_update(&t, small), SPRT_CONTINUE);
    near(t.llr, 0.398469408285379, 1e-9, "running LLR");
    assert_int_equal(stats_sprt_update(&t, toward1), SPRT_ACCEPT_H1);
    assert_int_equal(t.decided_pairs, 6340);
    near(t.decided_llr, 3.98469408285379, 1e-8, "decided LLR");
    /* Later results move the LLR, not the decision. */
    assert_int_equal(stats_sprt_update(&t, toward0), SPRT_ACCEPT_H1);
    near(t.llr, -48.641878365605666, 1e-6, "LLR after the decision");
    assert_int_equal(t.decided_pairs, 6340);
    assert_string_equal(stats_sprt_decision_name(t.decision), "accept H1");

    /* alpha = 0.05, beta = 0.1: lower ln(0.1/0.95) = -2.25129, upper ln(0.9/0.05) = 2.89037. */
    assert_true(stats_sprt_init(&t, 0, 5, 0.05, 0.1, err, sizeof err));
    near(t.lower, -2.25129179860650, 1e-12, "lower bound, beta 0.1");
    near(t.upper, 2.89037175789616, 1e-12, "upper bound, beta 0.1");
    assert_int_equal(stats_sprt_update(&t, toward0), SPRT_ACCEPT_H0);
    assert_string_equal(stats_sprt_decision_name(t.decision), "accept H0");
    assert_string_equal(stats_sprt_decision_name(SPRT_CONTINUE), "continue");

    /* Every pair drawn, or nothing yet: finite, and no decision from nothing. */
    const uint64_t none[PAIR_CLASSES] = { 0 };
    const uint64_t draws[PAIR_CLASSES] = { 0, 0, 1000000, 0, 0 };
    assert_true(stats_sprt_init(&t, 0, 5, 0.05, 0.05, err, sizeof err));
    assert_int_equal(stats_sprt_update(&t, none), SPRT_CONTINUE);
    assert_true(isfinite(t.llr));
    assert_int_equal(stats_sprt_update(&t, draws), SPRT_ACCEPT_H0);
    assert_true(isfinite(t.llr) && isfinite(stats_sprt_llr_normal(draws, 0, 5)));
}

static void sprt_parameters(void **state)
{
    (void)state;
    char err[ERRMSG_LEN];
    Sprt t;
    assert_false(stats_sprt_init(&t, 5, 0, 0.05, 0.05, err, sizeof err));
    assert_non_null(strstr(err, "less than"));
    assert_false(stats_sprt_init(&t, 5, 5, 0.05, 0.05, err, sizeof err));
    assert_false(stats_sprt_init(&t, 0, 5, 0, 0.05, err, sizeof err));
    assert_non_null(strstr(err, "alpha"));
    assert_false(stats_sprt_init(&t, 0, 5, 0.05, 0.6, err, sizeof err));
    assert_false(stats_sprt_init(&t, 0, NAN, 0.05, 0.05, err, sizeof err));
    assert_false(stats_sprt_init(&t, -5000, 5, 0.05, 0.05, err, sizeof err));
    assert_non_null(strstr(err, "finite"));
    assert_true(stats_sprt_init(&t, -1000, 1000, 0.5, 0.5, err, sizeof err));
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elo_and_score),
        cmocka_unit_test(trinomial_example),
        cmocka_unit_test(trinomial_edges),
        cmocka_unit_test(pair_classes),
        cmocka_unit_test(pentanomial_example),
        cmocka_unit_test(pentanomial_edges),
        cmocka_unit_test(llr_known_cases),
        cmocka_unit_test(llr_signs_and_growth),
        cmocka_unit_test(sprt_bounds_and_decision),
        cmocka_unit_test(sprt_parameters),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Tests of the tuning statistics (core/stats/tune_imbalance.c, core/stats/tune_regression.c,
 * core/stats/spsa.c): exact cases worked by hand from docs/statistics.md's formulas, and synthetic
 * games drawn from known piece values (a logistic model of the score with a draw rate), from which
 * the imbalance fit and the regression must recover the values inside their stated 95 % intervals
 * about 95 % of the time, and SPSA must find the optimum of a noisy quadratic strength. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "spsa.h"
#include "tune_imbalance.h"
#include "tune_regression.h"

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, want %.12g (tolerance %g)", what, got, want, tol);
}

static void has(const char *err, const char *part)
{
    if (!strstr(err, part))
        fail_msg("message \"%s\" does not say \"%s\"", err, part);
}

/* After a refusal nothing may hold NaN or a stale number. */
static void all_zero(const TuneValues *v)
{
    const double *d = (const double *)v->logit;
    const size_t n = (sizeof *v - offsetof(TuneValues, logit)) / sizeof(double);
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0.0)
            fail_msg("output word %zu is %g after an error", i, d[i]);
    assert_int_equal(v->pieces, 0);
}

/* ---- the synthetic world ---- */

/* H.G. Muller's values (docs/statistics.md), and a pawn worth 15 % of score: sigma(u_P) = 0.65. */
static const double TRUE_VALUE[TUNE_PIECES] = { 1.0, 3.0, 3.5, 4.75, 8.75, 9.0, 9.5 };
#define DRAW_RATE 0.35

static double true_pawn(void) { return log(0.65 / 0.35); }

/* The imbalances of issue 8 (the first nine) and two that tie the pieces to pawns. */
static const struct {
    const char *name;
    int m[TUNE_PIECES]; /* P N B R A C Q */
} DESIGN[] = {
    { "pawn odds", { 1, 0, 0, 0, 0, 0, 0 } },   { "Q v A", { 0, 0, 0, 0, -1, 0, 1 } },
    { "Q v C", { 0, 0, 0, 0, 0, -1, 1 } },      { "C v A", { 0, 0, 0, 0, -1, 1, 0 } },
    { "A v R+N", { 0, -1, 0, -1, 1, 0, 0 } },   { "C v R+N", { 0, -1, 0, -1, 0, 1, 0 } },
    { "A v R+B", { 0, 0, -1, -1, 1, 0, 0 } },   { "Q v 2R", { 0, 0, 0, -2, 0, 0, 1 } },
    { "2B v 2N", { 0, -2, 2, 0, 0, 0, 0 } },    { "N v 3P", { -3, 1, 0, 0, 0, 0, 0 } },
    { "B+N v R+P", { -1, 1, 1, -1, 0, 0, 0 } },
};
#define ISSUE_TESTS  9
#define DESIGN_TESTS ((int)(sizeof DESIGN / sizeof DESIGN[0]))

static double uniform(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

static double logistic(double x) { return 1.0 / (1.0 + exp(-x)); }

static double true_logit(const int m[TUNE_PIECES])
{
    double l = 0.0;
    for (int i = 0; i < TUNE_PIECES; i++)
        l += m[i] * TRUE_VALUE[i] * true_pawn();
    return l;
}

/* One game of a player whose expected score is s: draws at DRAW_RATE 4 s (1 - s), so that
 * balanced games are drawn most, and wins and losses making up the expectation. */
static double play(Rng *r, double s)
{
    const double d = DRAW_RATE * 4.0 * s * (1.0 - s), w = s - d / 2.0, x = uniform(r);
    return x < w ? 1.0 : x < w + d ? 0.5 : 0.0;
}

/* Every test of the design played for `games` games (or games / 2 pairs with colours reversed,
 * White a `white` logits better) and fitted. */
static void simulate_fit(uint64_t seed, int tests, int games, bool pairs, double white,
                         TuneValues *out)
{
    Rng rng = rng_new(seed);
    TuneImbalance t[DESIGN_TESTS];
    char err[ERRMSG_LEN] = "";
    for (int k = 0; k < tests; k++) {
        const double l = true_logit(DESIGN[k].m);
        if (pairs) {
            uint64_t n[PAIR_CLASSES] = { 0 };
            for (int g = 0; g < games / 2; g++) {
                const double first = play(&rng, logistic(l + white));
                const double second = play(&rng, logistic(l - white));
                n[stats_pair_class(first, second)]++;
            }
            assert_int_equal(tune_imbalance_from_pairs(&t[k], DESIGN[k].m, n, err, sizeof err), 0);
        } else {
            uint64_t wdl[3] = { 0 };
            for (int g = 0; g < games; g++) {
                const double x = play(&rng, logistic(l));
                wdl[x == 1.0 ? 0 : x == 0.5 ? 1 : 2]++;
            }
            assert_int_equal(tune_imbalance_from_wdl(&t[k], DESIGN[k].m, wdl[0], wdl[1], wdl[2],
                                                     err, sizeof err),
                             0);
        }
    }
    double chi2;
    int dof;
    if (tune_imbalance_fit(t, tests, TUNE_ALL, out, &chi2, &dof, err, sizeof err))
        fail_msg("seed %llu: %s", (unsigned long long)seed, err);
    assert_int_equal(dof, tests - TUNE_PIECES);
}

/* ---- pieces and inputs ---- */

static void pieces(void **state)
{
    (void)state;
    assert_int_equal(tune_piece_index(PAWN), TUNE_P);
    assert_int_equal(tune_piece_index(KNIGHT), TUNE_N);
    assert_int_equal(tune_piece_index(ARCHBISHOP), TUNE_A);
    assert_int_equal(tune_piece_index(CHANCELLOR), TUNE_C);
    assert_int_equal(tune_piece_index(QUEEN), TUNE_Q);
    assert_int_equal(tune_piece_index(KING), -1);
    assert_int_equal(tune_piece_index(NO_TYPE), -1);
    assert_string_equal(tune_piece_name(TUNE_A), "A");
    assert_string_equal(tune_piece_name(TUNE_C), "C");
    assert_string_equal(tune_piece_name(TUNE_PIECES), "?");
}

static void imbalance_inputs(void **state)
{
    (void)state;
    const int qa[TUNE_PIECES] = { 0, 0, 0, 0, -1, 0, 1 };
    TuneImbalance t;
    char err[ERRMSG_LEN] = "";
    /* W60 D20 L20: s = .7, SE = .04 (test_stats' example). */
    assert_int_equal(tune_imbalance_from_wdl(&t, qa, 60, 20, 20, err, sizeof err), 0);
    near(t.score, 0.7, 1e-15, "wdl score");
    near(t.se, 0.04, 1e-15, "wdl SE");
    assert_false(t.corrected);
    assert_int_equal(t.material[TUNE_A], -1);
    /* l = ln(7/3) = 0.847297860387204, sigma = .04 / (.7 * .3) = 0.19047619047619. */
    double l, sigma;
    assert_int_equal(tune_imbalance_logit(&t, &l, &sigma, err, sizeof err), 0);
    near(l, 0.847297860387204, 1e-14, "logit");
    near(sigma, 0.190476190476190, 1e-14, "sigma");
    /* Pairs 5/10/40/30/15: mu = .6, SE = sqrt(.065 / 100). */
    const uint64_t n[PAIR_CLASSES] = { 5, 10, 40, 30, 15 };
    assert_int_equal(tune_imbalance_from_pairs(&t, qa, n, err, sizeof err), 0);
    near(t.score, 0.6, 1e-15, "pairs score");
    near(t.se, 0.0254950975679639, 1e-15, "pairs SE");

    /* All won, 10 games: one win and one loss more, W11 L1: s = 11/12, variance s (1 - s),
     * SE = sqrt(11/144 / 12) = 0.0797856... */
    assert_int_equal(tune_imbalance_from_wdl(&t, qa, 10, 0, 0, err, sizeof err), 0);
    assert_true(t.corrected);
    near(t.score, 11.0 / 12.0, 1e-15, "all won: score");
    near(t.se, sqrt(11.0 / 144.0 / 12.0), 1e-15, "all won: SE");
    /* All drawn: W1 D30 L1, s = 1/2, variance 2/32 * 1/4, SE = sqrt(1/64 / 32). */
    assert_int_equal(tune_imbalance_from_wdl(&t, qa, 0, 30, 0, err, sizeof err), 0);
    assert_true(t.corrected);
    near(t.score, 0.5, 1e-15, "all drawn: score");
    near(t.se, sqrt(1.0 / 64.0 / 32.0), 1e-15, "all drawn: SE");
    /* All pairs even: one WW and one LL more, mu = 1/2, variance 2/12 * 1/4. */
    const uint64_t even[PAIR_CLASSES] = { 0, 0, 10, 0, 0 };
    assert_int_equal(tune_imbalance_from_pairs(&t, qa, even, err, sizeof err), 0);
    assert_true(t.corrected);
    near(t.se, sqrt(1.0 / 24.0 / 12.0), 1e-15, "pairs even: SE");
    /* All pairs lost. */
    const uint64_t lost[PAIR_CLASSES] = { 7, 0, 0, 0, 0 };
    assert_int_equal(tune_imbalance_from_pairs(&t, qa, lost, err, sizeof err), 0);
    assert_true(t.corrected);
    near(t.score, 1.0 / 9.0, 1e-15, "pairs lost: score");
    assert_int_equal(tune_imbalance_logit(&t, &l, &sigma, err, sizeof err), 0);
    assert_true(isfinite(l) && isfinite(sigma) && sigma > 0);

    const uint64_t none[PAIR_CLASSES] = { 0 };
    assert_int_equal(tune_imbalance_from_pairs(&t, qa, none, err, sizeof err), -1);
    has(err, "without game pairs");
    assert_int_equal(tune_imbalance_from_wdl(&t, qa, 0, 0, 0, err, sizeof err), -1);
    has(err, "without games");
    assert_true(t.score == 0 && t.se == 0);

    const double bad[][2] = { { 0, 0.1 },  { 1, 0.1 },        { NAN, 0.1 }, { 0.5, 0 },
                              { 0.5, -1 }, { 0.5, INFINITY }, { 0.5, NAN } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t.score = bad[i][0];
        t.se = bad[i][1];
        assert_int_equal(tune_imbalance_logit(&t, &l, &sigma, err, sizeof err), -1);
        assert_true(l == 0 && sigma == 0);
    }
}

/* ---- the imbalance fit ---- */

/* Two tests, two pieces, so the fit is exact: pawn odds (l1 = u_P) and N v 3P (l2 = u_N -
 * 3 u_P), hence u_N = l2 + 3 l1, v_N = 3 + l2 / l1 with variance sigma2^2 / l1^2 +
 * l2^2 sigma1^2 / l1^4; Var u_N = sigma2^2 + 9 sigma1^2, Cov(u_P, u_N) = 3 sigma1^2. */
static void fit_exact(void **state)
{
    (void)state;
    TuneImbalance t[2] = { { .material = { 1 }, .score = 0.65, .se = 0.01 },
                           { .material = { -3, 1 }, .score = 0.55, .se = 0.012 } };
    const double l1 = log(0.65 / 0.35), s1 = 0.01 / (0.65 * 0.35);
    const double l2 = log(0.55 / 0.45), s2 = 0.012 / (0.55 * 0.45);
    TuneValues v;
    double chi2;
    int dof;
    char err[ERRMSG_LEN] = "";
    const unsigned pn = TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N);
    if (tune_imbalance_fit(t, 2, pn, &v, &chi2, &dof, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(v.pieces, pn);
    assert_int_equal(dof, 0);
    near(chi2, 0.0, 1e-20, "chi2");
    near(v.logit[TUNE_P], l1, 1e-13, "u_P");
    near(v.logit[TUNE_N], l2 + 3 * l1, 1e-13, "u_N");
    near(v.logit_cov[TUNE_P][TUNE_P], s1 * s1, 1e-15, "Var u_P");
    near(v.logit_cov[TUNE_N][TUNE_N], s2 * s2 + 9 * s1 * s1, 1e-14, "Var u_N");
    near(v.logit_cov[TUNE_P][TUNE_N], 3 * s1 * s1, 1e-15, "Cov");
    near(v.value[TUNE_P], 1.0, 0, "v_P");
    near(v.value[TUNE_N], 3 + l2 / l1, 1e-13, "v_N");
    const double se = sqrt(s2 * s2 / (l1 * l1) + l2 * l2 * s1 * s1 / pow(l1, 4));
    near(v.se[TUNE_N], se, 1e-13, "SE v_N");
    near(v.lo[TUNE_N], 3 + l2 / l1 - 1.96 * se, 1e-12, "lo");
    near(v.hi[TUNE_N], 3 + l2 / l1 + 1.96 * se, 1e-12, "hi");
    near(v.se[TUNE_P], 0.0, 0, "the pawn is the unit");
    near(v.cov[TUNE_P][TUNE_N], 0.0, 0, "the pawn is the unit");
    near(v.value[TUNE_Q], 0.0, 0, "unfitted piece");
}

/* Over-determined (eleven tests, seven pieces): the residual is orthogonal to the design in
 * the weights (M'W(l - Mu) = 0), logit_cov inverts M'WM, and the values' covariance is the delta
 * method's. */
static void fit_normal_equations(void **state)
{
    (void)state;
    TuneImbalance t[DESIGN_TESTS];
    Rng rng = rng_new(7);
    double l[DESIGN_TESTS], w[DESIGN_TESTS];
    for (int k = 0; k < DESIGN_TESTS; k++) {
        memcpy(t[k].material, DESIGN[k].m, sizeof t[k].material);
        t[k].score = logistic(true_logit(DESIGN[k].m) + 0.2 * (uniform(&rng) - 0.5));
        t[k].se = 0.005 + 0.02 * uniform(&rng);
        l[k] = log(t[k].score / (1 - t[k].score));
        const double sigma = t[k].se / (t[k].score * (1 - t[k].score));
        w[k] = 1 / (sigma * sigma);
    }
    TuneValues v;
    double chi2, want_chi2 = 0;
    int dof;
    char err[ERRMSG_LEN] = "";
    if (tune_imbalance_fit(t, DESIGN_TESTS, TUNE_ALL, &v, &chi2, &dof, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(dof, DESIGN_TESTS - TUNE_PIECES);
    double mwm[TUNE_PIECES][TUNE_PIECES] = { { 0 } }, grad[TUNE_PIECES] = { 0 };
    for (int k = 0; k < DESIGN_TESTS; k++) {
        double r = l[k];
        for (int i = 0; i < TUNE_PIECES; i++)
            r -= DESIGN[k].m[i] * v.logit[i];
        want_chi2 += w[k] * r * r;
        for (int i = 0; i < TUNE_PIECES; i++) {
            grad[i] += w[k] * DESIGN[k].m[i] * r;
            for (int j = 0; j < TUNE_PIECES; j++)
                mwm[i][j] += w[k] * DESIGN[k].m[i] * DESIGN[k].m[j];
        }
    }
    near(chi2, want_chi2, 1e-9 * want_chi2, "chi2");
    for (int i = 0; i < TUNE_PIECES; i++) {
        near(grad[i] / mwm[i][i], 0.0, 1e-10, "normal equations");
        for (int j = 0; j < TUNE_PIECES; j++) {
            double id = 0;
            for (int k = 0; k < TUNE_PIECES; k++)
                id += v.logit_cov[i][k] * mwm[k][j];
            near(id, i == j, 1e-9, "cov (M'WM) = I");
        }
    }
    double(*c)[TUNE_PIECES] = v.logit_cov;
    const double up = v.logit[TUNE_P];
    for (int i = 1; i < TUNE_PIECES; i++) {
        const double ui = v.logit[i];
        near(v.value[i], ui / up, 1e-14, "v = u / u_P");
        const double var =
            c[i][i] / (up * up) - 2 * ui * c[i][0] / pow(up, 3) + ui * ui * c[0][0] / pow(up, 4);
        near(v.cov[i][i], var, 1e-12, "delta method");
        near(v.value[i], TRUE_VALUE[i], 0.5, "near the values the scores came from");
    }
}

/* Synthetic games from Muller's values: over 200 seeds each value lies in its 95 % interval
 * about 95 % of the time: at least 85 % for each piece, 90-99 % over all pieces (the pieces of a
 * seed share the pawn's estimate, so the pooled rate of 200 seeds varies by about 1.3 %; halved
 * or sqrt(2) times too wide intervals fall outside). Four times the games halve the
 * intervals. */
static void fit_coverage(void **state)
{
    (void)state;
    enum { SEEDS = 200, GAMES = 2000 };
    int inside[TUNE_PIECES] = { 0 }, total = 0;
    double mean[TUNE_PIECES] = { 0 };
    for (int s = 0; s < SEEDS; s++) {
        TuneValues v;
        simulate_fit(1000 + s, DESIGN_TESTS, GAMES, false, 0, &v);
        for (int i = 1; i < TUNE_PIECES; i++) {
            mean[i] += v.value[i] / SEEDS;
            if (v.lo[i] <= TRUE_VALUE[i] && TRUE_VALUE[i] <= v.hi[i]) {
                inside[i]++;
                total++;
            }
        }
    }
    for (int i = 1; i < TUNE_PIECES; i++) {
        printf("# %s: %.3f, true %.3f, %d%% inside\n", tune_piece_name(i), mean[i], TRUE_VALUE[i],
               inside[i] * 100 / SEEDS);
        if (inside[i] < 0.85 * SEEDS)
            fail_msg("%s inside its interval in %d of %d seeds", tune_piece_name(i), inside[i],
                     SEEDS);
    }
    const double rate = (double)total / (SEEDS * (TUNE_PIECES - 1));
    printf("# coverage %.3f\n", rate);
    if (rate < 0.90 || rate > 0.99)
        fail_msg("coverage %.3f, want 0.90-0.99", rate);

    double width[2][TUNE_PIECES] = { { 0 } };
    for (int s = 0; s < 20; s++)
        for (int g = 0; g < 2; g++) {
            TuneValues v;
            simulate_fit(5000 + s, DESIGN_TESTS, g ? 4 * GAMES : GAMES, false, 0, &v);
            for (int i = 1; i < TUNE_PIECES; i++)
                width[g][i] += v.hi[i] - v.lo[i];
        }
    for (int i = 1; i < TUNE_PIECES; i++)
        near(width[0][i] / width[1][i], 2.0, 0.1, "intervals shrink as 1/sqrt(games)");
}

/* The same from game pairs with colours reversed, White 0.15 logits better. */
static void fit_coverage_pairs(void **state)
{
    (void)state;
    enum { SEEDS = 200, GAMES = 2000 };
    int total = 0;
    for (int s = 0; s < SEEDS; s++) {
        TuneValues v;
        simulate_fit(9000 + s, DESIGN_TESTS, GAMES, true, 0.15, &v);
        for (int i = 1; i < TUNE_PIECES; i++)
            total += v.lo[i] <= TRUE_VALUE[i] && TRUE_VALUE[i] <= v.hi[i];
    }
    const double rate = (double)total / (SEEDS * (TUNE_PIECES - 1));
    printf("# pairs: coverage %.3f\n", rate);
    if (rate < 0.90 || rate > 0.99)
        fail_msg("coverage %.3f from pairs, want 0.90-0.99", rate);
}

static TuneImbalance design_test(int k, double score)
{
    TuneImbalance t = { .score = score, .se = 0.01 };
    memcpy(t.material, DESIGN[k].m, sizeof t.material);
    return t;
}

static void fit_errors(void **state)
{
    (void)state;
    TuneImbalance t[DESIGN_TESTS + 1];
    for (int k = 0; k < DESIGN_TESTS; k++)
        t[k] = design_test(k, logistic(true_logit(DESIGN[k].m)));
    TuneValues v;
    double chi2 = 1;
    int dof = 1;
    char err[ERRMSG_LEN] = "";
#define REFUSED(count, pieces, part)                                                               \
    do {                                                                                           \
        err[0] = 0;                                                                                \
        assert_int_equal(tune_imbalance_fit(t, count, pieces, &v, &chi2, &dof, err, sizeof err),   \
                         -1);                                                                      \
        has(err, part);                                                                            \
        all_zero(&v);                                                                              \
        assert_true(chi2 == 0 && dof == 0);                                                        \
    } while (0)

    REFUSED(0, TUNE_ALL, "no imbalance tests");
    /* a pawn-free fit is allowed (test_tune_inference.c), but not one whose tests hold pawns */
    REFUSED(DESIGN_TESTS, TUNE_ALL & ~TUNE_BIT(TUNE_P), "+1 P, a piece that is not fitted");
    REFUSED(DESIGN_TESTS, TUNE_ALL | 0x100, "bits beyond");
    /* Issue 8's list with pawn odds: every test trades a compound piece for two rooks or minor
     * pieces, or a minor for a minor, so pieces against pawns are never measured. */
    REFUSED(ISSUE_TESTS, TUNE_ALL, "design is singular");
    /* Whatever the weights: rounding leaves a pivot of either sign near 0. */
    Rng rng = rng_new(17);
    for (int n = 0; n < 20; n++) {
        for (int k = 0; k < ISSUE_TESTS; k++)
            t[k].se = 0.005 + 0.02 * uniform(&rng);
        REFUSED(ISSUE_TESTS, TUNE_ALL, "design is singular");
    }
    /* Only the pawn odds and N v 3P, with all pieces asked for. */
    t[1] = design_test(0, 0.65);
    t[2] = design_test(9, 0.5);
    REFUSED(3, TUNE_ALL, "no imbalance test has a material difference in B");
    /* Q v A asked for with P and Q only. */
    t[1] = design_test(1, 0.55);
    REFUSED(2, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_Q), "imbalance test 1 has -1 A");
    /* A test with no imbalance. */
    t[1] = (TuneImbalance){ .score = 0.5, .se = 0.01 };
    REFUSED(2, TUNE_BIT(TUNE_P), "imbalance test 1 has no material difference");
    /* A score of 1 given directly (from_wdl would have corrected it). */
    t[1] = design_test(0, 1.0);
    REFUSED(2, TUNE_BIT(TUNE_P), "imbalance test 1: score 1");
    t[1] = design_test(0, 0.6);
    t[1].se = 0;
    REFUSED(2, TUNE_BIT(TUNE_P), "imbalance test 1: standard error 0");
    /* The side a pawn up scored below half: no calibration. */
    t[0] = design_test(0, 0.45);
    REFUSED(1, TUNE_BIT(TUNE_P), "pawn's fitted worth is not positive");
    /* One test cannot give two values. */
    t[0] = design_test(9, 0.5);
    REFUSED(1, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N), "design is singular");
#undef REFUSED
}

/* ---- the bracket ---- */

static double bracket_value(double s1, double s2)
{
    const double e1 = 400 * log10(s1 / (1 - s1)), e2 = 400 * log10(s2 / (1 - s2));
    return e1 / (e1 - e2);
}

/* docs/statistics.md: 63 % and 45 % give 0.72 pawn. E1 = 400 log10(63/37) = 92.4555301546,
 * E2 = 400 log10(45/55) = -34.8600702876, E1 / (E1 - E2) = 0.726191682979 (0.722 by linear
 * interpolation of the scores, which is where 0.72 comes from). */
static void bracket(void **state)
{
    (void)state;
    double v, se;
    char err[ERRMSG_LEN] = "";
    assert_int_equal(tune_bracket(0.63, 0, 0.45, 0, &v, &se, err, sizeof err), 0);
    near(v, 0.726191682979278, 1e-12, "bracket");
    near(v, 0.72, 0.01, "docs/statistics.md's example");
    near(se, 0.0, 0, "no SE without SEs");
    /* The SE against central differences of the value in each score. */
    const double se1 = 0.012, se2 = 0.015, h = 1e-6;
    assert_int_equal(tune_bracket(0.63, se1, 0.45, se2, &v, &se, err, sizeof err), 0);
    const double d1 = (bracket_value(0.63 + h, 0.45) - bracket_value(0.63 - h, 0.45)) / (2 * h);
    const double d2 = (bracket_value(0.63, 0.45 + h) - bracket_value(0.63, 0.45 - h)) / (2 * h);
    near(se, sqrt(d1 * d1 * se1 * se1 + d2 * d2 * se2 * se2), 1e-8, "bracket SE");
    /* X worth more than Y plus a pawn: both scores above half, still a bracket (extrapolated). */
    assert_int_equal(tune_bracket(0.7, 0, 0.6, 0, &v, &se, err, sizeof err), 0);
    near(v, bracket_value(0.7, 0.6), 1e-12, "extrapolated");
    assert_true(v > 1);

    assert_int_equal(tune_bracket(0.45, 0, 0.63, 0, &v, &se, err, sizeof err), -1);
    has(err, "the pawn did not help");
    assert_true(v == 0 && se == 0);
    assert_int_equal(tune_bracket(0.5, 0, 0.5, 0, &v, &se, err, sizeof err), -1);
    assert_int_equal(tune_bracket(1.0, 0, 0.5, 0, &v, &se, err, sizeof err), -1);
    has(err, "strictly between 0 and 1");
    assert_int_equal(tune_bracket(0.6, 0, 0.0, 0, &v, &se, err, sizeof err), -1);
    assert_int_equal(tune_bracket(0.6, -0.1, 0.4, 0, &v, &se, err, sizeof err), -1);
    has(err, "not negative");
    assert_int_equal(tune_bracket(0.6, 0, 0.4, NAN, &v, &se, err, sizeof err), -1);
    assert_true(v == 0 && se == 0);
}

/* ---- the regression ---- */

/* A White-to-black material difference from the design (either sign) with a pawn or two more
 * or fewer, and the result drawn from the ordered logit with the true values; each sample a game
 * of its own. */
static void regression_samples(Rng *rng, TuneSample *s, size_t n, double h, double delta)
{
    for (size_t t = 0; t < n; t++) {
        s[t].group = t;
        const int k = (int)rng_below(rng, DESIGN_TESTS);
        const int sign = rng_next(rng) >> 63 ? 1 : -1;
        for (int i = 0; i < TUNE_PIECES; i++)
            s[t].material[i] = sign * DESIGN[k].m[i];
        s[t].material[TUNE_P] += (int)rng_below(rng, 5) - 2;
        const double eta = true_logit(s[t].material) + h, x = uniform(rng);
        s[t].result = x < logistic(eta - delta) ? 1.0 : x < logistic(eta + delta) ? 0.5 : 0.0;
    }
}

/* The naive log-likelihood, written from docs/statistics.md's model alone. */
static double naive_loglik(const TuneSample *s, size_t n, const double u[TUNE_PIECES], double h,
                           double delta)
{
    double ll = 0;
    for (size_t t = 0; t < n; t++) {
        double eta = h;
        for (int i = 0; i < TUNE_PIECES; i++)
            eta += u[i] * s[t].material[i];
        const double win = logistic(eta - delta), not_lose = logistic(eta + delta);
        ll += log(s[t].result == 1 ? win : s[t].result == 0 ? 1 - not_lose : not_lose - win);
    }
    return ll;
}

/* The fit is the maximum of the naive likelihood (central differences vanish), recovers the
 * values over 200 seeds inside its intervals about 95 % of the time (bounds as for the
 * imbalance fit), and the SEs of h and delta cover too. Every sample is a game of its own and
 * drawn from the model, so the robust SEs agree with the model's. */
static void regression(void **state)
{
    (void)state;
    enum { SEEDS = 200, SAMPLES = 4000 };
    static TuneSample s[SAMPLES];
    const double h = 0.1, delta = 0.6;
    int inside = 0, inside_h = 0, inside_d = 0;
    char err[ERRMSG_LEN] = "";
    for (int seed = 0; seed < SEEDS; seed++) {
        Rng rng = rng_new(300 + seed);
        regression_samples(&rng, s, SAMPLES, h, delta);
        TuneRegression r;
        if (tune_regression_fit(s, SAMPLES, TUNE_ALL, &r, err, sizeof err))
            fail_msg("seed %d: %s", seed, err);
        assert_true(r.iterations > 0 && r.iterations < 20);
        assert_int_equal(r.groups, SAMPLES);
        for (int i = 1; i < TUNE_PIECES; i++) {
            inside += r.values.lo[i] <= TRUE_VALUE[i] && TRUE_VALUE[i] <= r.values.hi[i];
            /* Independent samples from the model itself: the robust SE is the model's. */
            near(r.values.se[i] / r.model_se[i], 1, 0.15, "robust SE / model SE");
        }
        inside_h += fabs(r.advantage - h) <= 1.96 * r.advantage_se;
        inside_d += fabs(r.draw_width - delta) <= 1.96 * r.draw_width_se;
        if (seed > 0)
            continue;
        double u[TUNE_PIECES];
        memcpy(u, r.values.logit, sizeof u);
        const double ll = naive_loglik(s, SAMPLES, u, r.advantage, r.draw_width);
        near(r.loglik, ll, 1e-8 * fabs(ll), "log-likelihood");
        const double e = 1e-5;
        for (int i = 0; i < TUNE_PIECES; i++) {
            u[i] += e;
            const double up = naive_loglik(s, SAMPLES, u, r.advantage, r.draw_width);
            u[i] -= 2 * e;
            const double down = naive_loglik(s, SAMPLES, u, r.advantage, r.draw_width);
            u[i] += e;
            near((up - down) / (2 * e), 0, 1e-3, "gradient at the fit");
            assert_true(up < ll && down < ll);
        }
        near((naive_loglik(s, SAMPLES, u, r.advantage + e, r.draw_width) -
              naive_loglik(s, SAMPLES, u, r.advantage - e, r.draw_width)) /
                 (2 * e),
             0, 1e-3, "gradient in h");
        near((naive_loglik(s, SAMPLES, u, r.advantage, r.draw_width + e) -
              naive_loglik(s, SAMPLES, u, r.advantage, r.draw_width - e)) /
                 (2 * e),
             0, 1e-3, "gradient in delta");
    }
    const double rate = (double)inside / (SEEDS * (TUNE_PIECES - 1));
    printf("# regression: coverage %.3f, h %d, delta %d of %d\n", rate, inside_h, inside_d, SEEDS);
    if (rate < 0.90 || rate > 0.99)
        fail_msg("regression coverage %.3f, want 0.90-0.99", rate);
    assert_true(inside_h >= 0.85 * SEEDS && inside_d >= 0.85 * SEEDS);
}

static void regression_errors(void **state)
{
    (void)state;
    enum { N = 600 };
    static TuneSample s[N];
    Rng rng = rng_new(5);
    regression_samples(&rng, s, N, 0.1, 0.6);
    TuneRegression r;
    char err[ERRMSG_LEN] = "";
#define REFUSED(count, pieces, part)                                                               \
    do {                                                                                           \
        err[0] = 0;                                                                                \
        assert_int_equal(tune_regression_fit(s, count, pieces, &r, err, sizeof err), -1);          \
        has(err, part);                                                                            \
        all_zero(&r.values);                                                                       \
        assert_true(r.advantage == 0 && r.draw_width == 0 && r.loglik == 0);                       \
    } while (0)

    REFUSED(0, TUNE_ALL, "no samples");
    REFUSED(N, TUNE_ALL & ~TUNE_BIT(TUNE_P), "pawn must be fitted");
    REFUSED(N, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N), "is not fitted");
    s[3].result = 0.25;
    REFUSED(N, TUNE_ALL, "sample 3: result 0.25");
    s[3].result = 0.5;

    /* The pawn difference alone, then with a never-changing knight asked for too. */
    static TuneSample p[N];
    for (int t = 0; t < N; t++) {
        p[t] = (TuneSample){ .material = { t % 5 - 2 }, .group = t };
        const double x = uniform(&rng), eta = 0.6 * p[t].material[0];
        p[t].result = x < logistic(eta - 0.5) ? 1.0 : x < logistic(eta + 0.5) ? 0.5 : 0.0;
    }
    if (tune_regression_fit(p, N, TUNE_BIT(TUNE_P), &r, err, sizeof err))
        fail_msg("%s", err);
    near(r.values.logit[TUNE_P], 0.6, 4 * sqrt(r.values.logit_cov[0][0]), "u_P");
    memcpy(s, p, sizeof p);
    REFUSED(N, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N), "no sample has a material difference in N");
    /* A knight always with three pawns less: inseparable. */
    for (int t = 0; t < N; t++) {
        s[t].material[TUNE_N] = t % 3 - 1;
        s[t].material[TUNE_P] = -3 * s[t].material[TUNE_N];
    }
    REFUSED(N, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N), "design is singular");
    /* Every sample a pawn up: the pawn and White's advantage are one column. */
    for (int t = 0; t < N; t++)
        s[t] = (TuneSample){ .material = { 1 }, .result = p[t].result, .group = t };
    REFUSED(N, TUNE_BIT(TUNE_P), "White's advantage from the material");

    /* No draws; only draws. */
    memcpy(s, p, sizeof p);
    for (int t = 0; t < N; t++)
        if (s[t].result == 0.5)
            s[t].result = 1.0;
    REFUSED(N, TUNE_BIT(TUNE_P), "needs wins, draws and losses");
    for (int t = 0; t < N; t++)
        s[t].result = 0.5;
    REFUSED(N, TUNE_BIT(TUNE_P), "needs wins, draws and losses");
    /* Separated: a pawn up always wins, level always draws, a pawn down always loses. */
    for (int t = 0; t < N; t++) {
        s[t].material[TUNE_P] = t % 3 - 1;
        s[t].result = (t % 3) / 2.0;
    }
    REFUSED(N, TUNE_BIT(TUNE_P), "regression: ");
    printf("# separated: %s\n", err);
    /* A pawn up scores worse: u_P < 0. */
    for (int t = 0; t < N; t++)
        s[t] = (TuneSample){ .material = { -p[t].material[0] }, .result = p[t].result, .group = t };
    REFUSED(N, TUNE_BIT(TUNE_P), "pawn's fitted worth is not positive");
    /* A game's samples apart; as many games as parameters (P, h, delta). */
    memcpy(s, p, sizeof p);
    s[10].group = 3;
    REFUSED(N, TUNE_BIT(TUNE_P), "sample 10: group 3 after group 9 (the samples must be sorted");
    for (int t = 0; t < N; t++)
        s[t].group = t * 3 / N;
    REFUSED(N, TUNE_BIT(TUNE_P), "3 groups (games) for 3 parameters");
    for (int t = 0; t < N; t++)
        s[t].group = 0;
    REFUSED(N, TUNE_BIT(TUNE_P), "1 groups (games) for 3 parameters");
    for (int t = 0; t < N; t++)
        s[t].group = 1000 + t * 60 / N;
    if (tune_regression_fit(s, N, TUNE_BIT(TUNE_P), &r, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(r.groups, 60);
#undef REFUSED
}

/* beta = (u_P, u_N, h, delta): the naive log-likelihood of samples [from, to). */
static double loglik_pn(const TuneSample *s, size_t from, size_t to, const double beta[4])
{
    const double u[TUNE_PIECES] = { beta[0], beta[1] };
    return naive_loglik(s + from, to - from, u, beta[2], beta[3]);
}

/* Inverts the 4 x 4 matrix a by Gauss-Jordan elimination with partial pivoting. */
static void invert4(double a[4][4], double inv[4][4])
{
    double m[4][8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            m[i][j] = j < 4 ? a[i][j] : (j - 4 == i);
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int i = c + 1; i < 4; i++)
            if (fabs(m[i][c]) > fabs(m[p][c]))
                p = i;
        for (int j = 0; j < 8; j++) {
            const double t = m[c][j];
            m[c][j] = m[p][j];
            m[p][j] = t;
        }
        const double d = m[c][c];
        for (int j = 0; j < 8; j++)
            m[c][j] /= d;
        for (int i = 0; i < 4; i++)
            if (i != c) {
                const double f = m[i][c];
                for (int j = 0; j < 8; j++)
                    m[i][j] -= f * m[c][j];
            }
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            inv[i][j] = m[i][j + 4];
}

/* The covariances against the sandwich built here from central differences of the naive
 * log-likelihood: 15 games of 4 samples each (pawn and knight differences), so that the small
 * sample factor G / (G - 1) = 15 / 14 shows. */
static void regression_sandwich(void **state)
{
    (void)state;
    enum { GAMES = 15, PER = 4, N = GAMES * PER };
    TuneSample s[N];
    Rng rng = rng_new(77);
    for (int t = 0; t < N; t++) {
        s[t] =
            (TuneSample){ .material = { (int)rng_below(&rng, 5) - 2, (int)rng_below(&rng, 3) - 1 },
                          .group = 10 * (uint64_t)(t / PER) };
        const double eta = 0.6 * s[t].material[0] + 1.8 * s[t].material[1] + 0.1;
        const double x = uniform(&rng);
        s[t].result = x < logistic(eta - 0.6) ? 1.0 : x < logistic(eta + 0.6) ? 0.5 : 0.0;
    }
    TuneRegression r;
    char err[ERRMSG_LEN] = "";
    if (tune_regression_fit(s, N, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N), &r, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(r.groups, GAMES);
    const double beta[4] = { r.values.logit[TUNE_P], r.values.logit[TUNE_N], r.advantage,
                             r.draw_width };
    const double e = 1e-4;
    double info[4][4], bread[4][4], meat[4][4] = { { 0 } };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double b[4];
            double sum = 0;
            for (int k = 0; k < 4; k++) {
                memcpy(b, beta, sizeof b);
                b[i] += k & 1 ? -e : e;
                b[j] += k & 2 ? -e : e;
                sum += (k == 0 || k == 3 ? 1 : -1) * loglik_pn(s, 0, N, b);
            }
            info[i][j] = -sum / (4 * e * e);
        }
    for (int g = 0; g < GAMES; g++) {
        double score[4];
        for (int i = 0; i < 4; i++) {
            double b[4];
            memcpy(b, beta, sizeof b);
            b[i] += e;
            const double up = loglik_pn(s, g * PER, (g + 1) * PER, b);
            b[i] -= 2 * e;
            score[i] = (up - loglik_pn(s, g * PER, (g + 1) * PER, b)) / (2 * e);
        }
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                meat[i][j] += score[i] * score[j] * GAMES / (GAMES - 1.0);
    }
    invert4(info, bread);
    double v[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            v[i][j] = 0;
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++)
                    v[i][j] += bread[i][a] * meat[a][b] * bread[b][j];
        }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            near(r.values.logit_cov[i][j], v[i][j], 1e-5 * sqrt(v[i][i] * v[j][j]), "sandwich");
    near(r.advantage_se, sqrt(v[2][2]), 1e-5 * sqrt(v[2][2]), "SE of h");
    near(r.draw_width_se, sqrt(v[3][3]), 1e-5 * sqrt(v[3][3]), "SE of delta");
    /* v_N = u_N / u_P by the delta method, from I^-1 alone. */
    const double up = beta[0], vn = beta[1] / up;
    const double model = (bread[1][1] - 2 * vn * bread[0][1] + vn * vn * bread[0][0]) / (up * up);
    near(r.model_se[TUNE_N], sqrt(model), 1e-5 * sqrt(model), "model SE of N");
    near(r.model_se[TUNE_P], 0, 0, "the pawn is the unit");
}

/* Each game's sample given 4 times in its group: the estimates are those of the single samples,
 * the model's SEs halve (4 times the samples) but the clustered ones stay as they were, and
 * their intervals still cover the true values about 95 % of the time over 200 seeds, where the
 * model's would cover about 67 % (P(|Z| < 0.98)). */
static void regression_clustered(void **state)
{
    (void)state;
    enum { SEEDS = 200, GAMES = 1000, COPIES = 4 };
    static TuneSample one[GAMES], four[COPIES * GAMES];
    int inside = 0, inside_model = 0;
    char err[ERRMSG_LEN] = "";
    for (int seed = 0; seed < SEEDS; seed++) {
        Rng rng = rng_new(900 + seed);
        regression_samples(&rng, one, GAMES, 0.1, 0.6);
        for (int t = 0; t < COPIES * GAMES; t++)
            four[t] = one[t / COPIES];
        TuneRegression r1, r4;
        if (tune_regression_fit(one, GAMES, TUNE_ALL, &r1, err, sizeof err) ||
            tune_regression_fit(four, COPIES * GAMES, TUNE_ALL, &r4, err, sizeof err))
            fail_msg("seed %d: %s", seed, err);
        assert_int_equal(r1.groups, GAMES);
        assert_int_equal(r4.groups, GAMES);
        for (int i = 1; i < TUNE_PIECES; i++) {
            near(r4.values.value[i], r1.values.value[i], 1e-4 * r1.values.se[i], "estimate");
            near(r4.values.se[i], r1.values.se[i], 1e-3 * r1.values.se[i], "clustered SE");
            near(r4.model_se[i], r1.model_se[i] / 2, 1e-3 * r1.model_se[i], "model SE");
            inside += r4.values.lo[i] <= TRUE_VALUE[i] && TRUE_VALUE[i] <= r4.values.hi[i];
            inside_model += fabs(r4.values.value[i] - TRUE_VALUE[i]) <= 1.96 * r4.model_se[i];
        }
        near(r4.advantage_se, r1.advantage_se, 1e-3 * r1.advantage_se, "clustered SE of h");
        near(r4.draw_width_se, r1.draw_width_se, 1e-3 * r1.draw_width_se, "clustered SE of delta");
    }
    const double rate = (double)inside / (SEEDS * (TUNE_PIECES - 1));
    const double rate_model = (double)inside_model / (SEEDS * (TUNE_PIECES - 1));
    printf("# clustered: coverage %.3f, the model's SEs %.3f\n", rate, rate_model);
    if (rate < 0.90 || rate > 0.99)
        fail_msg("clustered coverage %.3f, want 0.90-0.99", rate);
    if (rate_model > 0.80)
        fail_msg("the model's SEs covered %.3f of duplicated samples: the test shows nothing",
                 rate_model);
}

/* ---- SPSA ---- */

/* N = 1000, A = 100: c = 10 * 1000^0.101 = 20.0909281260873, a = 0.002 * 10^2 * 1100^0.602 =
 * 13.5502838270942; at k = 1, a_1 = a / 101^0.602 = 0.842067537302818; at k = N, c_N = c_end
 * and a_N / c_N^2 = r_end. */
static void spsa_schedule(void **state)
{
    (void)state;
    const SpsaSchedule g = spsa_schedule_default(1000);
    near(g.A, 100, 0, "A");
    near(g.alpha, 0.602, 0, "alpha");
    near(g.gamma, 0.101, 0, "gamma");
    SpsaParam p[2] = { { .theta = 875, .min = 500, .max = 1200, .c_end = 10, .r_end = 0.002 },
                       { .theta = 0, .min = -1, .max = 1, .c_end = 1, .r_end = 0.5 } };
    Spsa s;
    char err[ERRMSG_LEN] = "";
    if (spsa_init(&s, &g, p, 2, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(s.done, 0);
    near(p[0].c, 20.0909281260873, 1e-12, "c");
    near(p[0].a, 13.5502838270942, 1e-12, "a");
    double a_k, c_k;
    spsa_gains(&s, 0, 1, &a_k, &c_k);
    near(c_k, p[0].c, 1e-12, "c_1");
    near(a_k, 0.842067537302818, 1e-12, "a_1");
    spsa_gains(&s, 0, 0, &a_k, &c_k);
    near(a_k, 0.842067537302818, 1e-12, "k < 1 counts as 1");
    for (int i = 0; i < 2; i++) {
        spsa_gains(&s, i, 1000, &a_k, &c_k);
        near(c_k, p[i].c_end, 1e-12 * p[i].c_end, "c_N = c_end");
        near(a_k / (c_k * c_k), p[i].r_end, 1e-12 * p[i].r_end, "a_N / c_N^2 = r_end");
    }

    /* One iteration by hand: the played values are theta -+ c_1 delta, and two points of result
     * for "plus" move theta by 2 a_1 / c_1 towards plus. */
    Rng rng = rng_new(11);
    double delta[2], plus[2], minus[2];
    spsa_perturb(&s, &rng, delta, plus, minus);
    spsa_gains(&s, 0, 1, &a_k, &c_k);
    assert_true(fabs(delta[0]) == 1 && fabs(delta[1]) == 1);
    near(plus[0], 875 + c_k * delta[0], 1e-12, "plus");
    near(minus[0], 875 - c_k * delta[0], 1e-12, "minus");
    near(plus[1], delta[1], 0, "plus clipped to the bounds");
    near(minus[1], -delta[1], 0, "minus clipped to the bounds");
    spsa_update(&s, delta, 2);
    assert_int_equal(s.done, 1);
    near(p[0].theta, 875 + 2 * a_k / c_k * delta[0], 1e-12, "update");
    near(p[1].theta, delta[1], 0, "update clipped to the bounds");
    /* The next iteration uses k = 2. */
    double a2, c2;
    spsa_gains(&s, 0, 2, &a2, &c2);
    spsa_perturb(&s, &rng, delta, plus, minus);
    near(plus[0] - p[0].theta, c2 * delta[0], 1e-9, "c_2");

    /* Rademacher: both signs equally often, the same draws from the same seed. */
    Rng r1 = rng_new(3), r2 = rng_new(3);
    int ups = 0, same = 0, both = 0;
    for (int n = 0; n < 10000; n++) {
        double d1[2], d2[2];
        spsa_perturb(&s, &r1, d1, plus, minus);
        spsa_perturb(&s, &r2, d2, plus, minus);
        ups += d1[0] > 0;
        same += d1[0] == d2[0] && d1[1] == d2[1];
        both += d1[0] == d1[1];
    }
    assert_int_equal(same, 10000);
    assert_in_range(ups, 4800, 5200);
    assert_in_range(both, 4800, 5200);

    Spsa bad;
    SpsaParam q = { .theta = 2, .min = 0, .max = 1, .c_end = 1, .r_end = 1 };
    assert_int_equal(spsa_init(&bad, &g, &q, 1, err, sizeof err), -1);
    has(err, "start 2 is outside [0, 1]");
    q = (SpsaParam){ .theta = 1, .min = 1, .max = 1, .c_end = 1, .r_end = 1 };
    assert_int_equal(spsa_init(&bad, &g, &q, 1, err, sizeof err), -1);
    has(err, "min < max");
    q = (SpsaParam){ .theta = 0.5, .min = 0, .max = 1, .c_end = 0, .r_end = 1 };
    assert_int_equal(spsa_init(&bad, &g, &q, 1, err, sizeof err), -1);
    has(err, "c_end (0)");
    q.c_end = 1;
    q.r_end = NAN;
    assert_int_equal(spsa_init(&bad, &g, &q, 1, err, sizeof err), -1);
    q.r_end = 1;
    assert_int_equal(spsa_init(&bad, &g, &q, 0, err, sizeof err), -1);
    has(err, "no parameters");
    SpsaSchedule g0 = spsa_schedule_default(0);
    assert_int_equal(spsa_init(&bad, &g0, &q, 1, err, sizeof err), -1);
    has(err, "0 iterations");
    g0 = g;
    g0.alpha = 0;
    assert_int_equal(spsa_init(&bad, &g0, &q, 1, err, sizeof err), -1);
    has(err, "alpha");
    assert_int_equal(spsa_init(&bad, &g, &q, 1, err, sizeof err), 0);
}

/* A synthetic engine whose strength is -KAPPA sum (theta - best)^2 Elo: each iteration plays a
 * pair of games between plus and minus. Returns the largest distance from the bounds' inside
 * seen (0 when every played and updated value kept within them). */
#define KAPPA 0.05
static double spsa_run(uint64_t seed, SpsaParam *p, int count, const double *best, long n)
{
    const SpsaSchedule g = spsa_schedule_default(n);
    Spsa s;
    char err[ERRMSG_LEN] = "";
    if (spsa_init(&s, &g, p, count, err, sizeof err))
        fail_msg("%s", err);
    Rng rng = rng_new(seed), games = rng_new(seed ^ 0xabcdef);
    double delta[4], plus[4], minus[4], outside = 0;
    for (long k = 0; k < n; k++) {
        spsa_perturb(&s, &rng, delta, plus, minus);
        double elo = 0;
        for (int i = 0; i < count; i++) {
            elo -= KAPPA * ((plus[i] - best[i]) * (plus[i] - best[i]) -
                            (minus[i] - best[i]) * (minus[i] - best[i]));
            outside = fmax(outside, fmax(p[i].min - fmin(plus[i], minus[i]),
                                         fmax(plus[i], minus[i]) - p[i].max));
        }
        const double score = 1 / (1 + pow(10, -elo / 400));
        double r = 0;
        for (int game = 0; game < 2; game++)
            r += 2 * play(&games, score) - 1;
        spsa_update(&s, delta, r);
        for (int i = 0; i < count; i++)
            outside = fmax(outside, fmax(p[i].min - p[i].theta, p[i].theta - p[i].max));
    }
    assert_int_equal(s.done, n);
    return outside;
}

/* From 75 and 50 centipawns off the optimum to within 15 in 4000 pairs of games, for five
 * seeds; with the second optimum beyond its bound, that parameter ends at the bound and no value
 * ever leaves the bounds. */
static void spsa_converges(void **state)
{
    (void)state;
    const double best[2] = { 875, 900 };
    for (int seed = 0; seed < 5; seed++) {
        SpsaParam p[2] = {
            { .theta = 800, .min = 500, .max = 1200, .c_end = 10, .r_end = 0.01 },
            { .theta = 850, .min = 500, .max = 1200, .c_end = 10, .r_end = 0.01 },
        };
        near(spsa_run(seed, p, 2, best, 4000), 0, 0, "within bounds");
        printf("# SPSA seed %d: %.1f %.1f\n", seed, p[0].theta, p[1].theta);
        near(p[0].theta, best[0], 15, "first parameter");
        near(p[1].theta, best[1], 15, "second parameter");
    }
    SpsaParam p[2] = {
        { .theta = 800, .min = 500, .max = 1200, .c_end = 10, .r_end = 0.01 },
        { .theta = 850, .min = 700, .max = 880, .c_end = 10, .r_end = 0.01 },
    };
    near(spsa_run(99, p, 2, best, 4000), 0, 0, "within bounds");
    near(p[0].theta, best[0], 15, "free parameter");
    near(p[1].theta, 880, 5, "parameter at its bound");
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pieces),
        cmocka_unit_test(imbalance_inputs),
        cmocka_unit_test(fit_exact),
        cmocka_unit_test(fit_normal_equations),
        cmocka_unit_test(fit_coverage),
        cmocka_unit_test(fit_coverage_pairs),
        cmocka_unit_test(fit_errors),
        cmocka_unit_test(bracket),
        cmocka_unit_test(regression),
        cmocka_unit_test(regression_errors),
        cmocka_unit_test(regression_sandwich),
        cmocka_unit_test(regression_clustered),
        cmocka_unit_test(spsa_schedule),
        cmocka_unit_test(spsa_converges),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

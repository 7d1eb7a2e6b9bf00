/* SPDX-License-Identifier: MIT */
/* The fit of Texel's method without chess (core/stats/texel_fit.c): K recovered from results
 * made by a known curve, parameters recovered from game results drawn from a known linear score
 * (the noise of real results: wins and losses drawn with the sigmoid's probability), the bounds
 * and the fixed parameters kept, convergence, a validation set that disagrees shown as such, and
 * the refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "rng.h"
#include "texel_fit.h"

#define P 3

static double uniform(Rng *r) { return (double)(rng_next(r) >> 11) / 9007199254740992.0; }

/* n samples with base scores b and coefficients a drawn at random, their scores at theta0 +
 * truth_delta, labelled by the sigmoid under k: exactly (soft) or as a draw of a win, a draw or a
 * loss with the sigmoid's expectation (noisy). */
static void make_set(TexelSet *s, int n, const double *truth_delta, double k, bool soft,
                     uint64_t seed)
{
    char err[ERRMSG_LEN];
    assert_int_equal(texel_set_init(s, P, err, sizeof err), 0);
    Rng r = rng_new(seed);
    for (int i = 0; i < n; i++) {
        float a[P];
        double base = (uniform(&r) - 0.5) * 400, score = base;
        for (int j = 0; j < P; j++) {
            /* counts as an evaluation has them: small integers, often zero */
            a[j] = (float)((int)(uniform(&r) * 7) - 3);
            score += a[j] * truth_delta[j];
        }
        double p = texel_sigmoid(k, score), result = p;
        if (!soft) {
            /* a draw with probability q, a win with p - q/2: the expected result is p */
            double u = uniform(&r), q = 0.4 * fmin(p, 1 - p);
            result = u < p - q / 2 ? 1 : u < p + q / 2 ? 0.5 : 0;
        }
        assert_true(texel_set_add(s, result, base, a));
    }
}

static void k_is_recovered(void **state)
{
    (void)state;
    const double zero[P] = { 0 };
    for (double k = 0.5; k <= 2.0; k += 0.75) {
        TexelSet s;
        make_set(&s, 2000, zero, k, true, 7);
        double fitted = texel_fit_k(&s, zero);
        if (fabs(fitted - k) > 1e-4)
            fail_msg("K %g fitted as %g", k, fitted);
        assert_true(texel_mse(&s, zero, fitted) < 1e-10);
        texel_set_free(&s);
    }
}

/* The fit's options for P parameters within +-bound of the start, all fitted. */
static TexelFitOptions options(double k, double lo[P], double hi[P], bool fit[P], double bound)
{
    for (int j = 0; j < P; j++) {
        lo[j] = -bound;
        hi[j] = bound;
        fit[j] = true;
    }
    return (TexelFitOptions){
        .k = k, .iterations = 3000, .rate = 1, .patience = 300, .lo = lo, .hi = hi, .fit = fit
    };
}

static void parameters_are_recovered_from_noisy_results(void **state)
{
    (void)state;
    const double truth[P] = { 40, -25, 10 };
    TexelSet train, valid;
    make_set(&train, 40000, truth, 1.2, false, 11);
    make_set(&valid, 10000, truth, 1.2, false, 12);
    double lo[P], hi[P], delta[P] = { 0 };
    bool fit[P];
    TexelFitOptions o = options(1.2, lo, hi, fit, 200);
    TexelFitResult res;
    char err[ERRMSG_LEN];
    double before = texel_mse(&valid, delta, 1.2);
    assert_int_equal(texel_fit(&train, &valid, &o, delta, NULL, NULL, &res, err, sizeof err), 0);
    for (int j = 0; j < P; j++)
        if (fabs(delta[j] - truth[j]) > 3)
            fail_msg("parameter %d fitted as %g, the truth is %g", j, delta[j], truth[j]);
    assert_true(res.converged);
    assert_true(res.valid < before);
    assert_true(res.valid0 == before);
    assert_true(res.best_iteration > 0);
    assert_true(fabs(res.valid - texel_mse(&valid, delta, 1.2)) < 1e-12);
    texel_set_free(&train);
    texel_set_free(&valid);
}

static void bounds_and_fixed_parameters_hold(void **state)
{
    (void)state;
    const double truth[P] = { 40, -25, 10 };
    TexelSet train, valid;
    make_set(&train, 5000, truth, 1, true, 21);
    make_set(&valid, 1000, truth, 1, true, 22);
    double lo[P], hi[P], delta[P] = { 0 };
    bool fit[P];
    TexelFitOptions o = options(1, lo, hi, fit, 200);
    hi[0] = 20;     /* the truth, 40, lies beyond */
    fit[2] = false; /* stays at the start */
    TexelFitResult res;
    char err[ERRMSG_LEN];
    assert_int_equal(texel_fit(&train, &valid, &o, delta, NULL, NULL, &res, err, sizeof err), 0);
    assert_true(delta[0] == 20);
    assert_true(delta[2] == 0);
    assert_true(fabs(delta[1] - truth[1]) < 10);
    texel_set_free(&train);
    texel_set_free(&valid);
}

/* A validation set labelled by other parameters: the training error falls until it converges,
 * the validation error rises from the start: the result says so (its least error at the start). */
static void overfitting_shows_in_the_validation_error(void **state)
{
    (void)state;
    const double train_truth[P] = { 40, -25, 10 }, valid_truth[P] = { -40, 25, -10 };
    TexelSet train, valid;
    make_set(&train, 3000, train_truth, 1, true, 31);
    make_set(&valid, 1000, valid_truth, 1, true, 32);
    double lo[P], hi[P], delta[P] = { 0 };
    bool fit[P];
    TexelFitOptions o = options(1, lo, hi, fit, 200);
    o.patience = 50;
    TexelFitResult res;
    char err[ERRMSG_LEN];
    assert_int_equal(texel_fit(&train, &valid, &o, delta, NULL, NULL, &res, err, sizeof err), 0);
    assert_true(res.converged);
    assert_true(res.iterations < o.iterations);
    assert_true(res.train < res.train0);
    assert_true(res.valid > res.valid0);
    assert_int_equal(res.best_iteration, 0);
    assert_true(res.best_valid == res.valid0);
    for (int j = 0; j < P; j++)
        assert_true(fabs(delta[j] - train_truth[j]) < 1);
    texel_set_free(&train);
    texel_set_free(&valid);
}

static void bad_options_are_refused(void **state)
{
    (void)state;
    TexelSet train, valid, other;
    const double zero[P] = { 0 };
    char err[ERRMSG_LEN];
    make_set(&train, 10, zero, 1, true, 41);
    make_set(&valid, 10, zero, 1, true, 42);
    assert_int_equal(texel_set_init(&other, P + 1, err, sizeof err), 0);
    assert_int_equal(texel_set_init(&(TexelSet){ 0 }, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "0 parameters"));
    double lo[P], hi[P], delta[P] = { 0 };
    bool fit[P];
    TexelFitOptions o = options(1, lo, hi, fit, 10);
    TexelFitResult res;
    assert_int_equal(texel_fit(&train, &other, &o, delta, NULL, NULL, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "parameters"));
    o.k = 0;
    assert_int_equal(texel_fit(&train, &valid, &o, delta, NULL, NULL, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "K"));
    o.k = 1;
    delta[1] = 11;
    assert_int_equal(texel_fit(&train, &valid, &o, delta, NULL, NULL, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside its bounds"));
    texel_set_free(&train);
    texel_set_free(&valid);
    texel_set_free(&other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(k_is_recovered),
        cmocka_unit_test(parameters_are_recovered_from_noisy_results),
        cmocka_unit_test(bounds_and_fixed_parameters_hold),
        cmocka_unit_test(overfitting_shows_in_the_validation_error),
        cmocka_unit_test(bad_options_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

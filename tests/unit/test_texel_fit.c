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

/* A fit to test: training and validation sets made by make_set (seeds seed and seed + 1), every
 * parameter fitted from 0 within +-bound, 3000 steps at rate 1, patience 300. */
typedef struct Problem {
    TexelSet train, valid;
    double lo[P], hi[P], delta[P];
    bool fit[P];
    TexelFitOptions o;
} Problem;

static void problem_make(Problem *f, const double train_truth[P], const double valid_truth[P],
                         int n_train, int n_valid, double k, bool soft, uint64_t seed, double bound)
{
    make_set(&f->train, n_train, train_truth, k, soft, seed);
    make_set(&f->valid, n_valid, valid_truth, k, soft, seed + 1);
    for (int j = 0; j < P; j++) {
        f->lo[j] = -bound;
        f->hi[j] = bound;
        f->delta[j] = 0;
        f->fit[j] = true;
    }
    f->o = (TexelFitOptions){ .k = k,
                              .iterations = 3000,
                              .rate = 1,
                              .patience = 300,
                              .lo = f->lo,
                              .hi = f->hi,
                              .fit = f->fit };
}

/* Fits f's training set against its validation set (or other, when not NULL). */
static int problem_fit(Problem *f, TexelSet *other, TexelFitResult *res, char *err)
{
    return texel_fit(&f->train, other ? other : &f->valid, &f->o, f->delta, NULL, NULL, res, err,
                     ERRMSG_LEN);
}

static void problem_free(Problem *f)
{
    texel_set_free(&f->train);
    texel_set_free(&f->valid);
}

static void parameters_are_recovered_from_noisy_results(void **state)
{
    (void)state;
    const double truth[P] = { 40, -25, 10 };
    Problem f;
    problem_make(&f, truth, truth, 40000, 10000, 1.2, false, 11, 200);
    TexelFitResult res;
    char err[ERRMSG_LEN];
    double before = texel_mse(&f.valid, f.delta, 1.2);
    assert_int_equal(problem_fit(&f, NULL, &res, err), 0);
    for (int j = 0; j < P; j++)
        if (fabs(f.delta[j] - truth[j]) > 3)
            fail_msg("parameter %d fitted as %g, the truth is %g", j, f.delta[j], truth[j]);
    assert_true(res.converged);
    assert_true(res.valid < before);
    assert_true(res.valid0 == before);
    assert_true(res.best_iteration > 0);
    assert_true(fabs(res.valid - texel_mse(&f.valid, f.delta, 1.2)) < 1e-12);
    problem_free(&f);
}

static void bounds_and_fixed_parameters_hold(void **state)
{
    (void)state;
    const double truth[P] = { 40, -25, 10 };
    Problem f;
    problem_make(&f, truth, truth, 5000, 1000, 1, true, 21, 200);
    f.hi[0] = 20;     /* the truth, 40, lies beyond */
    f.fit[2] = false; /* stays at the start */
    TexelFitResult res;
    char err[ERRMSG_LEN];
    assert_int_equal(problem_fit(&f, NULL, &res, err), 0);
    assert_true(f.delta[0] == 20);
    assert_true(f.delta[2] == 0);
    assert_true(fabs(f.delta[1] - truth[1]) < 10);
    problem_free(&f);
}

/* A validation set labelled by other parameters: the training error falls until it converges,
 * the validation error rises from the start: the result says so (its least error at the start). */
static void overfitting_shows_in_the_validation_error(void **state)
{
    (void)state;
    const double train_truth[P] = { 40, -25, 10 }, valid_truth[P] = { -40, 25, -10 };
    Problem f;
    problem_make(&f, train_truth, valid_truth, 3000, 1000, 1, true, 31, 200);
    f.o.patience = 50;
    TexelFitResult res;
    char err[ERRMSG_LEN];
    assert_int_equal(problem_fit(&f, NULL, &res, err), 0);
    assert_true(res.converged);
    assert_true(res.iterations < f.o.iterations);
    assert_true(res.train < res.train0);
    assert_true(res.valid > res.valid0);
    assert_int_equal(res.best_iteration, 0);
    assert_true(res.best_valid == res.valid0);
    for (int j = 0; j < P; j++)
        assert_true(fabs(f.delta[j] - train_truth[j]) < 1);
    problem_free(&f);
}

static void bad_options_are_refused(void **state)
{
    (void)state;
    const double zero[P] = { 0 };
    Problem f;
    problem_make(&f, zero, zero, 10, 10, 1, true, 41, 10);
    TexelSet other;
    char err[ERRMSG_LEN];
    assert_int_equal(texel_set_init(&other, P + 1, err, sizeof err), 0);
    assert_int_equal(texel_set_init(&(TexelSet){ 0 }, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "0 parameters"));
    TexelFitResult res;
    assert_int_equal(problem_fit(&f, &other, &res, err), -1);
    assert_non_null(strstr(err, "parameters"));
    f.o.k = 0;
    assert_int_equal(problem_fit(&f, NULL, &res, err), -1);
    assert_non_null(strstr(err, "K"));
    f.o.k = 1;
    f.delta[1] = 11;
    assert_int_equal(problem_fit(&f, NULL, &res, err), -1);
    assert_non_null(strstr(err, "outside its bounds"));
    problem_free(&f);
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

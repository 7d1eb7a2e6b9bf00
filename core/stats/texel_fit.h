/* SPDX-License-Identifier: MIT */
/* Texel's method without the chess (docs/texel.md): game results r fitted by a logistic curve of
 * scores that are linear in the parameters. Sample i has the score s_i(theta) = b_i +
 * sum_j a_ij (theta_j - theta0_j) (centipawns, White's view) and the result r_i (White's: 1,
 * 1/2, 0); the error of theta under the scale K is
 *
 *     E(theta, K) = 1/n sum_i (r_i - sigma(K s_i(theta) / 400))^2,  sigma(x) = 1 / (1 + 10^-x),
 *
 * Texel's sigmoid. K is fitted first with theta = theta0, then theta with K fixed, by Adam on
 * the analytic gradient within each parameter's bounds until the training error stops falling;
 * a validation set (other games) tells whether what was fitted holds beyond the training set.
 * Single-threaded on purpose: the sums come out the same on every machine, so a fit is reproducible
 * to the last bit. */
#ifndef CARRERA_TEXEL_FIT_H
#define CARRERA_TEXEL_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Samples: results, base scores and the non-zero coefficients of each sample, packed. */
typedef struct TexelSet {
    int params;      /* the length of theta */
    size_t n, cap;   /* samples, and room for them */
    float *result;   /* [n] */
    float *base;     /* [n] b_i */
    uint64_t *first; /* [n + 1] where sample i's coefficients begin in index/coef */
    uint16_t *index; /* parameter of each coefficient */
    float *coef;     /* a_ij */
    size_t nnz, nnz_cap;
} TexelSet;

/* An empty set over params parameters (1 to 65535). 0, or -1 with a message. */
int texel_set_init(TexelSet *s, int params, char *err, size_t errlen);
void texel_set_free(TexelSet *s);

/* Appends a sample: its result (0, 0.5 or 1), base score and the coefficients coef[0..params)
 * (the zero ones are not stored). false when memory runs out. */
bool texel_set_add(TexelSet *s, double result, double base, const float *coef);

/* Texel's sigmoid of a score under the scale k: 1 / (1 + 10^(-k score / 400)). */
double texel_sigmoid(double k, double score);

/* Sample i's score at theta0 + delta. */
double texel_score(const TexelSet *s, size_t i, const double *delta);

/* E(theta0 + delta, K); 0 for an empty set. */
double texel_mse(const TexelSet *s, const double *delta, double k);

/* The K in [TEXEL_K_MIN, TEXEL_K_MAX] that minimises E(theta0 + delta, K) (golden section
 * search on log K, to a relative 1e-6). */
#define TEXEL_K_MIN 0.01
#define TEXEL_K_MAX 100.0
double texel_fit_k(const TexelSet *s, const double *delta);

/* How the parameters are fitted. */
typedef struct TexelFitOptions {
    double k;              /* the fixed scale */
    int iterations;        /* at most this many Adam steps over the whole training set */
    double rate;           /* Adam's step size, in the parameters' units (centipawns) */
    int patience;          /* converged: the training error fell by less than TEXEL_CONVERGED
                            * of itself over this many steps */
    const double *lo, *hi; /* [params] the bounds of theta0 + delta */
    const bool *fit;       /* [params] which parameters move (the others stay at theta0) */
} TexelFitOptions;

#define TEXEL_CONVERGED 1e-5

/* Where a fit stands, for progress reports. */
typedef struct TexelFitStep {
    int iteration, iterations;
    double train, valid; /* errors at this step */
    double best_valid;   /* the least validation error so far, and its step */
    int best_iteration;
} TexelFitStep;

typedef void (*TexelFitReport)(const TexelFitStep *step, void *ctx);

/* What a fit did. The validation set is not fitted: its error along the way tells whether the
 * fit learns what holds beyond its training set (it falls with the training error) or the
 * training set's noise (it rises while the training error falls). */
typedef struct TexelFitResult {
    int iterations;        /* steps made */
    bool converged;        /* stopped by patience, not by the iteration limit */
    double train0, valid0; /* errors at the start */
    double train, valid;   /* at the end, where delta is returned */
    double best_valid;     /* the least validation error on the way */
    int best_iteration;    /* its step (0: the start) */
} TexelFitResult;

/* Fits delta (in: the start, usually 0; out: the last step) on train until it converges or the
 * iterations run out, following the error of valid (which may be empty) on the way. report (may
 * be NULL) is called after every step with ctx. Returns 0, or -1 with a message (bad options,
 * memory). */
int texel_fit(const TexelSet *train, const TexelSet *valid, const TexelFitOptions *o, double *delta,
              TexelFitReport report, void *ctx, TexelFitResult *out, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/* Planning an imbalance design before playing it (docs/statistics.md, section 4; for
 * check-config): from assumed values, the expected covariance of the fit and the expected
 * half-widths of its quantities for the pairs planned, and the allocation of pairs over the
 * tests that minimises the summed variance of chosen quantities (an L-optimal design). */
#ifndef CARRERA_TUNE_PLAN_H
#define CARRERA_TUNE_PLAN_H

#include <stddef.h>

#include "tune_fieller.h"

/* The per-pair variance assumed. A game at expected score s is drawn with probability
 * d 4 s (1 - s) (d the draw rate of an even game), so its variance is s (1 - s) (1 - d); a pair
 * with colours reversed has `factor` (the pentanomial factor f, 1 for independent games, below
 * 1 when the pair's games are positively correlated; 0.8 is typical) times half that. In the
 * logit, sigma^2 per pair = f (1 - d) / (2 s (1 - s)); sigma_t^2 = that / pairs_t. */
typedef struct TunePairModel {
    double draw_rate; /* d in [0, 1) */
    double factor;    /* f > 0 */
} TunePairModel;

/* The expected fit of the tests material[0..count-1] with pairs[t] pairs each (> 0; fractions
 * allowed), over `pieces`, when the true values are value[] (pawns, value[P] = 1 is the unit)
 * and a pawn is worth pawn_logit logits: the logits u_i = value_i pawn_logit,
 * s_t = 1 / (1 + e^-(m_t . u)) and sigma_t from the model; out->logit_cov = (M'WM)^-1, and the
 * values in pawns when the pawn is fitted. Errors: a bad model, pawn_logit not positive and
 * finite, a bad pair count, and the design errors of tune_imbalance_fit. */
int tune_plan_covariance(const int (*material)[TUNE_PIECES], const double *pairs, size_t count,
                         unsigned pieces, const double value[TUNE_PIECES], double pawn_logit,
                         TunePairModel model, TuneValues *out, char *err, size_t errlen);

/* The expected 95 % half-widths z se of the nq quantities q under the expected fit (delta
 * method). Errors as tune_quantity_estimate's. */
int tune_plan_half_widths(const TuneValues *expected, const TuneQuantity *q, int nq, double *half,
                          char *err, size_t errlen);

/* The fractions weight[0..count-1] (summing to 1) of a total of pairs over the tests that
 * minimise the sum of the variances of the nt targets (delta method; gradient rows
 * L_k = (a_k - q_k b_k) / (b_k . u)) with the same assumptions as tune_plan_covariance. The
 * multiplicative algorithm from equal weights: with F(w) = sum_t w_t x_t x_t' / sigma_t^2 per pair
 * (x_t the material row) and d_t = x_t' F^-1 L'L F^-1 x_t / sigma_t^2, w_t <- w_t sqrt(d_t) /
 * sum w sqrt(d) (the square root keeps every step downhill; the fixed point is the one of the
 * plain d_t rule) until max d_t <= (1 + 1e-6) sum w d (Kiefer's equivalence theorem: optimal) or
 * 20000 steps. Tests that contribute nothing tend to 0. *objective receives the summed variance
 * per pair (divide by the total pairs) when not NULL. Errors: those of tune_plan_covariance,
 * no targets, a target not fitted or with denominator 0. */
int tune_plan_optimal(const int (*material)[TUNE_PIECES], size_t count, unsigned pieces,
                      const double value[TUNE_PIECES], double pawn_logit, TunePairModel model,
                      const TuneQuantity *targets, int nt, double *weight, double *objective,
                      char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/* The regression method of piece-value tuning (docs/statistics.md): the ordered-logit
 * regression of game results on material, by maximum likelihood, with covariances clustered by
 * game. Plain doubles and caller-owned arrays; no allocation. The fit returns 0 on success and
 * -1 with a message in (err, errlen); on failure its output is zeroed, never left with NaN. */
#ifndef CARRERA_TUNE_REGRESSION_H
#define CARRERA_TUNE_REGRESSION_H

#include <stddef.h>
#include <stdint.h>

#include "tune_values.h"

/* One position from a recorded game: White's material minus Black's, the game's result for
 * White (0, 1/2 or 1), and the game it comes from: samples of one game share a group (any
 * number naming the game), and the samples given to the fit are sorted by group. */
typedef struct TuneSample {
    int material[TUNE_PIECES];
    double result;
    uint64_t group;
} TuneSample;

/* The maximum-likelihood fit of docs/statistics.md's ordered logit:
 * P(White wins) = sigma(u . dm + h - delta), P(White does not lose) = sigma(u . dm + h + delta),
 * by Newton-Raphson with step halving from the exact fit with u = 0. h is White's advantage and
 * delta > 0 sets the draw rate, both in logits. Values v = u / u_P as for the imbalance fit.
 *
 * Positions of one game share its result, so they are not independent: the inverse of the
 * observed information I would make intervals too narrow by up to the square root of the
 * positions per game. The covariance of values (and of h and delta) is therefore the
 * cluster-robust sandwich I^-1 B I^-1 with B = G / (G - 1) sum_g s_g s_g', s_g the score
 * (gradient of the log-likelihood) summed over the samples of group g and G the number of
 * groups. With every sample in a group of its own it is the ordinary robust (Huber-White)
 * covariance, which does not lean on the model's variance being right either. It needs many
 * groups: fewer than about 50 games make it unreliable, and no more groups than parameters
 * make it singular (refused). model_se keeps the model's own SEs, from I^-1 alone, as if every
 * sample were independent; (se / model_se)^2 is the design effect, the factor by which the
 * correlation within games shrinks the number of samples the data are worth. */
typedef struct TuneRegression {
    TuneValues values;                /* covariance, se, lo, hi: the clustered ones */
    double model_se[TUNE_PIECES];     /* SE of each value from I^-1 alone (pawns; P is 0) */
    double advantage, advantage_se;   /* h, clustered SE */
    double draw_width, draw_width_se; /* delta, clustered SE */
    double loglik;                    /* at the maximum */
    int iterations;                   /* Newton steps taken */
    size_t groups;                    /* G */
} TuneRegression;

/* Errors: no samples; a result other than 0, 1/2, 1; samples not sorted by group; no more
 * groups than parameters (fitted pieces + 2); no win, no draw or no loss among the results
 * (h or delta would be infinite); material outside `pieces`, a piece of `pieces` that never
 * differs, a singular design, as for the imbalance fit; no convergence in 100 Newton steps or a
 * fitted parameter beyond +-30 logits (results separated by material: the MLE is infinite);
 * u_P <= 0. */
int tune_regression_fit(const TuneSample *samples, size_t count, unsigned pieces,
                        TuneRegression *out, char *err, size_t errlen);

#endif

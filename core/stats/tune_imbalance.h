/* SPDX-License-Identifier: MIT */
/* The imbalance method of piece-value tuning (docs/statistics.md): imbalance tests
 * (material odds matches) as scores with standard errors, their weighted least-squares fit in
 * the logit domain (H.G. Muller's method), and the one-imbalance bracket by a pawn.
 * Plain doubles and caller-owned arrays; no allocation, no state beyond what the caller holds.
 * Every function that can refuse its input returns 0 on success and -1 with a message in
 * (err, errlen); on failure its outputs are zeroed, never left with NaN. */
#ifndef CARRERA_TUNE_IMBALANCE_H
#define CARRERA_TUNE_IMBALANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "tune_values.h"

/* One imbalance test: the material of the side under test minus its opponent's (counts of
 * P N B R A C Q: Q v A is {0,0,0,0,-1,0,+1} from the Queen's side; pawn odds {1,0,...}) and that
 * side's score with its standard error. */
typedef struct TuneImbalance {
    int material[TUNE_PIECES];
    double score;   /* in (0, 1) */
    double se;      /* > 0 */
    bool corrected; /* the counts were continuity-corrected (see below) */
} TuneImbalance;

/* Fill *t from game counts (trinomial, stats_trinomial) or from pair counts with colours
 * reversed (pentanomial, stats_pentanomial; the right one for imbalance tests, whose openings are
 * unbalanced by design). A test whose score is 0 or 1, or whose variance is 0 (every game drawn,
 * every pair in one class), has no finite logit or weight: its counts get one win and one loss
 * more (one WW and one LL pair), a continuity correction in the spirit of Haldane's that pulls
 * the score towards 1/2 by about one game's worth, and `corrected` is set so that the caller can
 * say so. Error: no games. */
int tune_imbalance_from_wdl(TuneImbalance *t, const int material[TUNE_PIECES], uint64_t wins,
                            uint64_t draws, uint64_t losses, char *err, size_t errlen);
int tune_imbalance_from_pairs(TuneImbalance *t, const int material[TUNE_PIECES],
                              const uint64_t pairs[PAIR_CLASSES], char *err, size_t errlen);

/* The logit of a test's score, l = ln(s / (1 - s)), and its standard error by the delta method,
 * sigma = SE(s) / (s (1 - s)). Error when the score is not in (0, 1) or the SE not positive and
 * finite. */
int tune_imbalance_logit(const TuneImbalance *t, double *logit, double *sigma, char *err,
                         size_t errlen);

/* The fit of all tests at once: l_t = m_t . u by weighted least squares,
 * u = (M'WM)^-1 M'W l with W = diag(1 / sigma_t^2), covariance (M'WM)^-1, values v = u / u_P.
 * `pieces` says which pieces to fit. Without the pawn (a pawn-free design: Q:RR, R:BN, Q:A, ...)
 * only the logits and their covariance are fitted and out->has_pawn is false: the scale is not
 * determined, and what the fit measures are ratios (tune_fieller.h). Errors, each naming the
 * test or piece: no tests; a test with bad score or SE; a test with no material difference at
 * all; a test with material of a piece outside `pieces`; a piece of `pieces` in no test; a
 * singular design (the tests cannot separate one piece's value from the others', for instance
 * fewer independent tests than pieces); with the pawn fitted, a fitted pawn worth u_P <= 0 (no
 * calibration, values in pawns meaningless).
 * chi2 receives the weighted residual sum of squares and dof = tests - pieces fitted (when not
 * NULL): chi2 far above dof says the linear model does not hold (values depend on the
 * surrounding material) or the SEs are too small. The covariance is the unscaled one. */
int tune_imbalance_fit(const TuneImbalance *tests, size_t count, unsigned pieces, TuneValues *out,
                       double *chi2, int *dof, char *err, size_t errlen);

/* The same fit in logits alone: u, its covariance, chi2 and dof, whatever the pawn's fitted
 * worth; has_pawn false and no values in pawns. For refits whose pawn may come out <= 0
 * (bootstrap replicates, leave-one-out). Errors as tune_imbalance_fit's but the pawn's. */
int tune_imbalance_fit_logits(const TuneImbalance *tests, size_t count, unsigned pieces,
                              TuneValues *out, double *chi2, int *dof, char *err, size_t errlen);

/* How well the linear model fits, and the factor applied to the covariance. */
typedef struct TuneFitQuality {
    double chi2;    /* sum of (l_t - m_t . u)^2 / sigma_t^2 */
    int dof;        /* tests - pieces fitted */
    double p_value; /* P(chi2_dof >= chi2) (chi2.h); 1 when dof is 0 */
    double scale;   /* chi2 / dof when dof > 0 and chi2 > dof (the Birge ratio), else 1 */
} TuneFitQuality;

/* tune_imbalance_fit_logits, then the covariance of the logits multiplied by q->scale (the
 * Birge ratio): when the tests scatter about the fit more than their standard errors say, the
 * errors are taken to be too small by that common factor. No values in pawns (has_pawn false),
 * whatever the pawn's fitted worth. Errors as tune_imbalance_fit_logits's (*q is then zero). */
int tune_imbalance_fit_logits_scaled(const TuneImbalance *tests, size_t count, unsigned pieces,
                                     TuneValues *out, TuneFitQuality *q, char *err, size_t errlen);

/* tune_imbalance_fit, then the covariance (of the logits and of the values) multiplied by
 * q->scale: when the tests scatter about the fit more than their standard errors say, the
 * errors are taken to be too small by that common factor. Errors as tune_imbalance_fit's (*q is
 * then zero). */
int tune_imbalance_fit_scaled(const TuneImbalance *tests, size_t count, unsigned pieces,
                              TuneValues *out, TuneFitQuality *q, char *err, size_t errlen);

/* One imbalance bracketed by a pawn: with E1 = Elo(X v Y) from score s1 and E2 = Elo(X v Y+P)
 * from score s2, v(X) - v(Y) = E1 / (E1 - E2) pawns (63 % and 45 % give 0.726, which
 * docs/statistics.md cuts to 0.72). *se receives its standard error from the scores' standard
 * errors se1 and se2 by the delta method (0 when both are 0). Errors: a score outside (0, 1), a
 * negative or non-finite SE, or E2 >= E1 (the extra pawn did not help Y: no bracket). */
int tune_bracket(double s1, double se1, double s2, double se2, double *value, double *se, char *err,
                 size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/* How each imbalance test sits in the fit (docs/statistics.md, section 4): its fitted logit and
 * score, its residual, leverage and standardised residual, and the leave-one-imbalance-out
 * table: the fit without the test, the quantities from it, and how far the test is from what
 * the others predict for it. */
#ifndef CARRERA_TUNE_DIAGNOSTICS_H
#define CARRERA_TUNE_DIAGNOSTICS_H

#include <stdbool.h>
#include <stddef.h>

#include "tune_fieller.h"
#include "tune_imbalance.h"

/* One test in the fit of all. With r_t = (l_t - m_t . u) / sigma_t the weighted residual and
 * h_t = m_t' (M'WM)^-1 m_t / sigma_t^2 its leverage (the unscaled covariance: sum h_t = pieces
 * fitted), the standardised residual r_t / sqrt(1 - h_t) is standard normal when the model
 * holds. A test that alone determines some combination of the values has h_t = 1 and residual 0:
 * nothing checks it. */
typedef struct TuneResidual {
    double logit, sigma; /* observed l_t and its SE */
    double fitted;       /* m_t . u */
    double fitted_score; /* 1 / (1 + e^-fitted) */
    double residual;     /* l_t - m_t . u, in logits */
    double leverage;     /* h_t in [0, 1] */
    bool determined;     /* h_t is 1 to rounding (above 1 - 1e-9): standardised is 0 */
    double standardised; /* r_t / sqrt(1 - h_t) */
} TuneResidual;

/* Fits the tests over `pieces` (tune_imbalance_fit_logits) and fills out[0..count-1]. Errors
 * as that fit's. */
int tune_residuals(const TuneImbalance *tests, size_t count, unsigned pieces, TuneResidual *out,
                   char *err, size_t errlen);

/* The fit without one test. */
typedef struct TuneLeaveOut {
    bool possible;     /* the other tests identify the same pieces (else only `reason`) */
    char reason[512];  /* why not */
    TuneValues values; /* their fit (logits always; values in pawns when has_pawn) */
    int count;         /* quantities estimated, the nq asked for */
    TuneEstimate estimate[TUNE_QUANTITIES_MAX]; /* from that fit (see `scaled`) */
    double predicted_logit;                     /* m_t . u_(-t) */
    double predicted_score;                     /* its logistic */
    double prediction_se; /* sqrt(sigma_t^2 + m_t' Cov_(-t) m_t), the unscaled Cov_(-t) */
    double prediction_z;  /* (l_t - m_t . u_(-t)) / prediction_se: standard normal when the
                             test agrees with the others */
} TuneLeaveOut;

/* For each test t, the fit of the others over the same pieces, out[t]. When they no longer
 * identify the pieces (a piece in no other test, a singular design) out[t].possible is false
 * with the reason, and the rest of out[t] is 0. The nq quantities q (at most
 * TUNE_QUANTITIES_MAX) are estimated at TUNE_Z95 from each refit, with its covariance scaled by
 * its own Birge ratio when `scaled` (tune_imbalance_fit_scaled); a quantity whose denominator is
 * 0 in a refit gets the whole line. Errors: a refused test (tune_imbalance_logit), too many
 * quantities, fewer than 2 tests. */
int tune_leave_one_out(const TuneImbalance *tests, size_t count, unsigned pieces,
                       const TuneQuantity *q, int nq, bool scaled, TuneLeaveOut *out, char *err,
                       size_t errlen);

#endif

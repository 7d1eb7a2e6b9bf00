/* SPDX-License-Identifier: MIT */
/* Residuals, leverages and the leave-one-imbalance-out table of the imbalance fit
 * (tune_diagnostics.h). */
#include "tune_diagnostics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"

/* A leverage this close to 1 is 1: the residual is rounding noise. */
#define DETERMINED 1e-9

static double predicted(const int m[TUNE_PIECES], const double u[TUNE_PIECES])
{
    double s = 0.0;
    for (int i = 0; i < TUNE_PIECES; i++)
        s += m[i] * u[i];
    return s;
}

/* m' V m */
static double variance_of(const int m[TUNE_PIECES], const double v[TUNE_PIECES][TUNE_PIECES])
{
    double s = 0.0;
    for (int i = 0; i < TUNE_PIECES; i++)
        for (int j = 0; j < TUNE_PIECES; j++)
            s += m[i] * v[i][j] * m[j];
    return fmax(s, 0.0);
}

static double logistic(double x) { return 1.0 / (1.0 + exp(-x)); }

int tune_residuals(const TuneImbalance *tests, size_t count, unsigned pieces, TuneResidual *out,
                   char *err, size_t errlen)
{
    memset(out, 0, count * sizeof *out);
    TuneValues fit;
    if (tune_imbalance_fit_logits(tests, count, pieces, &fit, NULL, NULL, err, errlen))
        return -1;
    for (size_t t = 0; t < count; t++) {
        TuneResidual *r = &out[t];
        tune_imbalance_logit(&tests[t], &r->logit, &r->sigma, NULL, 0);
        r->fitted = predicted(tests[t].material, fit.logit);
        r->fitted_score = logistic(r->fitted);
        r->residual = r->logit - r->fitted;
        r->leverage =
            fmin(variance_of(tests[t].material, fit.logit_cov) / (r->sigma * r->sigma), 1.0);
        r->determined = r->leverage > 1.0 - DETERMINED;
        if (!r->determined)
            r->standardised = r->residual / (r->sigma * sqrt(1.0 - r->leverage));
    }
    return 0;
}

/* out->possible and the rest for leaving out test `skip`, the others copied to `rest`. */
static void leave_out(const TuneImbalance *tests, size_t count, size_t skip, unsigned pieces,
                      const TuneQuantity *q, int nq, bool scaled, TuneImbalance *rest,
                      TuneLeaveOut *out)
{
    size_t n = 0;
    for (size_t t = 0; t < count; t++)
        if (t != skip)
            rest[n++] = tests[t];
    TuneValues *v = &out->values;
    double chi2;
    int dof;
    if (tune_imbalance_fit_logits(rest, n, pieces, v, &chi2, &dof, out->reason, sizeof out->reason))
        return;
    out->possible = true;
    /* values in pawns only when the pawn's worth is positive in this refit; the quantities'
     * estimates say the rest either way */
    if (tune_values_to_pawns(v, NULL, 0))
        v->has_pawn = false;
    double l, sigma;
    tune_imbalance_logit(&tests[skip], &l, &sigma, NULL, 0);
    out->predicted_logit = predicted(tests[skip].material, v->logit);
    out->predicted_score = logistic(out->predicted_logit);
    out->prediction_se = sqrt(sigma * sigma + variance_of(tests[skip].material, v->logit_cov));
    out->prediction_z = (l - out->predicted_logit) / out->prediction_se;
    if (scaled && dof > 0 && chi2 > dof)
        tune_values_scale(v, chi2 / dof);
    out->count = nq;
    for (int k = 0; k < nq; k++)
        if (tune_quantity_estimate(&q[k], v->logit, v->logit_cov, TUNE_Z95, &out->estimate[k], NULL,
                                   0))
            out->estimate[k] =
                (TuneEstimate){ .kind = TUNE_INTERVAL_WHOLE, .lo = -INFINITY, .hi = INFINITY };
}

int tune_leave_one_out(const TuneImbalance *tests, size_t count, unsigned pieces,
                       const TuneQuantity *q, int nq, bool scaled, TuneLeaveOut *out, char *err,
                       size_t errlen)
{
    memset(out, 0, count * sizeof *out);
    if (count < 2)
        return errmsg_fail(err, errlen, "leave-one-out: %zu tests (at least 2)", count);
    if (nq < 0 || nq > TUNE_QUANTITIES_MAX)
        return errmsg_fail(err, errlen, "leave-one-out: %d quantities (at most %d)", nq,
                           TUNE_QUANTITIES_MAX);
    for (size_t t = 0; t < count; t++) {
        double l, sigma;
        char why[ERRMSG_LEN];
        if (tune_imbalance_logit(&tests[t], &l, &sigma, why, sizeof why))
            return errmsg_fail(err, errlen, "leave-one-out: imbalance test %zu: %s", t, why);
    }
    TuneImbalance *rest = malloc((count - 1) * sizeof *rest);
    if (!rest)
        return errmsg_fail(err, errlen, "leave-one-out: out of memory for %zu tests", count);
    for (size_t t = 0; t < count; t++)
        leave_out(tests, count, t, pieces, q, nq, scaled, rest, &out[t]);
    free(rest);
    return 0;
}

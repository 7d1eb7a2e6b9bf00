/* SPDX-License-Identifier: MIT */
/* Expected precision of an imbalance design and its L-optimal allocation of pairs
 * (tune_plan.h). */
#include "tune_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "tune_design.h"
#include "tune_imbalance.h"

#define MAXP      TUNE_DESIGN_MAX
#define MAX_STEPS 20000
#define OPT_TOL   1e-6
/* A test that does nothing for the targets gets d_t = 0 and weight 0, which can leave a piece
 * without information: F is inverted with this fraction of the equal-weights design added, which
 * changes the targets' variances by about as much (relatively) and keeps F invertible. */
#define RIDGE 1e-9

static int check_assumptions(const double value[TUNE_PIECES], double pawn_logit,
                             TunePairModel model, char *err, size_t errlen)
{
    if (!(model.draw_rate >= 0.0 && model.draw_rate < 1.0))
        return errmsg_fail(err, errlen, "plan: draw rate %g is not in [0, 1)", model.draw_rate);
    if (!(model.factor > 0.0 && isfinite(model.factor)))
        return errmsg_fail(err, errlen, "plan: pentanomial factor %g is not positive and finite",
                           model.factor);
    if (!(pawn_logit > 0.0 && isfinite(pawn_logit)))
        return errmsg_fail(err, errlen, "plan: a pawn's worth %g logits is not positive and finite",
                           pawn_logit);
    for (int i = 0; i < TUNE_PIECES; i++)
        if (!isfinite(value[i]))
            return errmsg_fail(err, errlen, "plan: the value of %s is not finite",
                               tune_piece_name(i));
    return 0;
}

/* sigma^2 of test t's logit per pair at the assumed values. */
static double pair_variance(const int m[TUNE_PIECES], const double u[TUNE_PIECES],
                            TunePairModel model)
{
    double l = 0.0;
    for (int i = 0; i < TUNE_PIECES; i++)
        l += m[i] * u[i];
    const double s = 1.0 / (1.0 + exp(-l));
    return model.factor * (1.0 - model.draw_rate) / (2.0 * s * (1.0 - s));
}

/* The tests as TuneImbalance at the assumed values with n[t] pairs, for tune_imbalance_fit's
 * checks and fit: score s_t and SE such that sigma_t is the model's. */
static void expected_tests(const int (*material)[TUNE_PIECES], const double *n, size_t count,
                           const double u[TUNE_PIECES], TunePairModel model, TuneImbalance *out)
{
    for (size_t t = 0; t < count; t++) {
        double l = 0.0;
        for (int i = 0; i < TUNE_PIECES; i++)
            l += material[t][i] * u[i];
        const double s = 1.0 / (1.0 + exp(-l));
        memcpy(out[t].material, material[t], sizeof out[t].material);
        out[t].score = s;
        out[t].se = sqrt(pair_variance(material[t], u, model) / n[t]) * s * (1.0 - s);
        out[t].corrected = false;
    }
}

int tune_plan_covariance(const int (*material)[TUNE_PIECES], const double *pairs, size_t count,
                         unsigned pieces, const double value[TUNE_PIECES], double pawn_logit,
                         TunePairModel model, TuneValues *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (check_assumptions(value, pawn_logit, model, err, errlen))
        return -1;
    for (size_t t = 0; t < count; t++)
        if (!(pairs[t] > 0.0 && isfinite(pairs[t])))
            return errmsg_fail(err, errlen, "plan: imbalance test %zu has %g pairs", t, pairs[t]);
    double u[TUNE_PIECES];
    for (int i = 0; i < TUNE_PIECES; i++)
        u[i] = value[i] * pawn_logit;
    TuneImbalance *tests = malloc((count ? count : 1) * sizeof *tests);
    if (!tests)
        return errmsg_fail(err, errlen, "plan: out of memory for %zu tests", count);
    expected_tests(material, pairs, count, u, model, tests);
    const int rc = tune_imbalance_fit(tests, count, pieces, out, NULL, NULL, err, errlen);
    free(tests);
    return rc;
}

int tune_plan_half_widths(const TuneValues *expected, const TuneQuantity *q, int nq, double *half,
                          char *err, size_t errlen)
{
    for (int k = 0; k < nq; k++) {
        TuneEstimate e;
        if (tune_quantity_estimate(&q[k], expected->logit, expected->logit_cov, TUNE_Z95, &e, err,
                                   errlen))
            return -1;
        half[k] = TUNE_Z95 * e.se;
    }
    return 0;
}

/* L'L over the fitted pieces' indices: the sum of the targets' gradient outer products. */
static int target_metric(const TuneQuantity *targets, int nt, const double u[TUNE_PIECES],
                         const int *idx, int k, double g[MAXP][MAXP], char *err, size_t errlen)
{
    memset(g, 0, sizeof(double[MAXP][MAXP]));
    for (int j = 0; j < nt; j++) {
        double na = 0.0, nb = 0.0, grad[MAXP];
        for (int i = 0; i < TUNE_PIECES; i++) {
            na += targets[j].a[i] * u[i];
            nb += targets[j].b[i] * u[i];
        }
        if (nb == 0.0)
            return errmsg_fail(err, errlen, "plan: target %s has denominator 0", targets[j].name);
        for (int r = 0; r < k; r++)
            grad[r] = (targets[j].a[idx[r]] - na / nb * targets[j].b[idx[r]]) / nb;
        for (int r = 0; r < k; r++)
            for (int c = 0; c < k; c++)
                g[r][c] += grad[r] * grad[c];
    }
    return 0;
}

int tune_plan_optimal(const int (*material)[TUNE_PIECES], size_t count, unsigned pieces,
                      const double value[TUNE_PIECES], double pawn_logit, TunePairModel model,
                      const TuneQuantity *targets, int nt, double *weight, double *objective,
                      char *err, size_t errlen)
{
    for (size_t t = 0; t < count; t++)
        weight[t] = 0.0;
    if (objective)
        *objective = 0.0;
    if (nt < 1)
        return errmsg_fail(err, errlen, "plan: no target quantities");
    for (int j = 0; j < nt; j++)
        if (!tune_quantity_fitted(&targets[j], pieces))
            return errmsg_fail(err, errlen, "plan: target %s has a piece that is not fitted",
                               targets[j].name);
    double *w = malloc((count ? count : 1) * 3 * sizeof *w);
    if (!w)
        return errmsg_fail(err, errlen, "plan: out of memory for %zu tests", count);
    double *var = w + count, *d = w + 2 * count;
    for (size_t t = 0; t < count; t++)
        w[t] = 1.0 / (double)count;
    /* the checks of the design, once, through the expected fit at equal weights */
    TuneValues fit;
    int rc = tune_plan_covariance(material, w, count, pieces, value, pawn_logit, model, &fit, err,
                                  errlen);
    int idx[TUNE_PIECES];
    const int k = tune_design_pieces(pieces, idx);
    double u[TUNE_PIECES], g[MAXP][MAXP];
    for (int i = 0; i < TUNE_PIECES; i++)
        u[i] = value[i] * pawn_logit;
    if (rc == 0)
        rc = target_metric(targets, nt, u, idx, k, g, err, errlen);
    for (size_t t = 0; t < count && rc == 0; t++)
        var[t] = pair_variance(material[t], u, model);
    double obj = 0.0;
    for (int step = 0; step < MAX_STEPS && rc == 0; step++) {
        double f[MAXP][MAXP] = { { 0 } }, inv[MAXP][MAXP], h[MAXP][MAXP];
        for (size_t t = 0; t < count; t++)
            for (int r = 0; r < k; r++)
                for (int c = 0; c < k; c++)
                    f[r][c] += (w[t] + RIDGE / (double)count) * material[t][idx[r]] *
                               material[t][idx[c]] / var[t];
        if (tune_design_inverse(k, f, inv) >= 0) {
            rc = errmsg_fail(err, errlen, "plan: the weights made the design singular");
            break;
        }
        /* H = F^-1 G F^-1; the objective tr(G F^-1) = sum w d */
        for (int r = 0; r < k; r++)
            for (int c = 0; c < k; c++) {
                double s = 0.0;
                for (int a = 0; a < k; a++)
                    for (int b = 0; b < k; b++)
                        s += inv[r][a] * g[a][b] * inv[b][c];
                h[r][c] = s;
            }
        double wd = 0.0, dmax = 0.0, norm = 0.0;
        for (size_t t = 0; t < count; t++) {
            double s = 0.0;
            for (int r = 0; r < k; r++)
                for (int c = 0; c < k; c++)
                    s += material[t][idx[r]] * h[r][c] * material[t][idx[c]];
            d[t] = fmax(s, 0.0) / var[t];
            wd += w[t] * d[t];
            dmax = fmax(dmax, d[t]);
        }
        obj = wd;
        if (dmax <= (1.0 + OPT_TOL) * wd)
            break;
        for (size_t t = 0; t < count; t++)
            norm += w[t] * sqrt(d[t]);
        for (size_t t = 0; t < count; t++)
            w[t] = w[t] * sqrt(d[t]) / norm;
    }
    if (rc == 0) {
        memcpy(weight, w, count * sizeof *w);
        if (objective)
            *objective = obj;
    }
    free(w);
    return rc;
}

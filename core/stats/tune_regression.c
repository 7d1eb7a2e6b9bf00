/* SPDX-License-Identifier: MIT */
/* The ordered-logit regression on game results (see tune_regression.h and
 * docs/statistics.md for the formulas and where they come from). */
#include "tune_regression.h"

#include <math.h>
#include <string.h>

#include "errmsg.h"
#include "tune_design.h"

#define MAXP       TUNE_DESIGN_MAX
#define MAX_NEWTON 100
/* Newton decrement g' I^-1 g at which the regression stops: the squared distance to the maximum
 * in standard errors, so the estimates are within 1e-5 SE of it. */
#define NEWTON_TOL   1e-10
#define MAX_HALVINGS 60
/* A regression parameter beyond this many logits means a result certain to 1e-13: the data are
 * separated and the MLE is at infinity. */
#define MAX_LOGIT 30.0

static double sigmoid(double x)
{
    if (x >= 0.0)
        return 1.0 / (1.0 + exp(-x));
    const double e = exp(x);
    return e / (1.0 + e);
}

static double log_sigmoid(double x) { return x >= 0.0 ? -log1p(exp(-x)) : x - log1p(exp(x)); }

/* The derivatives of one sample's log-likelihood in a = eta - delta and b = eta + delta. */
typedef struct SampleTerms {
    double la, lb, laa, lbb, lab;
} SampleTerms;

/* The log-likelihood of sample s at beta = (u over the k fitted pieces idx, h, delta), with z
 * receiving its row of the design (material of the fitted pieces, then 1 for h) and *d the
 * derivatives. With eta = u.dm + h, a win contributes ln sigma(a), a loss ln sigma(-b), a draw
 * ln(sigma(b) - sigma(a)); the chain rule runs through da/dbeta = (z, -1) and
 * db/dbeta = (z, +1). */
static double sample_terms(const TuneSample *s, const int *idx, int k, const double *beta,
                           double z[MAXP], SampleTerms *d)
{
    const double delta = beta[k + 1];
    double eta = beta[k];
    for (int j = 0; j < k; j++)
        eta += beta[j] * (z[j] = s->material[idx[j]]);
    z[k] = 1.0;
    const double a = eta - delta, b = eta + delta;
    *d = (SampleTerms){ 0 };
    if (s->result == 1.0) {
        d->la = sigmoid(-a);
        d->laa = -sigmoid(a) * d->la;
        return log_sigmoid(a);
    }
    if (s->result == 0.0) {
        d->lb = -sigmoid(b);
        d->lbb = d->lb * sigmoid(-b);
        return log_sigmoid(-b);
    }
    /* sigma(b) - sigma(a) = sigma(b) sigma(-a) (1 - e^-2delta), without cancellation. */
    const double gap = -expm1(-2.0 * delta);
    const double qb = sigmoid(-b) / (sigmoid(-a) * gap); /* sigma'(b) / D */
    const double qa = sigmoid(a) / (sigmoid(b) * gap);   /* sigma'(a) / D */
    d->la = -qa;
    d->lb = qb;
    d->laa = -qa * (1.0 - 2.0 * sigmoid(a)) - qa * qa;
    d->lbb = qb * (1.0 - 2.0 * sigmoid(b)) - qb * qb;
    d->lab = qa * qb;
    return log_sigmoid(b) + log_sigmoid(-a) + log(gap);
}

/* The score of one sample: its gradient in beta. */
static void sample_score(const double z[MAXP], const SampleTerms *d, int k, double g[MAXP])
{
    for (int i = 0; i <= k; i++)
        g[i] = (d->la + d->lb) * z[i];
    g[k + 1] = d->lb - d->la;
}

/* The log-likelihood of the n samples at beta, and when grad is not NULL its gradient and
 * Hessian. */
static double ordered_loglik(const TuneSample *s, size_t n, const int *idx, int k,
                             const double *beta, double *grad, double hess[MAXP][MAXP])
{
    const int q = k + 2, h = k, dl = k + 1;
    double ll = 0.0;
    if (grad) {
        memset(grad, 0, q * sizeof *grad);
        for (int i = 0; i < q; i++)
            memset(hess[i], 0, q * sizeof hess[i][0]);
    }
    for (size_t t = 0; t < n; t++) {
        double z[MAXP], g[MAXP];
        SampleTerms d;
        ll += sample_terms(&s[t], idx, k, beta, z, &d);
        if (!grad)
            continue;
        sample_score(z, &d, k, g);
        const double e2 = d.laa + d.lbb + 2.0 * d.lab, ed = d.lbb - d.laa;
        for (int i = 0; i < q; i++)
            grad[i] += g[i];
        for (int i = 0; i <= h; i++) {
            for (int j = 0; j <= i; j++)
                hess[i][j] += e2 * z[i] * z[j];
            hess[dl][i] += ed * z[i];
        }
        hess[dl][dl] += d.laa + d.lbb - 2.0 * d.lab;
    }
    if (grad)
        for (int i = 0; i < q; i++)
            for (int j = i + 1; j < q; j++)
                hess[i][j] = hess[j][i];
    return ll;
}

/* The middle of the sandwich: G / (G - 1) sum over groups of s_g s_g', where s_g sums the
 * scores of a group's samples (consecutive: the samples are sorted by group). */
static void cluster_meat(const TuneSample *s, size_t n, const int *idx, int k, const double *beta,
                         size_t groups, double meat[MAXP][MAXP])
{
    const int q = k + 2;
    double sum[MAXP] = { 0 };
    for (int i = 0; i < q; i++)
        memset(meat[i], 0, q * sizeof meat[i][0]);
    for (size_t t = 0; t < n; t++) {
        double z[MAXP], g[MAXP];
        SampleTerms d;
        sample_terms(&s[t], idx, k, beta, z, &d);
        sample_score(z, &d, k, g);
        for (int i = 0; i < q; i++)
            sum[i] += g[i];
        if (t + 1 < n && s[t + 1].group == s[t].group)
            continue;
        for (int i = 0; i < q; i++)
            for (int j = 0; j < q; j++)
                meat[i][j] += sum[i] * sum[j];
        memset(sum, 0, sizeof sum);
    }
    const double f = (double)groups / (double)(groups - 1);
    for (int i = 0; i < q; i++)
        for (int j = 0; j < q; j++)
            meat[i][j] *= f;
}

/* Refuses a design that cannot be fitted whatever the results: the fitted pieces' columns and
 * the advantage's column of ones must be independent. */
static int check_regression_design(const TuneSample *s, size_t n, const int *idx, int k, char *err,
                                   size_t errlen)
{
    double a[MAXP][MAXP] = { { 0 } }, inv[MAXP][MAXP];
    for (size_t t = 0; t < n; t++) {
        double z[MAXP];
        for (int j = 0; j < k; j++)
            z[j] = s[t].material[idx[j]];
        z[k] = 1.0;
        for (int i = 0; i <= k; i++)
            for (int j = 0; j <= k; j++)
                a[i][j] += z[i] * z[j];
    }
    const int bad = tune_design_inverse(k + 1, a, inv);
    if (bad == k)
        return errmsg_fail(err, errlen,
                           "the samples cannot separate White's advantage from the "
                           "material (the design is singular)");
    if (bad >= 0)
        return tune_design_singular(idx[bad], "samples", err, errlen);
    return 0;
}

static int regression_fail(TuneRegression *out, char *err, size_t errlen, const char *why,
                           int iteration)
{
    memset(out, 0, sizeof *out);
    return errmsg_fail(err, errlen, "regression: %s (Newton step %d)", why, iteration);
}

int tune_regression_fit(const TuneSample *samples, size_t count, unsigned pieces,
                        TuneRegression *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (tune_design_check_pieces(pieces, true, err, errlen))
        return -1;
    if (count == 0)
        return errmsg_fail(err, errlen, "no samples to fit");
    size_t wins = 0, draws = 0, losses = 0, groups = 0;
    unsigned used = 0;
    for (size_t t = 0; t < count; t++) {
        const uint64_t g = samples[t].group;
        if (t > 0 && g < samples[t - 1].group)
            return errmsg_fail(err, errlen,
                               "sample %zu: group %llu after group %llu (the samples must be "
                               "sorted by group, so that each game's samples are together)",
                               t, (unsigned long long)g, (unsigned long long)samples[t - 1].group);
        groups += t == 0 || g != samples[t - 1].group;
        const double r = samples[t].result;
        if (r == 1.0)
            wins++;
        else if (r == 0.5)
            draws++;
        else if (r == 0.0)
            losses++;
        else
            return errmsg_fail(err, errlen, "sample %zu: result %g is not 0, 1/2 or 1", t, r);
        if (tune_design_check_row(samples[t].material, pieces, &used, "sample", t, err, errlen))
            return -1;
    }
    if (!wins || !draws || !losses)
        return errmsg_fail(err, errlen,
                           "the regression needs wins, draws and losses (got "
                           "%zu, %zu, %zu): the advantage or the draw width would be infinite",
                           wins, draws, losses);
    if (tune_design_check_used(pieces, used, "sample", err, errlen))
        return -1;
    int idx[TUNE_PIECES];
    const int k = tune_design_pieces(pieces, idx), q = k + 2;
    if (groups <= (size_t)q)
        return errmsg_fail(err, errlen,
                           "%zu groups (games) for %d parameters: the clustered covariance "
                           "needs more groups than parameters, and many more to be reliable",
                           groups, q);
    if (check_regression_design(samples, count, idx, k, err, errlen))
        return -1;

    /* With u = 0 the MLE is exact: sigma(h - delta) = wins, sigma(h + delta) = wins + draws. */
    double beta[MAXP] = { 0 };
    const double n = (double)count;
    const double lw = log(wins / (n - wins)), lnl = log((wins + draws) / (double)losses);
    beta[k] = (lw + lnl) / 2.0;
    beta[k + 1] = (lnl - lw) / 2.0;

    double grad[MAXP], hess[MAXP][MAXP], info[MAXP][MAXP], cov[MAXP][MAXP];
    double ll = ordered_loglik(samples, count, idx, k, beta, grad, hess);
    int iter = 0;
    for (;; iter++) {
        for (int i = 0; i < q; i++)
            for (int j = 0; j < q; j++)
                info[i][j] = -hess[i][j];
        if (tune_design_inverse(q, info, cov) >= 0)
            return regression_fail(out, err, errlen, "the information matrix is singular", iter);
        double step[MAXP], decrement = 0.0;
        for (int i = 0; i < q; i++) {
            step[i] = 0.0;
            for (int j = 0; j < q; j++)
                step[i] += cov[i][j] * grad[j];
            decrement += step[i] * grad[i];
        }
        if (decrement < NEWTON_TOL)
            break;
        if (iter == MAX_NEWTON)
            return regression_fail(out, err, errlen, "no convergence", iter);
        double t = 1.0, next[MAXP];
        int halving = 0;
        for (; halving < MAX_HALVINGS; halving++, t /= 2.0) {
            for (int i = 0; i < q; i++)
                next[i] = beta[i] + t * step[i];
            /* Rounding makes a step at the maximum look like a tiny loss: allow it. */
            if (next[k + 1] > 0.0 &&
                ordered_loglik(samples, count, idx, k, next, NULL, NULL) >= ll - 1e-12 * fabs(ll))
                break;
        }
        if (halving == MAX_HALVINGS)
            return regression_fail(out, err, errlen, "step halving found no better point", iter);
        memcpy(beta, next, sizeof beta);
        for (int i = 0; i < q; i++)
            if (!(fabs(beta[i]) <= MAX_LOGIT))
                return regression_fail(out, err, errlen,
                                       "a parameter passed 30 logits: the "
                                       "results are separated by material",
                                       iter);
        ll = ordered_loglik(samples, count, idx, k, beta, grad, hess);
    }
    /* cov is I^-1 at the maximum: the bread of the sandwich. */
    double meat[MAXP][MAXP], robust[MAXP][MAXP];
    cluster_meat(samples, count, idx, k, beta, groups, meat);
    for (int i = 0; i < q; i++)
        for (int j = 0; j < q; j++) {
            double c = 0.0;
            for (int a = 0; a < q; a++)
                for (int b = 0; b < q; b++)
                    c += cov[i][a] * meat[a][b] * cov[b][j];
            robust[i][j] = c;
        }
    TuneValues model = { .pieces = pieces };
    out->values.pieces = pieces;
    for (int i = 0; i < k; i++) {
        out->values.logit[idx[i]] = model.logit[idx[i]] = beta[i];
        for (int j = 0; j < k; j++) {
            out->values.logit_cov[idx[i]][idx[j]] = robust[i][j];
            model.logit_cov[idx[i]][idx[j]] = cov[i][j];
        }
    }
    out->advantage = beta[k];
    out->advantage_se = sqrt(fmax(robust[k][k], 0.0));
    out->draw_width = beta[k + 1];
    out->draw_width_se = sqrt(fmax(robust[k + 1][k + 1], 0.0));
    out->loglik = ll;
    out->iterations = iter;
    out->groups = groups;
    char why[ERRMSG_LEN];
    if (tune_values_to_pawns(&out->values, why, sizeof why) ||
        tune_values_to_pawns(&model, why, sizeof why))
        return regression_fail(out, err, errlen, why, iter);
    memcpy(out->model_se, model.se, sizeof out->model_se);
    return 0;
}

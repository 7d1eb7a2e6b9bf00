/* SPDX-License-Identifier: MIT */
/* Statistics of piece-value tuning: imbalance fit, bracket, ordered-logit regression, SPSA (see
 * tune_stats.h and /work/shared/STATISTICS.md for the formulas and where they come from). */
#include "tune_stats.h"

#include <math.h>
#include <string.h>

#include "errmsg.h"

#define Z95 1.96
/* The most unknowns of a fit: a value per piece, and the regression's advantage and draw width. */
#define MAXP (TUNE_PIECES + 2)
/* A Cholesky pivot below this fraction of its diagonal entry means the column is, to rounding,
 * a combination of the earlier ones (the pivot is 1 - R^2 of that regression). */
#define PIVOT_TOL  1e-10
#define MAX_NEWTON 100
/* Newton decrement g' I^-1 g at which the regression stops: the squared distance to the maximum
 * in standard errors, so the estimates are within 1e-5 SE of it. */
#define NEWTON_TOL   1e-10
#define MAX_HALVINGS 60
/* A regression parameter beyond this many logits means a result certain to 1e-13: the data are
 * separated and the MLE is at infinity. */
#define MAX_LOGIT 30.0

const char *tune_piece_name(int piece)
{
    static const char *const names[TUNE_PIECES] = { "P", "N", "B", "R", "A", "C", "Q" };
    return piece >= 0 && piece < TUNE_PIECES ? names[piece] : "?";
}

/* ---- shared by both fits ---- */

/* Inverts the symmetric positive definite n x n matrix a (left as it is) by Cholesky. Returns
 * -1, or the first column that is (to rounding) a combination of the earlier ones; inv is then
 * undefined. */
static int spd_inverse(int n, double a[MAXP][MAXP], double inv[MAXP][MAXP])
{
    double l[MAXP][MAXP] = { { 0 } };
    for (int j = 0; j < n; j++) {
        double d = a[j][j];
        for (int k = 0; k < j; k++)
            d -= l[j][k] * l[j][k];
        if (!(d > PIVOT_TOL * a[j][j]) || !isfinite(d))
            return j;
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = a[i][j];
            for (int k = 0; k < j; k++)
                s -= l[i][k] * l[j][k];
            l[i][j] = s / l[j][j];
        }
    }
    for (int c = 0; c < n; c++) {
        double y[MAXP];
        for (int i = 0; i < n; i++) {
            double s = i == c ? 1.0 : 0.0;
            for (int k = 0; k < i; k++)
                s -= l[i][k] * y[k];
            y[i] = s / l[i][i];
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = y[i];
            for (int k = i + 1; k < n; k++)
                s -= l[k][i] * inv[k][c];
            inv[i][c] = s / l[i][i];
        }
    }
    return -1;
}

/* The fitted pieces in order; returns their number. */
static int piece_list(unsigned pieces, int idx[TUNE_PIECES])
{
    int k = 0;
    for (int i = 0; i < TUNE_PIECES; i++)
        if (pieces & TUNE_BIT(i))
            idx[k++] = i;
    return k;
}

static int check_pieces(unsigned pieces, char *err, size_t errlen)
{
    if (pieces & ~TUNE_ALL)
        return errmsg_fail(err, errlen, "piece set 0x%x has bits beyond the %d pieces", pieces,
                           TUNE_PIECES);
    if (!(pieces & TUNE_BIT(TUNE_P)))
        return errmsg_fail(err, errlen, "the pawn must be fitted: it is the unit of every value");
    return 0;
}

/* Refuses material of a piece that is not fitted; adds the pieces that differ to *used. */
static int check_row(const int m[TUNE_PIECES], unsigned pieces, unsigned *used, const char *what,
                     size_t row, char *err, size_t errlen)
{
    for (int i = 0; i < TUNE_PIECES; i++) {
        if (m[i] == 0)
            continue;
        if (!(pieces & TUNE_BIT(i)))
            return errmsg_fail(err, errlen, "%s %zu has %+d %s, a piece that is not fitted", what,
                               row, m[i], tune_piece_name(i));
        *used |= TUNE_BIT(i);
    }
    return 0;
}

static int check_used(unsigned pieces, unsigned used, const char *what, char *err, size_t errlen)
{
    for (int i = 0; i < TUNE_PIECES; i++)
        if ((pieces & TUNE_BIT(i)) && !(used & TUNE_BIT(i)))
            return errmsg_fail(err, errlen,
                               "no %s has a material difference in %s: its value cannot be fitted",
                               what, tune_piece_name(i));
    return 0;
}

static int singular(int piece, const char *what, char *err, size_t errlen)
{
    return errmsg_fail(err, errlen,
                       "the %s cannot separate the value of %s from the other pieces' (the design "
                       "is singular: some change of the values leaves the worth of every material "
                       "difference as it was; add a test that it changes)",
                       what, tune_piece_name(piece));
}

/* Values in pawns from the logits and their covariance (already in v), by the delta method:
 * dv_i/du_i = 1/u_P, dv_i/du_P = -v_i/u_P. */
static int to_pawns(TuneValues *v, char *err, size_t errlen)
{
    const double up = v->logit[TUNE_P];
    if (!(up > 0.0))
        return errmsg_fail(err, errlen,
                           "the pawn's fitted worth is not positive (%g logits): without a "
                           "pawn calibration the values in pawns mean nothing",
                           up);
    for (int i = 0; i < TUNE_PIECES; i++)
        if (v->pieces & TUNE_BIT(i))
            v->value[i] = v->logit[i] / up;
    double(*c)[TUNE_PIECES] = v->logit_cov;
    const int p = TUNE_P;
    for (int i = 0; i < TUNE_PIECES; i++) {
        if (!(v->pieces & TUNE_BIT(i)))
            continue;
        /* the pawn is the unit: its row and column are 0 exactly (the formula gives rounding
         * noise there, which fused multiply-adds make non-zero) */
        for (int j = 0; j < TUNE_PIECES; j++)
            if ((v->pieces & TUNE_BIT(j)) && i != p && j != p)
                v->cov[i][j] = (c[i][j] - v->value[i] * c[p][j] - v->value[j] * c[i][p] +
                                v->value[i] * v->value[j] * c[p][p]) /
                               (up * up);
        v->se[i] = sqrt(fmax(v->cov[i][i], 0.0));
        v->lo[i] = v->value[i] - Z95 * v->se[i];
        v->hi[i] = v->value[i] + Z95 * v->se[i];
    }
    return 0;
}

/* ---- imbalance tests ---- */

static void imbalance_set(TuneImbalance *t, const int material[TUNE_PIECES], double score,
                          double se, bool corrected)
{
    memcpy(t->material, material, sizeof t->material);
    t->score = score;
    t->se = se;
    t->corrected = corrected;
}

int tune_imbalance_from_wdl(TuneImbalance *t, const int material[TUNE_PIECES], uint64_t wins,
                            uint64_t draws, uint64_t losses, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    TrinomialStats st;
    if (!stats_trinomial(wins, draws, losses, &st))
        return errmsg_fail(err, errlen, "imbalance test without games");
    const bool degenerate = st.score <= 0.0 || st.score >= 1.0 || !(st.variance > 0.0);
    if (degenerate)
        stats_trinomial(wins + 1, draws, losses + 1, &st);
    imbalance_set(t, material, st.score, st.se, degenerate);
    return 0;
}

int tune_imbalance_from_pairs(TuneImbalance *t, const int material[TUNE_PIECES],
                              const uint64_t pairs[PAIR_CLASSES], char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    PentanomialStats st;
    if (!stats_pentanomial(pairs, &st))
        return errmsg_fail(err, errlen, "imbalance test without game pairs");
    const bool degenerate = st.score <= 0.0 || st.score >= 1.0 || !(st.variance > 0.0);
    if (degenerate) {
        uint64_t n[PAIR_CLASSES];
        memcpy(n, pairs, sizeof n);
        n[PAIR_WW]++;
        n[PAIR_LL]++;
        stats_pentanomial(n, &st);
    }
    imbalance_set(t, material, st.score, st.se, degenerate);
    return 0;
}

int tune_imbalance_logit(const TuneImbalance *t, double *logit, double *sigma, char *err,
                         size_t errlen)
{
    *logit = *sigma = 0.0;
    const double s = t->score;
    if (!(s > 0.0 && s < 1.0))
        return errmsg_fail(err, errlen, "score %g is not strictly between 0 and 1", s);
    if (!(t->se > 0.0 && isfinite(t->se)))
        return errmsg_fail(err, errlen, "standard error %g is not positive and finite", t->se);
    *logit = log(s / (1.0 - s));
    *sigma = t->se / (s * (1.0 - s));
    return 0;
}

int tune_imbalance_fit(const TuneImbalance *tests, size_t count, unsigned pieces, TuneValues *out,
                       double *chi2, int *dof, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (chi2)
        *chi2 = 0.0;
    if (dof)
        *dof = 0;
    if (check_pieces(pieces, err, errlen))
        return -1;
    if (count == 0)
        return errmsg_fail(err, errlen, "no imbalance tests to fit");
    int idx[TUNE_PIECES];
    const int k = piece_list(pieces, idx);
    double a[MAXP][MAXP] = { { 0 } }, b[MAXP] = { 0 };
    unsigned used = 0;
    for (size_t t = 0; t < count; t++) {
        const int *m = tests[t].material;
        double l, sigma;
        char why[160];
        if (tune_imbalance_logit(&tests[t], &l, &sigma, why, sizeof why))
            return errmsg_fail(err, errlen, "imbalance test %zu: %s", t, why);
        unsigned differs = 0;
        if (check_row(m, pieces, &differs, "imbalance test", t, err, errlen))
            return -1;
        if (!differs)
            return errmsg_fail(err, errlen, "imbalance test %zu has no material difference", t);
        used |= differs;
        const double w = 1.0 / (sigma * sigma);
        for (int r = 0; r < k; r++) {
            b[r] += w * m[idx[r]] * l;
            for (int c = 0; c < k; c++)
                a[r][c] += w * m[idx[r]] * m[idx[c]];
        }
    }
    if (check_used(pieces, used, "imbalance test", err, errlen))
        return -1;
    double inv[MAXP][MAXP];
    const int bad = spd_inverse(k, a, inv);
    if (bad >= 0)
        return singular(idx[bad], "imbalance tests", err, errlen);
    out->pieces = pieces;
    for (int r = 0; r < k; r++) {
        double u = 0.0;
        for (int c = 0; c < k; c++) {
            u += inv[r][c] * b[c];
            out->logit_cov[idx[r]][idx[c]] = inv[r][c];
        }
        out->logit[idx[r]] = u;
    }
    double rss = 0.0;
    for (size_t t = 0; t < count; t++) {
        double l, sigma, fitted = 0.0;
        tune_imbalance_logit(&tests[t], &l, &sigma, NULL, 0);
        for (int r = 0; r < k; r++)
            fitted += tests[t].material[idx[r]] * out->logit[idx[r]];
        rss += (l - fitted) * (l - fitted) / (sigma * sigma);
    }
    if (to_pawns(out, err, errlen)) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    if (chi2)
        *chi2 = rss;
    if (dof)
        *dof = (int)count - k;
    return 0;
}

int tune_bracket(double s1, double se1, double s2, double se2, double *value, double *se, char *err,
                 size_t errlen)
{
    *value = *se = 0.0;
    if (!(s1 > 0.0 && s1 < 1.0) || !(s2 > 0.0 && s2 < 1.0))
        return errmsg_fail(err, errlen,
                           "bracket: scores %g and %g must be strictly between 0 "
                           "and 1",
                           s1, s2);
    if (!(se1 >= 0.0 && isfinite(se1)) || !(se2 >= 0.0 && isfinite(se2)))
        return errmsg_fail(err, errlen,
                           "bracket: standard errors %g and %g must be finite and "
                           "not negative",
                           se1, se2);
    const double e1 = stats_elo(s1), e2 = stats_elo(s2);
    if (!(e1 > e2))
        return errmsg_fail(err, errlen,
                           "bracket: the pawn did not help (Elo %.1f without it, "
                           "%.1f with it): no bracket",
                           e1, e2);
    const double d = e1 - e2;
    /* dE/ds = 400 / (ln 10 s (1 - s)); dv/dE1 = -E2 / d^2, dv/dE2 = E1 / d^2. */
    const double g1 = -e2 / (d * d) * 400.0 / (log(10.0) * s1 * (1.0 - s1)) * se1;
    const double g2 = e1 / (d * d) * 400.0 / (log(10.0) * s2 * (1.0 - s2)) * se2;
    *value = e1 / d;
    *se = sqrt(g1 * g1 + g2 * g2);
    return 0;
}

/* ---- ordered-logit regression ---- */

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
    const int bad = spd_inverse(k + 1, a, inv);
    if (bad == k)
        return errmsg_fail(err, errlen,
                           "the samples cannot separate White's advantage from the "
                           "material (the design is singular)");
    if (bad >= 0)
        return singular(idx[bad], "samples", err, errlen);
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
    if (check_pieces(pieces, err, errlen))
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
        if (check_row(samples[t].material, pieces, &used, "sample", t, err, errlen))
            return -1;
    }
    if (!wins || !draws || !losses)
        return errmsg_fail(err, errlen,
                           "the regression needs wins, draws and losses (got "
                           "%zu, %zu, %zu): the advantage or the draw width would be infinite",
                           wins, draws, losses);
    if (check_used(pieces, used, "sample", err, errlen))
        return -1;
    int idx[TUNE_PIECES];
    const int k = piece_list(pieces, idx), q = k + 2;
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
        if (spd_inverse(q, info, cov) >= 0)
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
    char why[200];
    if (to_pawns(&out->values, why, sizeof why) || to_pawns(&model, why, sizeof why))
        return regression_fail(out, err, errlen, why, iter);
    memcpy(out->model_se, model.se, sizeof out->model_se);
    return 0;
}

/* ---- SPSA ---- */

SpsaSchedule spsa_schedule_default(long iterations)
{
    return (SpsaSchedule){
        .iterations = iterations, .A = 0.1 * (double)iterations, .alpha = 0.602, .gamma = 0.101
    };
}

int spsa_init(Spsa *s, const SpsaSchedule *schedule, SpsaParam *params, int count, char *err,
              size_t errlen)
{
    memset(s, 0, sizeof *s);
    const SpsaSchedule *g = schedule;
    if (g->iterations < 1)
        return errmsg_fail(err, errlen, "SPSA: %ld iterations, need at least 1", g->iterations);
    if (!(g->A >= 0.0 && isfinite(g->A)) || !(g->alpha > 0.0 && isfinite(g->alpha)) ||
        !(g->gamma > 0.0 && isfinite(g->gamma)))
        return errmsg_fail(err, errlen,
                           "SPSA: A (%g) must be finite and not negative, alpha "
                           "(%g) and gamma (%g) finite and positive",
                           g->A, g->alpha, g->gamma);
    if (count < 1)
        return errmsg_fail(err, errlen, "SPSA: no parameters");
    for (int i = 0; i < count; i++) {
        const SpsaParam *p = &params[i];
        if (!(isfinite(p->min) && isfinite(p->max) && p->min < p->max))
            return errmsg_fail(err, errlen,
                               "SPSA parameter %d: bounds [%g, %g] must be finite "
                               "with min < max",
                               i, p->min, p->max);
        if (!(p->theta >= p->min && p->theta <= p->max))
            return errmsg_fail(err, errlen, "SPSA parameter %d: start %g is outside [%g, %g]", i,
                               p->theta, p->min, p->max);
        if (!(p->c_end > 0.0 && isfinite(p->c_end)) || !(p->r_end > 0.0 && isfinite(p->r_end)))
            return errmsg_fail(err, errlen,
                               "SPSA parameter %d: c_end (%g) and r_end (%g) must "
                               "be finite and positive",
                               i, p->c_end, p->r_end);
    }
    const double n = (double)g->iterations;
    for (int i = 0; i < count; i++) {
        SpsaParam *p = &params[i];
        p->c = p->c_end * pow(n, g->gamma);
        p->a = p->r_end * p->c_end * p->c_end * pow(g->A + n, g->alpha);
    }
    s->schedule = *g;
    s->params = params;
    s->count = count;
    return 0;
}

void spsa_gains(const Spsa *s, int i, long k, double *a_k, double *c_k)
{
    const double kk = k < 1 ? 1.0 : (double)k;
    *c_k = s->params[i].c / pow(kk, s->schedule.gamma);
    *a_k = s->params[i].a / pow(s->schedule.A + kk, s->schedule.alpha);
}

static double clip(const SpsaParam *p, double x) { return fmin(fmax(x, p->min), p->max); }

void spsa_perturb(const Spsa *s, Rng *rng, double *delta, double *plus, double *minus)
{
    for (int i = 0; i < s->count; i++) {
        double a_k, c_k;
        spsa_gains(s, i, s->done + 1, &a_k, &c_k);
        delta[i] = rng_next(rng) >> 63 ? 1.0 : -1.0;
        plus[i] = clip(&s->params[i], s->params[i].theta + c_k * delta[i]);
        minus[i] = clip(&s->params[i], s->params[i].theta - c_k * delta[i]);
    }
}

void spsa_update(Spsa *s, const double *delta, double r)
{
    for (int i = 0; i < s->count; i++) {
        double a_k, c_k;
        spsa_gains(s, i, s->done + 1, &a_k, &c_k);
        SpsaParam *p = &s->params[i];
        p->theta = clip(p, p->theta + a_k / c_k * r * delta[i]);
    }
    s->done++;
}

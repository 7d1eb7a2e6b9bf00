/* SPDX-License-Identifier: MIT */
/* Imbalance tests, their fit and the bracket (see tune_imbalance.h and
 * docs/statistics.md for the formulas and where they come from). */
#include "tune_imbalance.h"

#include <math.h>
#include <string.h>

#include "chi2.h"
#include "errmsg.h"
#include "tune_design.h"

#define MAXP TUNE_DESIGN_MAX

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

int tune_imbalance_fit_logits(const TuneImbalance *tests, size_t count, unsigned pieces,
                              TuneValues *out, double *chi2, int *dof, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (chi2)
        *chi2 = 0.0;
    if (dof)
        *dof = 0;
    if (tune_design_check_pieces(pieces, false, err, errlen))
        return -1;
    if (count == 0)
        return errmsg_fail(err, errlen, "no imbalance tests to fit");
    int idx[TUNE_PIECES];
    const int k = tune_design_pieces(pieces, idx);
    double a[MAXP][MAXP] = { { 0 } }, b[MAXP] = { 0 };
    unsigned used = 0;
    for (size_t t = 0; t < count; t++) {
        const int *m = tests[t].material;
        double l, sigma;
        char why[ERRMSG_LEN];
        if (tune_imbalance_logit(&tests[t], &l, &sigma, why, sizeof why))
            return errmsg_fail(err, errlen, "imbalance test %zu: %s", t, why);
        unsigned differs = 0;
        if (tune_design_check_row(m, pieces, &differs, "imbalance test", t, err, errlen))
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
    if (tune_design_check_used(pieces, used, "imbalance test", err, errlen))
        return -1;
    double inv[MAXP][MAXP];
    const int bad = tune_design_inverse(k, a, inv);
    if (bad >= 0)
        return tune_design_singular(idx[bad], "imbalance tests", err, errlen);
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
    if (chi2)
        *chi2 = rss;
    if (dof)
        *dof = (int)count - k;
    return 0;
}

int tune_imbalance_fit(const TuneImbalance *tests, size_t count, unsigned pieces, TuneValues *out,
                       double *chi2, int *dof, char *err, size_t errlen)
{
    if (tune_imbalance_fit_logits(tests, count, pieces, out, chi2, dof, err, errlen))
        return -1;
    if (tune_values_to_pawns(out, err, errlen)) {
        memset(out, 0, sizeof *out);
        if (chi2)
            *chi2 = 0.0;
        if (dof)
            *dof = 0;
        return -1;
    }
    return 0;
}

int tune_imbalance_fit_logits_scaled(const TuneImbalance *tests, size_t count, unsigned pieces,
                                     TuneValues *out, TuneFitQuality *q, char *err, size_t errlen)
{
    memset(q, 0, sizeof *q);
    if (tune_imbalance_fit_logits(tests, count, pieces, out, &q->chi2, &q->dof, err, errlen))
        return -1;
    q->p_value = chi2_p_value(q->chi2, q->dof);
    q->scale = q->dof > 0 && q->chi2 > q->dof ? q->chi2 / q->dof : 1.0;
    if (q->scale != 1.0)
        tune_values_scale(out, q->scale);
    return 0;
}

int tune_imbalance_fit_scaled(const TuneImbalance *tests, size_t count, unsigned pieces,
                              TuneValues *out, TuneFitQuality *q, char *err, size_t errlen)
{
    if (tune_imbalance_fit_logits_scaled(tests, count, pieces, out, q, err, errlen))
        return -1;
    if (tune_values_to_pawns(out, err, errlen)) {
        memset(out, 0, sizeof *out);
        memset(q, 0, sizeof *q);
        return -1;
    }
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

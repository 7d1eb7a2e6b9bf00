/* SPDX-License-Identifier: MIT */
/* Quantities of the fitted values, their delta-method errors and Fieller's intervals
 * (tune_fieller.h). */
#include "tune_fieller.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"

bool tune_quantity_fitted(const TuneQuantity *q, unsigned pieces)
{
    for (int i = 0; i < TUNE_PIECES; i++)
        if ((q->a[i] != 0.0 || q->b[i] != 0.0) && !(pieces & TUNE_BIT(i)))
            return false;
    return true;
}

/* Appends the quantity (sum of the pieces of `plus` - those of `minus`) / denominator piece when
 * its pieces are fitted and no quantity of that name is listed. The piece lists are strings of
 * piece letters. */
static void add(TuneQuantity *out, int *n, unsigned pieces, const char *name, const char *plus,
                const char *minus, int den)
{
    TuneQuantity q = { .name = "" };
    q.b[den] = 1.0;
    snprintf(q.name, sizeof q.name, "%s", name);
    static const char letters[] = "PNBRACQ";
    for (const char *c = plus; *c; c++)
        q.a[strchr(letters, *c) - letters] += 1.0;
    for (const char *c = minus; *c; c++)
        q.a[strchr(letters, *c) - letters] -= 1.0;
    if (!tune_quantity_fitted(&q, pieces) || *n >= TUNE_QUANTITIES_MAX)
        return;
    for (int i = 0; i < *n; i++)
        if (!strcmp(out[i].name, q.name))
            return;
    out[(*n)++] = q;
}

int tune_quantities_default(unsigned pieces, TuneQuantity out[TUNE_QUANTITIES_MAX])
{
    int n = 0;
    char name[16], letter[2] = { 0 };
    if (pieces & TUNE_BIT(TUNE_P)) {
        for (int i = TUNE_N; i < TUNE_PIECES; i++) {
            letter[0] = tune_piece_name(i)[0];
            add(out, &n, pieces, letter, letter, "", TUNE_P);
        }
        add(out, &n, pieces, "C-A", "C", "A", TUNE_P);
        add(out, &n, pieces, "Q-A", "Q", "A", TUNE_P);
        add(out, &n, pieces, "Q-C", "Q", "C", TUNE_P);
        add(out, &n, pieces, "A-(R+N)", "A", "RN", TUNE_P);
        add(out, &n, pieces, "C-(R+N)", "C", "RN", TUNE_P);
        add(out, &n, pieces, "A-(B+N)", "A", "BN", TUNE_P);
        add(out, &n, pieces, "Q-(R+B)", "Q", "RB", TUNE_P);
    } else {
        int ref = -1;
        for (int i = 0; i < TUNE_PIECES; i++)
            if (pieces & TUNE_BIT(i))
                ref = i;
        for (int i = 0; i < ref; i++) {
            letter[0] = tune_piece_name(i)[0];
            snprintf(name, sizeof name, "%s/%s", letter, tune_piece_name(ref));
            add(out, &n, pieces, name, letter, "", ref);
        }
    }
    add(out, &n, pieces, "A/Q", "A", "", TUNE_Q);
    add(out, &n, pieces, "C/Q", "C", "", TUNE_Q);
    add(out, &n, pieces, "A/C", "A", "", TUNE_C);
    return n;
}

static double dot(const double x[TUNE_PIECES], const double y[TUNE_PIECES])
{
    double s = 0.0;
    for (int i = 0; i < TUNE_PIECES; i++)
        s += x[i] * y[i];
    return s;
}

/* x' V y */
static double form(const double x[TUNE_PIECES], const double v[TUNE_PIECES][TUNE_PIECES],
                   const double y[TUNE_PIECES])
{
    double s = 0.0;
    for (int i = 0; i < TUNE_PIECES; i++)
        for (int j = 0; j < TUNE_PIECES; j++)
            s += x[i] * v[i][j] * y[j];
    return s;
}

int tune_quantity_estimate(const TuneQuantity *q, const double u[TUNE_PIECES],
                           const double cov[TUNE_PIECES][TUNE_PIECES], double z, TuneEstimate *out,
                           char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!(z > 0.0 && isfinite(z)))
        return errmsg_fail(err, errlen, "%s: quantile %g is not positive and finite", q->name, z);
    for (int i = 0; i < TUNE_PIECES; i++) {
        bool finite = isfinite(u[i]) && isfinite(q->a[i]) && isfinite(q->b[i]);
        for (int j = 0; j < TUNE_PIECES; j++)
            finite = finite && isfinite(cov[i][j]);
        if (!finite)
            return errmsg_fail(err, errlen, "%s: a logit, covariance or weight is not finite",
                               q->name);
    }
    const double na = dot(q->a, u), nb = dot(q->b, u);
    if (nb == 0.0)
        return errmsg_fail(err, errlen, "%s: the denominator is 0: no estimate", q->name);
    const double vaa = fmax(form(q->a, cov, q->a), 0.0), vbb = fmax(form(q->b, cov, q->b), 0.0);
    const double vab = form(q->a, cov, q->b), r = na / nb, z2 = z * z;
    out->value = r;
    out->se = sqrt(fmax(vaa - 2.0 * r * vab + r * r * vbb, 0.0)) / fabs(nb);
    out->delta_lo = r - z * out->se;
    out->delta_hi = r + z * out->se;
    const double c2 = nb * nb - z2 * vbb, c1 = na * nb - z2 * vab, c0 = na * na - z2 * vaa;
    const double disc = c1 * c1 - c0 * c2;
    if (c2 > 0.0) {
        /* the point estimate is inside, so disc >= 0 but for rounding; the roots without
         * cancellation: one by the formula, the other as c0 / (c2 root) */
        const double s = sqrt(fmax(disc, 0.0)), big = c1 >= 0.0 ? c1 + s : c1 - s;
        double r1 = big / c2, r2 = big != 0.0 ? c0 / big : r1;
        out->kind = TUNE_INTERVAL_BOUNDED;
        out->lo = fmin(fmin(r1, r2), r);
        out->hi = fmax(fmax(r1, r2), r);
    } else if (c2 < 0.0 && disc > 0.0) {
        const double s = sqrt(disc), big = c1 >= 0.0 ? c1 + s : c1 - s;
        const double r1 = big / c2, r2 = c0 / big;
        out->kind = TUNE_INTERVAL_RAYS;
        out->lo = fmin(r1, r2);
        out->hi = fmax(r1, r2);
    } else if (c2 == 0.0 && c1 != 0.0) {
        /* c0 - 2 q c1 <= 0: one ray */
        out->kind = TUNE_INTERVAL_RAYS;
        out->lo = c1 > 0.0 ? -INFINITY : c0 / (2.0 * c1);
        out->hi = c1 > 0.0 ? c0 / (2.0 * c1) : INFINITY;
    } else {
        out->kind = TUNE_INTERVAL_WHOLE;
        out->lo = -INFINITY;
        out->hi = INFINITY;
    }
    return 0;
}

const char *tune_interval_kind_name(TuneIntervalKind k)
{
    switch (k) {
    case TUNE_INTERVAL_RAYS:
        return "two rays";
    case TUNE_INTERVAL_WHOLE:
        return "whole line";
    case TUNE_INTERVAL_BOUNDED:
        break;
    }
    return "bounded";
}

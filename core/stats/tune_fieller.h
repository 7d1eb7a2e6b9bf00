/* SPDX-License-Identifier: MIT */
/* What a fit of piece values measures, as quantities q = (a . u) / (b . u) of the logits u with
 * weight vectors a and b over the pieces (docs/statistics.md, section 4): a value in pawns
 * (a = e_X, b = e_P), a contrast in pawns (C - A: a = e_C - e_A, b = e_P), a ratio (A/Q: b = e_Q).
 * Each gets its point estimate, a delta-method standard error and Fieller's interval, which
 * stays right when the denominator is not precisely known (the delta interval is then too
 * narrow on the far side) and may then be unbounded. Plain doubles, no allocation. */
#ifndef CARRERA_TUNE_FIELLER_H
#define CARRERA_TUNE_FIELLER_H

#include <stdbool.h>
#include <stddef.h>

#include "tune_values.h"

/* The two-sided 95 % normal quantile. */
#define TUNE_Z95 1.959964

/* The most quantities tune_quantities_default lists. */
#define TUNE_QUANTITIES_MAX 24

/* q = (a . u) / (b . u), named for printing ("A", "C-A", "A-(R+N)", "A/Q"). */
typedef struct TuneQuantity {
    char name[16];
    double a[TUNE_PIECES], b[TUNE_PIECES];
} TuneQuantity;

/* The shape of Fieller's set {q : (a.u - q b.u)^2 <= z^2 (a'Va - 2q a'Vb + q^2 b'Vb)}. */
typedef enum TuneIntervalKind {
    TUNE_INTERVAL_BOUNDED, /* [lo, hi] */
    TUNE_INTERVAL_RAYS,    /* (-inf, lo] and [hi, +inf): the denominator is not clearly away from
                              0; lo = -inf or hi = +inf leaves one ray (a boundary case) */
    TUNE_INTERVAL_WHOLE    /* every q: lo = -inf, hi = +inf */
} TuneIntervalKind;

/* One quantity's estimate. Never NaN; lo and hi are infinite only in the unbounded kinds. */
typedef struct TuneEstimate {
    double value;    /* (a . u) / (b . u) */
    double se;       /* delta method: sqrt(a'Va - 2q a'Vb + q^2 b'Vb) / |b . u| */
    double delta_lo; /* value -+ z se: the symmetric interval, for comparison */
    double delta_hi;
    TuneIntervalKind kind; /* Fieller's interval: */
    double lo, hi;
} TuneEstimate;

/* Whether every piece with a non-zero weight in q is among `pieces`. */
bool tune_quantity_fitted(const TuneQuantity *q, unsigned pieces);

/* The default list for a fit of `pieces` (at most TUNE_QUANTITIES_MAX, only quantities whose
 * pieces are all fitted), in this order. With the pawn: each fitted piece's value in pawns
 * ("N", "B", "R", "A", "C", "Q"), the contrasts in pawns "C-A", "Q-A", "Q-C", "A-(R+N)",
 * "C-(R+N)", "A-(B+N)", "Q-(R+B)". Without it: every other fitted piece as a ratio to the
 * reference piece, the Queen if fitted, else the last fitted in P N B R A C Q order ("R/Q").
 * Then, either way, "A/Q", "C/Q", "A/C" unless already listed. Returns the number written. */
int tune_quantities_default(unsigned pieces, TuneQuantity out[TUNE_QUANTITIES_MAX]);

/* The estimate of q at logits u with covariance cov (either the fit's or the scaled one), at
 * the normal quantile z (TUNE_Z95 for 95 %). With c2 = (b.u)^2 - z^2 b'Vb,
 * c1 = (a.u)(b.u) - z^2 a'Vb, c0 = (a.u)^2 - z^2 a'Va and D = c1^2 - c0 c2, Fieller's set is
 * bounded, [(c1 - sqrt D) / c2, (c1 + sqrt D) / c2], when c2 > 0 (b.u is more than z standard
 * errors from 0); two rays outside those roots when c2 < 0 < D; the whole line otherwise.
 * Errors: z not positive and finite, u or cov not finite, b . u = 0 (no point estimate). */
int tune_quantity_estimate(const TuneQuantity *q, const double u[TUNE_PIECES],
                           const double cov[TUNE_PIECES][TUNE_PIECES], double z, TuneEstimate *out,
                           char *err, size_t errlen);

/* "bounded", "two rays", "whole line". */
const char *tune_interval_kind_name(TuneIntervalKind k);

#endif

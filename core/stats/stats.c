/* SPDX-License-Identifier: MIT */
/* Match statistics: Elo, trinomial and pentanomial summaries, the SPRT (see stats.h and
 * docs/statistics.md for the formulas and where they come from). */
#include "stats.h"

#include <math.h>
#include <string.h>

#include "errmsg.h"

#define Z95 1.96
/* fishtest's LLRcalc.regularize: the count given to a class nobody has seen. */
#define EMPTY_CLASS 1e-3
/* Elo hypotheses are kept where their scores are far from 0 and 1 (0.3 % and 99.7 %), so that
 * the MLE's interval for theta is of moderate width. */
#define MAX_SPRT_ELO 1000.0

double stats_elo(double score)
{
    if (!(score >= 0.0 && score <= 1.0))
        return NAN;
    if (score == 0.0)
        return -INFINITY;
    if (score == 1.0)
        return INFINITY;
    /* s / (1 - s) rather than 1/s - 1: no cancellation near s = 1. */
    return 400.0 * log10(score / (1.0 - score));
}

double stats_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

static double clamp01(double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* Normal distribution function. */
static double phi(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

bool stats_trinomial(uint64_t wins, uint64_t draws, uint64_t losses, TrinomialStats *out)
{
    memset(out, 0, sizeof *out);
    const uint64_t games = wins + draws + losses;
    if (games == 0)
        return false;
    const double n = (double)games;
    const double w = (double)wins / n, d = (double)draws / n, l = (double)losses / n;
    const double s = w + d / 2.0;
    out->games = games;
    out->score = s;
    out->draw_ratio = d;
    out->variance = w * (1.0 - s) * (1.0 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s;
    out->se = sqrt(out->variance / n);
    out->score_lo = clamp01(s - Z95 * out->se);
    out->score_hi = clamp01(s + Z95 * out->se);
    out->elo = stats_elo(s);
    out->elo_lo = stats_elo(out->score_lo);
    out->elo_hi = stats_elo(out->score_hi);
    const uint64_t decisive = wins + losses;
    out->los = decisive == 0 ? 0.5 : phi(((double)wins - (double)losses) / sqrt((double)decisive));
    return true;
}

int stats_pair_class(double first, double second)
{
    /* In half points: 0, 1 or 2 for a game, their sum the class. */
    const double h1 = 2.0 * first, h2 = 2.0 * second;
    if ((h1 != 0.0 && h1 != 1.0 && h1 != 2.0) || (h2 != 0.0 && h2 != 1.0 && h2 != 2.0))
        return -1;
    return (int)(h1 + h2);
}

/* The score a_i of class i. */
static double class_score(int i) { return i / 4.0; }

bool stats_pentanomial(const uint64_t n[PAIR_CLASSES], PentanomialStats *out)
{
    memset(out, 0, sizeof *out);
    uint64_t pairs = 0;
    for (int i = 0; i < PAIR_CLASSES; i++)
        pairs += n[i];
    if (pairs == 0)
        return false;
    double mu = 0.0, var = 0.0;
    for (int i = 0; i < PAIR_CLASSES; i++)
        mu += (double)n[i] / (double)pairs * class_score(i);
    for (int i = 0; i < PAIR_CLASSES; i++)
        var += (double)n[i] / (double)pairs * (class_score(i) - mu) * (class_score(i) - mu);
    out->pairs = pairs;
    out->score = mu;
    out->variance = var;
    out->se = sqrt(var / (double)pairs);
    out->score_lo = clamp01(mu - Z95 * out->se);
    out->score_hi = clamp01(mu + Z95 * out->se);
    out->elo = stats_elo(mu);
    out->elo_lo = stats_elo(out->score_lo);
    out->elo_hi = stats_elo(out->score_hi);
    out->nelo = var > 0.0 ? (mu - 0.5) / sqrt(2.0 * var) * 800.0 / log(10.0) : (double)NAN;
    return true;
}

/* The observed class distribution with empty classes regularised; returns N, the sum of the
 * regularised counts. */
static double observed(const uint64_t n[PAIR_CLASSES], double q[PAIR_CLASSES])
{
    double total = 0.0;
    for (int i = 0; i < PAIR_CLASSES; i++)
        total += q[i] = n[i] > 0 ? (double)n[i] : EMPTY_CLASS;
    for (int i = 0; i < PAIR_CLASSES; i++)
        q[i] /= total;
    return total;
}

/* The derivative in theta of the dual of the MLE: sum q_i d_i / (1 + theta d_i), d_i = a_i - s.
 * Strictly decreasing on the interval where every 1 + theta d_i > 0. */
static double secular(const double q[PAIR_CLASSES], double s, double theta)
{
    double sum = 0.0;
    for (int i = 0; i < PAIR_CLASSES; i++) {
        const double d = class_score(i) - s;
        sum += q[i] * d / (1.0 + theta * d);
    }
    return sum;
}

/* Theta of the maximum-likelihood distribution with expected score s in (0, 1), the root of the
 * secular equation. Every q_i > 0, so the function goes from +infinity at theta = -1/(1 - s)
 * (class 1 has d = 1 - s) to -infinity at theta = 1/s (class 0 has d = -s): bisection cannot
 * miss the root, and stops when the bracket is two adjacent doubles. */
static double mle_theta(const double q[PAIR_CLASSES], double s)
{
    double lo = -1.0 / (1.0 - s), hi = 1.0 / s;
    for (int iter = 0; iter < 2000; iter++) {
        const double mid = lo + (hi - lo) / 2.0;
        if (mid <= lo || mid >= hi)
            break;
        if (secular(q, s, mid) > 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return lo + (hi - lo) / 2.0;
}

static bool valid_sprt_elo(double elo) { return isfinite(elo) && fabs(elo) <= MAX_SPRT_ELO; }

double stats_sprt_llr(const uint64_t n[PAIR_CLASSES], double elo0, double elo1)
{
    if (!valid_sprt_elo(elo0) || !valid_sprt_elo(elo1))
        return NAN;
    double q[PAIR_CLASSES];
    const double total = observed(n, q);
    const double s0 = stats_score(elo0), s1 = stats_score(elo1);
    const double t0 = mle_theta(q, s0), t1 = mle_theta(q, s1);
    /* ln(p1_i / p0_i) = ln(1 + t0 d0_i) - ln(1 + t1 d1_i): the q_i cancel; log1p keeps the
     * digits when theta is small, that is when elo0 and elo1 are close to the data. */
    double llr = 0.0;
    for (int i = 0; i < PAIR_CLASSES; i++)
        llr += q[i] * (log1p(t0 * (class_score(i) - s0)) - log1p(t1 * (class_score(i) - s1)));
    return total * llr;
}

double stats_sprt_llr_normal(const uint64_t n[PAIR_CLASSES], double elo0, double elo1)
{
    if (!valid_sprt_elo(elo0) || !valid_sprt_elo(elo1))
        return NAN;
    double q[PAIR_CLASSES];
    const double total = observed(n, q);
    double mu = 0.0, var = 0.0;
    for (int i = 0; i < PAIR_CLASSES; i++)
        mu += q[i] * class_score(i);
    for (int i = 0; i < PAIR_CLASSES; i++)
        var += q[i] * (class_score(i) - mu) * (class_score(i) - mu);
    const double s0 = stats_score(elo0), s1 = stats_score(elo1);
    return total * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
}

bool stats_sprt_init(Sprt *t, double elo0, double elo1, double alpha, double beta, char *err,
                     size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (!valid_sprt_elo(elo0) || !valid_sprt_elo(elo1)) {
        errmsg_set(err, errlen, "SPRT: elo0 and elo1 must be finite and within +-%.0f (got %g, %g)",
                   MAX_SPRT_ELO, elo0, elo1);
        return false;
    }
    if (!(elo0 < elo1)) {
        errmsg_set(err, errlen, "SPRT: elo0 (%g) must be less than elo1 (%g)", elo0, elo1);
        return false;
    }
    if (!(alpha > 0.0 && alpha <= 0.5) || !(beta > 0.0 && beta <= 0.5)) {
        errmsg_set(err, errlen, "SPRT: alpha and beta must be in (0, 0.5] (got %g, %g)", alpha,
                   beta);
        return false;
    }
    t->elo0 = elo0;
    t->elo1 = elo1;
    t->alpha = alpha;
    t->beta = beta;
    t->lower = log(beta / (1.0 - alpha));
    t->upper = log((1.0 - beta) / alpha);
    t->decision = SPRT_CONTINUE;
    return true;
}

SprtDecision stats_sprt_update(Sprt *t, const uint64_t n[PAIR_CLASSES])
{
    t->llr = stats_sprt_llr(n, t->elo0, t->elo1);
    if (t->decision != SPRT_CONTINUE)
        return t->decision;
    if (t->llr <= t->lower)
        t->decision = SPRT_ACCEPT_H0;
    else if (t->llr >= t->upper)
        t->decision = SPRT_ACCEPT_H1;
    if (t->decision != SPRT_CONTINUE) {
        t->decided_llr = t->llr;
        for (int i = 0; i < PAIR_CLASSES; i++)
            t->decided_pairs += n[i];
    }
    return t->decision;
}

const char *stats_sprt_decision_name(SprtDecision d)
{
    switch (d) {
    case SPRT_ACCEPT_H0:
        return "accept H0";
    case SPRT_ACCEPT_H1:
        return "accept H1";
    case SPRT_CONTINUE:
        break;
    }
    return "continue";
}

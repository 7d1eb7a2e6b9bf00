/* SPDX-License-Identifier: MIT */
/* Statistics of self-play matches (docs/statistics.md): logistic Elo, the trinomial
 * (per game) and pentanomial (per pair of games with colours reversed) summaries with their 95 %
 * intervals, and the sequential probability ratio test as fishtest, fastchess and OpenBench run
 * it. Plain doubles, no allocation, no state beyond what the caller holds. */
#ifndef CARRERA_STATS_H
#define CARRERA_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Elo ---- */

/* Logistic Elo of a score s in [0, 1]: E(s) = -400 log10(1/s - 1). -INFINITY at 0, +INFINITY at
 * 1, NaN outside [0, 1]. */
double stats_elo(double score);

/* The inverse: the expected score 1 / (1 + 10^(-elo/400)) of a player elo points stronger. */
double stats_score(double elo);

/* ---- per game (trinomial) ---- */

/* Summary of W wins, D draws and L losses from one player's view. Intervals are 95 %
 * (score +- 1.96 SE); the score interval is clamped to [0, 1], so an Elo bound is infinite when
 * the interval reaches 0 or 1 (all games won or lost, or too few games to tell). */
typedef struct TrinomialStats {
    uint64_t games;             /* W + D + L */
    double score;               /* (W + D/2) / games */
    double draw_ratio;          /* D / games */
    double variance;            /* per game: w(1-s)^2 + d(1/2-s)^2 + l s^2, fractions w, d, l */
    double se;                  /* standard error of the score, sqrt(variance / games) */
    double score_lo, score_hi;  /* 95 % interval of the score */
    double elo, elo_lo, elo_hi; /* E(score) and E of the interval's ends */
    double los;                 /* likelihood of superiority Phi((W-L) / sqrt(W+L)); 0.5 when
                                   every game was drawn */
} TrinomialStats;

/* Fills *out from the counts. Returns false, with *out all zero, when there are no games. */
bool stats_trinomial(uint64_t wins, uint64_t draws, uint64_t losses, TrinomialStats *out);

/* ---- per pair of games (pentanomial) ---- */

/* Classes of a pair of games played from one opening with colours reversed, by the pair's score
 * (the sum of the two results over 2) from one player's view: 0, 1/4, 1/2, 3/4, 1. */
enum {
    PAIR_LL,   /* two losses */
    PAIR_LD,   /* a loss and a draw */
    PAIR_EVEN, /* a win and a loss, or two draws */
    PAIR_WD,   /* a win and a draw */
    PAIR_WW,   /* two wins */
    PAIR_CLASSES
};

/* The class of a pair from its two game results (each 0, 0.5 or 1, both from the same
 * player's view), or -1 when a result is none of these. */
int stats_pair_class(double first, double second);

/* Summary of pair counts n[PAIR_LL..PAIR_WW]. The interval is mu +- 1.96 sqrt(variance / pairs),
 * clamped to [0, 1] as for the trinomial summary. */
typedef struct PentanomialStats {
    uint64_t pairs;             /* sum of the counts; games = 2 pairs */
    double score;               /* mu = sum p_i a_i, a_i the class scores */
    double variance;            /* per pair: sum p_i (a_i - mu)^2 */
    double se;                  /* standard error of mu */
    double score_lo, score_hi;  /* 95 % interval of mu */
    double elo, elo_lo, elo_hi; /* logistic Elo of mu and of the interval's ends */
    double nelo;                /* normalized Elo (mu - 1/2) / sqrt(2 variance) * 800 / ln 10;
                                   NaN when the variance is 0 (every pair in one class) */
} PentanomialStats;

/* Fills *out from the counts. Returns false, with *out all zero, when there are no pairs. */
bool stats_pentanomial(const uint64_t n[PAIR_CLASSES], PentanomialStats *out);

/* ---- SPRT ---- */

/* The generalized log-likelihood ratio of H1: Elo = elo1 against H0: Elo = elo0 (logistic Elo)
 * for the pair counts n, as fishtest computes it: N sum p^_i ln(p1_i / p0_i), where p^ is the
 * observed class distribution and p0, p1 the maximum-likelihood class distributions whose
 * expected score is score(elo0), score(elo1) (M. Van den Bergh: p_i = p^_i / (1 + theta (a_i - s)),
 * theta the root of the secular equation, found by bisection). Like fishtest, an empty class
 * counts 1e-3 pairs (N is the sum of the counts so regularised): without it the MLE could not
 * give an unseen class any probability and the LLR would not be finite. Finite for any counts,
 * even none; NaN unless elo0 and elo1 are finite with scores strictly between 0 and 1. */
double stats_sprt_llr(const uint64_t n[PAIR_CLASSES], double elo0, double elo1);

/* The normal approximation N (s1 - s0)(2 mu - s0 - s1) / (2 variance) over the same regularised
 * counts (fishtest's LLR_alt2): for planning and cross-checks, not for stopping. It is poor when
 * the variance is tiny (nearly all pairs in one class). */
double stats_sprt_llr_normal(const uint64_t n[PAIR_CLASSES], double elo0, double elo1);

typedef enum SprtDecision {
    SPRT_CONTINUE,  /* neither bound reached */
    SPRT_ACCEPT_H0, /* the LLR reached the lower bound: not elo1 */
    SPRT_ACCEPT_H1  /* the LLR reached the upper bound: not elo0 */
} SprtDecision;

/* A running test. Wald's bounds for error rates alpha (accepting H1 when H0 holds) and beta:
 * lower ln(beta / (1 - alpha)), upper ln((1 - beta) / alpha). */
typedef struct Sprt {
    double elo0, elo1, alpha, beta;
    double lower, upper;
    double llr;             /* at the last update */
    SprtDecision decision;  /* the first bound crossed; it stands once made */
    uint64_t decided_pairs; /* pairs counted when the decision was made */
    double decided_llr;     /* the LLR that crossed the bound */
} Sprt;

/* Starts a test of elo0 against elo1 (elo0 < elo1, both finite, |Elo| <= 1000) with error rates
 * alpha and beta in (0, 1/2]. Returns false with a message in err when a parameter is out of
 * range. */
bool stats_sprt_init(Sprt *t, double elo0, double elo1, double alpha, double beta, char *err,
                     size_t errlen);

/* Computes the LLR of the counts so far and returns the decision. The first crossing stands:
 * games already under way when a bound was crossed may add to the counts and move the LLR back,
 * but Wald's test stopped at the crossing. */
SprtDecision stats_sprt_update(Sprt *t, const uint64_t n[PAIR_CLASSES]);

/* "continue", "accept H0", "accept H1". */
const char *stats_sprt_decision_name(SprtDecision d);

#endif

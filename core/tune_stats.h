/* SPDX-License-Identifier: MIT */
/* Statistics of piece-value tuning (/work/shared/STATISTICS.md): the weighted least-squares fit
 * of imbalance tests in the logit domain (H.G. Muller's method) and its one-imbalance bracket,
 * the ordered-logit regression of game results on material, and SPSA with fishtest's schedule.
 * Plain doubles and caller-owned arrays; no allocation, no state beyond what the caller holds.
 * Every function that can refuse its input returns 0 on success and -1 with a message in
 * (err, errlen); on failure its outputs are zeroed, never left with NaN. */
#ifndef CARRERA_TUNE_STATS_H
#define CARRERA_TUNE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "stats.h"
#include "types.h"

/* ---- pieces ---- */

/* The pieces whose values are fitted, in PieceType order. Values are in pawns: the pawn is 1 by
 * definition, and what a pawn is worth in score comes from the pawn-odds tests. */
enum { TUNE_P, TUNE_N, TUNE_B, TUNE_R, TUNE_A, TUNE_C, TUNE_Q, TUNE_PIECES };

/* A set of those pieces: bit i for piece i. */
#define TUNE_BIT(i) (1u << (i))
#define TUNE_ALL    ((1u << TUNE_PIECES) - 1u)

_Static_assert(QUEEN - PAWN == TUNE_Q && ARCHBISHOP - PAWN == TUNE_A, "tune order is PieceType's");

/* The index of a piece type (PAWN..QUEEN), or -1 for the king and the empty type. */
static inline int tune_piece_index(PieceType t)
{
    return t >= PAWN && t <= QUEEN ? (int)t - PAWN : -1;
}

/* "P", "N", "B", "R", "A", "C", "Q"; "?" outside 0..TUNE_PIECES-1. */
const char *tune_piece_name(int piece);

/* Piece values fitted by either method. Only the pieces of `pieces` are fitted; every other
 * entry is 0. */
typedef struct TuneValues {
    unsigned pieces;                            /* TUNE_BIT set of the fitted pieces; has TUNE_P */
    double logit[TUNE_PIECES];                  /* u: worth in the logit of the score */
    double logit_cov[TUNE_PIECES][TUNE_PIECES]; /* covariance of u */
    double value[TUNE_PIECES];                  /* v = u / u_P, in pawns (v_P = 1) */
    double cov[TUNE_PIECES][TUNE_PIECES];       /* covariance of v by the delta method; row and
                                                   column P are 0: the pawn is the unit */
    double se[TUNE_PIECES];                     /* sqrt of the diagonal of cov */
    double lo[TUNE_PIECES], hi[TUNE_PIECES];    /* 95 % intervals: v -+ 1.96 se */
} TuneValues;

/* ---- imbalance tests ---- */

/* One imbalance test: the material of the side under test minus its opponent's (counts of
 * P N B R A C Q: Q v A is {0,0,0,0,-1,0,+1} from the Queen's side; pawn odds {1,0,...}) and that
 * side's score with its standard error. */
typedef struct TuneImbalance {
    int material[TUNE_PIECES];
    double score;   /* in (0, 1) */
    double se;      /* > 0 */
    bool corrected; /* the counts were continuity-corrected (see below) */
} TuneImbalance;

/* Fill *t from game counts (trinomial, stats_trinomial) or from pair counts with colours
 * reversed (pentanomial, stats_pentanomial; the right one for imbalance tests, whose openings are
 * unbalanced by design). A test whose score is 0 or 1, or whose variance is 0 (every game drawn,
 * every pair in one class), has no finite logit or weight: its counts get one win and one loss
 * more (one WW and one LL pair), a continuity correction in the spirit of Haldane's that pulls
 * the score towards 1/2 by about one game's worth, and `corrected` is set so that the caller can
 * say so. Error: no games. */
int tune_imbalance_from_wdl(TuneImbalance *t, const int material[TUNE_PIECES], uint64_t wins,
                            uint64_t draws, uint64_t losses, char *err, size_t errlen);
int tune_imbalance_from_pairs(TuneImbalance *t, const int material[TUNE_PIECES],
                              const uint64_t pairs[PAIR_CLASSES], char *err, size_t errlen);

/* The logit of a test's score, l = ln(s / (1 - s)), and its standard error by the delta method,
 * sigma = SE(s) / (s (1 - s)). Error when the score is not in (0, 1) or the SE not positive and
 * finite. */
int tune_imbalance_logit(const TuneImbalance *t, double *logit, double *sigma, char *err,
                         size_t errlen);

/* The fit of all tests at once: l_t = m_t . u by weighted least squares,
 * u = (M'WM)^-1 M'W l with W = diag(1 / sigma_t^2), covariance (M'WM)^-1, values v = u / u_P.
 * `pieces` says which pieces to fit (it must hold the pawn). Errors, each naming the test or
 * piece: no tests; a test with bad score or SE; a test with no material difference at all; a
 * test with material of a piece outside
 * `pieces`; a piece of `pieces` in no test; a singular design (the tests cannot separate one
 * piece's value from the others', for instance fewer independent tests than pieces); a fitted
 * pawn worth u_P <= 0 (no calibration, values in pawns meaningless).
 * chi2 receives the weighted residual sum of squares and dof = tests - pieces fitted (when not
 * NULL): chi2 far above dof says the linear model does not hold (values depend on the
 * surrounding material) or the SEs are too small. */
int tune_imbalance_fit(const TuneImbalance *tests, size_t count, unsigned pieces, TuneValues *out,
                       double *chi2, int *dof, char *err, size_t errlen);

/* One imbalance bracketed by a pawn: with E1 = Elo(X v Y) from score s1 and E2 = Elo(X v Y+P)
 * from score s2, v(X) - v(Y) = E1 / (E1 - E2) pawns (63 % and 45 % give 0.726, which
 * STATISTICS.md cuts to 0.72). *se receives its standard error from the scores' standard errors se1
 * and se2 by the delta method (0 when both are 0). Errors: a score outside (0, 1), a negative or
 * non-finite SE, or E2 >= E1 (the extra pawn did not help Y: no bracket). */
int tune_bracket(double s1, double se1, double s2, double se2, double *value, double *se, char *err,
                 size_t errlen);

/* ---- ordered-logit regression on game results ---- */

/* One position from a recorded game: White's material minus Black's, the game's result for
 * White (0, 1/2 or 1), and the game it comes from: samples of one game share a group (any
 * number naming the game), and the samples given to the fit are sorted by group. */
typedef struct TuneSample {
    int material[TUNE_PIECES];
    double result;
    uint64_t group;
} TuneSample;

/* The maximum-likelihood fit of STATISTICS.md's ordered logit:
 * P(White wins) = sigma(u . dm + h - delta), P(White does not lose) = sigma(u . dm + h + delta),
 * by Newton-Raphson with step halving from the exact fit with u = 0. h is White's advantage and
 * delta > 0 sets the draw rate, both in logits. Values v = u / u_P as for the imbalance fit.
 *
 * Positions of one game share its result, so they are not independent: the inverse of the
 * observed information I would make intervals too narrow by up to the square root of the
 * positions per game. The covariance of values (and of h and delta) is therefore the
 * cluster-robust sandwich I^-1 B I^-1 with B = G / (G - 1) sum_g s_g s_g', s_g the score
 * (gradient of the log-likelihood) summed over the samples of group g and G the number of
 * groups. With every sample in a group of its own it is the ordinary robust (Huber-White)
 * covariance, which does not lean on the model's variance being right either. It needs many
 * groups: fewer than about 50 games make it unreliable, and no more groups than parameters
 * make it singular (refused). model_se keeps the model's own SEs, from I^-1 alone, as if every
 * sample were independent; (se / model_se)^2 is the design effect, the factor by which the
 * correlation within games shrinks the number of samples the data are worth. */
typedef struct TuneRegression {
    TuneValues values;                /* covariance, se, lo, hi: the clustered ones */
    double model_se[TUNE_PIECES];     /* SE of each value from I^-1 alone (pawns; P is 0) */
    double advantage, advantage_se;   /* h, clustered SE */
    double draw_width, draw_width_se; /* delta, clustered SE */
    double loglik;                    /* at the maximum */
    int iterations;                   /* Newton steps taken */
    size_t groups;                    /* G */
} TuneRegression;

/* Errors: no samples; a result other than 0, 1/2, 1; samples not sorted by group; no more
 * groups than parameters (fitted pieces + 2); no win, no draw or no loss among the results
 * (h or delta would be infinite); material outside `pieces`, a piece of `pieces` that never
 * differs, a singular design, as for the imbalance fit; no convergence in 100 Newton steps or a
 * fitted parameter beyond +-30 logits (results separated by material: the MLE is infinite);
 * u_P <= 0. */
int tune_regression_fit(const TuneSample *samples, size_t count, unsigned pieces,
                        TuneRegression *out, char *err, size_t errlen);

/* ---- SPSA (fishtest's schedule) ---- */

/* The schedule shared by every parameter: N iterations, A, alpha, gamma. */
typedef struct SpsaSchedule {
    long iterations; /* N */
    double A, alpha, gamma;
} SpsaSchedule;

/* fishtest's defaults: A = 0.1 N, alpha = 0.602, gamma = 0.101. */
SpsaSchedule spsa_schedule_default(long iterations);

/* One parameter. The caller sets theta (the start), min < max, c_end > 0 (the perturbation at
 * the last iteration) and r_end > 0 (the rate at the last iteration, a_N / c_N^2); spsa_init
 * derives c = c_end N^gamma and a = r_end c_end^2 (A + N)^alpha. */
typedef struct SpsaParam {
    double theta, min, max;
    double c_end, r_end;
    double a, c;
} SpsaParam;

/* A run: the schedule, the caller's parameter array, and the number of iterations done (to
 * resume, restore each theta and `done`). fishtest counts one game pair as an iteration; with
 * more games per iteration, N counts iterations, not pairs. */
typedef struct Spsa {
    SpsaSchedule schedule;
    SpsaParam *params;
    int count;
    long done;
} Spsa;

/* Validates the schedule (N >= 1, A >= 0, alpha and gamma positive) and the parameters
 * (finite, min < max, theta within [min, max], c_end and r_end positive), derives a and c and
 * sets done = 0. */
int spsa_init(Spsa *s, const SpsaSchedule *schedule, SpsaParam *params, int count, char *err,
              size_t errlen);

/* The gains of parameter i at iteration k >= 1 (smaller k count as 1): c_k = c / k^gamma,
 * a_k = a / (A + k)^alpha. a_k / c_k is how far one point of result (one win more than losses)
 * moves theta: at k = 1 it is the first step, at k = N it is r_end c_end. */
void spsa_gains(const Spsa *s, int i, long k, double *a_k, double *c_k);

/* Draws the perturbation of the next iteration (k = done + 1): delta[i] in {-1, +1} from rng
 * (Rademacher), and the values to play: plus[i] = clip(theta + c_k delta), minus[i] =
 * clip(theta - c_k delta). Arrays of `count` doubles. Engines taking integers round them. */
void spsa_perturb(const Spsa *s, Rng *rng, double *delta, double *plus, double *minus);

/* Ends the iteration: with r = wins - losses of the "plus" side over its games (finite),
 * theta <- clip(theta + (a_k / c_k) r delta), done += 1. */
void spsa_update(Spsa *s, const double *delta, double r);

#endif

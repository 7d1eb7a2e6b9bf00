/* SPDX-License-Identifier: MIT */
/* SPSA with fishtest's schedule, the third method of piece-value tuning
 * (docs/statistics.md): the gains of each iteration, the perturbation to play and the
 * update from its result. Plain doubles and caller-owned arrays; no allocation, no state beyond
 * the caller's Spsa. spsa_init returns 0 on success and -1 with a message in (err, errlen). */
#ifndef CARRERA_SPSA_H
#define CARRERA_SPSA_H

#include <stddef.h>

#include "rng.h"

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

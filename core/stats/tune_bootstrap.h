/* SPDX-License-Identifier: MIT */
/* The bootstrap over game pairs of the imbalance fit (docs/statistics.md, section 4): each
 * replicate redraws every test's pairs with replacement (a multinomial of the test's pair count
 * with its observed class proportions: stratified by test), refits in logits (with the
 * continuity correction of tune_imbalance_from_pairs) and evaluates every quantity; the
 * intervals are the replicates' 2.5 % and 97.5 % percentiles. Seeded (rng.h): the same seed gives
 * the same intervals. */
#ifndef CARRERA_TUNE_BOOTSTRAP_H
#define CARRERA_TUNE_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "tune_fieller.h"

/* The percentile intervals of quantities. A replicate whose refit fails (it cannot: the design
 * and the pieces are the original's, and the correction keeps every weight finite; counted all
 * the same) is left out of every interval. A replicate where a quantity's denominator b . u is
 * <= 0 (the pawn, or the reference piece, worth nothing in it) counts as +infinity for that
 * quantity: such a replicate says the quantity is unbounded, and dropping it would make the
 * interval too narrow. So hi (and even lo) may be +infinity, never NaN; when more than 2.5 % of
 * the replicates are so, hi is +infinity and the interval is to be reported as unbounded. */
typedef struct TuneBootstrap {
    int replicates;                    /* drawn */
    int failed;                        /* of them, refits that failed: in no interval */
    int count;                         /* quantities */
    int infinite[TUNE_QUANTITIES_MAX]; /* replicates whose denominator was <= 0, per quantity */
    double lo[TUNE_QUANTITIES_MAX];    /* the 2.5 % percentile of the good replicates */
    double hi[TUNE_QUANTITIES_MAX];    /* the 97.5 % one */
} TuneBootstrap;

/* Bootstraps the fit of `count` tests (material[t], pair counts pairs[t], as given to
 * tune_imbalance_from_pairs) over `pieces`, for the nq quantities q (at most
 * TUNE_QUANTITIES_MAX), with `replicates` replicates from `seed`. The percentiles are order
 * statistics, no interpolation: lo the ceil(0.025 n)-th smallest of the n good replicates, hi the
 * ceil(0.975 n)-th. Errors: no replicates or too many quantities; the original data refused by
 * tune_imbalance_from_pairs or tune_imbalance_fit_logits (the message says why); out of memory;
 * every replicate failed. */
int tune_bootstrap(const int (*material)[TUNE_PIECES], const uint64_t (*pairs)[PAIR_CLASSES],
                   size_t count, unsigned pieces, const TuneQuantity *q, int nq, int replicates,
                   uint64_t seed, TuneBootstrap *out, char *err, size_t errlen);

#endif

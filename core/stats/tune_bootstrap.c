/* SPDX-License-Identifier: MIT */
/* The stratified bootstrap of the imbalance fit over game pairs (tune_bootstrap.h). */
#include "tune_bootstrap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "rng.h"
#include "tune_imbalance.h"

static int compare_double(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Draws n pairs with replacement from the counts `from` (their sum n) into `to`. */
static void resample(Rng *rng, const uint64_t from[PAIR_CLASSES], uint64_t to[PAIR_CLASSES])
{
    uint64_t n = 0, upto[PAIR_CLASSES];
    for (int c = 0; c < PAIR_CLASSES; c++)
        upto[c] = n += from[c];
    memset(to, 0, PAIR_CLASSES * sizeof to[0]);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t x = rng_below(rng, n);
        int c = 0;
        while (x >= upto[c])
            c++;
        to[c]++;
    }
}

/* The k-th smallest (1-based, clamped to 1..n) of the sorted x[0..n-1]. */
static double order_statistic(const double *x, int n, double fraction)
{
    int k = (int)ceil(fraction * n);
    k = k < 1 ? 1 : k > n ? n : k;
    return x[k - 1];
}

int tune_bootstrap(const int (*material)[TUNE_PIECES], const uint64_t (*pairs)[PAIR_CLASSES],
                   size_t count, unsigned pieces, const TuneQuantity *q, int nq, int replicates,
                   uint64_t seed, TuneBootstrap *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (replicates < 1)
        return errmsg_fail(err, errlen, "bootstrap: %d replicates (at least 1)", replicates);
    if (nq < 0 || nq > TUNE_QUANTITIES_MAX)
        return errmsg_fail(err, errlen, "bootstrap: %d quantities (at most %d)", nq,
                           TUNE_QUANTITIES_MAX);
    TuneImbalance *tests = malloc((count ? count : 1) * sizeof *tests);
    double *draws = malloc((size_t)replicates * (size_t)(nq ? nq : 1) * sizeof *draws);
    if (!tests || !draws) {
        free(tests);
        free(draws);
        return errmsg_fail(err, errlen, "bootstrap: out of memory for %d replicates", replicates);
    }
    int rc = 0;
    TuneValues fit;
    char why[ERRMSG_LEN];
    /* the original data first, so that a refusal names its cause rather than a replicate's */
    for (size_t t = 0; t < count && rc == 0; t++)
        if (tune_imbalance_from_pairs(&tests[t], material[t], pairs[t], why, sizeof why))
            rc = errmsg_fail(err, errlen, "bootstrap: imbalance test %zu: %s", t, why);
    if (rc == 0 &&
        tune_imbalance_fit_logits(tests, count, pieces, &fit, NULL, NULL, why, sizeof why))
        rc = errmsg_fail(err, errlen, "bootstrap: %s", why);
    Rng rng = rng_new(seed);
    int good = 0;
    for (int r = 0; r < replicates && rc == 0; r++) {
        bool ok = true;
        for (size_t t = 0; t < count && ok; t++) {
            uint64_t n[PAIR_CLASSES];
            resample(&rng, pairs[t], n);
            ok = tune_imbalance_from_pairs(&tests[t], material[t], n, NULL, 0) == 0;
        }
        ok = ok && tune_imbalance_fit_logits(tests, count, pieces, &fit, NULL, NULL, NULL, 0) == 0;
        if (!ok) {
            out->failed++;
            continue;
        }
        for (int k = 0; k < nq; k++) {
            double num = 0.0, den = 0.0;
            for (int i = 0; i < TUNE_PIECES; i++) {
                num += q[k].a[i] * fit.logit[i];
                den += q[k].b[i] * fit.logit[i];
            }
            if (den > 0.0) {
                draws[(size_t)k * replicates + good] = num / den;
            } else {
                draws[(size_t)k * replicates + good] = INFINITY;
                out->infinite[k]++;
            }
        }
        good++;
    }
    out->replicates = replicates;
    out->count = nq;
    if (rc == 0 && good == 0)
        rc = errmsg_fail(err, errlen, "bootstrap: the refit failed in all %d replicates",
                         replicates);
    for (int k = 0; k < nq && rc == 0; k++) {
        double *x = draws + (size_t)k * replicates;
        qsort(x, (size_t)good, sizeof *x, compare_double);
        out->lo[k] = order_statistic(x, good, 0.025);
        out->hi[k] = order_statistic(x, good, 0.975);
    }
    free(tests);
    free(draws);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

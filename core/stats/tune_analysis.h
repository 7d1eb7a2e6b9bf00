/* SPDX-License-Identifier: MIT */
/* Everything Carrera reports about one fit of imbalance tests (docs/statistics.md, section 4),
 * computed at once from each test's material and pair counts, so that `carrera tune` and
 * `carrera report` print and store the same numbers: the fit with its covariance scaled by the
 * Birge ratio, the chi2 and its p-value, the default quantities (values, contrasts, ratios) with
 * delta-method, Fieller and bootstrap intervals, each test's residuals, the
 * leave-one-imbalance-out table, and the brackets (two tests a pawn apart) read alone. */
#ifndef CARRERA_TUNE_ANALYSIS_H
#define CARRERA_TUNE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "tune_bootstrap.h"
#include "tune_diagnostics.h"
#include "tune_fieller.h"
#include "tune_imbalance.h"

/* The most tests an analysis takes (a match's imbalances). */
#define TUNE_ANALYSIS_TESTS 32

/* The replicates of the bootstrap unless the caller asks for others. */
#define TUNE_ANALYSIS_REPLICATES 2000

/* Two tests whose material differs by one pawn, m_plus = m - e_P (X v Y and X v Y+P): the
 * difference of values they give alone, tune_bracket's E1 / (E1 - E2). */
typedef struct TuneBracketPair {
    int test, plus; /* indices of X v Y and X v Y+P */
    bool ok;        /* the pawn helped Y (else reason) */
    char reason[160];
    double value, se; /* pawns, delta method */
} TuneBracketPair;

typedef struct TuneAnalysis {
    size_t count;    /* tests */
    unsigned pieces; /* fitted: every piece some test changes, and P */
    TuneImbalance tests[TUNE_ANALYSIS_TESTS];
    uint64_t pairs[TUNE_ANALYSIS_TESTS][PAIR_CLASSES];
    bool corrected; /* a one-sided test had its counts corrected */
    bool ok;        /* fitted; else reason says why not */
    char reason[512];
    /* The design holds the pawn but the games do not show it clearly worth anything
     * (u_P <= 1.96 SE, or u_P <= 0): the fit stands and the ratios with it, but every value and
     * contrast in pawns has an unbounded Fieller interval; pawn_note says so. */
    bool pawn_unclear;
    char pawn_note[256];
    TuneValues values; /* covariance scaled by quality.scale */
    TuneFitQuality quality;
    int nq; /* the default quantities of the pieces */
    TuneQuantity q[TUNE_QUANTITIES_MAX];
    TuneEstimate estimate[TUNE_QUANTITIES_MAX]; /* from values (scaled), Fieller at 95 % */
    bool boot_ok;                               /* else boot_reason */
    char boot_reason[256];
    uint64_t boot_seed;
    TuneBootstrap boot;
    TuneResidual residual[TUNE_ANALYSIS_TESTS];
    bool loo_ok; /* else loo_reason (fewer than two tests) */
    char loo_reason[256];
    TuneLeaveOut loo[TUNE_ANALYSIS_TESTS]; /* each refit's covariance scaled by its own ratio */
    int n_brackets;
    TuneBracketPair brackets[TUNE_ANALYSIS_TESTS];
} TuneAnalysis;

/* Analyses `count` tests (at most TUNE_ANALYSIS_TESTS) with material[t] (P N B R A C Q, the side
 * under test minus the other) and pentanomial pair counts pairs[t] (names[t], "Q:A", names it in
 * a message; NULL: "imbalance test t"), bootstrapped with
 * `replicates` replicates from `seed`. Returns 0 with out->ok set when the logits were fitted
 * (out->pawn_unclear set when, with the pawn in the design, u_P <= 1.96 SE(u_P): no value in
 * pawns has a bounded interval then, while the ratios do); -1 with out->reason when nothing can
 * be fitted (a test without pairs, a singular design, too many tests). The bootstrap and the
 * leave-one-out table can fail on their own (boot_ok, loo_ok false with the reason) without failing
 * the analysis. *out is large (about 100 KB): allocate it. */
int tune_analyse(const int (*material)[TUNE_PIECES], const uint64_t (*pairs)[PAIR_CLASSES],
                 const char *const *names, size_t count, int replicates, uint64_t seed,
                 TuneAnalysis *out);

/* The bootstrap's seed of stage `stage` (from 0) of a match seeded `match_seed`: every stage
 * draws its own replicates, and `carrera tune` and `carrera report` the same ones. */
uint64_t tune_analysis_seed(uint64_t match_seed, int stage);

/* An interval as text with `decimals` decimals: "[lo, hi]" when bounded (an infinite end, as a
 * bootstrap's may be, written "+inf" with a round bracket), "(-inf, lo] U [hi, +inf)" for
 * Fieller's two rays, "unbounded" for the whole line. */
void tune_analysis_interval_text(double lo, double hi, TuneIntervalKind kind, int decimals,
                                 char *out, size_t len);

#endif

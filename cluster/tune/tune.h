/* SPDX-License-Identifier: MIT */
/* `carrera tune`: the methods that turn a match's games into piece values (tune_config.h says
 * which). The games are `carrera match`'s (MPI, PGN, result file, resume); what this adds is the
 * Tuner, which the match consults between its stages:
 * - imbalance: a stage is one material-odds match over every imbalance; its pair counts are
 *   fitted at once (core/stats/tune_analysis.c) and, when more iterations are asked for, the next
 *   stage's engine plays with the values just measured, until the values it plays with lie
 *   within the 95 % intervals of the values measured with them; or, with a sweep
 *   (`nodes = ...`), each stage plays the same design at its own nodes per turn;
 * - spsa: a stage is one SPSA iteration, player 1 playing theta + c delta and player 2
 *   theta - c delta, its result moving theta;
 * - regression: one stage, the match as configured; the values come from its recorded games.
 * The tuner's state after a stage is a function of the stages' results alone, so a resumed run
 * rebuilds it by feeding the recorded pairs again, in order. */
#ifndef CARRERA_TUNE_H
#define CARRERA_TUNE_H

#include <stdbool.h>
#include <stdio.h>

#include "match_config.h"
#include "regression_data.h"
#include "spsa.h"
#include "stats.h"
#include "tune_analysis.h"
#include "tune_imbalance.h"
#include "tune_regression.h"

/* The fit of one material-odds match (one stage of the imbalance method): everything
 * core/stats/tune_analysis.h computes from its pair counts. */
typedef struct TuneFit {
    uint64_t pairs[MATCH_MAX_IMBALANCES][PAIR_CLASSES]; /* each imbalance, player 1's view */
    bool ok;                                            /* values were fitted */
    char reason[512];                                   /* why not, when !ok */
    TuneAnalysis *analysis; /* malloc'd (NULL only when memory ran out: reason says so) */
} TuneFit;

/* Fits the piece values from the pair counts of each imbalance of c (pairs[i] for
 * c->imbalances[i]) in stage `stage` (the bootstrap's seed is the match's and the stage's). Sets
 * fit->ok, or fit->reason when the tests cannot give values (too few games, a singular design,
 * a pawn not yet worth anything). Free with tune_fit_free. */
void tune_fit(const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES], int stage, TuneFit *fit);
void tune_fit_free(TuneFit *fit);

/* The regression's outcome (method regression, or the cross-check after an imbalance run). */
typedef struct TuneRegressionRun {
    bool done;        /* attempted */
    bool read;        /* the games were read (else reason says why they could not be) */
    bool ok;          /* values were fitted */
    char reason[512]; /* why not */
    TuneRegression fit;
    uint64_t games, games_used, samples, pairs; /* pairs: the clusters */
    int skip_plies;
} TuneRegressionRun;

/* One iteration (or a sweep's stage) of the imbalance method. */
typedef struct TuneIteration {
    double played[TUNE_PIECES]; /* the values (pawns) player 1's engine played with */
    uint64_t nodes;             /* a sweep's nodes per turn; 0 without a sweep */
    TuneFit fit;
} TuneIteration;

typedef struct Tuner {
    const MatchConfig *cfg;
    int stage;              /* the stage being played (== cfg->stages once all are) */
    EngineParams params[2]; /* what the players play with in this stage */
    bool finished;          /* no stage is left: all played, or the values agreed */
    bool converged;         /* imbalance: stopped because the values agreed */
    char stop_reason[256];
    /* the stage being played */
    uint64_t stage_pairs[MATCH_MAX_IMBALANCES][PAIR_CLASSES];
    uint64_t stage_done;
    double stage_result; /* wins - losses of player 1 */
    /* imbalance */
    TuneIteration *iterations; /* one per stage played */
    int n_iterations;
    /* spsa: the run, the start and every iteration's theta, delta and result */
    Spsa spsa;
    SpsaParam sp[TUNE_MAX_PARAMS];
    double delta[TUNE_MAX_PARAMS];
    double *theta;  /* (stages + 1) x params */
    int8_t *signs;  /* stages x params */
    double *result; /* stages */
    TuneRegressionRun regression;
} Tuner;

/* Ready for stage 0. Returns 0, or -1 with a message (memory, SPSA start outside bounds). */
int tuner_init(Tuner *t, const MatchConfig *c, char *err, size_t errlen);
void tuner_free(Tuner *t);

/* Counts a finished pair of the current stage (player 1's score in its two games). Returns true
 * when it completed the stage: the tuner has then moved to the next one (new eval) or finished. */
bool tuner_add_pair(Tuner *t, uint64_t pair, const double score[2]);

/* The final estimate of the imbalance method (the last iteration's fit), or NULL. */
const TuneFit *tuner_final_fit(const Tuner *t);

/* Prints what the run found: each iteration's values, the SPSA theta, the regression's values,
 * with 95 % intervals, or why there are none. */
void tuner_print(FILE *out, const Tuner *t);

/* Whether the run gave what it was for (values fitted, or SPSA iterations done). */
bool tuner_ok(const Tuner *t);

/* The regression over the samples d of recorded games (all pieces whose count ever differs are
 * fitted): its outcome into t->regression. d NULL: the games could not be read, why says why. */
void tune_regress(Tuner *t, const RegressionData *d, int skip_plies, const char *why);

/* Prints one fit's values with intervals (or its reason) under a heading. */
void tune_print_values(FILE *out, const char *heading, const TuneValues *v);

#endif

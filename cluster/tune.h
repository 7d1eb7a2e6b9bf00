/* `carrera tune`: piece values from a material-odds match (imbalance method). The match itself is
 * `carrera match`'s (games, MPI, PGN, result file, resume); this adds the fit of every
 * imbalance's pair counts at once (core/tune_stats.c), kept in the result file's /tune group and
 * printed with 95% intervals. */
#ifndef CARRERA_TUNE_H
#define CARRERA_TUNE_H

#include <stdbool.h>
#include <stdio.h>

#include "match_config.h"
#include "stats.h"
#include "tune_stats.h"

/* The fit of a material-odds match. */
typedef struct TuneFit {
    const MatchConfig *cfg;
    uint64_t pairs[MATCH_MAX_IMBALANCES][PAIR_CLASSES]; /* each imbalance, player 1's view */
    TuneImbalance tests[MATCH_MAX_IMBALANCES];          /* score and SE of each */
    bool ok;                                            /* values were fitted */
    char reason[512];                                   /* why not, when !ok */
    bool corrected;                                     /* a one-sided test was corrected */
    TuneValues values;
    double chi2;
    int dof;
} TuneFit;

/* Fits the piece values from the pair counts of each imbalance of c (pairs[i] for
 * c->imbalances[i]). Sets fit->ok, or fit->reason when the tests cannot give values (too few
 * games, a singular design, a pawn not yet worth anything). */
void tune_fit(const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES], TuneFit *fit);

/* Prints the values with their intervals, or the reason there are none. */
void tune_print(FILE *out, const TuneFit *fit);

#endif

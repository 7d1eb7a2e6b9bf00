/* `carrera tune`: piece values from a material-odds match (imbalance method). The match itself is
 * `carrera match`'s (games, MPI, PGN, result file, resume); this adds the fit of every
 * imbalance's pair counts at once (core/tune_stats.c) and prints the values with 95% intervals. */
#ifndef CARRERA_TUNE_H
#define CARRERA_TUNE_H

#include <stdio.h>

#include "match_config.h"
#include "stats.h"

/* Fits the piece values from the pair counts of each imbalance of c (pairs[i] for
 * c->imbalances[i], player 1's view) and prints them on out. Returns 0, or -1 with the reason in
 * err (printed too) when the tests cannot give values (too few games, a singular design). */
int tune_fit_print(FILE *out, const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES],
                   char *err, size_t errlen);

#endif

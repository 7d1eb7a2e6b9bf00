/* The data of the regression method of `carrera tune`: the games of match result files (the
 * layout of h5match.c) replayed from their openings, and White's material minus Black's at each
 * quiet, stable material state of every game, with the game's result (TuneSample rows for
 * tune_regression_fit, core/tune_stats.h). */
#ifndef CARRERA_REGRESSION_H
#define CARRERA_REGRESSION_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "tune_stats.h"
#include "variant.h"

/* A position is sampled only when the positions this many turns before and after it (within the
 * game) have its material: not in the middle of an exchange. */
#define REGRESSION_STABLE_TURNS 2

typedef struct RegressionData {
    TuneSample *samples; /* malloc'd, sorted by group */
    size_t n;
    uint64_t games;         /* games read */
    uint64_t games_used;    /* games that gave at least one sample */
    uint64_t faults;        /* games lost by a player's fault (time, crash, timeout, garbage,
                               illegal move): replayed, never sampled */
    uint64_t dropped;       /* empty rows a killed match left at the end of a file: skipped */
    const Variant *variant; /* of every file */
    Rules rules;
} RegressionData;

/* Reads the games of the match result files paths[0..n_paths) (all of one variant, turn rules
 * and en passant rule, otherwise refused) and samples them.
 *
 * Every game is replayed from its opening, each turn of its text checked legal. The positions
 * at turn boundaries i = 0..n (after i turns) are candidates when skip_plies <= i, the positions
 * i - REGRESSION_STABLE_TURNS .. i + REGRESSION_STABLE_TURNS all lie in the game and have the
 * same pieces (no capture or promotion among those turns), and the side to move is not in
 * check. Of the candidates of one game, each distinct material difference (White's count of
 * P N B R A C Q minus Black's) gives one sample, at its first candidate: the stable phases of a
 * game count once each, not by their length, and a difference the game comes back to (after
 * an exchange of equal pieces, or a piece won and lost again) does not count twice. A sample's
 * result is White's score (1, 1/2, 0) and its group the game's number among all the games read
 * (from 0, across files in order), so the samples come sorted by group as
 * tune_regression_fit wants. Games lost by a fault say nothing about material and give none.
 *
 * Returns 0 (even with no samples: the fit says so), or -1 with a message naming the file, and
 * for a bad game its row in /match/games and the turn: a missing or unreadable file, one that is
 * not a match result (not HDF5, a perft result, no /match/games), unknown variant or rules,
 * files that disagree on them, a bad opening, result, termination or turn, a turn count that
 * is not the plies column's. *out then holds nothing to free. */
int regression_read(const char *const *paths, size_t n_paths, int skip_plies, RegressionData *out,
                    char *err, size_t errlen);

void regression_free(RegressionData *d);

#endif

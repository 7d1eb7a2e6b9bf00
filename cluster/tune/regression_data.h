/* SPDX-License-Identifier: MIT */
/* The data of the regression method of `carrera tune`: recorded games (match result files hold
 * them; h5/match_games.h reads them into this) replayed from their openings, and White's material
 * minus Black's at each quiet, stable material state of every game, with the game's result
 * (TuneSample rows for tune_regression_fit, core/stats/tune_regression.h). */
#ifndef CARRERA_REGRESSION_DATA_H
#define CARRERA_REGRESSION_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "game_record.h"
#include "rules.h"
#include "tune_regression.h"
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
    uint64_t dropped;       /* empty rows a killed match left at the end of a file: skipped (the
                               reader counts them) */
    uint64_t pairs;         /* game pairs read: the clusters of the fit */
    const Variant *variant; /* of every file (NULL before the first) */
    Rules rules;
    /* the reading's own */
    int skip_plies;
    const char *last_path; /* the file and pair of the last game added */
    uint64_t last_pair;
    size_t cap;                     /* of samples */
    struct RegressionPoint *points; /* the current game's positions */
    size_t points_cap;
} RegressionData;

/* An empty set of samples: the turns of each game before skip_plies are not sampled. Returns 0,
 * or -1 with a message (a negative skip_plies). */
int regression_start(RegressionData *d, int skip_plies, char *err, size_t errlen);

/* The variant, turn rules and en passant rule (by name) of the games of the file at path, which
 * come next: the first file's are taken, every later file's must be the same. Returns 0, or -1
 * with a message naming the file (an unknown name, files that disagree). */
int regression_file(RegressionData *d, const char *path, const char *variant, const char *turns,
                    const char *ep, char *err, size_t errlen);

/* Replays the game g from its opening, each turn of its text checked legal, and samples it.
 *
 * The positions at turn boundaries i = 0..n (after i turns) are candidates when skip_plies <= i,
 * the positions i - REGRESSION_STABLE_TURNS .. i + REGRESSION_STABLE_TURNS all lie in the game
 * and have the same pieces (no capture or promotion among those turns), and the side to move is
 * not in check. Of the candidates of one game, each distinct material difference (White's count
 * of P N B R A C Q minus Black's) gives one sample, at its first candidate: the stable phases of
 * a game count once each, not by their length, and a difference the game comes back to (after
 * an exchange of equal pieces, or a piece won and lost again) does not count twice. A sample's
 * result is White's score (1, 1/2, 0) and its group the number of its pair (the two games of an
 * opening with colours reversed, which share the opening's imbalance and so are not independent)
 * among all the pairs added, from 0. A pair's games must be added one after the other, as a
 * match file holds them, so the samples come sorted by group as tune_regression_fit wants. Games
 * lost by a fault say nothing about material and give none.
 *
 * Returns 0, or -1 with a message naming the file, the row and for a bad turn the turn: a bad
 * opening, result, termination or turn, a turn count that is not the plies column's. */
int regression_add_game(RegressionData *d, const RecordedGame *g, char *err, size_t errlen);

void regression_free(RegressionData *d);

#endif

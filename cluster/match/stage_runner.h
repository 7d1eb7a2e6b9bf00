/* SPDX-License-Identifier: MIT */
/* The pairs of a match run on rank 0: which pair is played next (stage by stage: a tune method
 * sets the players' evaluation for each stage from the results of the ones before; a plain match
 * is one stage), and what a finished pair changes: the tallies, the PGN file, the result file
 * (the checkpoint), the tuner and the SPRT. The distribution (match_distribute.h) asks it for
 * pairs and gives it their games, all on rank 0's main thread. */
#ifndef CARRERA_STAGE_RUNNER_H
#define CARRERA_STAGE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "errmsg.h"
#include "game_record.h"
#include "match_config.h"
#include "match_file.h"
#include "openings.h"
#include "progress.h"
#include "stats.h"
#include "tune.h"

/* Everything counted so far, from player 1's view. */
typedef struct Tally {
    uint64_t wins, draws, losses;
    uint64_t pairs[PAIR_CLASSES];
    uint64_t endings[END_NB];
    uint64_t pairs_done, games_done;
    uint64_t nodes;
} Tally;

typedef struct StageRunner {
    const MatchConfig *cfg;
    int threads; /* games at once in this process */
    Openings openings;
    FILE *pgn;
    char date[16];
    uint64_t n_pairs; /* planned: every stage's */
    int stage;
    uint64_t cursor, stage_end; /* the next pair to consider; the current stage ends before */
    EngineParams params[2];     /* what the players play with in the current stage */
    bool over;                  /* no stage is left to begin (a tuner's values agreed) */
    MatchFileDone done;         /* the pairs a checkpoint held: not played again */
    Tuner *tuner;               /* a tune run's methods, NULL for a match */
    MatchFile *h5;              /* rank 0: the result file, written as pairs finish */
    bool resumed;
    uint64_t games_before; /* games the checkpoint held: not this run's work */
    bool stop;             /* no pair is handed out any more (an error, the SPRT) */
    Tally tally;
    Tally groups[MATCH_MAX_IMBALANCES]; /* a material-odds match: the tally of each imbalance */
    Sprt sprt;
    Progress progress;
    char error[ERRMSG_LEN]; /* the first error */
} StageRunner;

/* Keeps message as the run's error (the first one only) and stops handing out pairs. */
void stage_runner_fail(StageRunner *run, const char *message);

/* The next pair of the current stage into *pair and the stage's evaluation of the two players
 * into eval. Returns 1; 0 when no pair is left to play at all (or the run stops); -1 when the
 * stage's pairs are all handed out and the next stage waits for their results. */
int stage_runner_next(StageRunner *run, uint64_t *pair, EngineParams params[2]);

/* The tuner's current stage becomes the run's (or the run is over). */
void stage_runner_begin_stage(StageRunner *run);

/* Counts a pair's two games (player 1's scores s, their endings, the nodes searched) in t. */
void stage_runner_tally(Tally *t, const double s[2], const GameEnding e[2], uint64_t nodes);

/* Records the finished pair (player 1 White in g[0]) and frees its games. */
void stage_runner_record(StageRunner *run, uint64_t pair, GameRecord g[2]);

#endif

/* SPDX-License-Identifier: MIT */
/* One piece-value run as a report reads it (report.h): the result file's provenance and games
 * (h5/match_tests.h), its configuration parsed from the text the file carries, every stage's
 * imbalance tests tallied from the games alone (pair counts, results, colours, terminations,
 * lengths, nodes) and analysed at once (core/stats/tune_analysis.h), and the cross-check of the
 * last complete stage's counts against the ones the tune group stored. */
#ifndef CARRERA_REPORT_RUN_H
#define CARRERA_REPORT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_config.h"
#include "match_tests.h"
#include "stats.h"
#include "tune_analysis.h"

#define REPORT_MAX_TERMINATIONS 24

typedef struct ReportTermination {
    char name[MATCH_TESTS_TERMINATION_MAX];
    uint64_t count;
} ReportTermination;

/* One imbalance test in one stage, from the games of its complete pairs; player 1's view. */
typedef struct ReportTest {
    uint64_t pairs[PAIR_CLASSES];
    uint64_t n_pairs;
    uint64_t wins, draws, losses;
    double white_score, black_score; /* player 1's points with White, with Black */
    uint64_t white_games, black_games;
    uint64_t plies;
    uint64_t nodes[2], moves[2]; /* each player's nodes searched and turns played */
    ReportTermination terms[REPORT_MAX_TERMINATIONS]; /* most frequent first once sorted */
    int n_terms;
} ReportTest;

typedef struct ReportStage {
    int index;      /* from 0 */
    uint64_t pairs; /* complete pairs */
    bool complete;  /* every planned pair */
    ReportTest tests[MATCH_MAX_IMBALANCES];
    TuneAnalysis *analysis; /* calloc'd */
} ReportStage;

typedef struct ReportRun {
    const char *path; /* as given; borrowed */
    MatchTestsFile file;
    MatchConfig cfg;
    int n_stages;
    ReportStage *stages;
    uint64_t single_games; /* games whose pair has only one recorded: ignored */
    bool cross_checked;    /* /tune/pairs compared with the last complete stage */
    char warning[2048];    /* when they differ: how, else empty */
} ReportRun;

/* Reads, tallies and analyses the result file at path with `replicates` bootstrap replicates.
 * Returns 0, or the exit status with a message naming the file and the cause, *r then holding
 * nothing to free: EXIT_USAGE for a file the report cannot take (unreadable, not a match result,
 * a configuration that cannot be read, no imbalances, a pair beyond the planned ones),
 * EXIT_FAILED when memory runs out. */
int report_run_load(ReportRun *r, const char *path, int replicates, char *err, size_t errlen);

void report_run_free(ReportRun *r);

/* The nodes per turn player 1 searched in stage s of r: a sweep's stage's, else its limit (0
 * when it is not limited by nodes). */
uint64_t report_stage_nodes(const ReportRun *r, const ReportStage *s);

#endif

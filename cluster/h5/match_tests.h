/* SPDX-License-Identifier: MIT */
/* What a report of a piece-value run (`carrera report`, report/) reads from a match result file
 * (docs/result-files.md): the provenance on the root (the configuration's whole text among it),
 * every game's row of /match/games but its moves, and the last stage's pair counts that the tune
 * group stored (only to cross-check them: the report recomputes everything from the games, so a
 * file of an older revision reads the same). Plain data, no HDF5 type. */
#ifndef CARRERA_MATCH_TESTS_H
#define CARRERA_MATCH_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_config.h"
#include "stats.h"

/* The termination column's size (match_rows.h). */
#define MATCH_TESTS_TERMINATION_MAX 32

/* One game as the report needs it (a row of /match/games without its opening and moves). */
typedef struct MatchTestGame {
    uint64_t pair;
    uint8_t game;  /* 1 or 2 within the pair */
    uint8_t white; /* the player (1 or 2) who had White */
    double score;  /* player 1's: 1, 0.5 or 0 */
    char termination[MATCH_TESTS_TERMINATION_MAX];
    uint32_t plies;
    uint64_t nodes_white, nodes_black;
    double seconds_white, seconds_black;
} MatchTestGame;

/* How the run was made: the root's provenance attributes, texts empty and numbers -1 when
 * absent (end_time while a run is not finished). */
typedef struct MatchTestsProvenance {
    char format[32];
    char version[64], revision[128], compiler[128], build_flags[512];
    int ranks, threads_per_rank, resumed;
    char hosts[1024]; /* the hosts of the ranks, ", " between them */
    char start_time[32], end_time[32];
} MatchTestsProvenance;

typedef struct MatchTestsFile {
    MatchTestsProvenance prov;
    char *configuration; /* the root's configuration text (malloc'd) */
    MatchTestGame *games;
    size_t n_games, cap;
    uint64_t dropped; /* empty rows or a torn last pair that a killed match left: skipped */
    /* /tune/pairs when the file has it (uint64 [n][5]: the last stage's pair counts) */
    bool has_tune_pairs;
    size_t n_tune_pairs;
    uint64_t tune_pairs[MATCH_MAX_IMBALANCES][PAIR_CLASSES];
} MatchTestsFile;

/* Reads the match result file at path into *out. Returns 0, or -1 with a message naming the
 * file and the cause (missing, not HDF5, another kind of Carrera file, another layout, no
 * /match/games, no configuration, a bad row and which), *out then holding nothing to free. */
int match_tests_read(const char *path, MatchTestsFile *out, char *err, size_t errlen);

void match_tests_free(MatchTestsFile *f);

#endif

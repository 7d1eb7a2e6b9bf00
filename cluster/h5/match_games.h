/* SPDX-License-Identifier: MIT */
/* The games of match result files (the layout of match_file.c) as the fits of recorded games read
 * them: the regression method of `carrera tune` (tune/regression_data.h) and the positions of
 * Texel's method (`carrera texel-data`). The only reading of /match/games outside a resume. */
#ifndef CARRERA_MATCH_GAMES_H
#define CARRERA_MATCH_GAMES_H

#include <stddef.h>
#include <stdint.h>

#include "game_record.h"

#include "regression_data.h"
#include "tune.h"

/* What reads the games: told each file's variant, turn rules and en passant rule (by name)
 * before its games, then every game in the file's order; each returns 0, or -1 with a message in
 * err that stops the reading. */
typedef struct MatchGamesReader {
    int (*file)(void *ctx, const char *path, const char *variant, const char *turns, const char *ep,
                char *err, size_t errlen);
    int (*game)(void *ctx, const RecordedGame *g, char *err, size_t errlen);
    void *ctx;
} MatchGamesReader;

/* Reads the games of the match result files paths[0..n_paths) into reader, every game's moves
 * checked against /match/moves first; *dropped grows by the empty rows a killed match left at
 * the end of a file. Returns 0, or -1 with a message naming the file, and for a bad game its
 * row: a missing or unreadable file, one that is not a match result (not HDF5, a perft result,
 * no /match/games), no file at all, or the reader's own message. */
int match_games_read(const char *const *paths, size_t n_paths, const MatchGamesReader *reader,
                     uint64_t *dropped, char *err, size_t errlen);

/* Reads the games of the match result files paths[0..n_paths) (all of one variant, turn rules
 * and en passant rule, otherwise refused) and samples them into *out (regression_add_game says
 * how). Empty rows a killed match left at the end of a file are counted in out->dropped.
 *
 * Returns 0 (even with no samples: the fit says so), or -1 with a message naming the file, and
 * for a bad game its row in /match/games and the turn: a missing or unreadable file, one that is
 * not a match result (not HDF5, a perft result, no /match/games), unknown variant or rules,
 * files that disagree on them, a bad opening, result, termination or turn. *out then holds
 * nothing to free. */
int match_games_sample(const char *const *paths, size_t n_paths, int skip_plies,
                       RegressionData *out, char *err, size_t errlen);

/* The regression of t over the games of those files: the reading's outcome (its samples, or
 * why there are none) into tune_regress. */
void match_games_regress(Tuner *t, const char *const *paths, size_t n_paths, int skip_plies);

#endif

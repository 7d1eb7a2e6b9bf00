/* SPDX-License-Identifier: MIT */
/* The rows of /match/games of a match result file read in order, for the readers that are not a
 * resume (the regression's samples, match_games.c; a report's tests, match_tests.c): the file
 * opened and checked as a match result, the table checked as Carrera stores it, read in batches
 * of rows (bounded memory whatever the file), every row handed to a visitor but the empty rows a
 * killed match leaves in its last pair. Internal to h5/. */
#ifndef CARRERA_MATCH_VISIT_H
#define CARRERA_MATCH_VISIT_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_rows.h"

/* A match result file open for reading its games. */
typedef struct MatchVisitFile {
    const char *path; /* as given, for messages; borrowed */
    hid_t file, match, games;
} MatchVisitFile;

/* Opens the match result file at path (h5check_open: a regular file, HDF5, a carrera-match file
 * of this layout) and its /match and /match/games. Returns 0, or -1 with a message naming path
 * (nothing then to close). */
int match_visit_open(MatchVisitFile *f, const char *path, char *err, size_t errlen);
void match_visit_close(MatchVisitFile *f);

/* Called with row r, row `row` of the table; torn: r is in the last pair, which a kill may have
 * cut short. Returns 0, or -1 with a message in err (the visit stops). */
typedef int (*MatchRowVisitor)(void *ctx, const GameRow *r, uint64_t row, bool torn, char *err,
                               size_t errlen);

/* Visits every row of f's /match/games in order, skipping the empty rows (HDF5's fill values)
 * of the last pair, which *dropped counts (when not NULL). Returns 0, or -1 with a message
 * naming the file and the rows: the table not stored as Carrera stores it, a damaged chunk, rows
 * HDF5 cannot read, or the visitor's own. */
int match_visit_rows(const MatchVisitFile *f, MatchRowVisitor visit, void *ctx, uint64_t *dropped,
                     char *err, size_t errlen);

#endif

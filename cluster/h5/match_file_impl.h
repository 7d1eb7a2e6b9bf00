/* SPDX-License-Identifier: MIT */
/* The open match result file as match_file.c keeps it, shared with the files that do a part of
 * its work: the resume's checks and reading (match_resume.c) and the summary
 * (match_summary.c). Internal to h5/. */
#ifndef CARRERA_MATCH_FILE_IMPL_H
#define CARRERA_MATCH_FILE_IMPL_H

#include <hdf5.h>
#include <stdbool.h>
#include <stdint.h>

#include "match_file.h"
#include "result_file.h"
#include "stats.h"

struct MatchFile {
    ResultFile rf;             /* the file, its names and runs */
    hid_t games, moves, penta; /* /match/games, /match/moves, /match/pentanomial */
    hid_t row_type;            /* memory type of GameRow */
    uint64_t n_pairs;          /* planned */
    uint8_t *done;             /* one bit per planned pair: in the file */
    uint64_t rows;             /* rows of /match/games */
    uint64_t bytes;            /* bytes of /match/moves the rows name: where the next moves go */
    uint64_t wins, draws, losses;
    uint64_t counts[PAIR_CLASSES];
};

/* Whether pair is in the file. */
bool match_file_is_done(const MatchFile *h, uint64_t pair);

/* Counts pair, of player 1's scores score[0..1], into the tally and marks it done. */
void match_file_count_pair(MatchFile *h, uint64_t pair, const double score[2]);

/* Writes the tally's pair counts to /match/pentanomial. Returns 0 or -1. */
int match_file_write_counts(MatchFile *h);

/* This run's provenance, with the match's configuration text. */
Provenance match_file_provenance(const MatchFileInfo *info);

/* The attributes match_summary_write writes on /match (n of them), which a resume removes. */
extern const char *const match_summary_names[];
extern const size_t match_summary_n_names;

/* Writes the summary of the file's pairs on /match, and /tune when s->tune. Returns 0 or -1. */
int match_summary_write(MatchFile *h, const MatchFileSummary *s);

/* Compares the match of the checkpoint open in file with expected (the Carrera that wrote it
 * aside: result_file.c compares that): diffs receives every difference. Returns 0, or -1 when
 * the match's parameters are missing. */
int match_resume_compare(hid_t file, const MatchFileInfo *expected, char *diffs, size_t len);

/* The resume's reading of the checkpoint open in h->rf.file, its records open
 * (match_file_open_resume): reads its pairs into done and h's tally; *keep receives the rows to
 * keep (a pair a kill cut short at the end is dropped) and h->bytes the end of their moves.
 * Returns 0, or -1 with a message. */
int match_resume_read(MatchFile *h, MatchFileDone *done, uint64_t *keep, char *err, size_t errlen);

/* Brings the copy being resumed to what this run continues: the torn pair dropped (keep rows,
 * h->bytes bytes of moves), the counts those of the rows, no summary. Returns 0 or -1. */
int match_resume_prepare(MatchFile *h, uint64_t keep);

#endif

/* SPDX-License-Identifier: MIT */
/* The result file of `carrera match`, in HDF5 (docs/result-files.md gives the layout):
 * written only by rank 0, it is at once the checkpoint (every finished pair of games is appended
 * and flushed as it comes in) and the result (summary attributes at the end). A killed match
 * resumes from it without replaying a finished pair. */
#ifndef CARRERA_MATCH_FILE_H
#define CARRERA_MATCH_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_config.h"
#include "game_record.h"
#include "provenance.h"
#include "stats.h"
#include "tune.h"

/* Version of the layout, stored in the file; a file of another layout version is refused. */
#define MATCH_FILE_FORMAT_VERSION 2

/* What the match is, and the provenance of this run. The file's configuration text is cfg->text
 * (prov->config is not used): a resume must present the same text. */
typedef struct MatchFileInfo {
    const MatchConfig *cfg;
    const Provenance *prov;
    bool overwrite;   /* match_file_create: replace an existing file (otherwise refused) */
    double lock_wait; /* match_file_open_resume: seconds to wait for a checkpoint another
                         process holds locked (RESUME_LOCK_WAIT for a job) */
    bool extend;      /* match_file_open_resume: the checkpoint may plan fewer games (and its
                         configuration differ in its `games` line alone); it then plans these */
} MatchFileInfo;

/* A pair of games already in the file, as the caller needs it to rebuild its tally: player 1's
 * score in each game (1, 0.5 or 0; player 1 is White in game 1), how each ended, and the nodes
 * both players searched in each. */
typedef struct MatchFilePair {
    uint64_t pair;
    double score[2];
    GameEnding ending[2];
    uint64_t nodes[2];
} MatchFilePair;

/* The pairs a checkpoint holds, sorted by pair number (each at most once). */
typedef struct MatchFileDone {
    MatchFilePair *pairs;
    size_t n;
    size_t dropped; /* games of a pair a kill cut short while it was being written: removed
                       from the file, the pair is not in pairs (play it again) */
} MatchFileDone;

typedef struct MatchFile MatchFile;

/* Creates the result file at path for the match: provenance on the root, the match's facts on
 * /match, no games yet, the pentanomial counts all zero. The file is flushed before this returns,
 * so it is a valid checkpoint from the start. Refuses an existing file unless info->overwrite.
 * Returns NULL with a message in err on any failure (unwritable directory, full disk, ...); no
 * partial file is left. */
MatchFile *match_file_create(const char *path, const MatchFileInfo *info, char *err, size_t errlen);

/* Opens the checkpoint at path to continue the match expected. Its configuration text, variant,
 * rules, players, planned games, seed and Carrera version must be those of the match, otherwise
 * it is refused with a message naming every difference (for the text, the first line that
 * differs); with expected->extend the checkpoint may plan fewer games, and then takes this
 * match's count and configuration text. On success *done receives the finished pairs (free with
 * match_file_done_free), the resume count is incremented and this run's provenance recorded in
 * /resumes/K, any summary of an earlier finish is removed (the file is a checkpoint again until
 * match_file_finish), and the result accepts match_file_record_pair for the other pairs. Any file
 * that is not a readable match checkpoint (not HDF5, truncated, corrupt, a perft file, another
 * layout) is refused with a message. */
MatchFile *match_file_open_resume(const char *path, const MatchFileInfo *expected,
                                  MatchFileDone *done, char *err, size_t errlen);

void match_file_done_free(MatchFileDone *done);

/* Whether pair is among the finished pairs of done. */
bool match_file_done_has(const MatchFileDone *done, uint64_t pair);

/* Appends the two games of pair (its number from 0, below games / 2; player 1 White in g[0],
 * Black in g[1]) to /match/games, counts the pair in /match/pentanomial and flushes the file to
 * disk, so that a kill loses at most the pairs still being played. A pair recorded before is an
 * error (a pair must never count twice). Returns 0, or -1 with a message. */
int match_file_record_pair(MatchFile *h, uint64_t pair, const GameRecord g[2], char *err,
                           size_t errlen);

/* How many times the file was resumed before this run (0 for a new file). */
int match_file_resume_count(const MatchFile *h);

/* How the match ended, for the summary. */
typedef struct MatchFileSummary {
    const Sprt *sprt;        /* the match's SPRT, or NULL when none ran */
    const char *end_time;    /* ISO 8601; NULL: now */
    const Tuner *tune;       /* a tune run's state and values (group /tune), or NULL */
    const char *stop_reason; /* why the match stopped early when not for the SPRT (a tuner's
                                values agreed), or NULL */
} MatchFileSummary;

/* Completes the result and closes it: writes on /match the summary of every pair in the file,
 * from player 1's view (wins, draws, losses, trinomial and pentanomial Elo with their 95 %
 * intervals, normalized Elo, LOS, draw ratio, games and pairs played), why the match stopped
 * ("SPRT accepted H0", "SPRT accepted H1", "all games played" or "interrupted"), the SPRT's
 * parameters, bounds and LLR over the file's pair counts when s->sprt is set, and end_time on the
 * root (and on /resumes/K for a resumed run). h is freed whatever happens; on failure the file
 * remains a checkpoint that can be resumed. Returns 0, or -1 with a message. */
int match_file_finish(MatchFile *h, const MatchFileSummary *s, char *err, size_t errlen);

/* Writes the tuner's state as the group /tune now (replacing it) and flushes: after each stage
 * of a tune run, so the file shows the iterations so far. Returns 0, or -1 with a message. */
int match_file_write_tune(MatchFile *h, const Tuner *t, char *err, size_t errlen);

/* Flushes the file to disk (so that it can be read meanwhile). Returns 0, or -1 with a
 * message. */
int match_file_flush(MatchFile *h, char *err, size_t errlen);

/* Flushes and closes without finishing: the file stays a checkpoint to resume. h is freed
 * whatever happens. Returns 0, or -1 with a message. */
int match_file_close(MatchFile *h, char *err, size_t errlen);

#endif

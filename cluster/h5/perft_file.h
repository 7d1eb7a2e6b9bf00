/* SPDX-License-Identifier: MIT */
/* The result file of a distributed perft, in HDF5 (docs/result-files.md gives the
 * layout): written only by rank 0, it is at once the checkpoint (every finished unit is written
 * to it as it comes in) and the result (the total, the divide, statistics and provenance at the
 * end). A killed job resumes from it. */
#ifndef CARRERA_PERFT_FILE_H
#define CARRERA_PERFT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perft_stats.h"
#include "perft_tt.h"
#include "provenance.h"
#include "rules.h"
#include "split.h"

/* Version of the layout, stored in the file; a file of another layout version is refused. */
#define H5_FORMAT_VERSION 2

/* What the job is: the facts a checkpoint must share with the job that resumes it, and the
 * provenance of this run. */
typedef struct PerftFileInfo {
    const char *variant; /* variant name, "capablanca" */
    Rules rules;         /* turn rules and en passant rule */
    const char *fen;     /* the root position, written the same way by every run (compared as
                            text on resume) */
    int depth;
    int split_depth;   /* perft_file_open_resume: the split depth asked for, or 0 (or less) to
                          take the checkpoint's: an automatic choice may differ with other
                          ranks (and at depth 0 the split depth is 0 anyway); perft_file_create
                          takes the split's */
    uint64_t key_seed; /* the seed of the Zobrist keys the units are merged and counted with */
    const Provenance *prov;
    double checkpoint_interval; /* seconds a finished unit may wait before the file is flushed
                                   to disk; 0: flush after every unit */
    bool overwrite;   /* perft_file_create: replace an existing file (otherwise refused) */
    double lock_wait; /* perft_file_open_resume: seconds to wait for a checkpoint another
                         process holds locked (RESUME_LOCK_WAIT for a job) */
} PerftFileInfo;

typedef struct PerftFile PerftFile;

/* Creates the result file at path for the job info and its split: the provenance, the job's
 * parameters, the root turns and every unit of the split (the unit's nodes as in the split,
 * normally UNIT_NOT_DONE). The file is flushed before this returns, so it is a valid checkpoint
 * from the start. Refuses an existing file unless info->overwrite. Returns NULL with a message
 * in err on any failure (unwritable directory, full disk, ...); no partial file is left. */
PerftFile *perft_file_create(const char *path, const PerftFileInfo *info, const Split *split,
                             char *err, size_t errlen);

/* Opens the checkpoint at path to continue the job expected: its variant, rules, position,
 * depth, split depth (when expected->split_depth > 0), key seed and Carrera version must be
 * those of the job, otherwise it is refused with a message naming every difference. On success
 * split_out receives the split as the file holds it (root turns and units in malloc'd arrays:
 * free them with free(); units counted before keep their nodes, rank and seconds, the others
 * are UNIT_NOT_DONE), the resume count is incremented and this run's provenance recorded, and
 * the result accepts perft_file_record_unit again. Any file that is not a readable Carrera
 * checkpoint (not HDF5, truncated, corrupt, another layout) is refused with a message. */
PerftFile *perft_file_open_resume(const char *path, const PerftFileInfo *expected, Split *split_out,
                                  char *err, size_t errlen);

/* Writes a counted unit's nodes, rank and seconds into its row (found by id), then flushes the
 * file if the checkpoint interval has passed since the oldest unflushed unit. Recording the same
 * unit again with the same count is harmless; with another count it is an error (a unit must
 * never count twice). Returns 0, or -1 with a message. */
int perft_file_record_unit(PerftFile *h, const WorkUnit *u, char *err, size_t errlen);

/* Flushes recorded units to disk now (perft_file_flush) or only when the checkpoint interval has
 * passed since the oldest unflushed unit (perft_file_flush_if_due: for a coordinator's loop, so
 * that a unit recorded just before a long wait is not kept unflushed for the whole wait). Returns 0
 * or -1 with a message. */
int perft_file_flush(PerftFile *h, char *err, size_t errlen);
int perft_file_flush_if_due(PerftFile *h, char *err, size_t errlen);

/* How many times the file was resumed before this run (0 for a new file, 1 after the first
 * perft_file_open_resume, ...). */
int perft_file_resume_count(const PerftFile *h);

/* The work of each rank with its tables in this run (work[rank], n ranks), written as
 * /perft/work when the job completes. Returns 0, or -1 when out of memory (the work is then not
 * written). */
int perft_file_set_work(PerftFile *h, const PerftTTWork *work, size_t n);

/* Completes the result and closes it: checks that every unit of split is counted and recorded
 * with the same count, writes the total (*total receives it when not NULL), the divide, the
 * statistics stats[0..n_stats-1] for depths 1..n_stats when stats is not NULL, and end_time
 * (ISO 8601; NULL: now). h is freed whatever happens; on failure the file remains a checkpoint
 * that can be resumed. Returns 0, or -1 with a message. */
int perft_file_finish(PerftFile *h, const Split *split, const PerftStats *stats, int n_stats,
                      const char *end_time, uint64_t *total, char *err, size_t errlen);

/* Flushes and closes without finishing: the file stays a checkpoint to resume. h is freed
 * whatever happens. Returns 0, or -1 with a message. */
int perft_file_close(PerftFile *h, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: MIT */
/* The life of a result file, the one sequence every kind of them goes through (perft_file.c,
 * match_file.c, tune_file.c; docs/result-files.md, "Changing a file"): made under a name of its own
 * beside its path, with its provenance written once, and published whole; flushed as it records;
 * reopened for a resume once it is known to be a checkpoint of the same job, the resume recorded in
 * a copy that replaces it; completed in a copy that replaces it. A kind of file gives only what is
 * its own: its header, the facts of its job, what it records and its results. Internal to h5/. */
#ifndef CARRERA_RESULT_FILE_H
#define CARRERA_RESULT_FILE_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "h5check.h"
#include "provenance.h"

/* What a kind of result file is. */
typedef struct ResultKind {
    H5CheckKind check; /* format and layout version (written on the root, checked on a resume),
                          top group, name in messages */
    /* NULL for a checkpoint, which a job resumes (its root counts the resumes, "resumed"); for a
     * file written once, what to do about one already at its path: "remove it to fit again". */
    const char *once;
    struct {
        const char *kept;    /* what a checkpoint records: "unit" */
        const char *facts;   /* what says which job it is: "the job parameters" */
        const char *results; /* what completing it writes: "the results" */
    } words;                 /* in messages */
    /* Open what recording keeps open in the file once it is made or reopened for writing, and
     * close it before the file closes (closing what is not open does nothing); NULL when the kind
     * keeps nothing open. Called with the owner given to result_file_init. */
    int (*open_records)(void *owner);
    void (*close_records)(void *owner);
} ResultKind;

/* A result file and its names. */
typedef struct ResultFile {
    const ResultKind *kind;
    void *owner; /* the kind's state, for open_records and close_records */
    hid_t file;
    char *path;
    char *tmp; /* path.tmp, where its replacements are built */
    int run;   /* 0 for a new file, K after the K-th resume */
} ResultFile;

/* Sets r up for the file at path, nothing open yet. Returns 0, or -1 when out of memory (no
 * message: the caller's allocations fail with it). */
int result_file_init(ResultFile *r, const ResultKind *kind, void *owner, const char *path);

/* Closes what is still open (a file given up after a failure) and frees the names. */
void result_file_free(ResultFile *r);

/* Writes a kind's header (its groups, tables and attributes) into the file being made, below the
 * provenance; ctx is the caller's. Returns 0, or -1 with a message. */
typedef int (*ResultHeader)(void *ctx, char *err, size_t errlen);

/* Makes the file: refuses one at r->path unless overwrite, creates it as r->path.new-PID-K
 * (h5file_create_new), writes format, format_version, prov (and resumed = 0 for a checkpoint) on
 * the root, then header(ctx), opens the records and flushes, and publishes it at r->path: by a
 * rename over the old file when overwrite, else by a link that refuses a file made there
 * meanwhile. A job killed before that leaves only its .new-PID-K file, which nothing reads (a
 * later job makes its own). Returns 0 with the file open at r->path, or -1 with a message and
 * r->path as it was. */
int result_file_create(ResultFile *r, const Provenance *prov, bool overwrite, ResultHeader header,
                       void *ctx, char *err, size_t errlen);

/* How a kind's checkpoint is resumed. Each function is given the caller's ctx. */
typedef struct ResultResume {
    const Provenance *prov; /* this run's: its version must be the checkpoint's; recorded in
                               /resumes/K */
    const char *done_name;  /* what /resumes/K calls what was done: "units_done_at_start" */
    double lock_wait;       /* seconds to wait for a checkpoint another process holds locked */
    /* Adds to diffs every way the job of the checkpoint open in file differs from this one's.
     * Returns 0, or -1 when the checkpoint's facts are missing. */
    int (*compare)(void *ctx, hid_t file, char *diffs, size_t len);
    /* Reads what the checkpoint holds; *done receives how much of its job is done. Returns 0, or
     * -1 with a message. */
    int (*read)(void *ctx, uint64_t *done, char *err, size_t errlen);
    /* Brings the copy, its records open, to what this run continues before the resume is
     * recorded; NULL when nothing changes. Returns 0 or -1. */
    int (*prepare)(void *ctx);
} ResultResume;

/* Opens the checkpoint at r->path to continue its job: of the kind and layout (h5check_open),
 * written by the Carrera version of how->prov, of the same job (how->compare: a message names every
 * difference), read (how->read); then, in a copy that replaces it, prepared and the resume
 * recorded (the root's resumed count, r->run, and how->prov in /resumes/K). The copy is
 * r->path.tmp, made anew: one a killed resume or finish left there is overwritten. Returns 0 with
 * the file open for recording, or -1 with a message and the checkpoint as it was. */
int result_file_resume(ResultFile *r, const ResultResume *how, void *ctx, char *err, size_t errlen);

/* Completes the file: flushes it, then, in a copy that replaces it, writes results(ctx) (0 or -1)
 * and end_time (NULL: now) on the root and, for a resumed run, on /resumes/K. The file is closed
 * whatever happens; on failure it remains a checkpoint with every record. Returns 0, or -1 with a
 * message. */
int result_file_finish(ResultFile *r, const char *end_time, int (*results)(void *ctx), void *ctx,
                       char *err, size_t errlen);

/* Flushes the file to disk (h5file_flush). Returns 0, or -1 with a message. */
int result_file_flush(ResultFile *r, char *err, size_t errlen);

/* Flushes and closes without completing: a checkpoint stays one to resume. Returns 0, or -1 with
 * a message. */
int result_file_close(ResultFile *r, char *err, size_t errlen);

#endif

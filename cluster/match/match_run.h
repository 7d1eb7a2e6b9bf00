/* SPDX-License-Identifier: MIT */
/* A match (`carrera match`) or a tune run that plays one (`carrera tune`), from the match file
 * to the result and PGN files and the summary on stdout, on every rank of the job. */
#ifndef CARRERA_MATCH_RUN_H
#define CARRERA_MATCH_RUN_H

#include <stdbool.h>

#include "resume.h"

/* What the command line asked for. */
typedef struct MatchRequest {
    const char *config; /* the match file */
    const char *out;    /* replaces the file's output, or NULL */
    const char *pgn;    /* replaces the file's PGN file, or NULL */
    ResumeMode resume;  /* whether to continue the checkpoint at the output */
    bool extend;        /* --extend: resume a checkpoint that planned fewer games */
    bool quiet;         /* no progress on stderr */
    bool tune;          /* a tune run: the tuner sets every stage, the values fitted at the end */
} MatchRequest;

/* Runs the request on every rank (each rank calls it). Returns the exit status (exit_status.h):
 * EXIT_OK, EXIT_NEGATIVE (a tune run whose games give no values), EXIT_USAGE (the match cannot
 * start: a bad file, an output that exists without --resume, a checkpoint of another match),
 * EXIT_FAILED (MPI does not start, a file cannot be written, memory, an engine or a rank that
 * fails). */
int match_run(const MatchRequest *r);

#endif

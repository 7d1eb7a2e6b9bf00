/* SPDX-License-Identifier: MIT */
/* Progress of long jobs on stderr: work done/total, rate, ETA. Silent for jobs shorter than a
 * couple of seconds and with --quiet; stdout stays reserved for results. */
#ifndef CARRERA_PROGRESS_H
#define CARRERA_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "perft.h"

typedef struct Progress {
    const char *what; /* "perft" */
    bool quiet;
    bool tty; /* rewrite one line in place instead of printing lines */
    double start, last;
    bool printed;
} Progress;

void progress_start(Progress *p, const char *what, bool quiet);

/* Whether a report is due after done of total units: the seconds since the start when it is
 * (with the ETA in eta), 0 when not (too early, too soon after the last one, or quiet). */
double progress_due(Progress *p, uint64_t done, uint64_t total, char eta[32]);

/* Prints a report: "WHAT: " and the formatted text, as one line. */
void progress_print(Progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The PerftProgressFn for perft jobs (ctx is a Progress). */
void progress_perft(const PerftProgress *pp, void *ctx);

/* Ends the report line, if one was printed. */
void progress_finish(Progress *p);

#endif

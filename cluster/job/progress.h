/* SPDX-License-Identifier: MIT */
/* Progress of long jobs on stderr: work done/total, rate, ETA. Silent for jobs shorter than a
 * couple of seconds and with --quiet; stdout stays reserved for results. */
#ifndef CARRERA_PROGRESS_H
#define CARRERA_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "perft.h"

/* The rate and the ETA are taken over the last PROGRESS_WINDOW seconds, sampled every
 * PROGRESS_STEP: a job that was stopped (SIGSTOP) or changes pace, as a perft does once its
 * table fills, shows it within minutes instead of dragging its whole past along. */
#define PROGRESS_STEP    10.0
#define PROGRESS_SAMPLES 30
#define PROGRESS_WINDOW  (PROGRESS_STEP * PROGRESS_SAMPLES)

typedef struct ProgressSample {
    double t, work;
    uint64_t items;
} ProgressSample;

typedef struct Progress {
    const char *what; /* "perft" */
    bool quiet;
    bool tty; /* rewrite one line in place instead of printing lines */
    double start, last;
    bool printed;
    ProgressSample samples[PROGRESS_SAMPLES]; /* a ring, the oldest at [head] once full */
    int n_samples, head;
    double items_rate; /* items a second over the window, set by progress_due_work */
} Progress;

void progress_start(Progress *p, const char *what, bool quiet);

/* A job resumed with done units of work already behind it (a match continued from its
 * checkpoint): the rate and the ETA count only the work this run does. Call after
 * progress_start, before the first report. */
void progress_resume(Progress *p, double done);

/* Whether a report is due after done of total units: the seconds since the start when it is
 * (with the ETA in eta), 0 when not (too early, too soon after the last one, or quiet). */
double progress_due(Progress *p, uint64_t done, uint64_t total, char eta[32]);

/* The same for work measured in any unit (done of total), with a count of items (perft's
 * nodes) whose rate over the window it leaves in p->items_rate. The ETA is the work left at the
 * window's rate, "unknown" while the window has seen no work. last: the final report. */
double progress_due_work(Progress *p, double done, double total, uint64_t items, bool last,
                         char eta[32]);

/* Prints a report: "WHAT: " and the formatted text, as one line. */
void progress_print(Progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The PerftProgressFn for perft jobs (ctx is a Progress). */
void progress_perft(const PerftProgress *pp, void *ctx);

/* Ends the report line, if one was printed. */
void progress_finish(Progress *p);

#endif

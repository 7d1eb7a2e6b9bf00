/* SPDX-License-Identifier: MIT */
/* Progress reports: the first after two seconds, then every half second on a terminal (one line
 * rewritten in place) or every ten seconds into a log file (one line each). */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "clock.h"

void progress_start(Progress *p, const char *what, bool quiet)
{
    *p = (Progress){ .what = what, .quiet = quiet, .tty = isatty(STDERR_FILENO) };
    p->start = p->last = monotonic_seconds();
    p->samples[0] = (ProgressSample){ p->start, 0, 0 };
    p->n_samples = 1;
}

void progress_resume(Progress *p, double done) { p->samples[p->head].work = done; }

/* Adds a sample when the newest is PROGRESS_STEP old; returns the oldest one kept. */
static ProgressSample sample(Progress *p, double t, double work, uint64_t items)
{
    const int newest = (p->head + p->n_samples - 1) % PROGRESS_SAMPLES;
    if (t - p->samples[newest].t >= PROGRESS_STEP) {
        if (p->n_samples < PROGRESS_SAMPLES) {
            p->samples[(p->head + p->n_samples++) % PROGRESS_SAMPLES] =
                (ProgressSample){ t, work, items };
        } else {
            p->samples[p->head] = (ProgressSample){ t, work, items };
            p->head = (p->head + 1) % PROGRESS_SAMPLES;
        }
    }
    return p->samples[p->head];
}

static void duration(double s, char *out, size_t outlen)
{
    long t = (long)(s + 0.5);
    snprintf(out, outlen, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

double progress_due_work(Progress *p, double done, double total, uint64_t items, bool last,
                         char eta[32])
{
    if (p->quiet)
        return 0;
    const double t = monotonic_seconds(), elapsed = t - p->start;
    const ProgressSample old = sample(p, t, done, items);
    if (elapsed < 2.0 || (!last && t - p->last < (p->tty ? 0.5 : 10.0)))
        return 0;
    p->last = t;
    const double span = t - old.t, rate = span > 0 ? (done - old.work) / span : 0;
    p->items_rate = span > 0 ? (double)(items - old.items) / span : 0;
    if (last || done >= total)
        snprintf(eta, 32, "0:00:00");
    else if (rate > 0)
        duration((total - done) / rate, eta, 32);
    else
        snprintf(eta, 32, "unknown");
    return elapsed;
}

double progress_due(Progress *p, uint64_t done, uint64_t total, char eta[32])
{
    return progress_due_work(p, (double)done, (double)total, 0, done == total, eta);
}

void progress_print(Progress *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s%s: ", p->tty ? "\r" : "", p->what);
    vfprintf(stderr, fmt, ap);
    fputs(p->tty ? "\033[K" : "\n", stderr);
    fflush(stderr);
    va_end(ap);
    p->printed = true;
}

void progress_perft(const PerftProgress *pp, void *ctx)
{
    Progress *p = ctx;
    char eta[32];
    /* without estimates (work_total 0), the units stand in for them */
    const bool weighed = pp->work_total > 0;
    const double done = weighed ? pp->work_done : (double)pp->units_done,
                 total = weighed ? pp->work_total : (double)pp->units_total;
    if (progress_due_work(p, done, total, pp->nodes, pp->units_done == pp->units_total, eta) <= 0)
        return;
    progress_print(p,
                   "%llu/%llu units, %.1f%% of the estimated work, %llu nodes, %.1f Mnodes/s, "
                   "ETA %s",
                   (unsigned long long)pp->units_done, (unsigned long long)pp->units_total,
                   100.0 * done / (total > 0 ? total : 1), (unsigned long long)pp->nodes,
                   p->items_rate / 1e6, eta);
}

void progress_finish(Progress *p)
{
    if (p->printed && p->tty)
        fputc('\n', stderr);
    p->printed = false;
}

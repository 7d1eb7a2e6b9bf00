/* SPDX-License-Identifier: MIT */
/* Progress reports: the first after two seconds, then every half second on a terminal (one line
 * rewritten in place) or every ten seconds into a log file (one line each). */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(Progress *p, const char *what, bool quiet)
{
    *p = (Progress){ .what = what, .quiet = quiet, .tty = isatty(STDERR_FILENO) };
    p->start = p->last = now();
}

static void duration(double s, char *out, size_t outlen)
{
    long t = (long)(s + 0.5);
    snprintf(out, outlen, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

double progress_due(Progress *p, uint64_t done, uint64_t total, char eta[32])
{
    if (p->quiet)
        return 0;
    double t = now(), elapsed = t - p->start;
    bool last = done == total;
    if (elapsed < 2.0 || (!last && t - p->last < (p->tty ? 0.5 : 10.0)))
        return 0;
    p->last = t;
    snprintf(eta, 32, "0:00:00");
    if (done > 0)
        duration(elapsed * (double)(total - done) / (double)done, eta, 32);
    return elapsed;
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
    double elapsed = progress_due(p, pp->units_done, pp->units_total, eta);
    if (elapsed <= 0)
        return;
    progress_print(p, "%llu/%llu units (%.1f%%), %llu nodes, %.1f Mnodes/s, ETA %s",
                   (unsigned long long)pp->units_done, (unsigned long long)pp->units_total,
                   100.0 * (double)pp->units_done / (double)(pp->units_total ? pp->units_total : 1),
                   (unsigned long long)pp->nodes, (double)pp->nodes / elapsed / 1e6, eta);
}

void progress_finish(Progress *p)
{
    if (p->printed && p->tty)
        fputc('\n', stderr);
    p->printed = false;
}

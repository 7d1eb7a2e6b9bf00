/* Progress reports: the first after two seconds, then every half second on a terminal (one line
 * rewritten in place) or every ten seconds into a log file (one line each). */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"

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

void progress_perft(const PerftProgress *pp, void *ctx)
{
    Progress *p = ctx;
    if (p->quiet)
        return;
    double t = now(), elapsed = t - p->start;
    bool last = pp->units_done == pp->units_total;
    if (elapsed < 2.0 || (!last && t - p->last < (p->tty ? 0.5 : 10.0)))
        return;
    p->last = t;
    char eta[32] = "0:00:00";
    if (pp->units_done > 0)
        duration(elapsed * (double)(pp->units_total - pp->units_done) / (double)pp->units_done, eta,
                 sizeof eta);
    fprintf(stderr, "%s%s: %llu/%llu units (%.1f%%), %llu nodes, %.1f Mnodes/s, ETA %s%s",
            p->tty ? "\r" : "", p->what, (unsigned long long)pp->units_done,
            (unsigned long long)pp->units_total,
            100.0 * (double)pp->units_done / (double)(pp->units_total ? pp->units_total : 1),
            (unsigned long long)pp->nodes, (double)pp->nodes / elapsed / 1e6, eta,
            p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->printed = true;
}

void progress_finish(Progress *p)
{
    if (p->printed && p->tty)
        fputc('\n', stderr);
    p->printed = false;
}

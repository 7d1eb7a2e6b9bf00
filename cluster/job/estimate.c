/* SPDX-License-Identifier: MIT */
/* Estimates of a request's size (estimate.h). */
#define _POSIX_C_SOURCE 200809L

#include "estimate.h"

#include <math.h>
#include <stdint.h>
#include <unistd.h>

#include "clock.h"
#include "errmsg.h"
#include "perft.h"
#include "turn.h"

/* Carrera's engine per thread, and how much slower its double-move search is (scripts/bench-match
 * measures both; docs/benchmarks.md). */
#define ENGINE_NODES_PER_SECOND 1.0e6
#define DOUBLE_MOVE_SLOWDOWN    20.0
#define EXACT_NODES_MAX         2.0e6
/* With a table, the deepest level below the request of at most this many nodes is counted with
 * the table scaled down by the tree's growth (a replica of seconds, not minutes), and the level
 * below it the same way. */
#define REPLICA_NODES_MAX 6.0e10
#define REPLICA_TABLE_MIN ((size_t)64 << 10)
/* A replica shorter than this is counted again (each time with a new table) until the runs
 * together take this long, and their mean is its time: one run of a few hundredths of a second
 * is timed no better than to a factor of two on a shared machine. */
#define REPLICA_SECONDS_MIN 0.25
#define REPLICA_RUNS_MAX    64

void estimate_perft(const Position *p, const Rules *r, int depth, int count_to, PerftEstimate *out)
{
    *out = (PerftEstimate){ .exact = 1, .per_ply = 1, .nodes = 1, .rate = 1e8 };
    double before = 1, spent = 0, counted = 0;
    for (int d = 1; d <= count_to; d++) {
        double t0 = monotonic_seconds();
        double n = (double)perft_turns(p, r, d);
        spent += monotonic_seconds() - t0;
        counted += n;
        out->exact_depth = d;
        out->exact = n;
        out->per_ply = before > 0 ? n / before : 0;
        before = n;
        /* the next level costs about per_ply times this one */
        if (n >= EXACT_NODES_MAX || n == 0 || n * out->per_ply > 15 * EXACT_NODES_MAX)
            break;
    }
    if (spent > 0.01)
        out->rate = counted / spent;
    out->nodes = out->exact;
    for (int d = out->exact_depth; d < depth; d++)
        out->nodes *= out->per_ply;
}

/* Seconds one turn takes for a player, or 0 when its limit says nothing about time. */
static double turn_seconds(const PlayerConfig *p, const Rules *r, int plies)
{
    const PlayerLimits *l = &p->limits;
    if (l->movetime_ms)
        return l->movetime_ms / 1000.0;
    if (l->base_ms)
        return (l->base_ms / 1000.0) / (plies / 2.0) + l->inc_ms / 1000.0;
    if (l->nodes) {
        double rate = ENGINE_NODES_PER_SECOND;
        if (r->turns != TURNS_SINGLE)
            rate /= DOUBLE_MOVE_SLOWDOWN;
        return (double)l->nodes / rate;
    }
    return 0;
}

double estimate_match_seconds(const MatchConfig *c, int threads)
{
    int plies = c->adjudication.max_plies > 0 && c->adjudication.max_plies < 150
                    ? c->adjudication.max_plies
                    : 150;
    /* a sweep's stages each at their own nodes; otherwise one kind of stage */
    const int kinds = c->tune.n_sweep ? c->tune.n_sweep : 1;
    double total = 0;
    for (int k = 0; k < kinds; k++) {
        double per_turn[2];
        for (int i = 0; i < 2; i++) {
            PlayerConfig p = c->players[i];
            if (c->tune.n_sweep)
                p.limits.nodes = c->tune.sweep[k];
            per_turn[i] = turn_seconds(&p, &c->rules, plies);
            if (per_turn[i] <= 0)
                return 0;
        }
        total += (double)c->games / kinds * plies / 2.0 * (per_turn[0] + per_turn[1]);
    }
    return total / (threads > 0 ? threads : 1);
}

void estimate_duration_text(double s, char *out, size_t len)
{
    if (s < 120)
        snprintf(out, len, "%.0f s", s);
    else if (s < 7200)
        snprintf(out, len, "%.0f minutes", s / 60);
    else if (s < 3 * 86400.0)
        snprintf(out, len, "%.1f hours", s / 3600);
    else if (s < 3 * 365 * 86400.0)
        snprintf(out, len, "%.0f days", s / 86400);
    else
        snprintf(out, len, "%.2g years", s / (365 * 86400.0));
}

size_t estimate_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

int estimate_check_memory(size_t bytes, const char *what, char *err, size_t errlen)
{
    size_t have = estimate_memory_bytes();
    if (have == 0 || bytes <= have)
        return 0;
    return errmsg_fail(err, errlen, "%s need %zu MB, more than this machine's memory (%zu MB)",
                       what, bytes >> 20, have >> 20);
}

/* The line for an estimate already made. */
static void perft_text(const PerftEstimate *e, int depth, int threads, char *out, size_t len)
{
    if (e->exact_depth == depth) {
        snprintf(out, len, "perft %d: %.0f nodes exactly (counted just now)", depth, e->exact);
        return;
    }
    char when[64];
    estimate_duration_text(e->nodes / (e->rate * (threads > 0 ? threads : 1)), when, sizeof when);
    snprintf(out, len,
             "perft %d: about %.2g nodes (perft %d = %.0f exactly, x %.1f a ply), roughly %s on "
             "%d thread%s at %.0f Mn/s each (measured on the small levels; a hash table and bulk "
             "counting make deep levels faster)",
             depth, e->nodes, e->exact_depth, e->exact, e->per_ply, when, threads,
             threads == 1 ? "" : "s", e->rate / 1e6);
}

/* Wall seconds of a threaded perft's counting with a table of bytes spread over span bytes of
 * memory (the mean of as many runs as REPLICA_SECONDS_MIN asks), or -1 when memory ran out;
 * *used receives the table's real size. */
static double timed_perft(const Position *p, const Rules *r, int depth, int threads, size_t bytes,
                          size_t span, size_t *used)
{
    PerftJob job = { .root = p,
                     .rules = *r,
                     .depth = depth,
                     .threads = threads,
                     .hash_bytes = bytes,
                     .hash_span = span };
    double total = 0;
    int runs = 0;
    do {
        PerftResult res;
        if (perft_job_run(&job, &res) != 0)
            return -1;
        total += res.seconds;
        runs++;
        *used = res.hash_bytes;
        perft_result_free(&res);
    } while (total < REPLICA_SECONDS_MIN && runs < REPLICA_RUNS_MAX);
    return total / runs;
}

static size_t scaled_table(size_t bytes, double factor)
{
    double b = (double)bytes / factor;
    return b > (double)REPLICA_TABLE_MIN ? (size_t)b : REPLICA_TABLE_MIN;
}

void estimate_perft_text(const Position *p, const Rules *r, int depth, int threads,
                         size_t hash_bytes, char *out, size_t len)
{
    PerftEstimate e;
    estimate_perft(p, r, depth, depth, &e);
    if (hash_bytes == 0 || e.exact_depth == depth || e.per_ply <= 1) {
        perft_text(&e, depth, threads, out, len);
        return;
    }
    /* The replicas: levels d - 1 and d, each with the table scaled down by the growth of the
     * plies still above it, so that the table is as full as it will be in the real run, and
     * spread over the real table's memory, so that each probe waits for memory as long (a small
     * table packed together stays in the caches). */
    int d = e.exact_depth;
    double nodes = e.exact;
    while (d + 1 < depth && nodes * e.per_ply <= REPLICA_NODES_MAX) {
        d++;
        nodes *= e.per_ply;
    }
    const size_t small = scaled_table(hash_bytes, pow(e.per_ply, depth - d + 1)),
                 large = scaled_table(hash_bytes, pow(e.per_ply, depth - d));
    /* At most half the machine's memory, for a check-config on a login node smaller than the
     * job's: beyond the caches and the address translation's reach, more changes little. */
    const size_t memory = estimate_memory_bytes(),
                 span = memory && hash_bytes > memory / 2 ? memory / 2 : hash_bytes;
    size_t small_used = 0, large_used = 0;
    const double t_small =
        d >= 3 ? timed_perft(p, r, d - 1, threads, small, span, &small_used) : -1;
    const double t_large =
        t_small > 0 ? timed_perft(p, r, d, threads, large, span, &large_used) : -1;
    if (t_small <= 0 || t_large <= t_small) {
        perft_text(&e, depth, threads, out, len);
        return;
    }
    const double growth = t_large / t_small;
    char when[64];
    estimate_duration_text(t_large * pow(growth, depth - d), when, sizeof when);
    snprintf(
        out, len,
        "perft %d with a %zu MB table: roughly %s on %d thread%s (about %.2g nodes; timed with "
        "the table scaled down as the tree and spread over %zu MB: perft %d with %.3g MB in "
        "%.2f s, perft %d with %.3g MB in %.2f s, x %.1f a ply)",
        depth, hash_bytes >> 20, when, threads, threads == 1 ? "" : "s", e.nodes, span >> 20, d - 1,
        (double)small_used / (1 << 20), t_small, d, (double)large_used / (1 << 20), t_large,
        growth);
}

void estimate_note_perft(const Position *p, const Rules *r, int depth, int threads, int ranks,
                         bool with_table, bool with_output)
{
    /* never the requested depth itself: the run is about to count it */
    PerftEstimate e;
    estimate_perft(p, r, depth, depth - 1, &e);
    int workers = (threads > 0 ? threads : 1) * (ranks > 0 ? ranks : 1);
    double seconds = e.nodes / (e.rate * workers);
    if (seconds < ESTIMATE_NOTE_SECONDS)
        return;
    char when[64];
    estimate_duration_text(seconds, when, sizeof when);
    fprintf(stderr,
            "carrera: note: perft %d is about %.2g nodes (perft %d = %.0f, x %.1f a ply): roughly "
            "%s on %d thread%s x %d rank%s%s. %s\n",
            depth, e.nodes, e.exact_depth, e.exact, e.per_ply, when, threads,
            threads == 1 ? "" : "s", ranks, ranks == 1 ? "" : "s",
            with_table ? " without a table (the table makes it many times faster: --estimate "
                         "with the same --hash times it)"
                       : "",
            with_output ? "It checkpoints to its result file: --resume continues it."
                        : "Nothing is kept if it is stopped: --out FILE checkpoints it.");
}

void estimate_match_text(const MatchConfig *c, int threads, char *out, size_t len)
{
    double seconds = estimate_match_seconds(c, threads);
    if (seconds <= 0) {
        snprintf(out, len, "no time estimate (a player limited by depth)");
        return;
    }
    char when[64];
    estimate_duration_text(seconds, when, sizeof when);
    snprintf(out, len, "roughly %s for %d games on %d thread%s", when, c->games, threads,
             threads == 1 ? "" : "s");
}

void estimate_note_match(const MatchConfig *c, int threads, int ranks)
{
    int workers = (threads > 0 ? threads : 1) * (ranks > 0 ? ranks : 1);
    double seconds = estimate_match_seconds(c, workers);
    if (seconds < ESTIMATE_NOTE_SECONDS)
        return;
    char when[64];
    estimate_duration_text(seconds, when, sizeof when);
    fprintf(stderr,
            "carrera: note: %d games: roughly %s on %d game%s at once (%d thread%s x %d rank%s). "
            "Every pair is kept in the result file: --resume continues it.\n",
            c->games, when, workers, workers == 1 ? "" : "s", threads, threads == 1 ? "" : "s",
            ranks, ranks == 1 ? "" : "s");
}

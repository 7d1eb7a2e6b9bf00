/* SPDX-License-Identifier: MIT */
/* A perft job's tables (job_tables.h). The threshold: a count of depth d is worth sharing when
 * the subtree it stands for takes far longer to count than the accesses a miss costs (a probe,
 * then a store: three reads or writes of another rank's part). At SUBTREE_PROBES times a
 * probe's time those accesses add under a fifth to a miss, which a fifth of the probes hitting
 * repays: in Capablanca perft 7 (docs/cluster.md) a fifth hit at depth 2 on 2 ranks, a third on
 * 8, and depth 3 instead of 2 left a quarter of the duplicated subtrees counted twice. */
#define _POSIX_C_SOURCE 200809L

#include "job_tables.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "comm.h"
#include "errmsg.h"
#include "run_error.h"
#include "turn.h"

/* A shared count's subtree takes at least this many probes' time. */
#define SUBTREE_PROBES 16.0
/* Probes timed for the latency, and the time the subtrees' measurement may take. */
#define LATENCY_PROBES   200
#define MEASURE_SECONDS  1.0
#define SHARED_MIN_DEPTH 2

static double mb(size_t bytes) { return (double)bytes / (1 << 20); }

/* What the shared table takes of the hash, on every rank (collective): the setting, else a
 * quarter; but all of it save a sixty-fourth when every part is reached through shared memory and
 * the depth is 2 or left to the job. The shared table is then as near as the own one and holds
 * the deep counts the own one would, which only repeats them at the price of a second read of
 * memory a probe (on 2 ranks under load, docs/cluster.md, a sixty-fourth was faster than a quarter
 * in each of 3 alternating runs at depth 2; at depth 3 as fast as three quarters). */
static size_t shared_part(const PerftRun *job)
{
    if (job->shared_bytes != PERFT_SHARED_AUTO)
        return job->shared_bytes;
    if (job->shared_depth <= SHARED_MIN_DEPTH && shared_table_node_wide())
        return job->hash_bytes - job->hash_bytes / 64;
    return job->hash_bytes / 4;
}

static bool wanted(const PerftRun *job, int ranks)
{
    return ranks > 1 && job->hash_bytes > 0 && !job->no_shared;
}

size_t job_tables_own_bytes(const PerftRun *job, int ranks)
{
    return wanted(job, ranks) ? job->hash_bytes - shared_part(job) : job->hash_bytes;
}

/* The least depth whose subtree takes SUBTREE_PROBES probes' time: the subtrees below the root
 * timed one depth deeper at a time (the root's perft at d + 1 over its turns is a subtree of
 * depth d on average), until one is long enough, the job's depth is reached or the measurement
 * has taken its time. *subtree receives the time of a subtree of the depth chosen. */
static int measure_depth(const PerftRun *job, const Position *root, double latency, double *subtree)
{
    const double n_root = (double)perft_turns(root, &job->rules, 1);
    const double start = monotonic_seconds();
    int d = SHARED_MIN_DEPTH;
    *subtree = 0;
    for (; d + 1 <= job->depth && n_root > 0; d++) {
        const double t0 = monotonic_seconds();
        perft_turns(root, &job->rules, d + 1);
        *subtree = (monotonic_seconds() - t0) / n_root;
        if (*subtree >= SUBTREE_PROBES * latency || monotonic_seconds() - start > MEASURE_SECONDS)
            break;
    }
    return d;
}

void job_tables_init(JobTables *t, const PerftRun *job, UnitCounter *counter, const Position *root)
{
    *t = (JobTables){ 0 };
    const int ranks = comm_size();
    if (job->hash_bytes == 0) {
        snprintf(t->text, sizeof t->text, "no table");
        return;
    }
    if (!wanted(job, ranks)) {
        snprintf(t->text, sizeof t->text, "own table %.2f MB per rank; no shared table (%s)",
                 mb(job->hash_bytes), ranks > 1 ? "shared table off" : "one rank");
        return;
    }
    char err[ERRMSG_LEN];
    const size_t own = perft_tt_bytes(counter->tt);
    t->shared = shared_table_new(shared_part(job), err, sizeof err);
    if (!t->shared) {
        if (comm_rank() == 0)
            run_warning("no shared table: %s", err);
        snprintf(t->text, sizeof t->text, "own table %.2f MB per rank; no shared table (%.200s)",
                 mb(own), err);
        return;
    }
    const double latency = shared_table_latency(t->shared, LATENCY_PROBES);
    double subtree = 0;
    /* Measured also when every part is in shared memory: a probe there costs what a probe of
     * the own table does only where shared memory is as cheap to reach as a process's own. On a
     * virtual machine that shadows the page tables it is not (its 4 KB pages, against the own
     * table's 2 MB): there a probe of another rank took 0.3 to 0.7 us, and Capablanca perft 7
     * on 2 ranks took 14.4 s shared from depth 2, 12.9 s from the depth measured, 3 (medians of
     * three alternated runs, docs/cluster.md). */
    if (job->shared_depth > 0)
        t->min_depth = job->shared_depth;
    else
        t->min_depth =
            (int)comm_broadcast(comm_rank() == 0 ? measure_depth(job, root, latency, &subtree) : 0);
    const PerftTTShared level = { t->shared, t->min_depth, shared_table_probe, shared_table_store,
                                  shared_table_prefetch };
    perft_tt_set_shared(counter->tt, &level);
    char how[160];
    if (job->shared_depth > 0)
        snprintf(how, sizeof how, "set; a probe of another rank %.2f us", latency * 1e6);
    else
        snprintf(how, sizeof how,
                 "measured: a probe of another rank %.2f us, a subtree of that depth %.0f us",
                 latency * 1e6, subtree * 1e6);
    snprintf(t->text, sizeof t->text,
             "own table %.2f MB per rank; shared table %.2f MB per rank over %d ranks (%d "
             "of them reached by rank 0 through shared memory), counts of depth %d and more "
             "(%s)",
             mb(own), mb(shared_table_bytes(t->shared)), ranks,
             shared_table_direct_ranks(t->shared), t->min_depth, how);
}

void job_tables_free(JobTables *t, UnitCounter *counter)
{
    if (!t->shared)
        return;
    if (counter->tt)
        perft_tt_set_shared(counter->tt, NULL);
    shared_table_free(t->shared);
    t->shared = NULL;
}

/* PerftTTWork as words, in its order, for the gather. */
enum { WORK_WORDS = 7 };

void job_tables_gather(const UnitCounter *counter, PerftTTWork *all)
{
    const PerftTTWork *w = &counter->work;
    const uint64_t mine[WORK_WORDS] = { w->probes,      w->hits,          w->shared_probes,
                                        w->shared_hits, w->shared_stores, w->shared_remote,
                                        w->shared_bytes };
    const int ranks = comm_size();
    uint64_t *words = comm_rank() == 0 ? calloc((size_t)ranks * WORK_WORDS, sizeof *words) : NULL;
    if (comm_rank() == 0 && !words)
        comm_abort(run_error(EXIT_FAILED, "out of memory gathering the work"));
    comm_gather_u64(mine, WORK_WORDS, words);
    for (int r = 0; words && r < ranks; r++) {
        const uint64_t *x = &words[(size_t)r * WORK_WORDS];
        all[r] = (PerftTTWork){ x[0], x[1], x[2], x[3], x[4], x[5], x[6] };
    }
    free(words);
}

void job_tables_print(const PerftTTWork *all, int ranks)
{
    PerftTTWork sum = { 0 };
    for (int r = 0; r < ranks; r++)
        perft_tt_work_add(&sum, &all[r]);
    fprintf(stderr,
            "work: %" PRIu64 " positions probed, %" PRIu64
            " subtrees generated (own table: %" PRIu64 " hits); shared table: %" PRIu64
            " probes, %" PRIu64 " hits, %" PRIu64 " stores; %" PRIu64
            " accesses to another rank, %" PRIu64 " bytes moved\n",
            sum.probes, sum.probes - sum.hits - sum.shared_hits, sum.hits, sum.shared_probes,
            sum.shared_hits, sum.shared_stores, sum.shared_remote, sum.shared_bytes);
}

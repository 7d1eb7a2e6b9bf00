/* SPDX-License-Identifier: MIT */
/* Perft as a job: the tree is cut into many subtrees (work units, split.h's) that OpenMP threads
 * take one at a time, so the load balances whatever the shape of the tree; an optional
 * transposition table shared by the threads; per-root-move counts for divide; progress reports
 * through a callback (the core prints nothing). Every rule set, the double-move ones included. */
#ifndef CARRERA_PERFT_H
#define CARRERA_PERFT_H

#include "turn.h"

typedef struct PerftProgress {
    uint64_t units_done, units_total; /* subtrees finished / in all */
    uint64_t nodes;                   /* leaf nodes counted so far */
    double work_done, work_total;     /* the same by split_unit_work, for the ETA */
} PerftProgress;

/* Called after every finished unit, from one thread at a time. */
typedef void (*PerftProgressFn)(const PerftProgress *progress, void *ctx);

typedef struct PerftJob {
    const Position *root;
    Rules rules;
    int depth;
    int threads;       /* 0: OpenMP's default (OMP_NUM_THREADS, else every core) */
    size_t hash_bytes; /* 0: no transposition table */
    PerftProgressFn progress;
    void *progress_ctx;
    size_t hash_span; /* above hash_bytes: the table spread over this much memory (--estimate) */
    PerftTT *tt;      /* a table of the caller's to use instead of a new one (hash_bytes, hash_span
                         then unused): a rank keeps one over all its units */
} PerftJob;

typedef struct PerftRootCount {
    Turn turn; /* a legal move (one-movement turn) or complete turn of the root */
    uint64_t nodes;
} PerftRootCount;

typedef struct PerftResult {
    uint64_t nodes;       /* the perft total */
    PerftRootCount *root; /* the divide, in generation order (none at depth 0) */
    size_t n_root;
    size_t units;      /* how many subtrees the threads shared, transpositions merged */
    size_t hash_bytes; /* memory the table really used (0 without one) */
    double seconds;    /* wall time of the counting, the set-up of units and table excluded */
    PerftTTWork work;  /* what the threads did with the table (zero without one) */
} PerftResult;

/* Runs the job. Returns 0, or -1 when memory for the work units or the table runs out. */
int perft_job_run(const PerftJob *job, PerftResult *out);
void perft_result_free(PerftResult *r);

#endif

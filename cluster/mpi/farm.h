/* SPDX-License-Identifier: MIT */
/* The one coordinator/worker mechanism of Carrera's distributed jobs (the perft job's units, the
 * match's game pairs): rank 0 hands tasks out, every rank works on them on threads of its own,
 * results come back to rank 0 in the order they finish. A task and its result are bytes that the
 * job encodes; the farm knows nothing of perft or games.
 *
 * Every rank, rank 0 included, runs `slots` worker threads and is sent up to `ahead` further
 * tasks per thread, so a thread that finishes finds its next task already there. Only each
 * rank's main thread calls MPI (it polls for messages and sends results); rank 0's main thread
 * also calls the job's next, result and idle callbacks, so those need no locking. Tasks are
 * handed out in rounds, one per rank with room at a time, so the first tasks (a perft's largest
 * units) go one to each rank. Without MPI (one process) the same code runs rank 0's threads
 * alone. */
#ifndef CARRERA_FARM_H
#define CARRERA_FARM_H

#include <stddef.h>
#include <stdint.h>

typedef enum FarmNext {
    FARM_TASK, /* a task for the rank */
    FARM_WAIT, /* none now: ask again once a result has come in (a stage's last results) */
    FARM_DONE  /* none, ever: the job ends when the tasks out are back */
} FarmNext;

typedef struct FarmJob {
    void *ctx;
    int slots; /* this rank's worker threads, at least 1 (ranks may differ) */
    int ahead; /* tasks held per thread beyond the one it works on, at least 0 */
    /* Rank 0: the next task for rank, as malloc'd bytes in *task (the farm frees them). */
    FarmNext (*next)(void *ctx, int rank, void **task, size_t *len);
    /* Rank 0: the result of a task rank did. Returns 0, or -1 with a message in err: the farm
     * stops at once (farm_run fails and the job must be ended with comm_abort). */
    int (*result)(void *ctx, int rank, const void *data, size_t len, char *err, size_t errlen);
    /* Rank 0, when nothing arrived for a poll interval (a checkpoint flush); may be NULL.
     * Returns 0, or -1 with a message, as result does. */
    int (*idle)(void *ctx, char *err, size_t errlen);
    /* Every rank, on worker thread slot (0 .. slots - 1): does the task and returns its result as
     * malloc'd bytes with their length in *result_len (NULL: out of memory, the job ends). */
    void *(*work)(void *ctx, int slot, const void *task, size_t len, size_t *result_len);
} FarmJob;

/* Rank 0's view of a finished farm. */
typedef struct FarmStats {
    uint64_t tasks;         /* results received */
    uint64_t tasks_local;   /* of those, done by rank 0's own threads */
    double seconds;         /* wall time of the whole farm */
    double local_busy;      /* time rank 0's threads spent working, summed over the threads */
    double coordinator_cpu; /* CPU time of rank 0's main thread: handing out tasks, taking
                               results (and the result callback's work: a perft's file) */
} FarmStats;

/* Runs the farm on this rank (every rank of the job calls it with its own job; only rank 0's
 * callbacks next, result and idle are used). Returns 0 when every task is done and its result
 * taken, with stats filled on rank 0 (stats may be NULL); -1 with a message in err on rank 0
 * when result or idle failed or a thread could not start: the other ranks and rank 0's threads
 * may still be running, and the caller ends the job with comm_abort. */
int farm_run(const FarmJob *job, FarmStats *stats, char *err, size_t errlen);

#endif

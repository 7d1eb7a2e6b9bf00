/* Rank 0's loop. Rank 0 also counts, on a thread of its own: its main thread only polls for
 * results (a probe, then a wait of at most 5 ms that its own thread's results cut short), hands
 * out the next unit and writes the file, which costs next to nothing, so the counting thread
 * gets the rank's whole share of the machine, and a worker, which holds its next unit already,
 * never waits for rank 0. Interleaving polls with the count on one thread instead would make
 * every worker wait for rank 0's current piece of work, or cut that work into pieces as small
 * as the latency wanted. Only the main thread calls MPI and HDF5 (MPI_THREAD_FUNNELED; serial
 * HDF5). */
#define _POSIX_C_SOURCE 200809L

#include "coordinator.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "comm.h"
#include "progress.h"

/* Units a worker holds at once: the one it counts and the next, already there when it finishes. */
#define WORKER_QUEUE 2

/* How long the main thread waits between polls for workers' results: far below a unit's time
 * (a worker counts its queued unit meanwhile), and rare enough that the waking thread does not
 * take a share of the core from the counting threads (at 1 ms, a worker sharing a loaded
 * machine with rank 0 was measured getting a fifth of rank 0's CPU time; at 5 ms as much). */
#define POLL_NS 5000000L

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Rank 0's counting thread and what it shares with the main thread: a queue of units to count
 * and one of results, each at most WORKER_QUEUE long, so that, like a worker, the thread starts
 * its next unit without waiting for the main thread to wake up. */
typedef struct Local {
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* a unit for the counting thread, or quit */
    pthread_cond_t ready; /* a result for the main thread */
    UnitCounter *counter;
    CommUnit todo[WORKER_QUEUE];
    int n_todo;
    CommResult done[WORKER_QUEUE];
    int n_done;
    int held; /* units given and not yet taken back as results */
    bool quit;
    double busy; /* seconds spent counting */
} Local;

static void *local_main(void *arg)
{
    Local *l = arg;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        while (l->n_todo == 0 && !l->quit)
            pthread_cond_wait(&l->wake, &l->lock);
        if (l->quit)
            break;
        CommUnit u = l->todo[0];
        memmove(&l->todo[0], &l->todo[1], (size_t)(l->n_todo - 1) * sizeof u);
        l->n_todo--;
        pthread_mutex_unlock(&l->lock);
        CommResult res = { .id = u.id };
        if (unit_count(l->counter, &u, &res.nodes, &res.seconds, res.message, sizeof res.message) !=
            0)
            res.status = 1;
        pthread_mutex_lock(&l->lock);
        l->busy += res.seconds;
        l->done[l->n_done++] = res;
        pthread_cond_signal(&l->ready);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

static void local_give(Local *l, const CommUnit *u)
{
    pthread_mutex_lock(&l->lock);
    l->todo[l->n_todo++] = *u;
    l->held++;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
}

/* Whether the counting thread has a result; if so the oldest is taken into *res. */
static bool local_take(Local *l, CommResult *res)
{
    pthread_mutex_lock(&l->lock);
    bool done = l->n_done > 0;
    if (done) {
        *res = l->done[0];
        memmove(&l->done[0], &l->done[1], (size_t)(l->n_done - 1) * sizeof *res);
        l->n_done--;
        l->held--;
    }
    pthread_mutex_unlock(&l->lock);
    return done;
}

/* Waits until the counting thread has a result or a poll interval has passed: the main thread's
 * sleep between polls for the workers' results. */
static void local_wait(Local *l)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += POLL_NS;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&l->lock);
    if (l->n_done == 0)
        pthread_cond_timedwait(&l->ready, &l->lock, &until);
    pthread_mutex_unlock(&l->lock);
}

/* The distribution's state: which unit goes out next, who holds which. */
typedef struct State {
    Split *split;
    size_t *index; /* unit id -> row in split->units */
    int *owner;    /* per row: the rank counting it, -1 if none (or done) */
    size_t next;   /* the next row to consider handing out */
    size_t todo, done_units, local_units;
    uint64_t nodes; /* counted by this run, times multiplicities */
} State;

/* The next unit not yet counted nor handed out, or NULL. */
static WorkUnit *next_unit(State *s, int rank)
{
    while (s->next < s->split->n_units) {
        size_t i = s->next++;
        WorkUnit *u = &s->split->units[i];
        if (u->nodes == UNIT_NOT_DONE && s->owner[i] < 0) {
            s->owner[i] = rank;
            return u;
        }
    }
    return NULL;
}

static void to_message(const WorkUnit *w, CommUnit *u)
{
    memset(u, 0, sizeof *u);
    u->id = w->id;
    u->depth = w->depth;
    snprintf(u->fen, sizeof u->fen, "%s", w->fen);
}

/* Takes a result from rank `from` into its unit and the file. */
static int record(State *s, H5Result *h, const CommResult *res, int from, char *err, size_t errlen)
{
    if (res->status != 0) {
        snprintf(err, errlen, "rank %d could not count %s", from, res->message);
        return -1;
    }
    size_t row = res->id < s->split->n_units ? s->index[res->id] : SIZE_MAX;
    if (row == SIZE_MAX || s->owner[row] != from) {
        snprintf(err, errlen, "rank %d sent a count for unit %llu, which it was not given", from,
                 (unsigned long long)res->id);
        return -1;
    }
    WorkUnit *u = &s->split->units[row];
    u->nodes = res->nodes;
    u->rank = from;
    u->seconds = res->seconds;
    s->owner[row] = -1;
    s->done_units++;
    if (from == 0)
        s->local_units++;
    s->nodes += res->nodes * u->multiplicity;
    return h5_record_unit(h, u, err, errlen);
}

int coordinator_run(Split *split, H5Result *h, UnitCounter *counter, bool quiet,
                    CoordinatorStats *stats, char *err, size_t errlen)
{
    const double start = now();
    const int ranks = comm_size();
    State s = { .split = split };
    s.index = malloc((split->n_units ? split->n_units : 1) * sizeof *s.index);
    s.owner = malloc((split->n_units ? split->n_units : 1) * sizeof *s.owner);
    if (!s.index || !s.owner) {
        free(s.index);
        free(s.owner);
        snprintf(err, errlen, "out of memory for %zu units", split->n_units);
        return -1;
    }
    for (size_t i = 0; i < split->n_units; i++)
        s.index[i] = SIZE_MAX;
    int rc = 0;
    for (size_t i = 0; i < split->n_units; i++) {
        uint64_t id = split->units[i].id;
        if (id >= split->n_units || s.index[id] != SIZE_MAX) {
            snprintf(err, errlen, "the split's unit ids are not 0 to %zu, each once",
                     split->n_units - 1);
            rc = -1;
        } else {
            s.index[id] = i;
        }
        s.owner[i] = -1;
        if (split->units[i].nodes == UNIT_NOT_DONE)
            s.todo++;
    }

    /* On the heap: after an error the thread is left running until the caller aborts the job,
     * so what it uses must outlive this function. */
    Local *lp = calloc(1, sizeof *lp);
    if (!lp && rc == 0) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    if (lp)
        lp->counter = counter;
    pthread_t thread;
    bool started = false;
    if (rc == 0) {
        pthread_mutex_init(&lp->lock, NULL);
        pthread_cond_init(&lp->wake, NULL);
        pthread_cond_init(&lp->ready, NULL);
        if (pthread_create(&thread, NULL, local_main, lp) != 0) {
            snprintf(err, errlen, "cannot start rank 0's counting thread");
            rc = -1;
        } else {
            started = true;
        }
    }

    Progress progress;
    progress_start(&progress, "perft", quiet);
    /* Largest first: the first units go one to each rank, rank 0 included, then the second of
     * each queue. */
    for (int round = 0; rc == 0 && round < WORKER_QUEUE; round++) {
        for (int r = 0; r < ranks; r++) {
            WorkUnit *w = next_unit(&s, r);
            if (!w)
                break;
            CommUnit u;
            to_message(w, &u);
            if (r == 0)
                local_give(lp, &u);
            else
                comm_send_unit(r, &u);
        }
    }
    while (rc == 0 && s.done_units < s.todo) {
        CommResult res;
        int from = 0;
        bool got = false;
        if (comm_poll(false, NULL, &res, &from) == COMM_RESULT) {
            got = true;
        } else if (local_take(lp, &res)) {
            got = true;
            from = 0;
        }
        if (!got) {
            if (h5_flush_if_due(h, err, errlen) != 0) {
                rc = -1;
                break;
            }
            local_wait(lp);
            continue;
        }
        if (record(&s, h, &res, from, err, errlen) != 0) {
            rc = -1;
            break;
        }
        WorkUnit *w = next_unit(&s, from);
        if (w) {
            CommUnit u;
            to_message(w, &u);
            if (from == 0) {
                local_give(lp, &u);
            } else {
                comm_send_unit(from, &u);
            }
        }
        PerftProgress pp = { s.done_units, s.todo, s.nodes };
        progress_perft(&pp, &progress);
    }
    progress_finish(&progress);

    if (started) {
        pthread_mutex_lock(&lp->lock);
        lp->quit = true;
        pthread_cond_signal(&lp->wake);
        pthread_mutex_unlock(&lp->lock);
        /* After an error the thread may be in the middle of a unit: the caller aborts the job,
         * which ends it, so it is not waited for. */
        if (rc == 0)
            pthread_join(thread, NULL);
    }
    if (rc == 0) {
        for (int r = 1; r < ranks; r++)
            comm_send_stop(r);
        if (h5_flush(h, err, errlen) != 0)
            rc = -1;
    }
    if (stats) {
        stats->units = s.done_units;
        stats->units_local = s.local_units;
        stats->seconds = now() - start;
        if (started)
            pthread_mutex_lock(&lp->lock);
        stats->local_seconds = lp ? lp->busy : 0.0;
        if (started)
            pthread_mutex_unlock(&lp->lock);
    }
    if (!started || rc == 0)
        free(lp); /* else the thread may still use it: the job is aborted */
    free(s.index);
    free(s.owner);
    return rc;
}

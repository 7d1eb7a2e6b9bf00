/* SPDX-License-Identifier: MIT */
/* The task farm (farm.h) on comm.h's packets. A packet is one kind byte and its bytes:
 *   'H' worker -> 0: hello, how many tasks it holds at once (uint32)
 *   'T' 0 -> worker: a task           'R' worker -> 0: a task's result
 *   'S' 0 -> worker: stop (sent once the worker holds no task and none is left)
 * Each rank's worker threads share a pool: a queue of tasks and one of results. The main thread
 * polls for messages, moves results on and sleeps on the pool between polls, so a finished task
 * wakes it at once and a waiting rank takes no CPU time from the working threads. */
#define _POSIX_C_SOURCE 200809L

#include "farm.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "comm.h"
#include "errmsg.h"
#include "run_error.h"

/* How long a main thread sleeps between polls for messages: far below a task's time (its
 * threads hold their next tasks meanwhile), and rare enough that waking does not take a share of
 * the core from the working threads (docs/benchmarks.md, "Measurements behind the design"). */
#define POLL_NS 5000000L

/* How long a worker rank's main thread first sleeps once one of its threads has no task: there
 * is no work to take the core from, and every tick of the long poll is a thread left waiting
 * for tasks that may already have arrived. Tasks shorter than POLL_NS, whose credit runs out
 * within one long sleep, would otherwise leave such a rank idle most of the time
 * (docs/benchmarks.md). The sleep doubles with each poll that brings nothing, back to POLL_NS,
 * so that a rank left without work (the job's end, a stage boundary) does not keep waking. */
#define STARVED_POLL_NS 50000L

enum { KIND_HELLO = 'H', KIND_TASK = 'T', KIND_RESULT = 'R', KIND_STOP = 'S' };

/* CPU time of the calling thread. */
static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

_Noreturn static void out_of_memory(void)
{
    comm_abort(run_error(EXIT_FAILED, "rank %d: out of memory for a task", comm_rank()));
}

/* Sends kind and len bytes of data to rank to as one packet. */
static void send_kind(int to, char kind, const void *data, size_t len)
{
    unsigned char *p = malloc(len + 1);
    if (!p)
        out_of_memory();
    p[0] = (unsigned char)kind;
    if (len)
        memcpy(p + 1, data, len);
    comm_send_packet(to, p, len + 1);
    free(p);
}

/* ---- a rank's worker threads ---- */

typedef struct Item {
    struct Item *next;
    unsigned char *data;
    size_t len;
} Item;

typedef struct Queue {
    Item *head, *tail;
} Queue;

static void queue_push(Queue *q, Item *it)
{
    it->next = NULL;
    if (q->tail)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
}

static Item *queue_pop(Queue *q)
{
    Item *it = q->head;
    if (it) {
        q->head = it->next;
        if (!q->head)
            q->tail = NULL;
    }
    return it;
}

typedef struct Pool {
    /* a copy: after a failure the threads outlive farm_run, and the caller's job with it */
    FarmJob job;
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* a task for the threads, or quit */
    pthread_cond_t ready; /* a result for the main thread */
    Queue todo, done;
    bool quit;
    double busy; /* seconds the threads spent working */
    pthread_t *threads;
    int started;
} Pool;

typedef struct Slot {
    Pool *pool;
    int index;
} Slot;

static void *slot_main(void *arg)
{
    Slot *s = arg;
    Pool *p = s->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->todo.head && !p->quit)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        Item *it = queue_pop(&p->todo);
        pthread_mutex_unlock(&p->lock);
        const double start = monotonic_seconds();
        size_t len = 0;
        unsigned char *result = p->job.work(p->job.ctx, s->index, it->data, it->len, &len);
        if (!result)
            out_of_memory();
        free(it->data);
        it->data = result;
        it->len = len;
        pthread_mutex_lock(&p->lock);
        p->busy += monotonic_seconds() - start;
        queue_push(&p->done, it);
        pthread_cond_signal(&p->ready);
    }
    pthread_mutex_unlock(&p->lock);
    free(s);
    return NULL;
}

/* Starts the job's slots threads. Returns 0, or -1 with a message. */
static int pool_start(Pool *p, const FarmJob *job, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->job = *job;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->ready, NULL);
    p->threads = calloc((size_t)job->slots, sizeof *p->threads);
    if (!p->threads)
        return errmsg_fail(err, errlen, "out of memory for %d threads", job->slots);
    for (; p->started < job->slots; p->started++) {
        Slot *s = malloc(sizeof *s);
        if (s)
            *s = (Slot){ p, p->started };
        if (!s || pthread_create(&p->threads[p->started], NULL, slot_main, s) != 0) {
            free(s);
            return errmsg_fail(err, errlen, "cannot start rank %d's worker thread %d", comm_rank(),
                               p->started + 1);
        }
    }
    return 0;
}

/* Ends the threads (each holds no task by then) and frees what the pool holds. */
static void pool_stop(Pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    for (Queue *q = &p->todo; q; q = q == &p->todo ? &p->done : NULL)
        for (Item *it; (it = queue_pop(q));) {
            free(it->data);
            free(it);
        }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->ready);
}

/* Gives the threads a task (data is the pool's from now on). */
static void pool_give(Pool *p, void *data, size_t len)
{
    Item *it = malloc(sizeof *it);
    if (!it)
        out_of_memory();
    it->data = data;
    it->len = len;
    pthread_mutex_lock(&p->lock);
    queue_push(&p->todo, it);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

/* The oldest result, or NULL when there is none. */
static Item *pool_take(Pool *p)
{
    pthread_mutex_lock(&p->lock);
    Item *it = queue_pop(&p->done);
    pthread_mutex_unlock(&p->lock);
    return it;
}

/* Waits until the threads have a result or ns nanoseconds (below a second) have passed. */
static void pool_wait(Pool *p, long ns)
{
    /* the wall clock, not monotonic_seconds: a condition variable's deadline is on CLOCK_REALTIME
     * unless it was made otherwise */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += ns;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&p->lock);
    if (!p->done.head)
        pthread_cond_timedwait(&p->ready, &p->lock, &until);
    pthread_mutex_unlock(&p->lock);
}

static double pool_busy(Pool *p)
{
    pthread_mutex_lock(&p->lock);
    double busy = p->busy;
    pthread_mutex_unlock(&p->lock);
    return busy;
}

/* ---- the ranks ---- */

static int credit_of(const FarmJob *job) { return job->slots * (1 + job->ahead); }

/* A rank other than 0: hello, then tasks in and results out until told to stop. */
static int worker_rank(const FarmJob *job, char *err, size_t errlen)
{
    Pool pool;
    if (pool_start(&pool, job, err, errlen) != 0)
        comm_abort(run_error(EXIT_FAILED, "%s", err));
    uint32_t credit = (uint32_t)credit_of(job);
    send_kind(0, KIND_HELLO, &credit, sizeof credit);
    long starved_ns = STARVED_POLL_NS;
    int held = 0; /* tasks given to the threads whose results have not gone out */
    for (bool stop = false; !stop;) {
        bool moved = false;
        size_t len;
        int from;
        unsigned char *msg = comm_poll_packet(false, &len, &from);
        if (msg) {
            moved = true;
            if (len >= 1 && msg[0] == KIND_TASK) {
                void *task = malloc(len - 1 ? len - 1 : 1);
                if (!task)
                    out_of_memory();
                memcpy(task, msg + 1, len - 1);
                pool_give(&pool, task, len - 1);
                held++;
            } else if (len >= 1 && msg[0] == KIND_STOP) {
                stop = true;
            } else {
                comm_abort(
                    run_error(EXIT_FAILED, "rank %d got a message it cannot read", comm_rank()));
            }
            free(msg);
        }
        for (Item *it; (it = pool_take(&pool));) {
            moved = true;
            send_kind(0, KIND_RESULT, it->data, it->len);
            held--;
            free(it->data);
            free(it);
        }
        if (moved) {
            starved_ns = STARVED_POLL_NS;
        } else if (!stop) {
            if (held < job->slots) { /* a thread has no task */
                pool_wait(&pool, starved_ns);
                starved_ns = starved_ns * 2 < POLL_NS ? starved_ns * 2 : POLL_NS;
            } else {
                pool_wait(&pool, POLL_NS);
            }
        }
    }
    pool_stop(&pool);
    return 0;
}

/* Rank 0's bookkeeping of every rank: room for more tasks, tasks out. */
typedef struct Ranks {
    int n;
    int *credit; /* -1: no hello yet */
    int *held;
    bool *stopped;
} Ranks;

/* Hands out tasks in rounds, one per rank with room, until none has room or the job has no task
 * now. Sets *done when the job has none left at all. */
static void feed(const FarmJob *job, Ranks *r, Pool *local, bool *done)
{
    for (bool gave = true; gave && !*done;) {
        gave = false;
        for (int k = 0; k < r->n && !*done; k++) {
            if (r->credit[k] <= 0)
                continue;
            void *task = NULL;
            size_t len = 0;
            FarmNext n = job->next(job->ctx, k, &task, &len);
            if (n == FARM_DONE)
                *done = true;
            if (n != FARM_TASK)
                break; /* FARM_WAIT holds for every rank alike */
            r->credit[k]--;
            r->held[k]++;
            gave = true;
            if (k == 0) {
                pool_give(local, task, len);
            } else {
                send_kind(k, KIND_TASK, task, len);
                free(task);
            }
        }
    }
}

static int coordinator_rank(const FarmJob *job, FarmStats *stats, char *err, size_t errlen)
{
    const double start = monotonic_seconds(), start_cpu = thread_cpu();
    Ranks r = { .n = comm_size() };
    r.credit = malloc((size_t)r.n * sizeof *r.credit);
    r.held = calloc((size_t)r.n, sizeof *r.held);
    r.stopped = calloc((size_t)r.n, sizeof *r.stopped);
    if (!r.credit || !r.held || !r.stopped)
        out_of_memory();
    for (int k = 0; k < r.n; k++)
        r.credit[k] = -1;
    r.credit[0] = credit_of(job);
    /* On the heap: after a failure the threads are left running until the caller aborts the
     * job, so what they use must outlive this function. */
    Pool *local = malloc(sizeof *local);
    if (!local)
        out_of_memory();
    if (pool_start(local, job, err, errlen) != 0)
        return -1;

    /* Every worker's hello first, so that the first round reaches every rank. */
    for (int waiting = r.n - 1; waiting > 0;) {
        size_t len;
        int from;
        unsigned char *msg = comm_poll_packet(true, &len, &from);
        uint32_t credit;
        if (!msg || len != 1 + sizeof credit || msg[0] != KIND_HELLO || r.credit[from] >= 0) {
            errmsg_set(err, errlen, "rank %d sent a message before its hello", from);
            free(msg);
            return -1;
        }
        memcpy(&credit, msg + 1, sizeof credit);
        r.credit[from] = (int)credit;
        waiting--;
        free(msg);
    }

    uint64_t tasks = 0, tasks_local = 0;
    bool done = false;
    int rc = 0;
    for (;;) {
        feed(job, &r, local, &done);
        bool out = false;
        for (int k = 0; k < r.n; k++) {
            if (done && k > 0 && r.held[k] == 0 && !r.stopped[k]) {
                send_kind(k, KIND_STOP, NULL, 0);
                r.stopped[k] = true;
            }
            out |= r.held[k] > 0;
        }
        if (done && !out)
            break;

        int from = -1;
        size_t len = 0;
        unsigned char *msg = comm_poll_packet(false, &len, &from);
        Item *it = NULL;
        const unsigned char *data = NULL;
        if (msg) {
            if (len < 1 || msg[0] != KIND_RESULT || r.held[from] == 0) {
                errmsg_set(err, errlen, "rank %d sent a message that is no result of its tasks",
                           from);
                free(msg);
                rc = -1;
                break;
            }
            data = msg + 1;
            len--;
        } else if ((it = pool_take(local))) {
            from = 0;
            data = it->data;
            len = it->len;
        } else {
            if (job->idle && job->idle(job->ctx, err, errlen) != 0) {
                rc = -1;
                break;
            }
            pool_wait(local, POLL_NS);
            continue;
        }
        r.held[from]--;
        r.credit[from]++;
        tasks++;
        tasks_local += from == 0;
        rc = job->result(job->ctx, from, data, len, err, errlen);
        free(msg);
        if (it) {
            free(it->data);
            free(it);
        }
        if (rc != 0)
            break;
    }
    if (stats)
        *stats = (FarmStats){ tasks, tasks_local, monotonic_seconds() - start, pool_busy(local),
                              thread_cpu() - start_cpu };
    if (rc == 0) {
        pool_stop(local);
        free(local);
    }
    free(r.credit);
    free(r.held);
    free(r.stopped);
    return rc;
}

int farm_run(const FarmJob *job, FarmStats *stats, char *err, size_t errlen)
{
    if (comm_rank() != 0)
        return worker_rank(job, err, errlen);
    return coordinator_rank(job, stats, err, errlen);
}

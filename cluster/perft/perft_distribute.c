/* SPDX-License-Identifier: MIT */
/* A perft job's units over the farm (perft_distribute.h). A unit travels as its id, depth and
 * FEN; its count comes back with its id, the time it took, and an error instead when the rank
 * could not count it (rank 0 then stops the job with the message). Each rank counts one unit at
 * a time with all of its threads and holds the next one already. */
#define _POSIX_C_SOURCE 200809L

#include "perft_distribute.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "errmsg.h"
#include "progress.h"
#include "run_error.h"
#include "stop_signal.h"

/* A unit as it travels: enough for a rank to count it, nothing more; the FEN is sent up to its
 * NUL only. */
typedef struct Task {
    uint64_t id;
    int32_t depth;
    char fen[FEN_MAX];
} Task;

/* A rank's answer. status 0: nodes holds the count; otherwise message says why not. */
typedef struct Answer {
    uint64_t id;
    uint64_t nodes;
    double seconds;
    int32_t status;
    char message[200];
} Answer;

/* The distribution's state on rank 0: which unit goes out next, who holds which. */
typedef struct State {
    Split *split;
    PerftFile *file;
    UnitCounter *counter;
    size_t *index; /* unit id -> row in split->units */
    int *owner;    /* per row: the rank counting it, -1 if none (or done) */
    size_t next;   /* the next row to consider handing out */
    /* With own tables only, the rows of each root turn as a list in hand-out order, and the root
     * turn each rank counted last: a rank is given units of the same root turn while there are
     * any, so that the transpositions among them meet in its own table. NULL without tables,
     * and with a shared table, where every rank finds what any other counted and the plain
     * order, largest first, counts less (docs/cluster.md, "Unit order"). */
    size_t *root_head;    /* per root turn: its first row not yet handed out, or SIZE_MAX */
    size_t *next_in_root; /* per row: the next row of the same root turn, or SIZE_MAX */
    uint32_t *last_root;  /* per rank: the root turn of its last unit, or UNIT_NO_ROOT */
    size_t todo, done_units;
    uint64_t nodes;    /* counted by this run, times multiplicities */
    double *work;      /* per row: split_unit_work, for the ETA; NULL when quiet */
    double work_total; /* of the rows to count */
    double work_done;  /* of those counted */
    Progress progress;
} State;

/* Whether row i can be handed out: not counted, not out. */
static bool available(const State *s, size_t i)
{
    return s->split->units[i].nodes == UNIT_NOT_DONE && s->owner[i] < 0;
}

/* The next row of the root turn rank counted last, or SIZE_MAX (no tables, none left). */
static size_t next_of_same_root(State *s, int rank)
{
    if (!s->last_root || s->last_root[rank] == UNIT_NO_ROOT)
        return SIZE_MAX;
    size_t *head = &s->root_head[s->last_root[rank]];
    while (*head != SIZE_MAX && !available(s, *head))
        *head = s->next_in_root[*head];
    return *head;
}

static FarmNext next_task(void *ctx, int rank, void **task, size_t *len)
{
    State *s = ctx;
    size_t affine = next_of_same_root(s, rank);
    while (affine != SIZE_MAX || s->next < s->split->n_units) {
        size_t i = affine != SIZE_MAX ? affine : s->next++;
        affine = SIZE_MAX;
        const WorkUnit *u = &s->split->units[i];
        if (!available(s, i))
            continue;
        if (s->last_root && u->root != UNIT_NO_ROOT)
            s->last_root[rank] = u->root;
        Task *t = calloc(1, sizeof *t);
        if (!t)
            comm_abort(run_error(EXIT_FAILED, "out of memory for a unit"));
        s->owner[i] = rank;
        t->id = u->id;
        t->depth = u->depth;
        snprintf(t->fen, sizeof t->fen, "%s", u->fen);
        *task = t;
        *len = offsetof(Task, fen) + strlen(t->fen) + 1;
        return FARM_TASK;
    }
    return FARM_DONE;
}

static void *count_task(void *ctx, int slot, const void *data, size_t len, size_t *result_len)
{
    State *s = ctx;
    (void)slot;
    Answer *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    Task t = { 0 };
    memcpy(&t, data, len < sizeof t ? len : sizeof t);
    t.fen[FEN_MAX - 1] = '\0';
    WorkUnit u = { .id = t.id, .depth = t.depth };
    snprintf(u.fen, sizeof u.fen, "%s", t.fen);
    a->id = t.id;
    if (len <= offsetof(Task, fen)) {
        a->status = 1;
        snprintf(a->message, sizeof a->message, "a unit message of %zu bytes", len);
    } else if (unit_counter_count(s->counter, &u, &a->nodes, &a->seconds, a->message,
                                  sizeof a->message) != 0) {
        a->status = 1;
    }
    *result_len = sizeof *a;
    return a;
}

/* Takes a rank's answer into its unit and the file. */
static int record(void *ctx, int from, const void *data, size_t len, char *err, size_t errlen)
{
    State *s = ctx;
    Answer a;
    if (len != sizeof a)
        return errmsg_fail(err, errlen, "rank %d sent an answer of %zu bytes", from, len);
    memcpy(&a, data, sizeof a);
    a.message[sizeof a.message - 1] = '\0';
    if (a.status != 0)
        return errmsg_fail(err, errlen, "rank %d could not count %s", from, a.message);
    size_t row = a.id < s->split->n_units ? s->index[a.id] : SIZE_MAX;
    if (row == SIZE_MAX || s->owner[row] != from)
        return errmsg_fail(err, errlen,
                           "rank %d sent a count for unit %llu, which it was not given", from,
                           (unsigned long long)a.id);
    WorkUnit *u = &s->split->units[row];
    u->nodes = a.nodes;
    u->rank = from;
    u->seconds = a.seconds;
    s->owner[row] = -1;
    s->done_units++;
    s->nodes += a.nodes * u->multiplicity;
    if (perft_file_record_unit(s->file, u, err, errlen) != 0)
        return -1;
    if (s->work)
        s->work_done += s->work[row];
    const PerftProgress pp = { .units_done = s->done_units,
                               .units_total = s->todo,
                               .nodes = s->nodes,
                               .work_done = s->work_done,
                               .work_total = s->work_total };
    progress_perft(&pp, &s->progress);
    return 0;
}

/* Rank 0 between results: the checkpoint flushed when due, and at once when a signal asks the job
 * to stop (which then ends with the units counted so far recorded). */
static int flush_if_due(void *ctx, char *err, size_t errlen)
{
    State *s = ctx;
    const int sig = stop_signal_received();
    if (!sig)
        return perft_file_flush_if_due(s->file, err, errlen);
    if (perft_file_flush(s->file, err, errlen) != 0)
        return -1;
    return errmsg_fail(err, errlen, "stopped by %s after %zu of %zu units",
                       sig == SIGINT ? "SIGINT" : "SIGTERM", s->done_units, s->todo);
}

/* Rank 0's index of the split: every unit id once, 0 to n - 1. Returns 0, or -1 with a
 * message. */
static int index_units(State *s, char *err, size_t errlen)
{
    const Split *split = s->split;
    const size_t n = split->n_units ? split->n_units : 1;
    s->index = malloc(n * sizeof *s->index);
    s->owner = malloc(n * sizeof *s->owner);
    if (!s->index || !s->owner)
        return errmsg_fail(err, errlen, "out of memory for %zu units", split->n_units);
    for (size_t i = 0; i < split->n_units; i++)
        s->index[i] = SIZE_MAX;
    for (size_t i = 0; i < split->n_units; i++) {
        uint64_t id = split->units[i].id;
        if (id >= split->n_units || s->index[id] != SIZE_MAX)
            return errmsg_fail(err, errlen, "the split's unit ids are not 0 to %zu, each once",
                               split->n_units - 1);
        s->index[id] = i;
        s->owner[i] = -1;
        if (split->units[i].nodes == UNIT_NOT_DONE)
            s->todo++;
    }
    return 0;
}

/* Each row's split_unit_work, summed over the rows to count; the estimate is computed again
 * only for a split read back from a file, which does not keep it. Returns 0, or -1 with a
 * message. */
static int weigh_units(State *s, char *err, size_t errlen)
{
    const Split *split = s->split;
    s->work = malloc((split->n_units ? split->n_units : 1) * sizeof *s->work);
    if (!s->work)
        return errmsg_fail(err, errlen, "out of memory for %zu units", split->n_units);
    for (size_t i = 0; i < split->n_units; i++) {
        const WorkUnit *u = &split->units[i];
        s->work[i] = 0;
        if (u->nodes != UNIT_NOT_DONE)
            continue;
        uint64_t estimate = u->estimate;
        if (estimate == 0) {
            Position p;
            char why[ERRMSG_LEN];
            if (split_unit_position(u, s->counter->variant, &s->counter->rules, &p, why,
                                    sizeof why) != 0)
                return errmsg_fail(err, errlen, "unit %llu: bad position '%s': %s",
                                   (unsigned long long)u->id, u->fen, why);
            estimate = split_unit_estimate(&p, &s->counter->rules, u->depth);
        }
        s->work[i] = split_unit_work(estimate, &s->counter->rules, u->depth);
        s->work_total += s->work[i];
    }
    return 0;
}

/* The lists by root turn, when the ranks have own tables only to share transpositions in.
 * Returns 0, or -1 with a message. */
static int index_roots(State *s, bool shared_table, char *err, size_t errlen)
{
    const Split *split = s->split;
    if (!s->counter->tt || shared_table || comm_size() < 2 || split->n_root == 0)
        return 0;
    s->root_head = malloc(split->n_root * sizeof *s->root_head);
    s->next_in_root = malloc((split->n_units ? split->n_units : 1) * sizeof *s->next_in_root);
    s->last_root = malloc((size_t)comm_size() * sizeof *s->last_root);
    if (!s->root_head || !s->next_in_root || !s->last_root)
        return errmsg_fail(err, errlen, "out of memory for %zu units", split->n_units);
    for (size_t r = 0; r < split->n_root; r++)
        s->root_head[r] = SIZE_MAX;
    for (int k = 0; k < comm_size(); k++)
        s->last_root[k] = UNIT_NO_ROOT;
    for (size_t i = split->n_units; i-- > 0;) {
        uint32_t r = split->units[i].root;
        s->next_in_root[i] = r < split->n_root ? s->root_head[r] : SIZE_MAX;
        if (r < split->n_root)
            s->root_head[r] = i;
    }
    return 0;
}

int perft_distribute_run(Split *split, PerftFile *h, UnitCounter *counter, bool shared_table,
                         bool quiet, FarmStats *stats, char *err, size_t errlen)
{
    /* On the heap: after a failure rank 0's counting thread is left running until the caller
     * aborts the job, so what it uses must outlive this function. */
    State *s = calloc(1, sizeof *s);
    if (!s)
        return errmsg_fail(err, errlen, "out of memory");
    *s = (State){ .split = split, .file = h, .counter = counter };
    int rc = comm_rank() == 0 ? index_units(s, err, errlen) : 0;
    if (rc == 0 && comm_rank() == 0)
        rc = index_roots(s, shared_table, err, errlen);
    if (rc == 0 && comm_rank() == 0 && !quiet)
        rc = weigh_units(s, err, errlen);
    if (rc == 0) {
        /* One unit at a time on all of the rank's threads, the next three held: a unit's result
         * and the task that replaces it cross between two polls, and with one unit held a
         * worker whose units are shorter than that trip waits for the next. */
        const FarmJob job = { .ctx = s,
                              .slots = 1,
                              .ahead = 3,
                              .next = next_task,
                              .result = record,
                              .idle = flush_if_due,
                              .work = count_task };
        progress_start(&s->progress, "perft", quiet || comm_rank() != 0);
        rc = farm_run(&job, stats, err, errlen);
        progress_finish(&s->progress);
        if (rc != 0)
            return rc; /* s stays: the job is aborted */
    }
    if (rc == 0 && comm_rank() == 0)
        rc = perft_file_flush(h, err, errlen);
    free(s->index);
    free(s->owner);
    free(s->root_head);
    free(s->next_in_root);
    free(s->last_root);
    free(s->work);
    free(s);
    return rc;
}

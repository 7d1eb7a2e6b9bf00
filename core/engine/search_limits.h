/* SPDX-License-Identifier: MIT */
/* What ends a search besides its depth (private to the search's files): the node limit, checked at
 * every node; the stop flag and the hard time limit, checked every 1024 nodes (a clock read costs
 * more than a node's bookkeeping); the soft time limit, checked between iterations. The time
 * budget itself is search_time_budget (search.h).
 *
 * The threads of a parallel search share one node limit: each counts its own nodes and takes
 * them from the shared limit in chunks, so that all threads together never search more than the
 * limit, and each publishes its count every 1024 nodes for the main thread's reports. Alone, a
 * thread counts against the limit itself, node by node, as before: its search stays exactly
 * deterministic. */
#ifndef CARRERA_SEARCH_LIMITS_H
#define CARRERA_SEARCH_LIMITS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "search.h"

/* The node limit of the threads of one search (limit 0: none), and the nodes handed out. */
typedef struct SearchNodeShare {
    uint64_t limit;
    _Atomic uint64_t granted;
} SearchNodeShare;

/* How many nodes a thread takes from the shared limit at a time. */
#define SEARCH_NODE_CHUNK 256

typedef struct SearchBudget {
    atomic_bool *stop;          /* may be NULL */
    SearchNodeShare *share;     /* NULL: the thread searches alone */
    uint64_t nodes, node_limit; /* node_limit: with a share, the nodes taken from it so far */
    _Atomic uint64_t published; /* with a share: nodes, as other threads may read them */
    int64_t start_ms, hard_ms, soft_ms; /* 0: no such limit */
    bool aborted;                       /* a limit was reached: the search unwinds */
} SearchBudget;

/* Starts the budget of a search under l with side to move at the root; no node counted yet.
 * share: the limit this thread shares with the other threads of the search (NULL: alone; its
 * limit must be l->nodes and its nodes granted 0 before the first thread starts). */
void search_limits_start(SearchBudget *b, const SearchLimits *l, int side, atomic_bool *stop,
                         SearchNodeShare *share);

/* Takes more nodes from the shared limit; false when it is spent. */
bool search_limits_take(SearchBudget *b);

/* Milliseconds since the search started. */
static inline int64_t search_limits_elapsed(const SearchBudget *b)
{
    return monotonic_ms() - b->start_ms;
}

/* Whether the search must end now (and from now on): called before a node is counted. */
static inline bool search_limits_reached(SearchBudget *b)
{
    if (b->aborted)
        return true;
    if (b->node_limit && b->nodes >= b->node_limit) {
        if (!b->share || !search_limits_take(b))
            b->aborted = true;
    } else if ((b->nodes & 1023) == 0) {
        if (b->share)
            atomic_store_explicit(&b->published, b->nodes, memory_order_relaxed);
        if ((b->stop && atomic_load_explicit(b->stop, memory_order_relaxed)) ||
            (b->hard_ms && search_limits_elapsed(b) >= b->hard_ms))
            b->aborted = true;
    }
    return b->aborted;
}

/* Whether no new iteration may start, the soft limit stretched or shortened by scale (search.c's
 * time use). */
static inline bool search_limits_soft_reached(const SearchBudget *b, double scale)
{
    return b->soft_ms && (double)search_limits_elapsed(b) >= (double)b->soft_ms * scale;
}

#endif

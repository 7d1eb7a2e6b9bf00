/* SPDX-License-Identifier: MIT */
/* What ends a search besides its depth (private to the search's files): the node limit, checked at
 * every node; the stop flag and the hard time limit, checked every 1024 nodes (a clock read costs
 * more than a node's bookkeeping); the soft time limit, checked between iterations. The time
 * budget itself is search_time_budget (search.h). */
#ifndef CARRERA_SEARCH_LIMITS_H
#define CARRERA_SEARCH_LIMITS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "search.h"

typedef struct SearchBudget {
    atomic_bool *stop; /* may be NULL */
    uint64_t nodes, node_limit;
    int64_t start_ms, hard_ms, soft_ms; /* 0: no such limit */
    bool aborted;                       /* a limit was reached: the search unwinds */
} SearchBudget;

/* Starts the budget of a search under l with side to move at the root; no node counted yet. */
void search_limits_start(SearchBudget *b, const SearchLimits *l, int side, atomic_bool *stop);

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
        b->aborted = true;
    } else if ((b->nodes & 1023) == 0) {
        if ((b->stop && atomic_load_explicit(b->stop, memory_order_relaxed)) ||
            (b->hard_ms && search_limits_elapsed(b) >= b->hard_ms))
            b->aborted = true;
    }
    return b->aborted;
}

/* Whether no new iteration may start. */
static inline bool search_limits_soft_reached(const SearchBudget *b)
{
    return b->soft_ms && search_limits_elapsed(b) >= b->soft_ms;
}

#endif

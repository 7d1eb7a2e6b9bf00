/* SPDX-License-Identifier: MIT */
/* The limits of a search (search_limits.h) and the time budget of search.h. */
#include "search_limits.h"

SearchLimits search_limits_none(void)
{
    SearchLimits l = { 0 };
    l.time_ms[WHITE] = l.time_ms[BLACK] = -1;
    return l;
}

int64_t search_time_budget(const SearchLimits *l, int side, int64_t *soft)
{
    *soft = 0;
    if (l->infinite)
        return 0;
    if (l->movetime_ms > 0) {
        /* keep a little for the reply to travel: a GUI counts it against us */
        int64_t margin = l->movetime_ms / 20 < 10 ? l->movetime_ms / 20 : 10;
        return l->movetime_ms - margin > 1 ? l->movetime_ms - margin : 1;
    }
    if (l->time_ms[side] < 0)
        return 0;
    int64_t left = l->time_ms[side], inc = l->inc_ms[side] > 0 ? l->inc_ms[side] : 0;
    int togo = l->movestogo > 0 ? (l->movestogo < 40 ? l->movestogo : 40) : 30;
    int64_t reserve = left / 20 < 50 ? left / 20 : 50;
    int64_t usable = left - reserve > 1 ? left - reserve : 1;
    int64_t base = usable / togo + inc * 3 / 4;
    int64_t hard = base * 4 < usable / 3 ? base * 4 : usable / 3;
    if (togo == 1)
        hard = usable;
    if (base > hard)
        base = hard;
    *soft = base * 6 / 10 > 1 ? base * 6 / 10 : 1;
    return hard > 1 ? hard : 1;
}

void search_limits_start(SearchBudget *b, const SearchLimits *l, int side, atomic_bool *stop,
                         SearchNodeShare *share)
{
    b->stop = stop;
    b->share = share;
    b->nodes = 0;
    atomic_store_explicit(&b->published, 0, memory_order_relaxed);
    b->node_limit = share ? 0 : l->nodes;
    b->aborted = share && share->limit && !search_limits_take(b);
    b->start_ms = monotonic_ms();
    b->hard_ms = search_time_budget(l, side, &b->soft_ms);
}

bool search_limits_take(SearchBudget *b)
{
    SearchNodeShare *s = b->share;
    uint64_t before =
        atomic_fetch_add_explicit(&s->granted, SEARCH_NODE_CHUNK, memory_order_relaxed);
    if (before >= s->limit)
        return false;
    b->node_limit += s->limit - before < SEARCH_NODE_CHUNK ? s->limit - before : SEARCH_NODE_CHUNK;
    return true;
}

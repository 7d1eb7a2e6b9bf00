/* SPDX-License-Identifier: MIT */
/* The limits of a search (search_limits.h) and the time budget of search.h. */
#include "search_limits.h"

SearchLimits search_limits_none(void)
{
    SearchLimits l = { 0 };
    l.time_ms[WHITE] = l.time_ms[BLACK] = -1;
    l.overhead_ms = SEARCH_OVERHEAD_DEFAULT_MS;
    return l;
}

/* Under a clock: the time to the next control (or of the game, as if it had 30 turns left) with
 * its increments, less each reply's overhead and a reserve of two, spread over the turns to go,
 * is the typical turn's; a turn may take four of those but never more than a third of the clock
 * (before the control's last turn: 80% of it, less the overhead). */
int64_t search_time_budget(const SearchLimits *l, int side, int64_t *soft)
{
    *soft = 0;
    if (l->infinite)
        return 0;
    int64_t overhead = l->overhead_ms > 0 ? l->overhead_ms : 0;
    if (l->movetime_ms > 0) {
        /* keep a little for the reply to travel: a GUI counts it against us */
        int64_t margin = l->movetime_ms / 20 < overhead ? l->movetime_ms / 20 : overhead;
        return l->movetime_ms - margin > 1 ? l->movetime_ms - margin : 1;
    }
    if (l->time_ms[side] < 0)
        return 0;
    int64_t left = l->time_ms[side], inc = l->inc_ms[side] > 0 ? l->inc_ms[side] : 0;
    int togo = l->movestogo > 0 ? (l->movestogo < 40 ? l->movestogo : 40) : 30;
    int64_t pool = left + inc * (togo - 1) - overhead * (2 + togo);
    int64_t base = (pool > togo ? pool : togo) / togo;
    int64_t cap = togo == 1 ? left * 8 / 10 - overhead : left / 3;
    int64_t hard = base * 4 < cap ? base * 4 : cap;
    if (hard < 1)
        hard = 1;
    if (base > hard)
        base = hard;
    *soft = base * 6 / 10 > 1 ? base * 6 / 10 : 1;
    return hard;
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

/* SPDX-License-Identifier: MIT */
/* The search's move ordering (search_order.h). */
#include "search_order.h"

#include <stdlib.h>

const int search_order_value[TYPE_NB] = { 0, 100, 300, 350, 475, 875, 900, 950, 5000 };

/* Whether x goes before y: the higher score, then the turn generated first (a total order, so
 * every way of sorting gives the same sequence). */
static inline bool before(const OrderItem *x, const OrderItem *y)
{
    return x->score != y->score ? x->score > y->score : x->index < y->index;
}

static int cmp_order(const void *a, const void *b)
{
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

/* The from-to histories of a turn's movements, summed. */
static int turn_history(const SearchHistory *h, int us, const Turn *t)
{
    int v = 0;
    for (int i = 0; i < t->n; i++)
        v += h->v[us][move_from(t->m[i])][move_to(t->m[i])];
    return v;
}

int search_order_turns(PlyData *pd, const Position *p, const Turn *hash_turn, unsigned flags,
                       int keep, const SearchHistory *h, const OrderContext *c)
{
    const bool only_tactical = flags & ORDER_TACTICAL, only_quiet = flags & ORDER_QUIET;
    const bool double_moves = flags & ORDER_DOUBLE;
    size_t n = pd->turns.n;
    if (pd->order_cap < n) {
        OrderItem *o = realloc(pd->order, n * sizeof *o);
        if (!o)
            return 0;
        pd->order = o;
        pd->order_cap = n;
    }
    const int us = position_side(p);
    const Piece *const sq = position_mailbox(p); /* read once: the order's stores might alias */
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        const Turn *t = &pd->turns.v[i];
        int attacker, gain = search_order_turn_gain(sq, t, us, &attacker), score;
        if ((only_tactical && gain == 0) || (only_quiet && gain > 0))
            continue;
        if (hash_turn && turn_same(t, hash_turn)) {
            if (flags & ORDER_HASH_DONE)
                continue;
            score = SEARCH_ORDER_HASH;
        } else if (gain > 0) {
            /* under single-move rules a capture that loses material in the exchange goes
             * after the quiet turns (and is not searched in quiescence) */
            /* taking at least what it risks never loses material (a promotion can: the new
             * piece is what stands on the square) */
            bool safe = gain >= attacker && move_kind(t->m[0]) != MOVE_PROMOTION;
            int exchange = double_moves || safe ? 0 : position_see(p, t->m[0], search_order_value);
            score = exchange >= 0 ? (1 << 24) + gain * 16 - attacker / 16
                                  : SEARCH_ORDER_LOSING + exchange;
            /* a double-move capture comes with many other movements: among those of equal
             * gain, the histories say which go first */
            if (double_moves)
                score += turn_history(h, us, t) / 64;
        } else if (turn_same(t, &pd->killers[0]))
            score = (1 << 23) + 1;
        else if (turn_same(t, &pd->killers[1]))
            score = 1 << 23;
        else if (c->counter && turn_same(t, c->counter))
            score = 1 << 22;
        else {
            score = turn_history(h, us, t);
            const int to = move_to(t->m[0]);
            for (int i = 0, mover = -1; i < ORDER_CONT_NB; i++)
                if (c->cont[i]) {
                    if (mover < 0)
                        mover = search_order_mover(p, t->m[0]);
                    score += (*c->cont[i])[mover][to];
                }
        }
        const OrderItem item = { score, (int)i };
        if (!keep) {
            pd->order[count++] = item;
            continue;
        }
        /* only the best keep, in order: an insertion that mostly stops at the last of them */
        int j;
        if (count < keep)
            j = count++;
        else if (before(&item, &pd->order[keep - 1]))
            j = keep - 1;
        else
            continue;
        for (; j > 0 && before(&item, &pd->order[j - 1]); j--)
            pd->order[j] = pd->order[j - 1];
        pd->order[j] = item;
    }
    /* The list is picked one turn at a time by search_order_pick(), since most nodes cut off after
     * a turn or two, and sorted only when they do not; the best keep are in order already. */
    pd->sorted_from = keep ? 0 : count;
    return count;
}

/* Turns picked one at a time before the rest of the list is sorted: a node that has not cut off
 * after these is likely to search them all. */
#define PICKED_BEFORE_SORT 3

/* Up to this many turns left, insertion sorts them faster than qsort. */
#define SHORT_SORT_MAX 64

const Turn *search_order_pick(PlyData *pd, int k, int count)
{
    if (k == PICKED_BEFORE_SORT && k < pd->sorted_from) {
        /* the rest sorted, in the order the picks would give: by insertion when short, else
         * (the double-move rules' hundreds of turns) by qsort */
        if (count - k > SHORT_SORT_MAX) {
            qsort(pd->order + k, (size_t)(count - k), sizeof *pd->order, cmp_order);
        } else {
            for (int i = k + 1; i < count; i++) {
                OrderItem x = pd->order[i];
                int j = i;
                for (; j > k && before(&x, &pd->order[j - 1]); j--)
                    pd->order[j] = pd->order[j - 1];
                pd->order[j] = x;
            }
        }
        pd->sorted_from = k;
    }
    if (k < pd->sorted_from) {
        int best = k;
        for (int i = k + 1; i < count; i++)
            if (before(&pd->order[i], &pd->order[best]))
                best = i;
        OrderItem tmp = pd->order[k];
        pd->order[k] = pd->order[best];
        pd->order[best] = tmp;
    }
    return &pd->turns.v[pd->order[k].index];
}

/* Rewards the turn that cut off and punishes the quiet turns tried before it; the gravity term
 * keeps every entry within +-16384 so old lessons fade. */
static void update_entry(int *v, int bonus) { *v += bonus - *v * abs(bonus) / 16384; }

static void update_continuation(const OrderContext *c, int mover, int to, int bonus)
{
    for (int i = 0; i < ORDER_CONT_NB; i++)
        if (c->cont[i]) {
            short *e = &(*c->cont[i])[mover][to];
            int v = *e;
            update_entry(&v, bonus);
            *e = (short)v;
        }
}

static void update_history(SearchHistory *h, const OrderContext *c, const Position *p, int us,
                           const Turn *t, int bonus)
{
    for (int i = 0; i < t->n; i++)
        update_entry(&h->v[us][move_from(t->m[i])][move_to(t->m[i])], bonus);
    update_continuation(c, search_order_mover(p, t->m[0]), move_to(t->m[0]), bonus);
}

/* A cut-off's history bonus, growing with the depth as Stockfish 11's (29 d^2 + 138 d - 134 of
 * its +-10692 range) on this +-16384 one: a 300th of the range at depth 1, a twentieth at depth 3,
 * a quarter at depth 8; none beyond depth 17, where a cut-off is rare enough to be noise. */
#define HISTORY_BONUS_DEPTH_MAX 17
static int history_bonus(int depth)
{
    return depth > HISTORY_BONUS_DEPTH_MAX ? 0 : 44 * depth * depth + 211 * depth - 205;
}

void search_order_cut(PlyData *pd, SearchHistory *h, const OrderContext *c, const Position *p,
                      const Turn *t, int depth, const Turn *tried, int n_tried)
{
    if (!turn_same(t, &pd->killers[0])) {
        pd->killers[1] = pd->killers[0];
        pd->killers[0] = *t;
    }
    int us = position_side(p), bonus = history_bonus(depth);
    update_history(h, c, p, us, t, bonus);
    if (c->counter)
        *c->counter = *t;
    for (int i = 0; i < n_tried; i++)
        update_history(h, c, p, us, &tried[i], -bonus);
}

void search_order_prior_fail_low(const OrderContext *c, int mover, int to, int depth)
{
    update_continuation(c, mover, to, history_bonus(depth));
}

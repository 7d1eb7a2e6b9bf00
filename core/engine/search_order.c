/* SPDX-License-Identifier: MIT */
/* The search's move ordering (search_order.h). */
#include "search_order.h"

#include <stdlib.h>

const int search_order_value[TYPE_NB] = { 0, 100, 300, 350, 475, 875, 900, 950, 5000 };

#define LAZY_ORDER_MAX 256

static int cmp_order(const void *a, const void *b)
{
    const OrderItem *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->index - y->index;
}

/* The from-to histories of a turn's movements, summed. */
static int turn_history(const SearchHistory *h, int us, const Turn *t)
{
    int v = 0;
    for (int i = 0; i < t->n; i++)
        v += h->v[us][move_from(t->m[i])][move_to(t->m[i])];
    return v;
}

int search_order_turns(PlyData *pd, const Position *p, const Turn *hash_turn, bool only_tactical,
                       bool double_moves, const SearchHistory *h, const OrderContext *c)
{
    size_t n = pd->turns.n;
    if (pd->order_cap < n) {
        OrderItem *o = realloc(pd->order, n * sizeof *o);
        if (!o)
            return 0;
        pd->order = o;
        pd->order_cap = n;
    }
    int us = position_side(p), count = 0;
    for (size_t i = 0; i < n; i++) {
        const Turn *t = &pd->turns.v[i];
        int attacker, gain = search_order_gain(p, t, us, &attacker), score;
        if (only_tactical && gain == 0)
            continue;
        if (hash_turn && search_order_same(t, hash_turn))
            score = SEARCH_ORDER_HASH;
        else if (gain > 0) {
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
        } else if (search_order_same(t, &pd->killers[0]))
            score = (1 << 23) + 1;
        else if (search_order_same(t, &pd->killers[1]))
            score = 1 << 23;
        else {
            score = turn_history(h, us, t);
            int mover = search_order_mover(p, t->m[0]), to = move_to(t->m[0]);
            for (int i = 0; i < 2; i++)
                if (c->cont[i])
                    score += (*c->cont[i])[mover][to];
        }
        pd->order[count++] = (OrderItem){ score, (int)i };
    }
    /* Long lists (the double-move rules) are sorted at once; short ones are picked one at a time
     * by search_order_pick(), since most nodes cut off after a turn or two, and sorted only when
     * they do not. */
    pd->sorted_from = count;
    if (count > LAZY_ORDER_MAX) {
        qsort(pd->order, (size_t)count, sizeof *pd->order, cmp_order);
        pd->sorted_from = 0;
    }
    return count;
}

/* Turns picked one at a time before the rest of the list is sorted: a node that has not cut off
 * after these is likely to search them all. */
#define PICKED_BEFORE_SORT 3

const Turn *search_order_pick(PlyData *pd, int k, int count)
{
    if (k == PICKED_BEFORE_SORT && k < pd->sorted_from) {
        /* insertion sort of the rest, in the order the picks would give */
        for (int i = k + 1; i < count; i++) {
            OrderItem x = pd->order[i];
            int j = i;
            for (; j > k && cmp_order(&x, &pd->order[j - 1]) < 0; j--)
                pd->order[j] = pd->order[j - 1];
            pd->order[j] = x;
        }
        pd->sorted_from = k;
    }
    if (k < pd->sorted_from) {
        int best = k;
        for (int i = k + 1; i < count; i++)
            if (cmp_order(&pd->order[i], &pd->order[best]) < 0)
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

static void update_history(SearchHistory *h, const OrderContext *c, const Position *p, int us,
                           const Turn *t, int bonus)
{
    for (int i = 0; i < t->n; i++)
        update_entry(&h->v[us][move_from(t->m[i])][move_to(t->m[i])], bonus);
    int mover = search_order_mover(p, t->m[0]), to = move_to(t->m[0]);
    for (int i = 0; i < 2; i++)
        if (c->cont[i]) {
            short *e = &(*c->cont[i])[mover][to];
            int v = *e;
            update_entry(&v, bonus);
            *e = (short)v;
        }
}

/* A cut-off's history bonus: the depth squared, scaled so that a few cut-offs near the horizon,
 * where most nodes are, already order a node's quiet turns (about 1/500 of the +-16384 range at
 * depth 1, a tenth at depth 7 and above). */
#define HISTORY_BONUS_SCALE 32
#define HISTORY_BONUS_MAX   1600

void search_order_cut(PlyData *pd, SearchHistory *h, const OrderContext *c, const Position *p,
                      const Turn *t, int depth, const Turn *tried, int n_tried)
{
    if (!search_order_same(t, &pd->killers[0])) {
        pd->killers[1] = pd->killers[0];
        pd->killers[0] = *t;
    }
    int us = position_side(p), bonus = HISTORY_BONUS_SCALE * depth * depth;
    if (bonus > HISTORY_BONUS_MAX)
        bonus = HISTORY_BONUS_MAX;
    update_history(h, c, p, us, t, bonus);
    for (int i = 0; i < n_tried; i++)
        update_history(h, c, p, us, &tried[i], -bonus);
}

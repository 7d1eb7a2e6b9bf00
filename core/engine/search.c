/* SPDX-License-Identifier: MIT */
/* The engine's search (search.h): a searcher's life cycle and the iterative deepening with
 * aspiration windows at the root. The tree below the root is search_tree.c; the table,
 * the move ordering and the limits are search_tt.c, search_order.c and search_limits.c, over the
 * Searcher of search_internal.h. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* ---- life cycle ---------------------------------------------------------------------------- */

Searcher *searcher_new(size_t hash_mb)
{
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!search_tt_alloc(&s->tt, hash_mb)) {
        free(s);
        return NULL;
    }
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            s->lmr[d][m] = (unsigned char)(0.75 + log(d) * log(m) / 2.25);
    return s;
}

void searcher_free(Searcher *s)
{
    if (!s)
        return;
    for (int i = 0; i <= MAX_PLY; i++) {
        turn_list_free(&s->ply[i].turns);
        free(s->ply[i].order);
    }
    free(s->keys);
    search_tt_free(&s->tt);
    free(s);
}

bool searcher_resize(Searcher *s, size_t hash_mb) { return search_tt_alloc(&s->tt, hash_mb); }

void searcher_clear(Searcher *s)
{
    search_tt_clear(&s->tt);
    memset(&s->history, 0, sizeof s->history);
    for (int i = 0; i <= MAX_PLY; i++)
        memset(s->ply[i].killers, 0, sizeof s->ply[i].killers);
}

/* ---- iterative deepening ------------------------------------------------------------------- */

static void fill_report(const Searcher *s, int depth, int score, int alpha, int beta,
                        SearchReport *r)
{
    r->depth = depth;
    r->seldepth = s->seldepth;
    r->score = score;
    r->mate = 0;
    if (score >= SCORE_MATE_BOUND)
        r->mate = (SCORE_MATE - score + 1) / 2;
    else if (score <= -SCORE_MATE_BOUND)
        r->mate = -((SCORE_MATE + score) / 2);
    r->lowerbound = score >= beta;
    r->upperbound = score <= alpha;
    r->nodes = s->budget.nodes;
    r->ms = search_limits_elapsed(&s->budget);
    r->hashfull = search_tt_hashfull(&s->tt);
    r->pv_len = s->pv_len[0];
    memcpy(r->pv, s->pv[0], (size_t)r->pv_len * sizeof(Turn));
}

static bool reserve_keys(Searcher *s, size_t n)
{
    if (n <= s->keys_cap)
        return true;
    u128 *k = realloc(s->keys, n * sizeof *k);
    if (!k)
        return false;
    s->keys = k;
    s->keys_cap = n;
    return true;
}

Turn search_run(Searcher *s, const SearchInput *in, SearchReport *final)
{
    Turn none = { { 0, 0 }, 0 };
    s->in = in;
    s->double_moves = in->rules->turns != TURNS_SINGLE;
    s->galvin = in->rules->turns == TURNS_GALVIN;
    s->seldepth = 0;
    s->root_best = none;
    s->tt.generation++;
    search_limits_start(&s->budget, &in->limits, position_side(in->root), in->stop);
    memset(s->pv_len, 0, sizeof s->pv_len);
    if (final)
        memset(final, 0, sizeof *final);

    /* the root's turns: none means the game is over; memory trouble means no search */
    PlyData *root = &s->ply[0];
    if (!search_tree_generate(s, in->root, &root->turns, false) || root->turns.n == 0 ||
        !reserve_keys(s, in->n_history + MAX_PLY + 1))
        return none;
    Turn fallback = root->turns.v[0];
    if (in->n_history)
        memcpy(s->keys, in->history, in->n_history * sizeof *s->keys);
    s->key_base = in->n_history;

    int max_depth =
        in->limits.depth > 0 && in->limits.depth < MAX_PLY ? in->limits.depth : MAX_PLY - 1;
    Turn best = none;
    int score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        s->root_depth = depth;
        int window = 30, alpha = -SCORE_INF, beta = SCORE_INF;
        if (depth >= 4 && abs(score) < SCORE_MATE_BOUND) {
            alpha = score - window;
            beta = score + window;
        }
        int v;
        for (;;) {
            s->seldepth = 0;
            v = search_tree_alphabeta(s, in->root, 0, depth, alpha, beta, false);
            if (s->budget.aborted)
                break;
            if (v <= alpha && alpha > -SCORE_INF) {
                beta = (alpha + beta) / 2;
                alpha = v - window > -SCORE_INF ? v - window : -SCORE_INF;
            } else if (v >= beta && beta < SCORE_INF) {
                beta = v + window < SCORE_INF ? v + window : SCORE_INF;
            } else {
                break;
            }
            window *= 2;
        }
        if (s->budget.aborted) {
            /* a turn that beat the previous best inside the unfinished iteration is better */
            if (s->root_best.n)
                best = s->root_best;
            break;
        }
        score = v;
        best = s->root_best.n ? s->root_best : best;
        SearchReport r;
        fill_report(s, depth, v, alpha, beta, &r);
        if (final)
            *final = r;
        if (in->report)
            in->report(&r, in->ctx);
        if (search_limits_soft_reached(&s->budget))
            break;
        /* with only one legal turn there is nothing to think about under a clock */
        if (root->turns.n == 1 && s->budget.hard_ms)
            break;
    }
    if (final)
        final->nodes = s->budget.nodes;
    return best.n ? best : fallback;
}

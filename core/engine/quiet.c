/* SPDX-License-Identifier: MIT */
/* The quiet leaf of a position (quiet.h). Not the search's quiescence (search_tree.c): that one
 * prunes for speed (delta pruning, the table's cuts, its limits) and may stop anywhere, where
 * this one must give the same leaf for the same position and evaluation every time, at a cost
 * that only matters once per extracted position. */
#include "quiet.h"

#include <stdlib.h>

/* A capture or promotion and its order key: the victim's value first, then the cheaper attacker. */
typedef struct Ordered {
    Move move;
    int key;
} Ordered;

static int by_key(const void *a, const void *b)
{
    int ka = ((const Ordered *)a)->key, kb = ((const Ordered *)b)->key;
    return (ka < kb) - (ka > kb);
}

/* The exchange values: the evaluation's middlegame material, the king above every exchange. */
static void exchange_values(const Eval *e, int values[TYPE_NB])
{
    for (int t = 0; t < TYPE_NB; t++)
        values[t] = e->params.value_mg[t];
    values[KING] = 100000;
}

static int order(const Position *p, const int *values, Ordered *out)
{
    Move moves[MAX_MOVES];
    int n = position_tactical_moves(p, moves), k = 0;
    for (int i = 0; i < n; i++) {
        if (position_see(p, moves[i], values) < 0)
            continue;
        Piece victim = position_piece_at(p, move_to(moves[i]));
        Piece mover = position_piece_at(p, move_from(moves[i]));
        int gain = move_kind(moves[i]) == MOVE_EN_PASSANT ? values[PAWN]
                   : victim != NO_PIECE                   ? values[piece_type(victim)]
                                                          : 0;
        if (move_kind(moves[i]) == MOVE_PROMOTION)
            gain += values[move_promo(moves[i])];
        out[k++] = (Ordered){ moves[i], gain * 16 - values[piece_type(mover)] / 64 };
    }
    qsort(out, (size_t)k, sizeof *out, by_key);
    return k;
}

static int qsearch(const Eval *e, const int *values, const Position *p, int alpha, int beta,
                   int ply, Position *leaf)
{
    int best = evaluate(e, p);
    *leaf = *p;
    if (best >= beta || ply >= QUIET_MAX_PLIES)
        return best;
    if (best > alpha)
        alpha = best;
    Ordered moves[MAX_MOVES];
    int n = order(p, values, moves);
    for (int i = 0; i < n; i++) {
        Position child, child_leaf;
        position_make(p, moves[i].move, &child);
        int v = -qsearch(e, values, &child, -beta, -alpha, ply + 1, &child_leaf);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                *leaf = child_leaf;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

int quiet_leaf(const Eval *e, const Position *p, Position *leaf)
{
    int values[TYPE_NB];
    exchange_values(e, values);
    return qsearch(e, values, p, -(1 << 30), 1 << 30, 0, leaf);
}

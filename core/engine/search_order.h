/* SPDX-License-Identifier: MIT */
/* The search's move ordering (private to the search's files): the hash turn, captures that do not
 * lose material (most valuable victim, least valuable attacker), two killer turns per ply, the
 * counter turn (the quiet turn that last cut off after the enemy's last turn), the
 * history of quiet turns that cut off (with the continuation histories after the turns one and
 * two plies before), and last the captures that lose material. What runs for
 * every turn searched (a turn's material gain, a comparison of turns) is inline. */
#ifndef CARRERA_SEARCH_ORDER_H
#define CARRERA_SEARCH_ORDER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "search.h"

typedef struct OrderItem {
    int score, index;
} OrderItem;

/* What each ply of the tree owns: its turn list, the order, and its killer turns. */
typedef struct PlyData {
    TurnList turns;
    OrderItem *order;
    size_t order_cap;
    Turn killers[2];
    int sorted_from; /* the order is sorted from this entry on (search_order_pick) */
} PlyData;

/* A piece of either colour as an index, 0 to PIECE_INDEX_NB - 1. */
#define PIECE_INDEX_NB (2 * TYPE_NB)

/* Continuation history below one earlier turn (its piece and target): by the quiet turn's piece
 * and target, how often it cut off lately after that turn. */
typedef short ContinuationRow[PIECE_INDEX_NB][MAX_SQUARES];

/* Per side, from-square and to-square: how often a quiet movement cut off lately; and the
 * continuation histories, one row per earlier turn's piece and target, which serve the turns one,
 * two, four and six plies before alike (single-move rules). */
typedef struct SearchHistory {
    int v[2][MAX_SQUARES][MAX_SQUARES];
    ContinuationRow cont[PIECE_INDEX_NB][MAX_SQUARES];
    Turn counter[PIECE_INDEX_NB][MAX_SQUARES]; /* after an enemy turn (its piece and target), the
                                                * quiet turn that last cut off (n 0: none) */
} SearchHistory;

/* How many earlier turns' continuation rows score a node's quiet turns: those one, two, four
 * and six plies before it (search_tree.c), as Stockfish's. */
#define ORDER_CONT_NB 4

/* The continuation rows that score a node's quiet turns (ORDER_CONT_NB of them), and the counter
 * turn's entry of the turn one ply before; NULL where there is none (the root, a null move, the
 * double-move rules). */
typedef struct OrderContext {
    ContinuationRow *cont[ORDER_CONT_NB];
    Turn *counter; /* the counter turn's entry of the turn one ply before (NULL: none) */
} OrderContext;

/* The piece index of p's piece on the from-square of m, its mover. */
static inline int search_order_mover(const Position *p, Move m)
{
    Piece pc = position_piece_at(p, move_from(m));
    return piece_color(pc) * TYPE_NB + piece_type(pc);
}

/* Above everything: the hash turn. */
#define SEARCH_ORDER_HASH (1 << 30)

/* Below every history score: captures that lose material, by what they lose. */
#define SEARCH_ORDER_LOSING (-(1 << 20))

/* Where the ordering has not looked at an exchange (search_order_exchange). */
#define SEARCH_ORDER_UNEXAMINED INT_MIN

/* Ordering values of the pieces (the king only matters in Galvin's game, where it is taken). */
extern const int search_order_value[TYPE_NB];

/* The value of what a turn takes (first movement on the mailbox sq of the position it is played
 * from; a second movement's target is an enemy piece there unless the first movement vacated or
 * took it, which cannot be an enemy piece) and of what it promotes to, 0 for a quiet turn;
 * *attacker the values of the pieces that move. */
static inline int search_order_turn_gain(const Piece *sq, const Turn *t, int us, int *attacker)
{
    int gain = 0;
    *attacker = 0;
    for (int i = 0; i < t->n; i++) {
        Move m = t->m[i];
        int kind = move_kind(m);
        if (kind == MOVE_CASTLING)
            continue;
        if (kind == MOVE_EN_PASSANT) {
            gain += search_order_value[PAWN];
        } else {
            Piece victim = sq[move_to(m)];
            if (victim != NO_PIECE && piece_color(victim) != us)
                gain += search_order_value[piece_type(victim)];
        }
        if (kind == MOVE_PROMOTION)
            gain += search_order_value[move_promo(m)] - search_order_value[PAWN];
        Piece mover = sq[move_from(m)];
        if (mover != NO_PIECE && piece_color(mover) == us)
            *attacker += search_order_value[piece_type(mover)];
    }
    return gain;
}

/* The same for a turn of p. */
static inline int search_order_gain(const Position *p, const Turn *t, int us, int *attacker)
{
    return search_order_turn_gain(position_mailbox(p), t, us, attacker);
}

/* What the exchange on its target square gives the capture placed by o, as far as its order score
 * tells: what a losing capture loses, 0 for one that does not lose material (and for every capture
 * of the double-move rules, which have no exchange evaluation); SEARCH_ORDER_UNEXAMINED for a quiet
 * turn and the hash turn, whose scores say nothing of it. */
static inline int search_order_exchange(const OrderItem *o, bool quiet)
{
    if (quiet || o->score == SEARCH_ORDER_HASH)
        return SEARCH_ORDER_UNEXAMINED;
    return o->score < SEARCH_ORDER_LOSING / 2 ? o->score - SEARCH_ORDER_LOSING : 0;
}

/* What search_order_turns is asked for: only the turns that capture or promote (quiet turns are
 * left out); only the quiet turns; turns of a double-move rule set (no exchange evaluation: their
 * captures come in twos); the hash turn has been searched already and is left out. */
enum { ORDER_TACTICAL = 1, ORDER_QUIET = 2, ORDER_DOUBLE = 4, ORDER_HASH_DONE = 8 };

/* Orders the ply's turns (pd->turns of p) as the top says, hash_turn (may be NULL) first, as flags
 * ask. keep > 0: only the best keep turns are kept. Returns the number of entries of the ply's
 * order; when memory runs out, 0 (nothing ordered, nothing searched). */
int search_order_turns(PlyData *pd, const Position *p, const Turn *hash_turn, unsigned flags,
                       int keep, const SearchHistory *h, const OrderContext *c);

/* The k-th turn in order: the best of order[k..count) is moved into place first. */
const Turn *search_order_pick(PlyData *pd, int k, int count);

/* The quiet turn t of p cut off at depth: it becomes the ply's first killer and c's counter
 * turn, its histories (c's continuation rows too) rise, and those of the quiet turns
 * tried[0..n_tried) before it fall. */
void search_order_cut(PlyData *pd, SearchHistory *h, const OrderContext *c, const Position *p,
                      const Turn *t, int depth, const Turn *tried, int n_tried);

/* The quiet turn of mover (piece index) to square to, made just before a node that failed low at
 * depth: the continuation rows of c (its own context) rise for it, since it left the other side
 * nothing (Stockfish's bonus for the prior counter turn). */
void search_order_prior_fail_low(const OrderContext *c, int mover, int to, int depth);

#endif

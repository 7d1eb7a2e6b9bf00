/* SPDX-License-Identifier: MIT */
/* The engine's search (search.h). Alpha-beta over complete turns: under single-move rules a turn
 * is one move and the generator's legal moves are used directly; under the double-move rules the
 * turn generator of turn.h supplies complete turns, so a first-movement check ending the turn,
 * the en passant rules and every rule set's game ends are exactly those of perft. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "search.h"

#include "game.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- transposition table ------------------------------------------------------------------- */

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* 16 bytes; four to a 64-byte bucket. The slot comes from the key's low half, check from its
 * high half, so a wrong hit needs a 96-bit collision. A turn is stored as its two movements
 * (m2 == 0 for a one-movement turn). */
typedef struct TTEntry {
    uint32_t check;
    uint32_t m1, m2;
    int16_t score;
    uint8_t depth;
    uint8_t flags; /* bound in bits 0-1, generation in bits 2-7 */
} TTEntry;

#define BUCKET_SIZE 4
typedef struct TTBucket {
    TTEntry e[BUCKET_SIZE];
} TTBucket;

typedef struct OrderItem {
    int score, index;
} OrderItem;

/* What each ply of the tree owns: its turn list, the order, and its killer turns. */
typedef struct PlyData {
    TurnList turns;
    OrderItem *order;
    size_t order_cap;
    Turn killers[2];
} PlyData;

struct Searcher {
    TTBucket *tt;
    size_t n_buckets;
    uint8_t generation;
    int history[2][MAX_SQUARES][MAX_SQUARES];
    PlyData ply[MAX_PLY + 1];
    u128 *keys; /* the game's keys before the root, then the keys along the current path */
    size_t keys_cap, key_base;
    Turn pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    unsigned char lmr[64][64];

    /* the search in progress */
    const SearchInput *in;
    bool double_moves, galvin;
    uint64_t nodes, node_limit;
    int seldepth, root_depth;
    bool aborted;
    int64_t start_ms, hard_ms;
    Turn root_best;
};

/* Ordering values of the pieces (the king only matters in Galvin's game, where it is taken). */
static const int order_value[TYPE_NB] = { 0, 100, 300, 350, 475, 875, 900, 950, 5000 };

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool tt_alloc(Searcher *s, size_t hash_mb)
{
    size_t n = hash_mb * 1024 * 1024 / sizeof(TTBucket);
    if (n == 0)
        n = 1;
    TTBucket *tt = calloc(n, sizeof *tt);
    if (!tt)
        return false;
    free(s->tt);
    s->tt = tt;
    s->n_buckets = n;
    return true;
}

static TTBucket *tt_bucket(const Searcher *s, u128 key)
{
    /* multiply-shift maps the key onto any number of buckets without a division */
    return &s->tt[(size_t)(((unsigned __int128)(uint64_t)key * s->n_buckets) >> 64)];
}

static uint32_t tt_check(u128 key) { return (uint32_t)(key >> 96); }

static int score_to_tt(int v, int ply)
{
    return v >= SCORE_MATE_BOUND ? v + ply : v <= -SCORE_MATE_BOUND ? v - ply : v;
}

static int score_from_tt(int v, int ply)
{
    return v >= SCORE_MATE_BOUND ? v - ply : v <= -SCORE_MATE_BOUND ? v + ply : v;
}

static const TTEntry *tt_probe(const Searcher *s, u128 key)
{
    const TTBucket *b = tt_bucket(s, key);
    uint32_t check = tt_check(key);
    for (int i = 0; i < BUCKET_SIZE; i++)
        if (b->e[i].check == check && b->e[i].m1 != 0)
            return &b->e[i];
    return NULL;
}

static void tt_store(Searcher *s, u128 key, int depth, int score, int bound, const Turn *t)
{
    TTBucket *b = tt_bucket(s, key);
    uint32_t check = tt_check(key);
    TTEntry *slot = &b->e[0];
    int worst = INT32_MAX;
    for (int i = 0; i < BUCKET_SIZE; i++) {
        TTEntry *e = &b->e[i];
        if (e->m1 == 0 || e->check == check) {
            slot = e;
            break;
        }
        /* replace the shallowest entry, entries of earlier searches first */
        int stale = ((e->flags >> 2) != (s->generation & 63)) ? 256 : 0;
        if (e->depth - stale < worst) {
            worst = e->depth - stale;
            slot = e;
        }
    }
    if (slot->check == check && slot->m1 != 0 && t->n == 0) {
        /* keep the turn an earlier search found for this position */
    } else if (t->n > 0) {
        slot->m1 = t->m[0];
        slot->m2 = t->n == 2 ? t->m[1] : 0;
    } else {
        return; /* nothing worth keeping: no turn and no entry to refresh */
    }
    slot->check = check;
    slot->score = (int16_t)score;
    slot->depth = (uint8_t)(depth < 0 ? 0 : depth);
    slot->flags = (uint8_t)(bound | ((s->generation & 63) << 2));
}

static Turn tt_turn(const TTEntry *e)
{
    Turn t = { { e->m1, e->m2 }, e->m2 ? 2 : 1 };
    return t;
}

static int hashfull(const Searcher *s)
{
    size_t buckets = s->n_buckets < 250 ? s->n_buckets : 250, used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int j = 0; j < BUCKET_SIZE; j++)
            used += s->tt[i].e[j].m1 != 0 && (s->tt[i].e[j].flags >> 2) == (s->generation & 63);
    return (int)(used * 1000 / (buckets * BUCKET_SIZE));
}

/* ---- life cycle ---------------------------------------------------------------------------- */

Searcher *searcher_new(size_t hash_mb)
{
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!tt_alloc(s, hash_mb)) {
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
    free(s->tt);
    free(s);
}

bool searcher_resize(Searcher *s, size_t hash_mb) { return tt_alloc(s, hash_mb); }

void searcher_clear(Searcher *s)
{
    memset(s->tt, 0, s->n_buckets * sizeof *s->tt);
    memset(s->history, 0, sizeof s->history);
    for (int i = 0; i <= MAX_PLY; i++)
        memset(s->ply[i].killers, 0, sizeof s->ply[i].killers);
    s->generation = 0;
}

/* ---- limits -------------------------------------------------------------------------------- */

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

static bool out_of_budget(Searcher *s)
{
    if (s->aborted)
        return true;
    if (s->node_limit && s->nodes >= s->node_limit) {
        s->aborted = true;
    } else if ((s->nodes & 1023) == 0) {
        if ((s->in->stop && atomic_load_explicit(s->in->stop, memory_order_relaxed)) ||
            (s->hard_ms && now_ms() - s->start_ms >= s->hard_ms))
            s->aborted = true;
    }
    return s->aborted;
}

/* ---- turns --------------------------------------------------------------------------------- */

static bool turn_equal(const Turn *a, const Turn *b)
{
    return a->n == b->n && a->m[0] == b->m[0] && (a->n == 1 || a->m[1] == b->m[1]);
}

/* Every legal turn of p into the ply's list, or under single-move rules with tactical only the
 * captures and promotions (quiescence out of check); false when memory runs out (treated as no
 * turn: the search then scores the node by its game end, which turn.h computes without the
 * list). */
static bool generate(Searcher *s, const Position *p, TurnList *list, bool tactical)
{
    if (!s->double_moves) {
        if (list->cap < MAX_MOVES) {
            Turn *v = realloc(list->v, MAX_MOVES * sizeof *v);
            if (!v)
                return false;
            list->v = v;
            list->cap = MAX_MOVES;
        }
        Move moves[MAX_MOVES];
        int n = tactical ? position_tactical_moves(p, moves) : position_legal_moves(p, moves);
        for (int i = 0; i < n; i++)
            list->v[i] = (Turn){ { moves[i], MOVE_NONE }, 1 };
        list->n = (size_t)n;
        return true;
    }
    return position_turns(p, s->in->rules, list);
}

static void make_turn(const Searcher *s, const Position *p, const Turn *t, Position *out)
{
    if (!s->double_moves)
        position_make(p, t->m[0], out);
    else
        position_make_turn(p, s->in->rules, t, out);
}

/* The value of what a turn takes (first movement on p; a second movement's target is an enemy
 * piece of p unless the first movement vacated or took it, which cannot be an enemy piece) and
 * of what it promotes to; 0 for a quiet turn. */
static int tactical_gain(const Position *p, const Turn *t, int us, int *attacker)
{
    int gain = 0;
    *attacker = 0;
    for (int i = 0; i < t->n; i++) {
        Move m = t->m[i];
        int kind = move_kind(m);
        if (kind == MOVE_CASTLING)
            continue;
        if (kind == MOVE_EN_PASSANT) {
            gain += order_value[PAWN];
        } else {
            Piece victim = position_piece_at(p, move_to(m));
            if (victim != NO_PIECE && piece_color(victim) != us)
                gain += order_value[piece_type(victim)];
        }
        if (kind == MOVE_PROMOTION)
            gain += order_value[move_promo(m)] - order_value[PAWN];
        Piece mover = position_piece_at(p, move_from(m));
        if (mover != NO_PIECE && piece_color(mover) == us)
            *attacker += order_value[piece_type(mover)];
    }
    return gain;
}

#define LAZY_ORDER_MAX 256

static int cmp_order(const void *a, const void *b)
{
    const OrderItem *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->index - y->index;
}

/* Below every history score: captures that lose material. */
#define LOSING_CAPTURE (-(1 << 20))

/* Orders the ply's turns: the hash turn, captures that do not lose material (most valuable
 * victim, least valuable attacker), killers, then by history, then losing captures. With
 * only_tactical, quiet turns are left out. Returns the number of entries of the ply's order;
 * false-free: memory failure orders nothing. */
static int order_turns(Searcher *s, PlyData *pd, const Position *p, const Turn *hash_turn,
                       bool only_tactical)
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
        int attacker, gain = tactical_gain(p, t, us, &attacker), score;
        if (only_tactical && gain == 0)
            continue;
        if (hash_turn && turn_equal(t, hash_turn))
            score = 1 << 30;
        else if (gain > 0) {
            /* under single-move rules a capture that loses material in the exchange goes
             * after the quiet turns (and is not searched in quiescence) */
            /* taking at least what it risks never loses material (a promotion can: the new
             * piece is what stands on the square) */
            bool safe = gain >= attacker && move_kind(t->m[0]) != MOVE_PROMOTION;
            int exchange = s->double_moves || safe ? 0 : position_see(p, t->m[0], order_value);
            score =
                exchange >= 0 ? (1 << 24) + gain * 16 - attacker / 16 : LOSING_CAPTURE + exchange;
        } else if (turn_equal(t, &pd->killers[0]))
            score = (1 << 23) + 1;
        else if (turn_equal(t, &pd->killers[1]))
            score = 1 << 23;
        else {
            score = s->history[us][move_from(t->m[0])][move_to(t->m[0])];
            if (t->n == 2)
                score += s->history[us][move_from(t->m[1])][move_to(t->m[1])];
        }
        pd->order[count++] = (OrderItem){ score, (int)i };
    }
    /* Long lists (the double-move rules) are sorted at once; short ones are picked one at a time
     * by pick(), since most nodes cut off after a turn or two. */
    if (count > LAZY_ORDER_MAX)
        qsort(pd->order, (size_t)count, sizeof *pd->order, cmp_order);
    return count;
}

/* The k-th turn in order: the best of order[k..count) is swapped into place first. */
static const Turn *pick(PlyData *pd, int k, int count)
{
    if (count <= LAZY_ORDER_MAX) {
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
static void update_history(Searcher *s, int us, const Turn *t, int bonus)
{
    for (int i = 0; i < t->n; i++) {
        int *h = &s->history[us][move_from(t->m[i])][move_to(t->m[i])];
        *h += bonus - *h * abs(bonus) / 16384;
    }
}

static void update_quiet_cut(Searcher *s, PlyData *pd, int us, const Turn *t, int depth,
                             const Turn *tried, int n_tried)
{
    if (!turn_equal(t, &pd->killers[0])) {
        pd->killers[1] = pd->killers[0];
        pd->killers[0] = *t;
    }
    int bonus = depth * depth > 1200 ? 1200 : depth * depth;
    update_history(s, us, t, bonus);
    for (int i = 0; i < n_tried; i++)
        update_history(s, us, &tried[i], -bonus);
}

/* ---- the tree ------------------------------------------------------------------------------ */

/* Whether the position at keys[at] is drawn by rule or repeats one since the last irreversible
 * turn (a single repetition inside the tree is enough: it can be repeated again). */
static bool drawn(const Searcher *s, const Position *p, size_t at)
{
    int clock = position_halfmove(p);
    if (clock >= 100 || position_insufficient_material(p, s->in->rules))
        return true;
    u128 key = s->keys[at];
    for (size_t back = 2; back <= (size_t)clock && back <= at; back += 2)
        if (s->keys[at - back] == key)
            return true;
    return false;
}

/* The score of a node without turns, from the side to move: lost (checkmate, Galvin's king
 * capture) or drawn (stalemate). */
static int end_score(const Searcher *s, const Position *p, int ply)
{
    return position_game_end(p, s->in->rules) == GAME_STALEMATE ? 0 : -SCORE_MATE + ply;
}

/* Whether the side to move has something besides pawns and king (null move is unsafe in pawn
 * endings, where zugzwang is the rule). */
static bool has_pieces(const Position *p)
{
    int us = position_side(p);
    if (p->variant->files == 10) {
        const Board80 *b = &p->u.b10.board;
        return (b->by_color[us] & ~(b->by_type[PAWN] | b->by_type[KING])) != 0;
    }
    const Board64 *b = &p->u.b8.board;
    return (b->by_color[us] & ~(b->by_type[PAWN] | b->by_type[KING])) != 0;
}

static void copy_pv(Searcher *s, int ply, const Turn *t)
{
    s->pv[ply][0] = *t;
    int len = ply + 1 <= MAX_PLY ? s->pv_len[ply + 1] : 0;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)len * sizeof(Turn));
    s->pv_len[ply] = len + 1;
}

static int evaluate_node(const Searcher *s, const Position *p) { return evaluate(s->in->eval, p); }

/* The double-move rules generate every turn to find the captures; two turns of quiescence
 * settle the exchanges that matter at a fraction of that cost. */
#define DOUBLE_QDEPTH 2

static int qsearch(Searcher *s, const Position *p, int ply, int alpha, int beta, int qdepth)
{
    s->pv_len[ply] = 0;
    if (out_of_budget(s))
        return 0;
    s->nodes++;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (ply >= MAX_PLY - 1)
        return evaluate_node(s, p);
    if (position_insufficient_material(p, s->in->rules))
        return 0;

    /* Galvin's game has no check: a king attacked at the start of its turn simply moves. */
    bool in_check = !s->galvin && position_in_check(p);
    int best = -SCORE_INF, stand = 0;
    if (!in_check) {
        stand = evaluate_node(s, p);
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        best = stand;
        if (s->double_moves && qdepth >= DOUBLE_QDEPTH)
            return stand;
    }
    PlyData *pd = &s->ply[ply];
    if (!in_check && !s->double_moves) {
        /* only the tactical moves; without any, the stand-pat stands (a stalemate goes unseen
         * here, as in most engines' quiescence: finding one would cost every leaf its full
         * move generation) */
        if (!generate(s, p, &pd->turns, true) || pd->turns.n == 0)
            return stand;
    } else if (!generate(s, p, &pd->turns, false) || pd->turns.n == 0) {
        return end_score(s, p, ply);
    }
    int n = order_turns(s, pd, p, NULL, !in_check);
    int us = position_side(p);
    for (int k = 0; k < n; k++) {
        const Turn *t = pick(pd, k, n);
        if (!in_check && pd->order[k].score < LOSING_CAPTURE / 2)
            break; /* the rest lose material in the exchange */
        if (!in_check) {
            int attacker, gain = tactical_gain(p, t, us, &attacker);
            if (stand + gain + 200 <= alpha)
                continue; /* delta pruning: even winning it cleanly does not reach alpha */
        }
        Position child;
        make_turn(s, p, t, &child);
        int v = -qsearch(s, &child, ply + 1, -beta, -alpha, qdepth + 1);
        if (s->aborted)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                copy_pv(s, ply, t);
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

static int search(Searcher *s, const Position *p, int ply, int depth, int alpha, int beta,
                  bool null_ok)
{
    if (depth <= 0)
        return qsearch(s, p, ply, alpha, beta, 0);
    s->pv_len[ply] = 0;
    if (out_of_budget(s))
        return 0;
    s->nodes++;
    const bool pv_node = beta - alpha > 1, root = ply == 0;
    size_t at = s->key_base + (size_t)ply;
    u128 key = position_key128(p);
    s->keys[at] = key;
    if (!root) {
        if (drawn(s, p, at))
            return 0;
        if (ply >= MAX_PLY - 1)
            return evaluate_node(s, p);
        /* no mate found deeper can beat one already proven shallower */
        if (alpha < -SCORE_MATE + ply)
            alpha = -SCORE_MATE + ply;
        if (beta > SCORE_MATE - ply - 1)
            beta = SCORE_MATE - ply - 1;
        if (alpha >= beta)
            return alpha;
    }

    const TTEntry *e = tt_probe(s, key);
    Turn hash_turn = { { 0, 0 }, 0 };
    if (e) {
        hash_turn = tt_turn(e);
        int v = score_from_tt(e->score, ply), bound = e->flags & 3;
        if (!pv_node && e->depth >= depth &&
            (bound == BOUND_EXACT || (bound == BOUND_LOWER && v >= beta) ||
             (bound == BOUND_UPPER && v <= alpha)))
            return v;
    }

    const bool in_check = position_in_check(p);
    const int us = position_side(p);
    int static_eval = in_check ? -SCORE_INF : evaluate_node(s, p);
    if (!pv_node && !in_check) {
        /* reverse futility: far above beta near the horizon, the opponent will not come back */
        if (depth <= 3 && static_eval - 150 * depth >= beta && abs(beta) < SCORE_MATE_BOUND)
            return static_eval;
        if (null_ok && depth >= 3 && static_eval >= beta && has_pieces(p) &&
            !position_first_turn(p, s->in->rules)) {
            Position child;
            position_make_null(p, &child);
            int r = 3 + depth / 4;
            int v = -search(s, &child, ply + 1, depth - 1 - r, -beta, -beta + 1, false);
            if (s->aborted)
                return 0;
            if (v >= beta)
                return v >= SCORE_MATE_BOUND ? beta : v;
        }
    }

    PlyData *pd = &s->ply[ply];
    if (!generate(s, p, &pd->turns, false) || pd->turns.n == 0)
        return end_score(s, p, ply);
    int n = order_turns(s, pd, p, hash_turn.n ? &hash_turn : NULL, false);

    int best = -SCORE_INF, bound = BOUND_UPPER, done = 0, n_quiet = 0;
    Turn best_turn = { { 0, 0 }, 0 }, quiet_tried[64];
    for (int k = 0; k < n; k++) {
        const Turn t = *pick(pd, k, n);
        int attacker;
        bool quiet = tactical_gain(p, &t, us, &attacker) == 0;
        Position child;
        make_turn(s, p, &t, &child);
        bool gives_check = position_in_check(&child);
        int new_depth = depth - 1 + (gives_check && ply < 2 * s->root_depth ? 1 : 0);

        /* late quiet turns near the horizon, far below alpha, are not worth a search */
        if (!pv_node && !in_check && quiet && !gives_check && done > 0 && depth <= 2 &&
            static_eval + 120 * depth <= alpha && abs(alpha) < SCORE_MATE_BOUND)
            continue;

        int v;
        if (done == 0) {
            v = -search(s, &child, ply + 1, new_depth, -beta, -alpha, true);
        } else {
            int r = 0;
            if (depth >= 3 && done >= 3 && quiet && !in_check && !gives_check) {
                r = s->lmr[depth < 64 ? depth : 63][done < 64 ? done : 63];
                if (pv_node)
                    r--;
                if (turn_equal(&t, &pd->killers[0]) || turn_equal(&t, &pd->killers[1]))
                    r--;
                if (r > new_depth - 1)
                    r = new_depth - 1;
                if (r < 0)
                    r = 0;
            }
            v = -search(s, &child, ply + 1, new_depth - r, -alpha - 1, -alpha, true);
            if (v > alpha && r > 0 && !s->aborted)
                v = -search(s, &child, ply + 1, new_depth, -alpha - 1, -alpha, true);
            if (v > alpha && v < beta && !s->aborted)
                v = -search(s, &child, ply + 1, new_depth, -beta, -alpha, true);
        }
        if (s->aborted)
            return 0;
        done++;
        if (v > best) {
            best = v;
            best_turn = t;
            if (v > alpha) {
                alpha = v;
                bound = BOUND_EXACT;
                copy_pv(s, ply, &t);
                if (root)
                    s->root_best = t;
                if (v >= beta) {
                    bound = BOUND_LOWER;
                    if (quiet)
                        update_quiet_cut(s, pd, us, &t, depth, quiet_tried, n_quiet);
                    break;
                }
            }
        }
        if (quiet && n_quiet < 64)
            quiet_tried[n_quiet++] = t;
    }
    if (done == 0)
        return static_eval; /* every turn was pruned: the position is as bad as it looks */
    tt_store(s, key, depth, score_to_tt(best, ply), bound, &best_turn);
    return best;
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
    r->nodes = s->nodes;
    r->ms = now_ms() - s->start_ms;
    r->hashfull = hashfull(s);
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
    s->nodes = 0;
    s->seldepth = 0;
    s->aborted = false;
    s->root_best = none;
    s->generation++;
    s->start_ms = now_ms();
    s->node_limit = in->limits.nodes;
    int64_t soft;
    s->hard_ms = search_time_budget(&in->limits, position_side(in->root), &soft);
    memset(s->pv_len, 0, sizeof s->pv_len);
    if (final)
        memset(final, 0, sizeof *final);

    /* the root's turns: none means the game is over; memory trouble means no search */
    PlyData *root = &s->ply[0];
    if (!generate(s, in->root, &root->turns, false) || root->turns.n == 0 ||
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
            v = search(s, in->root, 0, depth, alpha, beta, false);
            if (s->aborted)
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
        if (s->aborted) {
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
        if (soft && now_ms() - s->start_ms >= soft)
            break;
        /* with only one legal turn there is nothing to think about under a clock */
        if (root->turns.n == 1 && s->hard_ms)
            break;
    }
    if (final)
        final->nodes = s->nodes;
    return best.n ? best : fallback;
}

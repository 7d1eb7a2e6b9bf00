/* SPDX-License-Identifier: MIT */
/* The search's tree (search_internal.h): principal variation search over complete turns with
 * null move, reverse futility and futility pruning, internal iterative reduction, late move
 * reductions, a check extension, mate-distance pruning and draws by rule or repetition, and below
 * it quiescence, which uses the table too. Under
 * single-move rules a turn is one move and the generator's legal moves are used directly; under
 * the double-move rules the turn generator of turn.h supplies complete turns, so a first-movement
 * check ending the turn, the en passant rules and every rule set's game ends are exactly those of
 * perft. */
#include "search_internal.h"

#include <stdlib.h>
#include <string.h>

#include "game.h"

/* The generator's own list under single-move rules (no turn lists to build), complete turns under
 * the double-move rules. */
bool search_tree_generate(Searcher *s, const Position *p, TurnList *list, bool tactical)
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
    return tactical ? position_tactical_turns(p, s->in->rules, list)
                    : position_turns(p, s->in->rules, list);
}

static void make_turn(const Searcher *s, const Position *p, const Turn *t, Position *out)
{
    if (!s->double_moves)
        position_make(p, t->m[0], out);
    else
        position_make_turn(p, s->in->rules, t, out);
}

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

/* Whether the side of colour c has its king (Galvin's game may have taken it). */
static bool has_king(const Position *p, int c)
{
    if (p->variant->files == 10) {
        const Board80 *b = &p->u.b10.board;
        return (b->by_color[c] & b->by_type[KING]) != 0;
    }
    const Board64 *b = &p->u.b8.board;
    return (b->by_color[c] & b->by_type[KING]) != 0;
}

/* Galvin's game, where a king is taken: the score of a node settled by a king without listing
 * its turns, 0 when none is. Lost when the side to move has lost its king; won (as the child's
 * lost king scores it) when its turn takes the other: it attacks that king now, or one movement
 * attacks it and a second movement follows to take it (not on White's one-movement first turn).
 * What position_king_in_reach misses is found where the turns are listed; only a quiescence
 * leaf's stand-pat overlooks it. */
static int galvin_king_score(const Searcher *s, const Position *p, int ply)
{
    if (!s->galvin)
        return 0;
    if (!has_king(p, position_side(p)))
        return -SCORE_MATE + ply;
    if (position_king_in_reach(p, !position_first_turn(p, s->in->rules)))
        return SCORE_MATE - ply - 1;
    return 0;
}

static void copy_pv(Searcher *s, int ply, const Turn *t)
{
    s->pv[ply][0] = *t;
    int len = ply + 1 <= MAX_PLY ? s->pv_len[ply + 1] : 0;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)len * sizeof(Turn));
    s->pv_len[ply] = len + 1;
}

static int evaluate_node(const Searcher *s, const Position *p) { return evaluate(s->in->eval, p); }

/* The continuation rows of the node at ply: those of the turns one, two, four and six plies
 * before it. */
static OrderContext order_context(Searcher *s, int ply)
{
    static const int plies_back[ORDER_CONT_NB] = { 1, 2, 4, 6 };
    OrderContext c = { { NULL }, NULL };
    for (int i = 0; i < ORDER_CONT_NB && !s->double_moves; i++) {
        int back = ply - plies_back[i];
        if (back >= 0 && s->moved[back] >= 0) {
            const int piece = s->moved[back] / MAX_SQUARES, to = s->moved[back] % MAX_SQUARES;
            c.cont[i] = &s->history.cont[piece][to];
            if (i == 0)
                c.counter = &s->history.counter[piece][to];
        }
    }
    return c;
}

/* Records the turn t of p made at ply, for the continuation histories below it. */
static void note_moved(Searcher *s, int ply, const Position *p, const Turn *t)
{
    s->moved[ply] = search_order_mover(p, t->m[0]) * MAX_SQUARES + move_to(t->m[0]);
}

/* The margins and depths of the pruning, the reductions and the extensions are the search's
 * parameters (search_params.h), s->params. */

/* Singular extensions: the table's lower bound on the hash turn may come from at most this many
 * plies shallower than the node. */
#define SINGULAR_SLACK 3

/* The double-move rules generate every turn to find the captures; two turns of quiescence
 * settle the exchanges that matter at a fraction of that cost. */
#define DOUBLE_QDEPTH 2

/* Under the double-move rules the hash turn is searched before the node's turns are listed:
 * listing hundreds of them costs more than most nodes' search, and the hash turn often cuts off
 * alone. It has to be a turn of p (the table may hold another position's under the same index) and
 * with tactical a capture or promotion, the only turns searched then. Returns 1 when the hash turn
 * comes first this way, 0 when it is ordered with the rest. */
static int hash_first(const Searcher *s, const Position *p, const Turn *hash_turn, bool tactical)
{
    int attacker;
    if (!s->double_moves || !hash_turn->n ||
        (tactical && search_order_gain(p, hash_turn, position_side(p), &attacker) == 0))
        return 0;
    return position_turn_legal(p, s->in->rules, hash_turn) ? 1 : 0;
}

/* Stores a node's result in the table: best from the node at ply, searched to depth (0 in
 * quiescence), its bound and best turn. A node that failed low stores no turn, since every turn's
 * score there is only a bound (the table keeps the turn an earlier search found for the
 * position), as Stockfish stores. */
static void store_node(Searcher *s, u128 key, int depth, int ply, int best, int bound,
                       const Turn *best_turn)
{
    static const Turn no_turn = { { MOVE_NONE, MOVE_NONE }, 0 };
    search_tt_store(s->tt, key, depth, search_tt_score_in(best, ply), bound,
                    bound == BOUND_UPPER ? &no_turn : best_turn);
}

/* Whether a table score with this bound settles a node searched in the window (alpha, beta). */
static bool tt_settles(int bound, int score, int alpha, int beta)
{
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && score >= beta) ||
           (bound == BOUND_UPPER && score <= alpha);
}

static int qsearch(Searcher *s, const Position *p, int ply, int alpha, int beta, int qdepth);

/* Whether the side to move is in check: never in Galvin's game, which has no check (an attacked
 * king is a threat like any other, met with the turn's two movements). */
static bool node_in_check(const Searcher *s, const Position *p)
{
    return !s->galvin && position_in_check(p);
}

/* Quiescence's search of turn t of p (at ply): its score taken into best, best_turn and alpha, and
 * its line into the PV when it raises alpha. False when the search was stopped. */
static bool qsearch_turn(Searcher *s, const Position *p, int ply, const Turn *t, int beta,
                         int qdepth, int *alpha, int *best, Turn *best_turn)
{
    Position child;
    make_turn(s, p, t, &child);
    if (s->double_moves && !search_made_first(&s->made[ply], position_key128(&child)))
        return true; /* another way to a position searched from here already */
    note_moved(s, ply, p, t);
    int v = -qsearch(s, &child, ply + 1, -beta, -*alpha, qdepth + 1);
    if (s->budget.aborted)
        return false;
    if (v > *best) {
        *best = v;
        *best_turn = *t;
        if (v > *alpha) {
            *alpha = v;
            copy_pv(s, ply, t);
        }
    }
    return true;
}

static int qsearch(Searcher *s, const Position *p, int ply, int alpha, int beta, int qdepth)
{
    s->pv_len[ply] = 0;
    if (search_limits_reached(&s->budget))
        return 0;
    s->budget.nodes++;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (ply >= MAX_PLY - 1)
        return evaluate_node(s, p);
    if (position_insufficient_material(p, s->in->rules))
        return 0;
    const int king_score = galvin_king_score(s, p, ply);
    if (king_score)
        return king_score;

    /* the table: a bound that settles the node outside the principal variation, else a turn to
     * try first */
    const bool pv_node = beta - alpha > 1;
    const int alpha_in = alpha;
    const u128 key = position_key128(p);
    TTEntry hit;
    const TTEntry *e = search_tt_probe(s->tt, key, &hit);
    Turn hash_turn = { { 0, 0 }, 0 }, best_turn = { { 0, 0 }, 0 };
    int tt_score = 0, tt_bound = 0;
    if (e) {
        hash_turn = search_tt_turn(e);
        tt_score = search_tt_score_out(e->score, ply);
        tt_bound = e->flags & 3;
        if (!pv_node && tt_settles(tt_bound, tt_score, alpha, beta))
            return tt_score;
    }

    bool in_check = node_in_check(s, p);
    int best = -SCORE_INF, stand = 0;
    if (!in_check) {
        stand = evaluate_node(s, p);
        /* the table's bound on this node stands for the evaluation where it says more
         * (single-move rules, as Stockfish's quiescence) */
        if (!s->double_moves && (tt_bound & (tt_score > stand ? BOUND_LOWER : BOUND_UPPER)))
            stand = tt_score;
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        best = stand;
        if (s->double_moves && qdepth >= DOUBLE_QDEPTH)
            return stand;
    }
    /* at the first ply, after the captures, the quiet turns that give check (below) */
    const bool checks = qdepth == 0 && !in_check && !s->double_moves;
    PlyData *pd = &s->ply[ply];
    const int us = position_side(p);
    const int off = hash_first(s, p, &hash_turn, !in_check);
    OrderContext oc = order_context(s, ply);
    int n = off;
    if (s->double_moves)
        search_made_new_node(&s->made[ply]);
    for (int k = 0;; k++) {
        if (k == off) { /* the list, after the hash turn when that came first */
            const bool tactical = !in_check;
            if (!search_tree_generate(s, p, &pd->turns, tactical)) {
                if (off)
                    break;
                return tactical && !s->double_moves ? stand : end_score(s, p, ply);
            }
            /* under single-move rules only the tactical moves; without any, the stand-pat
             * stands (a stalemate goes unseen here, as in most engines' quiescence: finding one
             * would cost every leaf its full move generation) */
            if (!off && pd->turns.n == 0) {
                if (tactical && !s->double_moves) {
                    if (!checks)
                        return stand;
                    break;
                }
                if (!tactical || position_game_end(p, s->in->rules) != GAME_ON)
                    return end_score(s, p, ply);
            }
            const unsigned flags = (tactical ? ORDER_TACTICAL : 0) |
                                   (s->double_moves ? ORDER_DOUBLE : 0) |
                                   (off ? ORDER_HASH_DONE : 0);
            n = off + search_order_turns(pd, p, hash_turn.n ? &hash_turn : NULL, flags,
                                         tactical && s->double_moves ? s->qturns - off : 0,
                                         &s->history, &oc);
        }
        if (k >= n)
            break;
        const Turn *t = k < off ? &hash_turn : search_order_pick(pd, k - off, n - off);
        if (!in_check && k >= off && pd->order[k - off].score < SEARCH_ORDER_LOSING / 2)
            break; /* the rest lose material in the exchange */
        if (!in_check) {
            int attacker, gain = search_order_gain(p, t, us, &attacker);
            if (stand + gain + s->params.delta_margin <= alpha)
                continue; /* delta pruning: even winning it cleanly does not reach alpha */
        }
        if (!qsearch_turn(s, p, ply, t, beta, qdepth, &alpha, &best, &best_turn))
            return 0;
        if (best >= beta)
            break;
    }
    /* Quiet checks (Stockfish's first quiescence ply): a check the captures alone would not see
     * may mate, or win what the evasion leaves; the checking piece must not be lost for nothing
     * in the exchange on its square. */
    if (checks && best < beta) {
        Move quiet_checks[MAX_MOVES];
        const int nc = position_quiet_checks(p, quiet_checks);
        for (int i = 0; i < nc && best < beta; i++) {
            if (position_see(p, quiet_checks[i], search_order_value) < 0)
                continue;
            const Turn t = { { quiet_checks[i], MOVE_NONE }, 1 };
            if (!qsearch_turn(s, p, ply, &t, beta, qdepth, &alpha, &best, &best_turn))
                return 0;
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > alpha_in ? BOUND_EXACT : BOUND_UPPER;
    store_node(s, key, 0, ply, best, bound, &best_turn);
    return best;
}

int search_tree_alphabeta(Searcher *s, const Position *p, int ply, int depth, int alpha, int beta,
                          bool null_ok)
{
    if (depth <= 0)
        return qsearch(s, p, ply, alpha, beta, 0);
    s->pv_len[ply] = 0;
    if (search_limits_reached(&s->budget))
        return 0;
    s->budget.nodes++;
    const bool pv_node = beta - alpha > 1, root = ply == 0;
    size_t at = s->key_base + (size_t)ply;
    u128 key = position_key128(p);
    s->keys[at] = key;
    if (!root) {
        if (drawn(s, p, at))
            return 0;
        if (ply >= MAX_PLY - 1)
            return evaluate_node(s, p);
        const int king_score = galvin_king_score(s, p, ply);
        if (king_score)
            return king_score;
        /* no mate found deeper can beat one already proven shallower */
        if (alpha < -SCORE_MATE + ply)
            alpha = -SCORE_MATE + ply;
        if (beta > SCORE_MATE - ply - 1)
            beta = SCORE_MATE - ply - 1;
        if (alpha >= beta)
            return alpha;
    }

    /* the singular extension's test of this node: the same position without one turn, whose
     * result the table must neither give nor take */
    const Turn *skip = s->skipped[ply].n ? &s->skipped[ply] : NULL;
    TTEntry hit;
    const TTEntry *e = skip ? NULL : search_tt_probe(s->tt, key, &hit);
    Turn hash_turn = { { 0, 0 }, 0 };
    const int tt_score = e ? search_tt_score_out(e->score, ply) : 0;
    if (e) {
        hash_turn = search_tt_turn(e);
        const int bound = e->flags & 3;
        if (!pv_node && e->depth >= depth && tt_settles(bound, tt_score, alpha, beta))
            return tt_score;
    }

    /* Internal iterative reduction: a node the table knows no turn for is likely new and poorly
     * ordered; a ply less costs little and the next iteration finds it with a turn. */
    if (!root && !hash_turn.n && !skip && depth >= 4)
        depth--;

    const bool in_check = node_in_check(s, p);
    const int us = position_side(p);
    int static_eval = in_check ? -SCORE_INF : evaluate_node(s, p);
    /* Improving: the side to move stands better than at its previous turn (or had none to compare
     * with); a node that is not is pruned and reduced more, one that is, less. */
    s->evals[ply] = static_eval;
    const int improving = !in_check && (ply < 2 || s->evals[ply - 2] == -SCORE_INF ||
                                        static_eval > s->evals[ply - 2]);
    if (!pv_node && !in_check) {
        /* reverse futility: far above beta near the horizon, the opponent will not come back */
        if (depth <= s->params.rfp_depth &&
            static_eval - s->params.rfp_step * (depth - improving) >= beta &&
            abs(beta) < SCORE_MATE_BOUND)
            return static_eval;
        if (null_ok && !skip && depth >= 3 && static_eval >= beta && has_pieces(p) &&
            !position_first_turn(p, s->in->rules)) {
            Position child;
            position_make_null(p, &child);
            s->moved[ply] = -1;
            int r = s->params.null_base + depth / s->params.null_divisor;
            int v =
                -search_tree_alphabeta(s, &child, ply + 1, depth - 1 - r, -beta, -beta + 1, false);
            if (s->budget.aborted)
                return 0;
            if (v >= beta)
                return v >= SCORE_MATE_BOUND ? beta : v;
        }
    }

    /* Singular extension (single-move rules): when the table's lower bound on the hash turn stands
     * well above what any other turn reaches at half the depth, the hash turn is the only good
     * one and is searched a ply deeper; when the others reach beta too, the node cuts off on them
     * (multi-cut). The test runs at this ply before its turns are listed. */
    int singular_ext = 0;
    if (!root && !s->double_moves && depth >= s->params.singular_depth && hash_turn.n &&
        (e->flags & 3) != BOUND_UPPER && e->depth >= depth - SINGULAR_SLACK &&
        abs(tt_score) < SCORE_MATE_BOUND) {
        const int singular_beta = tt_score - s->params.singular_margin * depth;
        s->skipped[ply] = hash_turn;
        int v = search_tree_alphabeta(s, p, ply, (depth - 1) / 2, singular_beta - 1, singular_beta,
                                      false);
        s->skipped[ply] = (Turn){ { 0, 0 }, 0 };
        if (s->budget.aborted)
            return 0;
        if (v < singular_beta)
            singular_ext = 1;
        else if (singular_beta >= beta)
            return singular_beta;
    }

    PlyData *pd = &s->ply[ply];
    const int off = root ? 0 : hash_first(s, p, &hash_turn, false);
    /* a hash turn that captures or promotes: the quiet turns are unlikely to do better, and late
     * ones are reduced a ply more */
    int hash_attacker;
    const bool hash_capture =
        hash_turn.n && search_order_gain(p, &hash_turn, us, &hash_attacker) > 0;
    OrderContext oc = order_context(s, ply);
    /* Under the double-move rules, below the root, the turns that capture or promote are listed
     * first and the rest only when none of them cuts off: the order is the same (every capture
     * turn goes before the killers and the quiet turns), and most nodes never need the rest. */
    const bool staged = s->double_moves && !root;
    const unsigned double_flag = s->double_moves ? ORDER_DOUBLE : 0;
    const unsigned hash_flag = off ? ORDER_HASH_DONE : 0;
    int best = -SCORE_INF, bound = BOUND_UPPER, done = 0, n_quiet = 0, n = off, base = off;
    int listed = 0; /* 1: the tactical turns, 2: all, or the rest after the tactical ones */
    Turn best_turn = { { 0, 0 }, 0 }, quiet_tried[64];
    if (s->double_moves)
        search_made_new_node(&s->made[ply]);
    for (int k = 0;; k++) {
        while (k == n && listed < 2) { /* the next list, after what has been searched */
            base = k;
            if (staged && !listed) {
                listed = 1;
                if (search_tree_generate(s, p, &pd->turns, true))
                    n = k + search_order_turns(pd, p, hash_turn.n ? &hash_turn : NULL,
                                               ORDER_TACTICAL | double_flag | hash_flag, 0,
                                               &s->history, &oc);
                continue;
            }
            listed = 2;
            if (!search_tree_generate(s, p, &pd->turns, false) || pd->turns.n == 0) {
                if (k == 0)
                    return end_score(s, p, ply); /* no turn at all */
                break;
            }
            const unsigned flags = double_flag | hash_flag | (staged ? ORDER_QUIET : 0);
            n = k + search_order_turns(pd, p, hash_turn.n ? &hash_turn : NULL, flags, 0,
                                       &s->history, &oc);
        }
        if (k >= n)
            break;
        const Turn t = k < off ? hash_turn : *search_order_pick(pd, k - base, n - base);
        if ((root && search_root_excluded(s, &t)) || (skip && turn_same(&t, skip)))
            continue;
        int attacker;
        const int gain = search_order_gain(p, &t, us, &attacker);
        const bool quiet = gain == 0;

        /* Step: exchange pruning. Near the horizon, a turn that loses material on its target
         * square (a quiet one by more the deeper the node) is not worth searching once a move has
         * been searched. The ordering's exchange is reused where it has one; a quiet turn's is
         * weighed last, after the cheaper reasons to prune it. */
        const bool exchange_prunes = !root && !s->double_moves && !in_check &&
                                     depth <= s->params.see_depth && best > -SCORE_MATE_BOUND;
        if (exchange_prunes && !quiet) {
            int exchange = search_order_exchange(&pd->order[k - base], quiet);
            if (exchange == SEARCH_ORDER_UNEXAMINED)
                exchange = position_see(p, t.m[0], search_order_value);
            if (exchange < -s->params.see_capture * depth)
                continue;
        }

        Position child;
        make_turn(s, p, &t, &child);
        if (s->double_moves && !search_made_first(&s->made[ply], position_key128(&child)))
            continue; /* another way to a position searched from here already */
        note_moved(s, ply, p, &t);
        bool gives_check = position_in_check(&child);
        /* A check is extended under single-move rules only: under the double-move rules the
         * checked side has a whole turn of movements to answer it (in Galvin's game, where there
         * is no check, no duty to at all), and extending every checking turn widens the tree
         * more than it finds (docs/engine-tests.md) */
        int extension = gives_check && !s->double_moves && ply < 2 * s->root_depth ? 1 : 0;
        if (singular_ext && turn_same(&t, &hash_turn))
            extension = 1;
        int new_depth = depth - 1 + extension;

        /* Late quiet turns far below alpha are not worth a search: how far below is measured
         * at the depth late move reductions would leave them, so later turns go sooner. */
        const int reduction = s->lmr[depth < 64 ? depth : 63][done < 64 ? done : 63];
        const int lmr_depth = new_depth - reduction;
        const bool futility_ok =
            !pv_node && !in_check && !gives_check && done > 0 && abs(alpha) < SCORE_MATE_BOUND;
        if (futility_ok && quiet && lmr_depth <= s->params.futility_depth &&
            static_eval + s->params.futility_base + s->params.futility_step * lmr_depth <= alpha)
            continue;
        /* The same for a capture that even taking its victim for nothing leaves far below
         * alpha, when its piece is worth at least the victim (single-move rules, as Stockfish's
         * futility pruning of captures; its margins scaled to a pawn of 100). */
        if (futility_ok && !quiet && !s->double_moves && lmr_depth < s->params.futility_depth &&
            attacker >= gain && move_kind(t.m[0]) != MOVE_PROMOTION &&
            static_eval + s->params.capture_futility_base +
                    s->params.capture_futility_step * lmr_depth + gain <=
                alpha)
            continue;
        /* Step: move count pruning. Near the horizon, once the well-ordered turns have been
         * searched, the late quiet ones rarely change the result. */
        if (!pv_node && !in_check && quiet && !gives_check && depth <= s->params.move_count_depth &&
            done >= (s->params.move_count_base + depth * depth) * (1 + improving) / 2 &&
            best > -SCORE_MATE_BOUND)
            continue;
        if (exchange_prunes && quiet &&
            position_see(p, t.m[0], search_order_value) < -s->params.see_quiet * depth * depth)
            continue;

        /* read only by the child's fail-low bonus: written for the turns searched, not in
         * quiescence */
        s->captured[ply] = position_piece_at(p, move_to(t.m[0])) != NO_PIECE;
        int v;
        if (done == 0) {
            v = -search_tree_alphabeta(s, &child, ply + 1, new_depth, -beta, -alpha, true);
        } else {
            int r = 0;
            if (depth >= 3 && done >= 3 && quiet && !in_check && !gives_check) {
                r = reduction + (!improving && reduction > 1);
                if (pv_node)
                    r--;
                if (hash_capture)
                    r++;
                if (turn_same(&t, &pd->killers[0]) || turn_same(&t, &pd->killers[1]))
                    r--;
                if (r > new_depth - 1)
                    r = new_depth - 1;
                if (r < 0)
                    r = 0;
            }
            v = -search_tree_alphabeta(s, &child, ply + 1, new_depth - r, -alpha - 1, -alpha, true);
            if (v > alpha && r > 0 && !s->budget.aborted)
                v = -search_tree_alphabeta(s, &child, ply + 1, new_depth, -alpha - 1, -alpha, true);
            if (v > alpha && v < beta && !s->budget.aborted)
                v = -search_tree_alphabeta(s, &child, ply + 1, new_depth, -beta, -alpha, true);
        }
        if (s->budget.aborted)
            return 0;
        done++;
        if (v > best) {
            best = v;
            best_turn = t;
            if (v > alpha) {
                alpha = v;
                bound = BOUND_EXACT;
                copy_pv(s, ply, &t);
                if (root) {
                    s->root_best = t;
                    s->root_best_score = v;
                    s->root_best_pv_len = s->pv_len[0];
                    memcpy(s->root_best_pv, s->pv[0], (size_t)s->pv_len[0] * sizeof(Turn));
                }
                if (v >= beta) {
                    bound = BOUND_LOWER;
                    if (quiet)
                        search_order_cut(pd, &s->history, &oc, p, &t, depth, quiet_tried, n_quiet);
                    break;
                }
            }
        }
        if (quiet && n_quiet < 64)
            quiet_tried[n_quiet++] = t;
    }
    if (done == 0)
        return skip ? alpha : static_eval; /* every turn was pruned or left out */
    if (skip)
        return best;
    /* failed low: the quiet turn that led here left this side nothing (single-move rules) */
    if (bound == BOUND_UPPER && !s->double_moves && (depth >= 3 || pv_node) && ply >= 1 &&
        s->moved[ply - 1] >= 0 && !s->captured[ply - 1]) {
        OrderContext prior = order_context(s, ply - 1);
        search_order_prior_fail_low(&prior, s->moved[ply - 1] / MAX_SQUARES,
                                    s->moved[ply - 1] % MAX_SQUARES, depth);
    }
    store_node(s, key, depth, ply, best, bound, &best_turn);
    return best;
}

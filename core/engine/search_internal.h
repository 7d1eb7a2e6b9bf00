/* SPDX-License-Identifier: MIT */
/* The insides of a Searcher (search.h), private to the search's files: search.c (its life cycle
 * and the iterative deepening at the root) and search_tree.c (alpha-beta and quiescence below
 * it), over the table of search_tt.h, the ordering of search_order.h, the limits of
 * search_limits.h and the helper threads of search_pool.h. A struct Searcher is one thread's
 * search; the one searcher_new returns is the main thread's and also holds what its helpers
 * share (SearchTeam). */
#ifndef CARRERA_SEARCH_INTERNAL_H
#define CARRERA_SEARCH_INTERNAL_H

#include "search.h"
#include "search_limits.h"
#include "search_made.h"
#include "search_order.h"
#include "search_pool.h"
#include "search_tt.h"

typedef struct SearchTeam SearchTeam;

struct Searcher {
    SearchTT *tt; /* the table, shared by every thread of the search */
    SearchHistory history;
    PlyData ply[MAX_PLY + 1];
    MadeSet made[MAX_PLY + 1]; /* the children each ply's node has searched (double-move rules) */
    u128 *keys; /* the game's keys before the root, then the keys along the current path */
    size_t keys_cap, key_base;
    Turn pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    SearchParams params;        /* of the search in progress (its input's, or the defaults) */
    unsigned char lmr[64][64];  /* late move reductions by depth and turns searched, for params */
    int moved[MAX_PLY + 1];     /* the turn made at each ply of the path: its mover's piece index
                                 * times MAX_SQUARES plus its target; -1 for a null move */
    bool captured[MAX_PLY + 1]; /* whether the target square of that turn's first movement held
                                 * a piece (main search only; castling's own rook counts, en
                                 * passant's empty square does not) */
    Turn skipped[MAX_PLY + 1];  /* the turn a singular extension's test leaves out at each ply
                                 * (n 0: none) */
    int evals[MAX_PLY + 1];     /* the static evaluation of the node at each ply of the path
                                 * (-SCORE_INF in check) */

    /* the search in progress */
    const SearchInput *in;
    bool double_moves, galvin;
    int qturns; /* the capture turns double-move quiescence searches, not in check */
    SearchBudget budget;
    int seldepth, root_depth;
    Turn root_best;      /* the best root turn of the iteration in progress, so far */
    int root_best_score; /* and its score and line (a re-search may clear pv[0] before it ends) */
    Turn root_best_pv[MAX_PLY + 1];
    int root_best_pv_len;
    const Turn *excluded; /* root turns not to search (MultiPV: the lines found already) */
    int n_excluded;
    const Turn *only; /* the root turns to search (searchmoves), n_only of them; 0: all */
    size_t n_only;

    /* what the thread found: its last complete iteration (depth 0: none), its turn, and the line
     * of that turn (done, or the unfinished iteration's line when that changed the turn) */
    SearchReport done, line;
    bool line_untold; /* line has not gone to the caller's reports */
    Turn found;

    SearchTeam *team; /* the main thread's only (NULL in helpers) */
};

/* What the main thread shares with its helpers. */
struct SearchTeam {
    SearchTT tt;
    int n_helpers;
    Searcher **helpers;
    SearchPool *pool;      /* the helpers' threads (NULL without helpers) */
    SearchInput helper_in; /* the main thread's input without its reports, clock and stop */
    SearchNodeShare share;
    atomic_bool halt; /* the main thread has decided: the helpers stop */
};

/* Whether t is one of the root turns left out of this search: a line found already, or a turn
 * the searchmoves do not list. */
static inline bool search_root_excluded(const Searcher *s, const Turn *t)
{
    for (int i = 0; i < s->n_excluded; i++)
        if (turn_same(t, &s->excluded[i]))
            return true;
    if (!s->n_only)
        return false;
    for (size_t i = 0; i < s->n_only; i++)
        if (turn_same(t, &s->only[i]))
            return false;
    return true;
}

/* Every legal turn of p into list, or under single-move rules with tactical only the captures and
 * promotions (quiescence out of check); false when memory runs out (treated as no turn: the
 * search then scores the node by its game end, which turn.h computes without the list). */
bool search_tree_generate(Searcher *s, const Position *p, TurnList *list, bool tactical);

/* The score of p (ply turns below the root) by principal variation search to depth turns within
 * (alpha, beta), from the side to move; null_ok: a null move may be tried. At the root, the turns
 * of s->excluded are not searched. 0 once the search was aborted (s->budget.aborted). */
int search_tree_alphabeta(Searcher *s, const Position *p, int ply, int depth, int alpha, int beta,
                          bool null_ok);

#endif

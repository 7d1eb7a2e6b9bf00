/* SPDX-License-Identifier: MIT */
/* The engine's search (search.h): a searcher's life cycle, its helper threads, and the iterative
 * deepening with aspiration windows at the root, for one principal variation or several. The tree
 * below the root is search_tree.c; the table, the move ordering, the limits and the threads are
 * search_tt.c, search_order.c, search_limits.c and search_pool.c, over the Searcher of
 * search_internal.h.
 *
 * Lazy SMP. With n threads the caller's thread (the main one) and n - 1 helpers search the same
 * root at once, each with its own move-ordering statistics, killers, lines and path keys, and
 * meet only in the shared table, where each finds the others' results. The helpers vary their
 * depths so that they do not all walk the same tree in step: odd helpers start one iteration
 * deeper, and from the second helper on each skips every fourth depth at an offset of its own.
 * The main thread alone reports, watches the clock and the stop flag, and decides: when it ends,
 * the helpers are told to stop, and the turn of the thread with the deepest complete iteration is
 * played (the main thread's on a tie). */
#include "search.h"

#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* ---- life cycle ---------------------------------------------------------------------------- */

/* One thread's search over the table tt. */
static Searcher *thread_new(SearchTT *tt)
{
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tt = tt;
    search_params_default(&s->params);
    search_params_lmr(&s->params, s->lmr);
    return s;
}

static void thread_free(Searcher *s)
{
    for (int i = 0; i <= MAX_PLY; i++) {
        turn_list_free(&s->ply[i].turns);
        free(s->ply[i].order);
        search_made_free(&s->made[i]);
    }
    free(s->keys);
    free(s);
}

/* The thread's move-ordering statistics forgotten. */
static void thread_clear(Searcher *s)
{
    memset(&s->history, 0, sizeof s->history);
    for (int i = 0; i <= MAX_PLY; i++)
        memset(s->ply[i].killers, 0, sizeof s->ply[i].killers);
}

Searcher *searcher_new(size_t hash_mb)
{
    SearchTeam *team = calloc(1, sizeof *team);
    if (!team)
        return NULL;
    Searcher *s = thread_new(&team->tt);
    if (!s || !search_tt_alloc(&team->tt, hash_mb)) {
        free(s);
        free(team);
        return NULL;
    }
    atomic_init(&team->halt, false);
    atomic_init(&team->share.granted, 0);
    s->team = team;
    return s;
}

/* The helpers ended and freed. */
static void drop_helpers(SearchTeam *team)
{
    if (team->pool) {
        search_pool_stop(team->pool);
        free(team->pool);
        team->pool = NULL;
    }
    for (int i = 0; i < team->n_helpers; i++)
        thread_free(team->helpers[i]);
    free(team->helpers);
    team->helpers = NULL;
    team->n_helpers = 0;
}

void searcher_free(Searcher *s)
{
    if (!s)
        return;
    drop_helpers(s->team);
    search_tt_free(&s->team->tt);
    free(s->team);
    thread_free(s);
}

bool searcher_resize(Searcher *s, size_t hash_mb) { return search_tt_alloc(s->tt, hash_mb); }

void searcher_clear(Searcher *s)
{
    search_tt_clear(s->tt);
    thread_clear(s);
    for (int i = 0; i < s->team->n_helpers; i++)
        thread_clear(s->team->helpers[i]);
}

static void help(void *ctx, int index);

bool searcher_set_threads(Searcher *s, int n)
{
    SearchTeam *team = s->team;
    if (n < 1 || n > SEARCH_THREADS_MAX)
        return false;
    if (n - 1 == team->n_helpers)
        return true;
    Searcher **helpers = n > 1 ? calloc((size_t)n - 1, sizeof *helpers) : NULL;
    bool ok = n == 1 || helpers != NULL;
    for (int i = 0; ok && i < n - 1; i++)
        ok = (helpers[i] = thread_new(s->tt)) != NULL;
    /* the pool stays where it starts: its threads hold its address */
    SearchPool *pool = ok && n > 1 ? malloc(sizeof *pool) : NULL;
    if (n > 1 && (!pool || !search_pool_start(pool, n - 1, help, s))) {
        free(pool);
        ok = false;
    }
    if (!ok) {
        for (int i = 0; helpers && i < n - 1; i++)
            if (helpers[i])
                thread_free(helpers[i]);
        free(helpers);
        return false;
    }
    drop_helpers(team);
    team->helpers = helpers;
    team->n_helpers = n - 1;
    team->pool = pool;
    return true;
}

/* ---- iterative deepening ------------------------------------------------------------------- */

/* The nodes of every thread: the main thread's own count and what its helpers published. */
static uint64_t total_nodes(const Searcher *s)
{
    uint64_t n = s->budget.nodes;
    for (int i = 0; s->team && i < s->team->n_helpers; i++)
        n += atomic_load_explicit(&s->team->helpers[i]->budget.published, memory_order_relaxed);
    return n;
}

static void fill_report(const Searcher *s, int depth, int score, int alpha, int beta,
                        SearchReport *r)
{
    r->multipv = 1;
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
    r->nodes = total_nodes(s);
    r->ms = search_limits_elapsed(&s->budget);
    r->hashfull = search_tt_hashfull(s->tt);
    r->pv_len = s->pv_len[0];
    memcpy(r->pv, s->pv[0], (size_t)r->pv_len * sizeof(Turn));
}

/* The report of the unfinished iteration of depth (window alpha, beta) whose best turn so far is
 * the one played. */
static void fill_unfinished_report(const Searcher *s, int depth, int alpha, int beta,
                                   SearchReport *r)
{
    fill_report(s, depth, s->root_best_score, alpha, beta, r);
    r->pv_len = s->root_best_pv_len;
    memcpy(r->pv, s->root_best_pv, (size_t)r->pv_len * sizeof(Turn));
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

/* With searchmoves, the root's turn list (what the MultiPV count, the fallback turn and the
 * single-turn shortcut look at) keeps only the turns listed, and the tree's root leaves out the
 * others; a list naming none of the root's turns restricts nothing. */
static void restrict_root(Searcher *s, const SearchInput *in)
{
    s->only = NULL;
    s->n_only = 0;
    TurnList *list = &s->ply[0].turns;
    size_t kept = 0;
    for (size_t i = 0; i < list->n; i++)
        for (size_t j = 0; j < in->n_searchmoves; j++)
            if (turn_same(&list->v[i], &in->searchmoves[j])) {
                list->v[kept++] = list->v[i];
                break;
            }
    if (kept == 0)
        return;
    list->n = kept;
    s->only = in->searchmoves;
    s->n_only = in->n_searchmoves;
}

/* Sets s up to search in: the root's turns generated, the budget started. False when there is
 * nothing to search: the game is over, or memory ran out. */
static bool prepare(Searcher *s, const SearchInput *in, SearchNodeShare *share)
{
    s->in = in;
    SearchParams params;
    if (in->params)
        params = *in->params;
    else
        search_params_default(&params);
    if (memcmp(&params, &s->params, sizeof params) != 0) {
        s->params = params;
        search_params_lmr(&s->params, s->lmr);
    }
    s->double_moves = in->rules->turns != TURNS_SINGLE;
    s->galvin = in->rules->turns == TURNS_GALVIN;
    /* A double-move capture turn comes with every second movement the position allows:
     * quiescence searches the best ordered 8 (6 and 16 lost under Marseillais and Bennekom's
     * rules), Bennekom's the best 4 (+18.4 at 8,000 nodes; docs/engine-tests.tsv). */
    s->qturns = in->rules->turns == TURNS_BENNEKOM ? 4 : 8;
    s->seldepth = 0;
    s->root_best = s->found = (Turn){ { 0, 0 }, 0 };
    s->n_excluded = 0;
    memset(&s->done, 0, sizeof s->done);
    search_limits_start(&s->budget, &in->limits, position_side(in->root), in->stop, share);
    memset(s->pv_len, 0, sizeof s->pv_len);
    /* the root's turns: none means the game is over; memory trouble means no search */
    PlyData *root = &s->ply[0];
    if (!search_tree_generate(s, in->root, &root->turns, false) || root->turns.n == 0 ||
        !reserve_keys(s, in->n_history + MAX_PLY + 1))
        return false;
    if (in->n_history)
        memcpy(s->keys, in->history, in->n_history * sizeof *s->keys);
    s->key_base = in->n_history;
    restrict_root(s, in);
    return true;
}

/* The score of the root at depth within an aspiration window around the last score, widened
 * until the score falls inside it; *alpha, *beta receive the last window. As Stockfish 11's: the
 * window grows with the score's size and by a quarter and 5 cp on each failure, and each fail high
 * in a row searches a ply shallower (a score above beta is usually confirmed sooner so). */
static int aspire(Searcher *s, int depth, int last, int *alpha, int *beta)
{
    int window = s->params.aspiration + abs(last) / 256, failed_high = 0;
    *alpha = -SCORE_INF;
    *beta = SCORE_INF;
    if (depth >= 4 && abs(last) < SCORE_MATE_BOUND) {
        *alpha = last - window;
        *beta = last + window;
    }
    for (;;) {
        s->seldepth = 0;
        const int d = depth - failed_high > 1 ? depth - failed_high : 1;
        int v = search_tree_alphabeta(s, s->in->root, 0, d, *alpha, *beta, false);
        if (s->budget.aborted)
            return v;
        if (v <= *alpha && *alpha > -SCORE_INF) {
            *beta = (*alpha + *beta) / 2;
            *alpha = v - window > -SCORE_INF ? v - window : -SCORE_INF;
            failed_high = 0;
        } else if (v >= *beta && *beta < SCORE_INF) {
            *beta = v + window < SCORE_INF ? v + window : SCORE_INF;
            failed_high++;
        } else {
            return v;
        }
        window += window / 4 + 5;
    }
}

/* Whether helper (from 1) leaves out the iteration of depth. */
static bool skips(int helper, int depth) { return helper >= 2 && (depth + helper) % 4 == 0; }

/* The lines best first (stable: equal scores keep the order they were found in). */
static void sort_lines(SearchReport *lines, int n)
{
    for (int i = 1; i < n; i++) {
        SearchReport r = lines[i];
        int j = i;
        for (; j > 0 && lines[j - 1].score < r.score; j--)
            lines[j] = lines[j - 1];
        lines[j] = r;
    }
}

/* The iteration of depth for n_lines > 1 principal variations: each line searched without the
 * root turns of the lines before it, then all of them ordered best first, the best one's turn
 * written back to the root's table entry (the last line's search left its own there). lines
 * holds the previous iteration's lines (for their aspiration windows) and receives this one's;
 * false when the search was aborted, with *lines_done the lines this iteration completed. */
static bool iterate_lines(Searcher *s, int depth, SearchReport *lines, int n_lines, Turn *excluded,
                          int *lines_done)
{
    s->excluded = excluded;
    s->n_excluded = 0;
    for (int j = 0; j < n_lines; j++) {
        int alpha, beta, v = aspire(s, depth, lines[j].score, &alpha, &beta);
        if (s->budget.aborted) {
            *lines_done = j;
            s->n_excluded = 0;
            return false;
        }
        fill_report(s, depth, v, alpha, beta, &lines[j]);
        excluded[s->n_excluded++] = s->root_best;
    }
    s->n_excluded = 0;
    sort_lines(lines, n_lines);
    for (int j = 0; j < n_lines; j++)
        lines[j].multipv = j + 1;
    search_tt_store(s->tt, position_key128(s->in->root), depth,
                    search_tt_score_in(lines[0].score, 0), BOUND_EXACT, &lines[0].pv[0]);
    *lines_done = n_lines;
    return true;
}

/* Time use under a clock: how the soft limit is scaled after each iteration. An iteration that
 * changed the best turn adds TIME_CHANGE of the limit, each earlier change weighing half as much
 * as the one after it; a score below the previous iteration's adds up to TIME_FALL of it at
 * TIME_FALL_CP; a best turn unchanged for TIME_STABLE iterations leaves TIME_STABLE_SCALE of it. */
#define TIME_CHANGE       1.5
#define TIME_FALL         0.5
#define TIME_FALL_CP      100
#define TIME_STABLE       4
#define TIME_STABLE_SCALE 0.7

typedef struct TimeUse {
    double changes; /* the best turn's changes, each earlier one halved */
    int stable;     /* iterations since the best turn last changed */
    int score;      /* the previous iteration's score */
    bool scored;
} TimeUse;

/* The soft limit's scale after an iteration whose best turn is now (prev before it) with score. */
static double time_scale(TimeUse *u, const Turn *prev, const Turn *now, int score)
{
    u->changes /= 2;
    if (prev->n && !turn_same(prev, now)) {
        u->changes += 1;
        u->stable = 0;
    } else {
        u->stable++;
    }
    int fall = u->scored ? u->score - score : 0;
    u->score = score;
    u->scored = true;
    fall = fall < 0 ? 0 : fall > TIME_FALL_CP ? TIME_FALL_CP : fall;
    double scale = (1 + TIME_CHANGE * u->changes) * (1 + TIME_FALL * fall / TIME_FALL_CP);
    return u->stable >= TIME_STABLE ? scale * TIME_STABLE_SCALE : scale;
}

/* Iterative deepening on one thread: helper 0 is the main thread, which reports and finds
 * n_lines principal variations (lines: room for them, zeroed); a helper finds one line and
 * varies its depths. Leaves the best turn in s->found, the last complete iteration's best line in
 * s->done and the line of the turn found in s->line. */
static void deepen(Searcher *s, int helper, SearchReport *lines, int n_lines, Turn *excluded)
{
    const SearchInput *in = s->in;
    const PlyData *root = &s->ply[0];
    int max_depth =
        in->limits.depth > 0 && in->limits.depth < MAX_PLY ? in->limits.depth : MAX_PLY - 1;
    Turn best = { { 0, 0 }, 0 };
    int score = 0;
    TimeUse use = { 0 };
    double scale = 1;
    s->line = (SearchReport){ 0 };
    s->line_untold = false;
    for (int depth = 1 + helper % 2; depth <= max_depth; depth++) {
        if (skips(helper, depth))
            continue;
        s->root_depth = depth;
        s->root_best = (Turn){ { 0, 0 }, 0 };
        if (n_lines > 1) {
            int done;
            if (!iterate_lines(s, depth, lines, n_lines, excluded, &done)) {
                /* the first line of the unfinished iteration is complete: it is the best */
                if (done > 0) {
                    best = lines[0].pv[0];
                    s->done = s->line = lines[0];
                    s->line.multipv = 1;
                    s->line_untold = true;
                } else if (s->root_best.n && !turn_same(&s->root_best, &best)) {
                    best = s->root_best;
                    fill_unfinished_report(s, depth, -SCORE_INF, SCORE_INF, &s->line);
                    s->line_untold = true;
                }
                break;
            }
            scale = time_scale(&use, &best, &lines[0].pv[0], lines[0].score);
            best = lines[0].pv[0];
            s->done = s->line = lines[0];
            s->line_untold = false;
            for (int j = 0; j < n_lines && in->report; j++)
                in->report(&lines[j], in->ctx);
        } else {
            int alpha, beta, v = aspire(s, depth, score, &alpha, &beta);
            if (s->budget.aborted) {
                /* a turn that beat the previous best inside the unfinished iteration is better */
                if (s->root_best.n && !turn_same(&s->root_best, &best)) {
                    best = s->root_best;
                    fill_unfinished_report(s, depth, alpha, beta, &s->line);
                    s->line_untold = true;
                }
                break;
            }
            score = v;
            const Turn prev = best;
            best = s->root_best.n ? s->root_best : best;
            scale = time_scale(&use, &prev, &best, v);
            fill_report(s, depth, v, alpha, beta, &s->done);
            s->line = s->done;
            s->line_untold = helper != 0 || !in->report;
            if (helper == 0 && in->report)
                in->report(&s->done, in->ctx);
        }
        if (search_limits_soft_reached(&s->budget, scale))
            break;
        /* with only one legal turn there is nothing to think about under a clock */
        if (root->turns.n == 1 && s->budget.hard_ms)
            break;
    }
    s->found = best;
}

/* A helper's search of the main thread's root, until it is told to stop or reaches the depth
 * limit. */
static void help(void *ctx, int index)
{
    Searcher *main = ctx;
    SearchTeam *team = main->team;
    Searcher *h = team->helpers[index];
    if (prepare(h, &team->helper_in, &team->share))
        deepen(h, index + 1, NULL, 1, NULL);
    atomic_store_explicit(&h->budget.published, h->budget.nodes, memory_order_relaxed);
}

/* Starts the helpers on in's root: they search without reports, clock or the caller's stop flag,
 * stopped by the main thread through team->halt, within the node limit they share with it. */
static void start_helpers(Searcher *s, const SearchInput *in)
{
    SearchTeam *team = s->team;
    team->helper_in = *in;
    team->helper_in.report = NULL;
    team->helper_in.multipv = 1;
    team->helper_in.stop = &team->halt;
    SearchLimits l = search_limits_none();
    l.depth = in->limits.depth;
    l.nodes = in->limits.nodes;
    l.infinite = true;
    team->helper_in.limits = l;
    atomic_store(&team->halt, false);
    search_pool_run(team->pool);
}

Turn search_run(Searcher *s, const SearchInput *in, SearchReport *final)
{
    SearchTeam *team = s->team;
    bool helped = team->n_helpers > 0;
    s->tt->generation++;
    if (final)
        memset(final, 0, sizeof *final);
    team->share.limit = in->limits.nodes;
    atomic_store(&team->share.granted, 0);
    if (!prepare(s, in, helped ? &team->share : NULL))
        return (Turn){ { 0, 0 }, 0 };
    Turn fallback = s->ply[0].turns.v[0];
    int n_lines = in->multipv > 1 ? in->multipv : 1;
    if (n_lines > SEARCH_MULTIPV_MAX)
        n_lines = SEARCH_MULTIPV_MAX;
    if ((size_t)n_lines > s->ply[0].turns.n)
        n_lines = (int)s->ply[0].turns.n;
    SearchReport *lines = n_lines > 1 ? calloc((size_t)n_lines, sizeof *lines) : NULL;
    Turn *excluded = n_lines > 1 ? calloc((size_t)n_lines, sizeof *excluded) : NULL;
    if (!lines || !excluded)
        n_lines = 1; /* without memory for the lines, one line is still a search */

    if (helped)
        start_helpers(s, in);
    deepen(s, 0, lines, n_lines, excluded);
    free(lines);
    free(excluded);
    if (helped) {
        atomic_store(&team->halt, true);
        search_pool_wait(team->pool);
    }

    /* the deepest complete iteration decides (one line only: the lines are the main thread's) */
    const Searcher *chosen = s;
    for (int i = 0; i < team->n_helpers && n_lines == 1; i++) {
        const Searcher *h = team->helpers[i];
        if (h->found.n && h->done.depth > chosen->done.depth)
            chosen = h;
    }
    /* The line of the turn played goes out last unless it was the last one reported: the main
     * thread's last complete iteration. Its time is the main thread's, as every report's is. */
    SearchReport last = chosen->line;
    last.nodes = total_nodes(s);
    last.ms = search_limits_elapsed(&s->budget);
    if (last.depth > 0 && (chosen != s || s->line_untold) && in->report)
        in->report(&last, in->ctx);
    if (final)
        *final = last;
    return chosen->found.n ? chosen->found : fallback;
}

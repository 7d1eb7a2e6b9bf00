/* SPDX-License-Identifier: MIT */
/* Detailed perft by complete turns (moves in single-move chess), through the public position
 * API: correctness over speed. The root's turns are shared among OpenMP threads, each with its
 * own counters, summed at the end. */
#include "perft_stats.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

static void classify(const Setup *before, const Setup *after, const Turn *t, const Position *child,
                     const Rules *r, PerftStats *s)
{
    s->nodes++;
    if (t->n == 1)
        s->one_movement++;
    else
        s->two_movement++;
    bool capture = false, ep = false, castle = false, promo = false;
    for (int i = 0; i < t->n; i++) {
        int kind = move_kind(t->m[i]);
        ep |= kind == MOVE_EN_PASSANT;
        castle |= kind == MOVE_CASTLING;
        promo |= kind == MOVE_PROMOTION;
    }
    /* A capture lowers the opponent's piece count (en passant included). */
    int mover = before->side, theirs_before = 0, theirs_after = 0;
    for (int sq = 0; sq < MAX_SQUARES; sq++) {
        theirs_before += before->board[sq] != NO_PIECE && piece_color(before->board[sq]) != mover;
        theirs_after += after->board[sq] != NO_PIECE && piece_color(after->board[sq]) != mover;
    }
    capture = theirs_after < theirs_before;
    s->captures += capture;
    s->en_passant += ep;
    s->castles += castle;
    s->promotions += promo;

    int checkers[MAX_CHECKERS];
    int n = position_checkers(child, checkers);
    if (n == 0 || r->turns == TURNS_GALVIN)
        return;
    s->checks++;
    /* As the published tables count them: a double check is not also a discovered check; a
     * discovered check is one given by a piece that stands where it stood before the turn. */
    s->double_checks += n > 1;
    s->discovered_checks += n == 1 && before->board[checkers[0]] == after->board[checkers[0]];
    s->checkmates += position_game_end(child, r) == GAME_CHECKMATE;
}

static bool stats_rec(const Position *p, const Rules *r, int depth, PerftStats *stats)
{
    TurnList turns = { 0 };
    if (!position_turns(p, r, &turns))
        return false;
    Setup before, after;
    position_to_setup(p, &before);
    bool ok = true;
    for (size_t i = 0; i < turns.n && ok; i++) {
        Position child;
        position_make_turn(p, r, &turns.v[i], &child);
        position_to_setup(&child, &after);
        classify(&before, &after, &turns.v[i], &child, r, &stats[0]);
        if (depth > 1)
            ok = stats_rec(&child, r, depth - 1, stats + 1);
    }
    turn_list_free(&turns);
    return ok;
}

int perft_stats(const Position *p, const Rules *r, int depth, int threads, PerftStats *stats)
{
    memset(stats, 0, (size_t)(depth > 0 ? depth : 0) * sizeof *stats);
    if (depth <= 0)
        return 0;
    TurnList turns = { 0 };
    if (!position_turns(p, r, &turns))
        return -1;
    Setup before;
    position_to_setup(p, &before);
    bool ok = true;
    const int nthreads = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(nthreads) reduction(&& : ok)
    {
        PerftStats *mine = calloc((size_t)depth, sizeof *mine);
        ok = mine != NULL;
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < turns.n; i++) {
            if (!mine)
                continue;
            Position child;
            Setup after;
            position_make_turn(p, r, &turns.v[i], &child);
            position_to_setup(&child, &after);
            classify(&before, &after, &turns.v[i], &child, r, &mine[0]);
            if (depth > 1 && !stats_rec(&child, r, depth - 1, mine + 1))
                ok = false;
        }
#pragma omp critical(carrera_perft_stats)
        for (int d = 0; mine && d < depth; d++) {
            uint64_t *dst = (uint64_t *)&stats[d];
            const uint64_t *src = (const uint64_t *)&mine[d];
            for (size_t k = 0; k < sizeof(PerftStats) / sizeof(uint64_t); k++)
                dst[k] += src[k];
        }
        free(mine);
    }
    turn_list_free(&turns);
    return ok ? 0 : -1;
}

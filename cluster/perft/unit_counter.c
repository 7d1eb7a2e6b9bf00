/* SPDX-License-Identifier: MIT */
/* Work units counted on one rank's threads. A unit is one subtree; the rank's threads share it by
 * cutting it a few plies further into positions they take one at a time (OpenMP's dynamic
 * schedule), all probing the rank's one hash table. */
#define _POSIX_C_SOURCE 200809L

#include "unit_counter.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "errmsg.h"

/* Positions per thread before the threads start: enough that one large subtree drawn last
 * leaves the others idle for little of the unit's time. */
#define PIECES_PER_THREAD 16

int unit_counter_init(UnitCounter *c, const Variant *v, const Rules *r, int threads,
                      size_t hash_bytes, char *err, size_t errlen)
{
    *c = (UnitCounter){ v, *r, threads > 0 ? threads : 1, NULL };
    if (hash_bytes > 0) {
        c->tt = perft_tt_new(hash_bytes);
        if (!c->tt)
            return errmsg_fail(err, errlen, "out of memory for a hash table of %zu MB",
                               hash_bytes >> 20);
    }
    return 0;
}

void unit_counter_free(UnitCounter *c)
{
    perft_tt_free(c->tt);
    c->tt = NULL;
}

/* Replaces the n positions of *front by their children (one turn further). Returns false when
 * memory runs out (*front unchanged then). */
static bool expand(Position **front, size_t *n, const Rules *r)
{
    size_t cap = *n * 32, m = 0;
    Position *next = malloc(cap * sizeof *next);
    TurnList turns = { 0 };
    if (!next)
        return false;
    for (size_t i = 0; i < *n; i++) {
        if (!position_turns(&(*front)[i], r, &turns))
            goto fail;
        if (m + turns.n > cap) {
            size_t want = (m + turns.n) * 2;
            Position *grown = realloc(next, want * sizeof *grown);
            if (!grown)
                goto fail;
            next = grown;
            cap = want;
        }
        for (size_t j = 0; j < turns.n; j++)
            position_make_turn(&(*front)[i], r, &turns.v[j], &next[m++]);
    }
    turn_list_free(&turns);
    free(*front);
    *front = next;
    *n = m;
    return true;
fail:
    turn_list_free(&turns);
    free(next);
    return false;
}

/* perft on the counter's threads: one thread counts directly; several first cut the subtree
 * until every thread has PIECES_PER_THREAD positions or only two plies are left (below that a
 * position is too cheap to be worth handing out). */
static uint64_t count_threads(UnitCounter *c, const Position *p, int depth)
{
    if (c->threads <= 1 || depth < 3)
        return perft_turns_hashed(p, &c->rules, depth, c->tt);
    Position *front = malloc(sizeof *front);
    size_t n = 1;
    if (!front)
        return perft_turns_hashed(p, &c->rules, depth, c->tt);
    front[0] = *p;
    int d = depth;
    while (n < (size_t)c->threads * PIECES_PER_THREAD && d > 2 && expand(&front, &n, &c->rules))
        d--;
    uint64_t total = 0;
    const long count = (long)n;
#pragma omp parallel for schedule(dynamic, 1) num_threads(c->threads) reduction(+ : total)
    for (long i = 0; i < count; i++)
        total += perft_turns_hashed(&front[i], &c->rules, d, c->tt);
    free(front);
    return total;
}

int unit_counter_count(UnitCounter *c, const WorkUnit *u, uint64_t *nodes, double *seconds,
                       char *err, size_t errlen)
{
    double start = monotonic_seconds();
    Position p;
    char why[ERRMSG_LEN];
    if (u->depth < 0 || split_unit_position(u, c->variant, &c->rules, &p, why, sizeof why) != 0)
        return errmsg_fail(err, errlen, "unit %llu: bad position '%s' or depth %d: %s",
                           (unsigned long long)u->id, u->fen, (int)u->depth,
                           u->depth < 0 ? "negative depth" : why);
    *nodes = count_threads(c, &p, u->depth);
    *seconds = monotonic_seconds() - start;
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* The parallel perft driver. The root's turns (moves) are expanded ply by ply into work units,
 * each a position with its remaining depth and the root turn it descends from, until there are
 * enough units for every thread to stay busy (64 per thread) or the remaining depth gets small.
 * Threads then take units dynamically: a fixed split of root moves would leave threads idle
 * behind the one that got the largest subtree. */
#include "perft.h"

#include "clock.h"
#include "split.h"

#include <omp.h>
#include <stdlib.h>

typedef struct Unit {
    Position pos;
    int remaining; /* depth still to count below pos */
    size_t root;   /* index of the root turn it descends from */
    double work;   /* split_unit_work, when progress is reported */
} Unit;

typedef struct Units {
    Unit *v;
    size_t n, cap;
} Units;

static bool push(Units *u, const Position *pos, int remaining, size_t root)
{
    if (u->n == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 64;
        Unit *nv = realloc(u->v, cap * sizeof *nv);
        if (!nv)
            return false;
        u->v = nv;
        u->cap = cap;
    }
    u->v[u->n++] = (Unit){ *pos, remaining, root, 0 };
    return true;
}

/* Replaces every unit by its children, one ply (turn) deeper. */
static bool expand(Units *units, const Rules *r)
{
    Units next = { 0 };
    TurnList turns = { 0 };
    bool ok = true;
    for (size_t i = 0; i < units->n && ok; i++) {
        const Unit *u = &units->v[i];
        ok = position_turns(&u->pos, r, &turns);
        for (size_t k = 0; k < turns.n && ok; k++) {
            Position child;
            position_make_turn(&u->pos, r, &turns.v[k], &child);
            ok = push(&next, &child, u->remaining - 1, u->root);
        }
    }
    turn_list_free(&turns);
    if (!ok) {
        free(next.v);
        return false;
    }
    free(units->v);
    *units = next;
    return true;
}

void perft_result_free(PerftResult *r)
{
    free(r->root);
    *r = (PerftResult){ 0 };
}

int perft_job_run(const PerftJob *job, PerftResult *out)
{
    *out = (PerftResult){ 0 };
    if (job->depth <= 0) {
        out->nodes = 1;
        return 0;
    }
    const int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    TurnList turns = { 0 };
    Units units = { 0 };
    PerftTT *tt = NULL;
    if (!position_turns(job->root, &job->rules, &turns))
        goto oom;
    out->n_root = turns.n;
    out->root = calloc(turns.n ? turns.n : 1, sizeof *out->root);
    if (!out->root)
        goto oom;
    for (size_t i = 0; i < turns.n; i++) {
        Position child;
        out->root[i].turn = turns.v[i];
        position_make_turn(job->root, &job->rules, &turns.v[i], &child);
        if (!push(&units, &child, job->depth - 1, i))
            goto oom;
    }
    const size_t wanted = 64 * (size_t)threads, most = 100000;
    while (units.n > 0 && units.n < wanted && units.v[0].remaining > 3 && units.n * 40 < most)
        if (!expand(&units, &job->rules))
            goto oom;
    if (job->hash_bytes > 0) {
        tt = perft_tt_new_spread(job->hash_bytes, job->hash_span);
        if (!tt)
            goto oom;
        out->hash_bytes = perft_tt_bytes(tt);
    }

    PerftProgress progress = { .units_total = units.n };
    if (job->progress)
        for (size_t i = 0; i < units.n; i++) {
            units.v[i].work = split_unit_work(
                split_unit_estimate(&units.v[i].pos, &job->rules, units.v[i].remaining),
                &job->rules, units.v[i].remaining);
            progress.work_total += units.v[i].work;
        }
    const Rules rules = job->rules;
    const double start = monotonic_seconds();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < units.n; i++) {
        const Unit *u = &units.v[i];
        uint64_t nodes = perft_turns_hashed(&u->pos, &rules, u->remaining, tt);
#pragma omp atomic
        out->root[u->root].nodes += nodes;
#pragma omp critical(carrera_perft_progress)
        {
            progress.units_done++;
            progress.nodes += nodes;
            progress.work_done += u->work;
            if (job->progress)
                job->progress(&progress, job->progress_ctx);
        }
    }
    out->seconds = monotonic_seconds() - start;
    for (size_t i = 0; i < out->n_root; i++)
        out->nodes += out->root[i].nodes;
    out->units = units.n;
    turn_list_free(&turns);
    free(units.v);
    perft_tt_free(tt);
    return 0;
oom:
    turn_list_free(&turns);
    free(units.v);
    perft_tt_free(tt);
    perft_result_free(out);
    return -1;
}

/* SPDX-License-Identifier: MIT */
/* The parallel perft driver. The tree is cut by the splitter (split.c) into work units,
 * transpositions under one root turn merged, enough of them for every thread to stay busy;
 * threads then take units dynamically, root turn by root turn: a fixed split of root moves would
 * leave threads idle behind the one that got the largest subtree. */
#include "perft.h"

#include "clock.h"
#include "split.h"

#include <omp.h>
#include <stdlib.h>

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
    const int split_depth = split_choose_depth(job->root, &job->rules, job->depth, 1, threads);
    Split split;
    PerftTT *own = NULL;
    double *work = NULL;
    if (split_make_local(job->root, &job->rules, job->depth, split_depth, job->progress != NULL,
                         &split) != 0)
        return -1;
    out->n_root = split.n_root;
    out->root = calloc(split.n_root ? split.n_root : 1, sizeof *out->root);
    if (!out->root)
        goto oom;
    for (size_t i = 0; i < split.n_root; i++)
        out->root[i].turn = split.root_turns[i];
    PerftTT *tt = job->tt;
    if (!tt && job->hash_bytes > 0) {
        tt = own = perft_tt_new_spread(job->hash_bytes, job->hash_span);
        if (!tt)
            goto oom;
    }
    out->hash_bytes = tt ? perft_tt_bytes(tt) : 0;

    PerftProgress progress = { .units_total = split.n_units };
    if (job->progress) {
        work = malloc((split.n_units ? split.n_units : 1) * sizeof *work);
        if (!work)
            goto oom;
        for (size_t i = 0; i < split.n_units; i++) {
            work[i] = split_unit_work(split.units[i].estimate, &job->rules, split.units[i].depth);
            progress.work_total += work[i];
        }
    }
    const Rules rules = job->rules;
    const double start = monotonic_seconds();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (size_t i = 0; i < split.n_units; i++) {
        const WorkUnit *u = &split.units[i];
        PerftTTWork w = { 0 };
        const uint64_t nodes =
            perft_turns_hashed(&split.positions[i], &rules, u->depth, tt, &w) * u->multiplicity;
#pragma omp atomic
        out->root[u->root].nodes += nodes;
        if (tt) {
#pragma omp critical(carrera_perft_work)
            perft_tt_work_add(&out->work, &w);
        }
        if (job->progress) {
#pragma omp critical(carrera_perft_progress)
            {
                progress.units_done++;
                progress.nodes += nodes;
                progress.work_done += work[i];
                job->progress(&progress, job->progress_ctx);
            }
        }
    }
    out->seconds = monotonic_seconds() - start;
    for (size_t i = 0; i < out->n_root; i++)
        out->nodes += out->root[i].nodes;
    out->units = split.n_units;
    split_free(&split);
    free(work);
    perft_tt_free(own);
    return 0;
oom:
    split_free(&split);
    free(work);
    perft_tt_free(own);
    perft_result_free(out);
    return -1;
}

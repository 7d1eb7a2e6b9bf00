/* SPDX-License-Identifier: MIT */
/* A piece-value run read, tallied and analysed (report_run.h). */
#include "report_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "exit_status.h"
#include "imbalance.h"

/* One more game that ended so; past the table's room the last entry becomes "other". */
static void add_termination(ReportTest *t, const char *name)
{
    for (int i = 0; i < t->n_terms; i++)
        if (strcmp(t->terms[i].name, name) == 0) {
            t->terms[i].count++;
            return;
        }
    ReportTermination *e = &t->terms[REPORT_MAX_TERMINATIONS - 1];
    if (t->n_terms < REPORT_MAX_TERMINATIONS)
        e = &t->terms[t->n_terms++];
    else
        name = "other";
    snprintf(e->name, sizeof e->name, "%s", name);
    e->count++;
}

/* Game g of a complete pair into t. */
static void tally_game(ReportTest *t, const MatchTestGame *g)
{
    if (g->score == 1)
        t->wins++;
    else if (g->score == 0)
        t->losses++;
    else
        t->draws++;
    bool white = g->white == 1;
    *(white ? &t->white_score : &t->black_score) += g->score;
    (*(white ? &t->white_games : &t->black_games))++;
    t->plies += g->plies;
    /* player 1 moves first as White: the odd plies */
    uint64_t first = (g->plies + 1) / 2, second = g->plies / 2;
    t->nodes[0] += white ? g->nodes_white : g->nodes_black;
    t->nodes[1] += white ? g->nodes_black : g->nodes_white;
    t->moves[0] += white ? first : second;
    t->moves[1] += white ? second : first;
    add_termination(t, g->termination);
}

static int by_count(const void *a, const void *b)
{
    const ReportTermination *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

/* The stage of pair p, growing r->stages to hold it. */
static ReportStage *stage_of(ReportRun *r, uint64_t pair, char *err, size_t errlen)
{
    int k = (int)(pair / r->cfg.pairs_per_stage);
    while (r->n_stages <= k) {
        ReportStage *more = realloc(r->stages, (size_t)(r->n_stages + 1) * sizeof *more);
        if (!more) {
            errmsg_fail(err, errlen, "%s: out of memory", r->path);
            return NULL;
        }
        r->stages = more;
        memset(&r->stages[r->n_stages], 0, sizeof *more);
        r->stages[r->n_stages].index = r->n_stages;
        r->n_stages++;
    }
    return &r->stages[k];
}

/* Every complete pair of the file into its stage and test. Returns 0, or the exit status with a
 * message. */
static int tally(ReportRun *r, char *err, size_t errlen)
{
    const MatchTestGame *g = r->file.games;
    const size_t n = r->file.n_games;
    const uint64_t planned = (uint64_t)r->cfg.stages * r->cfg.pairs_per_stage;
    for (size_t i = 0; i < n;) {
        if (g[i].pair >= planned) {
            errmsg_set(err, errlen,
                       "%s: pair %llu in /match/games, beyond the %llu pairs the configuration "
                       "plans",
                       r->path, (unsigned long long)g[i].pair, (unsigned long long)planned);
            return EXIT_USAGE;
        }
        if (!(g[i].game == 1 && i + 1 < n && g[i + 1].game == 2 && g[i + 1].pair == g[i].pair)) {
            r->single_games++;
            i++;
            continue;
        }
        ReportStage *s = stage_of(r, g[i].pair, err, errlen);
        if (!s)
            return EXIT_FAILED;
        ReportTest *t = &s->tests[match_imbalance_of(&r->cfg, g[i].pair)];
        int cls = stats_pair_class(g[i].score, g[i + 1].score);
        if (cls < 0) {
            errmsg_set(err, errlen, "%s: pair %llu has a score that is none of 0, 1/2, 1", r->path,
                       (unsigned long long)g[i].pair);
            return EXIT_USAGE;
        }
        t->pairs[cls]++;
        t->n_pairs++;
        s->pairs++;
        tally_game(t, &g[i]);
        tally_game(t, &g[i + 1]);
        i += 2;
    }
    for (int k = 0; k < r->n_stages; k++) {
        ReportStage *s = &r->stages[k];
        s->complete = s->pairs == r->cfg.pairs_per_stage;
        for (int i = 0; i < r->cfg.n_imbalances; i++)
            qsort(s->tests[i].terms, (size_t)s->tests[i].n_terms, sizeof s->tests[i].terms[0],
                  by_count);
    }
    return 0;
}

/* Returns 0, or EXIT_FAILED with a message when memory runs out. */
static int analyse(ReportRun *r, int replicates, char *err, size_t errlen)
{
    int material[MATCH_MAX_IMBALANCES][TUNE_PIECES];
    uint64_t pairs[MATCH_MAX_IMBALANCES][PAIR_CLASSES];
    const char *names[MATCH_MAX_IMBALANCES];
    for (int i = 0; i < r->cfg.n_imbalances; i++) {
        imbalance_vector(&r->cfg.imbalances[i], material[i]);
        names[i] = r->cfg.imbalances[i].name;
    }
    for (int k = 0; k < r->n_stages; k++) {
        ReportStage *s = &r->stages[k];
        if (!(s->analysis = calloc(1, sizeof *s->analysis))) {
            errmsg_set(err, errlen, "%s: out of memory for the analysis", r->path);
            return EXIT_FAILED;
        }
        for (int i = 0; i < r->cfg.n_imbalances; i++)
            memcpy(pairs[i], s->tests[i].pairs, sizeof pairs[i]);
        /* a failed fit is reported with its reason, not an error of the report */
        tune_analyse((const int(*)[TUNE_PIECES])material, (const uint64_t(*)[PAIR_CLASSES])pairs,
                     names, (size_t)r->cfg.n_imbalances, replicates,
                     tune_analysis_seed(r->cfg.seed, s->index), s->analysis);
    }
    return 0;
}

/* /tune/pairs against the last complete stage's counts. */
static void cross_check(ReportRun *r)
{
    const MatchTestsFile *f = &r->file;
    const ReportStage *last = NULL;
    for (int k = 0; k < r->n_stages; k++)
        if (r->stages[k].complete)
            last = &r->stages[k];
    if (!f->has_tune_pairs || !last)
        return;
    r->cross_checked = true;
    size_t used = 0;
    char *w = r->warning;
    const size_t len = sizeof r->warning;
    if (f->n_tune_pairs != (size_t)r->cfg.n_imbalances) {
        snprintf(w, len, "/tune/pairs holds %zu tests, the configuration %d", f->n_tune_pairs,
                 r->cfg.n_imbalances);
        return;
    }
    for (int i = 0; i < r->cfg.n_imbalances && used < len; i++) {
        const uint64_t *a = f->tune_pairs[i], *b = last->tests[i].pairs;
        if (memcmp(a, b, sizeof last->tests[i].pairs) == 0)
            continue;
        used += (size_t)snprintf(
            w + used, len - used,
            "%s%s: /tune/pairs %llu %llu %llu %llu %llu, the games of stage "
            "%d %llu %llu %llu %llu %llu",
            used ? "; " : "", r->cfg.imbalances[i].name, (unsigned long long)a[0],
            (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)a[3],
            (unsigned long long)a[4], last->index + 1, (unsigned long long)b[0],
            (unsigned long long)b[1], (unsigned long long)b[2], (unsigned long long)b[3],
            (unsigned long long)b[4]);
    }
}

int report_run_load(ReportRun *r, const char *path, int replicates, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    if (match_tests_read(path, &r->file, err, errlen) != 0)
        return EXIT_USAGE;
    char why[ERRMSG_LEN];
    if (match_config_parse(r->file.configuration, path, &r->cfg, why, sizeof why) != 0) {
        errmsg_set(err, errlen, "%s: its configuration cannot be read: %s", path, why);
        match_tests_free(&r->file);
        return EXIT_USAGE;
    }
    int rc = EXIT_USAGE;
    if (r->cfg.n_imbalances == 0)
        errmsg_set(err, errlen,
                   "%s: not a piece-value run: its configuration has no imbalances (a plain "
                   "match, not carrera tune's imbalance method)",
                   path);
    else if (r->cfg.pairs_per_stage == 0 || r->cfg.stages < 1)
        errmsg_set(err, errlen, "%s: its configuration plans no game pairs", path);
    else
        rc = tally(r, err, errlen);
    if (rc == 0 && r->n_stages == 0) {
        errmsg_set(err, errlen, "%s: no complete game pair recorded", path);
        rc = EXIT_USAGE;
    }
    if (rc == 0)
        rc = analyse(r, replicates, err, errlen);
    if (rc == 0)
        cross_check(r);
    if (rc != 0)
        report_run_free(r);
    return rc;
}

void report_run_free(ReportRun *r)
{
    for (int k = 0; k < r->n_stages; k++)
        free(r->stages[k].analysis);
    free(r->stages);
    if (r->file.configuration)
        match_config_free(&r->cfg);
    match_tests_free(&r->file);
    memset(r, 0, sizeof *r);
}

uint64_t report_stage_nodes(const ReportRun *r, const ReportStage *s)
{
    const uint64_t sweep = tune_sweep_nodes(&r->cfg.tune, s->index);
    return sweep ? sweep : r->cfg.players[0].limits.nodes;
}

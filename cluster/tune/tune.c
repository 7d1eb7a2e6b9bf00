/* SPDX-License-Identifier: MIT */
/* The tuner of `carrera tune` (tune.h). */
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regression.h"

void tune_fit(const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES], TuneFit *fit)
{
    memset(fit, 0, sizeof *fit);
    unsigned pieces = TUNE_BIT(TUNE_P);
    for (int i = 0; i < c->n_imbalances; i++) {
        memcpy(fit->pairs[i], pairs[i], sizeof fit->pairs[i]);
        int material[TUNE_PIECES];
        imbalance_vector(&c->imbalances[i], material);
        for (int p = 0; p < TUNE_PIECES; p++)
            if (material[p])
                pieces |= TUNE_BIT(p);
        char why[256];
        if (tune_imbalance_from_pairs(&fit->tests[i], material, pairs[i], why, sizeof why) != 0) {
            snprintf(fit->reason, sizeof fit->reason, "imbalance %s: %s", c->imbalances[i].name,
                     why);
            return;
        }
        fit->corrected = fit->corrected || fit->tests[i].corrected;
    }
    TuneValues *v = &fit->values;
    if (tune_imbalance_fit(fit->tests, (size_t)c->n_imbalances, pieces, v, &fit->chi2, &fit->dof,
                           fit->reason, sizeof fit->reason) != 0)
        return;
    /* values are ratios to the pawn's worth: while that is not clearly above 0 they mean nothing */
    double pawn = v->logit[TUNE_P], pawn_se = sqrt(v->logit_cov[TUNE_P][TUNE_P]);
    if (pawn <= 1.96 * pawn_se) {
        snprintf(fit->reason, sizeof fit->reason,
                 "the games do not yet show a pawn worth anything (its logit %.3f +- %.3f, 95%%): "
                 "play more games per imbalance",
                 pawn, 1.96 * pawn_se);
        return;
    }
    fit->ok = true;
}

/* ---- stages ---- */

/* The piece values (pawns) an evaluation plays with: its middlegame values over the pawn's. */
static void played_values(const EvalParams *e, double out[TUNE_PIECES])
{
    for (int p = 0; p < TUNE_PIECES; p++)
        out[p] = e->value_mg[PAWN + p] / (double)e->value_mg[PAWN];
}

/* Stage k's SPSA perturbation: a function of the seed and k alone, so that a resumed run draws
 * the same. */
static void spsa_stage(Tuner *t)
{
    const MatchConfig *c = t->cfg;
    const TuneConfig *tc = &c->tune;
    Rng rng = rng_new(c->seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(t->stage + 1)));
    rng_next(&rng);
    double plus[TUNE_MAX_PARAMS], minus[TUNE_MAX_PARAMS];
    spsa_perturb(&t->spsa, &rng, t->delta, plus, minus);
    t->eval[0] = c->players[0].eval;
    t->eval[1] = c->players[1].eval;
    for (int i = 0; i < tc->n_params; i++) {
        tune_param_set(&tc->params[i], &t->eval[0], plus[i]);
        tune_param_set(&tc->params[i], &t->eval[1], minus[i]);
    }
}

int tuner_init(Tuner *t, const MatchConfig *c, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->cfg = c;
    t->eval[0] = c->players[0].eval;
    t->eval[1] = c->players[1].eval;
    const TuneConfig *tc = &c->tune;
    if (tc->method == TUNE_IMBALANCE) {
        t->iterations = calloc((size_t)c->stages, sizeof *t->iterations);
        if (!t->iterations) {
            snprintf(err, errlen, "out of memory for %d iterations", c->stages);
            return -1;
        }
    } else if (tc->method == TUNE_SPSA) {
        int m = tc->n_params;
        t->theta = calloc((size_t)(c->stages + 1) * (size_t)m, sizeof *t->theta);
        t->signs = calloc((size_t)c->stages * (size_t)m, sizeof *t->signs);
        t->result = calloc((size_t)c->stages, sizeof *t->result);
        if (!t->theta || !t->signs || !t->result) {
            tuner_free(t);
            snprintf(err, errlen, "out of memory for %d SPSA iterations", c->stages);
            return -1;
        }
        for (int i = 0; i < m; i++) {
            const TuneParam *p = &tc->params[i];
            t->sp[i] = (SpsaParam){ .theta = tune_param_get(p, &c->players[0].eval),
                                    .min = p->min,
                                    .max = p->max,
                                    .c_end = p->c_end,
                                    .r_end = p->r_end };
            t->theta[i] = t->sp[i].theta;
        }
        SpsaSchedule s = {
            .iterations = c->stages, .A = tc->A, .alpha = tc->alpha, .gamma = tc->gamma
        };
        char why[256];
        if (spsa_init(&t->spsa, &s, t->sp, m, why, sizeof why) != 0) {
            tuner_free(t);
            snprintf(err, errlen, "[tune]: %s (player 1's value is the start)", why);
            return -1;
        }
        spsa_stage(t);
    }
    return 0;
}

void tuner_free(Tuner *t)
{
    free(t->iterations);
    free(t->theta);
    free(t->signs);
    free(t->result);
    t->iterations = NULL;
    t->theta = NULL;
    t->signs = NULL;
    t->result = NULL;
}

/* The imbalance method's stage end: fit, and either stop or play the next stage with the
 * measured values. */
static void imbalance_stage_end(Tuner *t)
{
    const MatchConfig *c = t->cfg;
    TuneIteration *it = &t->iterations[t->n_iterations++];
    played_values(&t->eval[0], it->played);
    tune_fit(c, (const uint64_t(*)[PAIR_CLASSES])t->stage_pairs, &it->fit);
    if (!it->fit.ok) {
        if (t->stage + 1 < c->stages) {
            t->finished = true;
            snprintf(t->stop_reason, sizeof t->stop_reason,
                     "iteration %d gave no values to play with", t->stage + 1);
        }
        return;
    }
    const TuneValues *v = &it->fit.values;
    bool agree = true;
    for (int p = 1; p < TUNE_PIECES; p++)
        if (v->pieces & TUNE_BIT(p))
            agree = agree && it->played[p] >= v->lo[p] && it->played[p] <= v->hi[p];
    if (agree && c->stages > 1) {
        t->converged = true;
        snprintf(t->stop_reason, sizeof t->stop_reason,
                 "values agreed at iteration %d: each played value inside its 95%% interval",
                 t->stage + 1);
        t->finished = true;
        return;
    }
    for (int k = 0; k < 2; k++)
        for (int p = 1; p < TUNE_PIECES; p++)
            if (v->pieces & TUNE_BIT(p)) {
                EvalParams *e = &t->eval[k];
                double mg = floor(v->value[p] * e->value_mg[PAWN] + 0.5);
                double eg = floor(v->value[p] * e->value_eg[PAWN] + 0.5);
                e->value_mg[PAWN + p] = (int)(mg < 1 ? 1 : mg > 3000 ? 3000 : mg);
                e->value_eg[PAWN + p] = (int)(eg < 1 ? 1 : eg > 3000 ? 3000 : eg);
            }
}

bool tuner_add_pair(Tuner *t, uint64_t pair, const double score[2])
{
    const MatchConfig *c = t->cfg;
    int i = match_imbalance_of(c, pair);
    if (i >= 0)
        t->stage_pairs[i][stats_pair_class(score[0], score[1])]++;
    t->stage_result += (score[0] - 0.5) * 2 + (score[1] - 0.5) * 2;
    if (++t->stage_done < c->pairs_per_stage)
        return false;
    int m = c->tune.n_params;
    if (c->tune.method == TUNE_IMBALANCE) {
        imbalance_stage_end(t);
    } else if (c->tune.method == TUNE_SPSA) {
        spsa_update(&t->spsa, t->delta, t->stage_result);
        for (int k = 0; k < m; k++) {
            t->signs[(size_t)t->stage * (size_t)m + (size_t)k] = (int8_t)t->delta[k];
            t->theta[(size_t)(t->stage + 1) * (size_t)m + (size_t)k] = t->sp[k].theta;
        }
        t->result[t->stage] = t->stage_result;
    }
    t->stage++;
    memset(t->stage_pairs, 0, sizeof t->stage_pairs);
    t->stage_done = 0;
    t->stage_result = 0;
    if (t->stage >= c->stages)
        t->finished = true;
    else if (!t->finished && c->tune.method == TUNE_SPSA)
        spsa_stage(t);
    return true;
}

const TuneFit *tuner_final_fit(const Tuner *t)
{
    return t->n_iterations ? &t->iterations[t->n_iterations - 1].fit : NULL;
}

bool tuner_ok(const Tuner *t)
{
    switch (t->cfg->tune.method) {
    case TUNE_IMBALANCE:
        return tuner_final_fit(t) && tuner_final_fit(t)->ok;
    case TUNE_SPSA:
        return t->spsa.done == t->cfg->stages;
    case TUNE_REGRESSION:
        return t->regression.ok;
    }
    return false;
}

void tune_print_values(FILE *out, const char *heading, const TuneValues *v)
{
    fprintf(out, "%s\n", heading);
    for (int p = 1; p < TUNE_PIECES; p++)
        if (v->pieces & TUNE_BIT(p))
            fprintf(out, "  %s %6.2f  [%6.2f, %6.2f]\n", tune_piece_name(p), v->value[p], v->lo[p],
                    v->hi[p]);
}

static void print_fit(FILE *out, const MatchConfig *c, const TuneFit *fit, const char *what)
{
    if (!fit->ok) {
        fprintf(out, "no piece values%s: %s\n", what, fit->reason);
        return;
    }
    char heading[512];
    snprintf(heading, sizeof heading,
             "piece values%s (pawns, 95%% intervals; least squares over %d imbalances, chi2 %.1f "
             "on %d degrees of freedom)%s:",
             what, c->n_imbalances, fit->chi2, fit->dof,
             fit->corrected
                 ? " [a test with a one-sided score was corrected by one win and one loss]"
                 : "");
    tune_print_values(out, heading, &fit->values);
}

static void print_spsa(FILE *out, const Tuner *t)
{
    const TuneConfig *tc = &t->cfg->tune;
    fprintf(out, "SPSA: %ld of %d iterations (%d game pairs each)\n", t->spsa.done, t->cfg->stages,
            tc->pairs_per_iteration);
    for (int i = 0; i < tc->n_params; i++)
        fprintf(out, "  %-24s start %7.1f  now %7.1f  (bounds %g..%g, c_end %g, r_end %g)\n",
                tc->params[i].info->name, t->theta[i], t->sp[i].theta, t->sp[i].min, t->sp[i].max,
                t->sp[i].c_end, t->sp[i].r_end);
}

void tuner_print(FILE *out, const Tuner *t)
{
    const MatchConfig *c = t->cfg;
    if (c->tune.method == TUNE_IMBALANCE) {
        for (int k = 0; k < t->n_iterations; k++) {
            char what[64] = "";
            if (c->stages > 1) {
                snprintf(what, sizeof what, " of iteration %d", k + 1);
                fprintf(out, "iteration %d played with:", k + 1);
                for (int p = 1; p < TUNE_PIECES; p++)
                    fprintf(out, " %s %.2f", tune_piece_name(p), t->iterations[k].played[p]);
                fprintf(out, "\n");
            }
            print_fit(out, c, &t->iterations[k].fit, what);
        }
        if (t->stop_reason[0])
            fprintf(out, "%s: %s\n", t->converged ? "converged" : "stopped", t->stop_reason);
        else if (c->stages > 1 && !t->converged && t->n_iterations == c->stages)
            fprintf(out, "the values did not settle in %d iterations\n", c->stages);
    } else if (c->tune.method == TUNE_SPSA) {
        print_spsa(out, t);
    }
    const TuneRegressionRun *r = &t->regression;
    if (r->done && !r->ok)
        fprintf(out, "no regression values: %s\n", r->reason);
    if (r->ok) {
        char heading[512];
        snprintf(heading, sizeof heading,
                 "regression on material (pawns, 95%% intervals clustered by game pair; %llu "
                 "positions from %llu games in %llu pairs, White's edge %.3f, draw width %.3f "
                 "logits):",
                 (unsigned long long)r->samples, (unsigned long long)r->games_used,
                 (unsigned long long)r->pairs, r->fit.advantage, r->fit.draw_width);
        tune_print_values(out, heading, &r->fit.values);
    }
}

void tune_regress(Tuner *t, const RegressionData *d, int skip_plies, const char *why)
{
    TuneRegressionRun *r = &t->regression;
    memset(r, 0, sizeof *r);
    r->done = true;
    r->skip_plies = skip_plies;
    if (!d) {
        snprintf(r->reason, sizeof r->reason, "%s", why);
        return;
    }
    r->read = true;
    r->games = d->games;
    r->games_used = d->games_used;
    r->pairs = d->pairs;
    r->samples = d->n;
    unsigned pieces = TUNE_BIT(TUNE_P);
    for (size_t i = 0; i < d->n; i++)
        for (int p = 0; p < TUNE_PIECES; p++)
            if (d->samples[i].material[p])
                pieces |= TUNE_BIT(p);
    r->ok =
        tune_regression_fit(d->samples, d->n, pieces, &r->fit, r->reason, sizeof r->reason) == 0;
}

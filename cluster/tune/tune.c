/* SPDX-License-Identifier: MIT */
/* The tuner of `carrera tune` (tune.h). */
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "regression_data.h"

void tune_fit(const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES], int stage, TuneFit *fit)
{
    memset(fit, 0, sizeof *fit);
    int material[MATCH_MAX_IMBALANCES][TUNE_PIECES];
    for (int i = 0; i < c->n_imbalances; i++) {
        memcpy(fit->pairs[i], pairs[i], sizeof fit->pairs[i]);
        imbalance_vector(&c->imbalances[i], material[i]);
    }
    fit->analysis = malloc(sizeof *fit->analysis);
    if (!fit->analysis) {
        snprintf(fit->reason, sizeof fit->reason, "out of memory for the fit's analysis");
        return;
    }
    const uint64_t seed = tune_analysis_seed(c->seed, stage);
    TuneAnalysis *a = fit->analysis;
    const char *names[MATCH_MAX_IMBALANCES];
    for (int i = 0; i < c->n_imbalances; i++)
        names[i] = c->imbalances[i].name;
    if (tune_analyse((const int(*)[TUNE_PIECES])material, pairs, names, (size_t)c->n_imbalances,
                     TUNE_ANALYSIS_REPLICATES, seed, a) != 0) {
        snprintf(fit->reason, sizeof fit->reason, "%s", a->reason);
        return;
    }
    if (a->pawn_unclear) {
        snprintf(fit->reason, sizeof fit->reason, "%s", a->pawn_note);
        return;
    }
    fit->ok = true;
}

void tune_fit_free(TuneFit *fit)
{
    free(fit->analysis);
    fit->analysis = NULL;
}

/* ---- stages ---- */

/* The piece values (pawns) an evaluation plays with: its middlegame values over the pawn's. */
static void played_values(const EvalParams *e, double out[TUNE_PIECES])
{
    for (int p = 0; p < TUNE_PIECES; p++)
        out[p] = e->value_mg[PAWN + p] / (double)e->value_mg[PAWN];
}

/* Both players' parameters as their sections give them. */
static void start_params(Tuner *t)
{
    for (int k = 0; k < 2; k++)
        t->params[k] = (EngineParams){ t->cfg->players[k].eval, t->cfg->players[k].search };
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
    start_params(t);
    for (int i = 0; i < tc->n_params; i++) {
        tune_param_set(&tc->params[i], &t->params[0], plus[i]);
        tune_param_set(&tc->params[i], &t->params[1], minus[i]);
    }
}

int tuner_init(Tuner *t, const MatchConfig *c, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->cfg = c;
    start_params(t);
    const TuneConfig *tc = &c->tune;
    if (tc->method == TUNE_IMBALANCE) {
        t->iterations = calloc((size_t)c->stages, sizeof *t->iterations);
        if (!t->iterations)
            return errmsg_fail(err, errlen, "out of memory for %d iterations", c->stages);
    } else if (tc->method == TUNE_SPSA) {
        int m = tc->n_params;
        t->theta = calloc((size_t)(c->stages + 1) * (size_t)m, sizeof *t->theta);
        t->signs = calloc((size_t)c->stages * (size_t)m, sizeof *t->signs);
        t->result = calloc((size_t)c->stages, sizeof *t->result);
        if (!t->theta || !t->signs || !t->result) {
            tuner_free(t);
            return errmsg_fail(err, errlen, "out of memory for %d SPSA iterations", c->stages);
        }
        for (int i = 0; i < m; i++) {
            const TuneParam *p = &tc->params[i];
            t->sp[i] = (SpsaParam){ .theta = tune_param_get(p, &t->params[0]),
                                    .min = p->min,
                                    .max = p->max,
                                    .c_end = p->c_end,
                                    .r_end = p->r_end };
            t->theta[i] = t->sp[i].theta;
        }
        SpsaSchedule s = {
            .iterations = c->stages, .A = tc->A, .alpha = tc->alpha, .gamma = tc->gamma
        };
        char why[ERRMSG_LEN];
        if (spsa_init(&t->spsa, &s, t->sp, m, why, sizeof why) != 0) {
            tuner_free(t);
            return errmsg_fail(err, errlen, "[tune]: %s (player 1's value is the start)", why);
        }
        spsa_stage(t);
    }
    return 0;
}

void tuner_free(Tuner *t)
{
    for (int k = 0; k < t->n_iterations; k++)
        tune_fit_free(&t->iterations[k].fit);
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
    played_values(&t->params[0].eval, it->played);
    it->nodes = tune_sweep_nodes(&c->tune, t->stage);
    tune_fit(c, (const uint64_t(*)[PAIR_CLASSES])t->stage_pairs, t->stage, &it->fit);
    if (c->tune.n_sweep)
        return; /* every stage plays the same design with the same values */
    if (!it->fit.ok) {
        if (t->stage + 1 < c->stages) {
            t->finished = true;
            snprintf(t->stop_reason, sizeof t->stop_reason,
                     "iteration %d gave no values to play with", t->stage + 1);
        }
        return;
    }
    const TuneValues *v = &it->fit.analysis->values;
    if (!v->has_pawn) {
        if (t->stage + 1 < c->stages) {
            t->finished = true;
            snprintf(t->stop_reason, sizeof t->stop_reason,
                     "iteration %d: a design without pawns measures ratios, no values in pawns to "
                     "play with",
                     t->stage + 1);
        }
        return;
    }
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
                EvalParams *e = &t->params[k].eval;
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

/* The quantities of a fit: estimate, delta-method, Fieller and bootstrap intervals. */
static void print_quantities(FILE *out, const TuneAnalysis *a)
{
    fprintf(out, "  %-8s %7s  %-16s  %-18s  %s\n", "", "value", "delta 95%", "Fieller 95%",
            a->boot_ok ? "bootstrap 95%" : "");
    for (int k = 0; k < a->nq; k++) {
        const TuneEstimate *e = &a->estimate[k];
        char delta[64], fieller[64], boot[64] = "";
        tune_analysis_interval_text(e->delta_lo, e->delta_hi, TUNE_INTERVAL_BOUNDED, 2, delta,
                                    sizeof delta);
        tune_analysis_interval_text(e->lo, e->hi, e->kind, 2, fieller, sizeof fieller);
        if (a->boot_ok)
            tune_analysis_interval_text(a->boot.lo[k], a->boot.hi[k], TUNE_INTERVAL_BOUNDED, 2,
                                        boot, sizeof boot);
        fprintf(out, "  %-8s %7.2f  %-16s  %-18s  %s\n", a->q[k].name, e->value, delta, fieller,
                boot);
    }
    if (a->boot_ok)
        fprintf(out, "  (bootstrap: %d replicates over game pairs, %d failed)\n",
                a->boot.replicates, a->boot.failed);
    else
        fprintf(out, "  (no bootstrap: %s)\n", a->boot_reason);
}

/* Each test against the fit and against the fit of the others. */
static void print_tests(FILE *out, const MatchConfig *c, const TuneAnalysis *a)
{
    fprintf(out, "  imbalance  pairs   score  fitted  std.resid | left out: predicted      z\n");
    for (size_t t = 0; t < a->count; t++) {
        const TuneResidual *r = &a->residual[t];
        const TuneLeaveOut *l = &a->loo[t];
        uint64_t n = 0;
        for (int k = 0; k < PAIR_CLASSES; k++)
            n += a->pairs[t][k];
        char resid[32], loo[64];
        snprintf(resid, sizeof resid, r->determined ? "(alone)" : "%+.2f", r->standardised);
        if (a->loo_ok && l->possible)
            snprintf(loo, sizeof loo, "%.3f  %+6.2f%s", l->predicted_score, l->prediction_z,
                     fabs(l->prediction_z) > 2.5 ? " !" : "");
        else
            snprintf(loo, sizeof loo, "cannot be left out");
        fprintf(out, "  %-9s %6llu  %6.3f  %6.3f  %9s | %s\n", c->imbalances[t].name,
                (unsigned long long)n, a->tests[t].score, r->fitted_score, resid, loo);
    }
    for (int k = 0; k < a->n_brackets; k++) {
        const TuneBracketPair *b = &a->brackets[k];
        if (b->ok)
            fprintf(out, "  bracket %s / %s alone: %.2f +- %.2f pawns\n",
                    c->imbalances[b->test].name, c->imbalances[b->plus].name, b->value,
                    1.96 * b->se);
        else
            fprintf(out, "  bracket %s / %s: %s\n", c->imbalances[b->test].name,
                    c->imbalances[b->plus].name, b->reason);
    }
}

static void print_fit(FILE *out, const MatchConfig *c, const TuneFit *fit, const char *what)
{
    const TuneAnalysis *a = fit->analysis;
    if (!fit->ok)
        fprintf(out, "no piece values%s: %s\n", what, fit->reason);
    if (!a || !a->ok)
        return;
    const TuneFitQuality *q = &a->quality;
    char scaled[96] = "";
    if (q->scale != 1.0)
        snprintf(scaled, sizeof scaled, "; covariance scaled by chi2/dof = %.2f", q->scale);
    fprintf(out,
            "%s%s (%s; least squares over %d imbalances, chi2 %.1f on %d degree%s of "
            "freedom, p = %.3f%s)%s:\n",
            fit->ok ? "piece values" : "the fit", what,
            a->values.has_pawn ? "pawns"
            : a->pawn_unclear  ? "ratios only: the pawn is not yet bounded"
                               : "ratios: no pawn in the design",
            c->n_imbalances, q->chi2, q->dof, q->dof == 1 ? "" : "s", q->p_value, scaled,
            a->corrected ? " [a test with a one-sided score was corrected by one win and one loss]"
                         : "");
    print_quantities(out, a);
    print_tests(out, c, a);
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
            char what[96] = "";
            if (c->tune.n_sweep) {
                snprintf(what, sizeof what, " of stage %d at %llu nodes per turn", k + 1,
                         (unsigned long long)t->iterations[k].nodes);
            } else if (c->stages > 1) {
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
        else if (c->stages > 1 && !c->tune.n_sweep && !t->converged && t->n_iterations == c->stages)
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

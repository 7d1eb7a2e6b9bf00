/* SPDX-License-Identifier: MIT */
/* The plan of an imbalance design (plan.h). */
#include "plan_print.h"

#include <math.h>
#include <string.h>

#include "imbalance.h"

/* The targets of the optimal weights: A and C and the contrasts that concern them, those the
 * design fits. */
static int plan_targets(unsigned pieces, const TuneQuantity *q, int nq, TuneQuantity *out)
{
    static const char *const names[] = { "A",       "C",   "C-A", "Q-A", "A-(R+N)",
                                         "C-(R+N)", "A/Q", "C/Q", "A/C" };
    int n = 0;
    for (int k = 0; k < nq; k++)
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (strcmp(q[k].name, names[i]) == 0 && tune_quantity_fitted(&q[k], pieces))
                out[n++] = q[k];
    return n;
}

int plan_print(FILE *out, const MatchConfig *c, char *err, size_t errlen)
{
    const int n = c->n_imbalances;
    int material[MATCH_MAX_IMBALANCES][TUNE_PIECES];
    double pairs[MATCH_MAX_IMBALANCES], best_pairs[MATCH_MAX_IMBALANCES],
        weight[MATCH_MAX_IMBALANCES];
    unsigned pieces = 0;
    double total = 0;
    for (int i = 0; i < n; i++) {
        imbalance_vector(&c->imbalances[i], material[i]);
        for (int p = 0; p < TUNE_PIECES; p++)
            if (material[i][p])
                pieces |= TUNE_BIT(p);
        pairs[i] = (double)match_imbalance_pairs(c, i);
        total += pairs[i];
    }
    /* an external engine's values are its own and unknown here: Carrera's defaults stand in */
    const bool own = c->players[0].kind == PLAYER_CARRERA;
    EvalParams defaults;
    eval_defaults(&defaults);
    const EvalParams *e = own ? &c->players[0].eval : &defaults;
    double value[TUNE_PIECES];
    for (int p = 0; p < TUNE_PIECES; p++)
        value[p] = e->value_mg[PAWN + p] / (double)e->value_mg[PAWN];
    const double pawn_logit = c->tune.plan_pawn_logit;
    const TunePairModel model = { c->tune.plan_draw_rate, PLAN_FACTOR };
    TuneQuantity q[TUNE_QUANTITIES_MAX], targets[TUNE_QUANTITIES_MAX];
    const int nq = tune_quantities_default(pieces, q);
    const int nt = plan_targets(pieces, q, nq, targets);
    TuneValues planned, best;
    double half[TUNE_QUANTITIES_MAX], best_half[TUNE_QUANTITIES_MAX];
    if (tune_plan_covariance((const int(*)[TUNE_PIECES])material, pairs, (size_t)n, pieces, value,
                             pawn_logit, model, &planned, err, errlen) ||
        tune_plan_half_widths(&planned, q, nq, half, err, errlen))
        return -1;
    const bool optimal =
        nt > 0 && tune_plan_optimal((const int(*)[TUNE_PIECES])material, (size_t)n, pieces, value,
                                    pawn_logit, model, targets, nt, weight, NULL, err, errlen) == 0;
    if (!optimal && nt > 0)
        return -1;
    if (optimal) {
        for (int i = 0; i < n; i++)
            best_pairs[i] = fmax(weight[i] * total, 1e-6 * total);
        if (tune_plan_covariance((const int(*)[TUNE_PIECES])material, best_pairs, (size_t)n, pieces,
                                 value, pawn_logit, model, &best, err, errlen) ||
            tune_plan_half_widths(&best, q, nq, best_half, err, errlen))
            return -1;
    }
    int weights = 0;
    for (int i = 0; i < n; i++)
        weights += c->weights[i];
    fprintf(
        out,
        "plan of the %d imbalances (one stage; docs/statistics.md 4, \"Planning\"), assuming the "
        "values %s, a pawn worth %.2f logits, draw rate %.2f and pentanomial factor %.1f:\n",
        n,
        own ? "player 1 plays with"
            : "of Carrera's default evaluation (player 1 is an external engine)",
        pawn_logit, model.draw_rate, PLAN_FACTOR);
    fprintf(out, "  imbalance  weight   pairs  expected score%s\n",
            optimal ? "  optimal weight" : "");
    for (int i = 0; i < n; i++) {
        double l = 0;
        for (int p = 0; p < TUNE_PIECES; p++)
            l += material[i][p] * value[p] * pawn_logit;
        fprintf(out, "  %-9s  %6d  %6.0f  %14.3f", c->imbalances[i].name, c->weights[i], pairs[i],
                1 / (1 + exp(-l)));
        if (optimal)
            fprintf(out, "  %14.1f", weight[i] * weights);
        fprintf(out, "\n");
    }
    fprintf(out, "  quantity   expected value  95%% half-width%s\n",
            optimal ? "  with the optimal weights" : "");
    for (int k = 0; k < nq; k++) {
        double a = 0, b = 0;
        for (int p = 0; p < TUNE_PIECES; p++) {
            a += q[k].a[p] * value[p];
            b += q[k].b[p] * value[p];
        }
        fprintf(out, "  %-9s  %14.2f  %14.3f", q[k].name, a / b, half[k]);
        if (optimal)
            fprintf(out, "  %24.3f", best_half[k]);
        fprintf(out, "\n");
    }
    if (optimal)
        fprintf(out,
                "  (optimal: the least summed variance of %d targets among A, C and the "
                "contrasts and ratios about them, for the same %.0f pairs)\n",
                nt, total);
    return 0;
}

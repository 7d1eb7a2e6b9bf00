/* The imbalance fit of `carrera tune` (tune.h). */
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void tune_fit(const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES], TuneFit *fit)
{
    memset(fit, 0, sizeof *fit);
    fit->cfg = c;
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

void tune_print(FILE *out, const TuneFit *fit)
{
    if (!fit->ok) {
        fprintf(out, "no piece values: %s\n", fit->reason);
        return;
    }
    const TuneValues *v = &fit->values;
    fprintf(out,
            "piece values (pawns, 95%% intervals; least squares over %d imbalances, chi2 %.1f on "
            "%d degrees of freedom)%s:\n",
            fit->cfg->n_imbalances, fit->chi2, fit->dof,
            fit->corrected ? " [a test with a one-sided score was corrected by one win and one loss]"
                           : "");
    for (int p = 1; p < TUNE_PIECES; p++)
        if (v->pieces & TUNE_BIT(p))
            fprintf(out, "  %s %6.2f  [%6.2f, %6.2f]\n", tune_piece_name(p), v->value[p], v->lo[p],
                    v->hi[p]);
}

/* The imbalance fit of `carrera tune` (tune.h). */
#include "tune.h"

#include <math.h>
#include <stdio.h>

#include "tune_stats.h"

int tune_fit_print(FILE *out, const MatchConfig *c, const uint64_t (*pairs)[PAIR_CLASSES],
                   char *err, size_t errlen)
{
    TuneImbalance tests[MATCH_MAX_IMBALANCES] = { 0 };
    unsigned pieces = TUNE_BIT(TUNE_P);
    size_t n = 0;
    bool corrected = false;
    for (int i = 0; i < c->n_imbalances; i++) {
        int material[TUNE_PIECES];
        imbalance_vector(&c->imbalances[i], material);
        for (int p = 0; p < TUNE_PIECES; p++)
            if (material[p])
                pieces |= TUNE_BIT(p);
        char why[256];
        if (tune_imbalance_from_pairs(&tests[n], material, pairs[i], why, sizeof why) != 0) {
            snprintf(err, errlen, "imbalance %s: %s", c->imbalances[i].name, why);
            fprintf(out, "no piece values: %s\n", err);
            return -1;
        }
        corrected = corrected || tests[n].corrected;
        n++;
    }
    TuneValues v;
    double chi2;
    int dof;
    if (tune_imbalance_fit(tests, n, pieces, &v, &chi2, &dof, err, errlen) != 0) {
        fprintf(out, "no piece values: %s\n", err);
        return -1;
    }
    /* values are ratios to the pawn's worth: while that is not clearly above 0 they mean nothing */
    double pawn = v.logit[TUNE_P], pawn_se = sqrt(v.logit_cov[TUNE_P][TUNE_P]);
    if (pawn <= 1.96 * pawn_se) {
        snprintf(err, errlen,
                 "the games do not yet show a pawn worth anything (its logit %.3f +- %.3f, "
                 "95%%): play more games per imbalance",
                 pawn, 1.96 * pawn_se);
        fprintf(out, "no piece values: %s\n", err);
        return -1;
    }
    fprintf(out, "piece values (pawns, 95%% intervals; least squares over %zu imbalances, chi2 %.1f"
                 " on %d degrees of freedom)%s:\n",
            n, chi2, dof, corrected ? " [a test with a one-sided score was corrected by one win and one loss]" : "");
    for (int p = 1; p < TUNE_PIECES; p++)
        if (pieces & TUNE_BIT(p))
            fprintf(out, "  %s %6.2f  [%6.2f, %6.2f]\n", tune_piece_name(p), v.value[p], v.lo[p],
                    v.hi[p]);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* The whole inference on one fit of imbalance tests (tune_analysis.h). */
#include "tune_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "errmsg.h"

/* Pairs of tests one pawn apart, each read alone as a bracket (tune_bracket). */
static void find_brackets(TuneAnalysis *a)
{
    for (size_t t = 0; t < a->count; t++)
        for (size_t k = 0; k < a->count; k++) {
            const int *m = a->tests[t].material, *p = a->tests[k].material;
            bool pawn_apart = p[TUNE_P] == m[TUNE_P] - 1;
            for (int i = 1; i < TUNE_PIECES && pawn_apart; i++)
                pawn_apart = p[i] == m[i];
            if (!pawn_apart || a->n_brackets == TUNE_ANALYSIS_TESTS)
                continue;
            TuneBracketPair *b = &a->brackets[a->n_brackets++];
            b->test = (int)t;
            b->plus = (int)k;
            b->ok =
                tune_bracket(a->tests[t].score, a->tests[t].se, a->tests[k].score, a->tests[k].se,
                             &b->value, &b->se, b->reason, sizeof b->reason) == 0;
        }
}

/* The pieces some test changes, and the pawn whenever one does (the unit). */
static unsigned design_pieces(const int (*material)[TUNE_PIECES], size_t count)
{
    unsigned pieces = 0;
    for (size_t t = 0; t < count; t++)
        for (int p = 0; p < TUNE_PIECES; p++)
            if (material[t][p])
                pieces |= TUNE_BIT(p);
    return pieces;
}

int tune_analyse(const int (*material)[TUNE_PIECES], const uint64_t (*pairs)[PAIR_CLASSES],
                 const char *const *names, size_t count, int replicates, uint64_t seed,
                 TuneAnalysis *out)
{
    memset(out, 0, sizeof *out);
    if (count > TUNE_ANALYSIS_TESTS)
        return errmsg_fail(out->reason, sizeof out->reason, "%zu imbalance tests (at most %d)",
                           count, TUNE_ANALYSIS_TESTS);
    out->count = count;
    out->pieces = design_pieces(material, count);
    for (size_t t = 0; t < count; t++) {
        memcpy(out->pairs[t], pairs[t], sizeof out->pairs[t]);
        char why[ERRMSG_LEN];
        if (tune_imbalance_from_pairs(&out->tests[t], material[t], pairs[t], why, sizeof why))
            return names ? errmsg_fail(out->reason, sizeof out->reason, "imbalance %s: %s",
                                       names[t], why)
                         : errmsg_fail(out->reason, sizeof out->reason, "imbalance test %zu: %s", t,
                                       why);
        out->corrected = out->corrected || out->tests[t].corrected;
    }
    TuneValues *v = &out->values;
    if (tune_imbalance_fit_logits_scaled(out->tests, count, out->pieces, v, &out->quality,
                                         out->reason, sizeof out->reason))
        return -1;
    if (out->pieces & TUNE_BIT(TUNE_P)) {
        /* values are ratios to the pawn's worth: while it is not clearly above 0, every value's
         * Fieller interval is unbounded */
        double pawn = v->logit[TUNE_P], pawn_se = sqrt(v->logit_cov[TUNE_P][TUNE_P]);
        out->pawn_unclear = !(pawn > TUNE_Z95 * pawn_se) || tune_values_to_pawns(v, NULL, 0) != 0;
        if (out->pawn_unclear)
            snprintf(out->pawn_note, sizeof out->pawn_note,
                     "the games do not yet show a pawn worth anything (its logit %.3f +- %.3f, "
                     "95%%): no value in pawns is bounded; play more games per imbalance",
                     pawn, TUNE_Z95 * pawn_se);
    }
    out->nq = tune_quantities_default(out->pieces, out->q);
    for (int k = 0; k < out->nq; k++)
        if (tune_quantity_estimate(&out->q[k], v->logit, v->logit_cov, TUNE_Z95, &out->estimate[k],
                                   out->reason, sizeof out->reason))
            return -1;
    out->ok = true;
    out->boot_seed = seed;
    out->boot_ok = tune_bootstrap(material, pairs, count, out->pieces, out->q, out->nq, replicates,
                                  seed, &out->boot, out->boot_reason, sizeof out->boot_reason) == 0;
    if (tune_residuals(out->tests, count, out->pieces, out->residual, out->reason,
                       sizeof out->reason)) {
        out->ok = false;
        return -1;
    }
    out->loo_ok = tune_leave_one_out(out->tests, count, out->pieces, out->q, out->nq, true,
                                     out->loo, out->loo_reason, sizeof out->loo_reason) == 0;
    find_brackets(out);
    return 0;
}

uint64_t tune_analysis_seed(uint64_t match_seed, int stage)
{
    return match_seed ^ (0xA24BAED4963EE407ull * (uint64_t)(stage + 1));
}

static int bound_text(double x, int decimals, char *out, size_t len)
{
    if (isinf(x))
        return snprintf(out, len, "%sinf", x < 0 ? "-" : "+");
    return snprintf(out, len, "%.*f", decimals, x);
}

void tune_analysis_interval_text(double lo, double hi, TuneIntervalKind kind, int decimals,
                                 char *out, size_t len)
{
    char l[32], h[32];
    bound_text(lo, decimals, l, sizeof l);
    bound_text(hi, decimals, h, sizeof h);
    if (kind == TUNE_INTERVAL_WHOLE)
        snprintf(out, len, "unbounded");
    else if (kind == TUNE_INTERVAL_RAYS)
        snprintf(out, len, "(-inf, %s] U [%s, +inf)", l, h);
    else
        snprintf(out, len, "%s%s, %s%s", isinf(lo) ? "(" : "[", l, h, isinf(hi) ? ")" : "]");
}

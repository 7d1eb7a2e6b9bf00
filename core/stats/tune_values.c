/* SPDX-License-Identifier: MIT */
/* The fitted pieces' names, and values in pawns from values in logits (tune_values.h). */
#include "tune_values.h"

#include <math.h>
#include <string.h>

#include "errmsg.h"

#define Z95 1.96

const char *tune_piece_name(int piece)
{
    static const char *const names[TUNE_PIECES] = { "P", "N", "B", "R", "A", "C", "Q" };
    return piece >= 0 && piece < TUNE_PIECES ? names[piece] : "?";
}

/* value, cov, se, lo and hi: every field that is in pawns. */
static void clear_pawns(TuneValues *v)
{
    v->has_pawn = false;
    memset(v->value, 0, sizeof v->value);
    memset(v->cov, 0, sizeof v->cov);
    memset(v->se, 0, sizeof v->se);
    memset(v->lo, 0, sizeof v->lo);
    memset(v->hi, 0, sizeof v->hi);
}

int tune_values_to_pawns(TuneValues *v, char *err, size_t errlen)
{
    if (!(v->pieces & TUNE_BIT(TUNE_P))) {
        clear_pawns(v);
        return 0;
    }
    const double up = v->logit[TUNE_P];
    if (!(up > 0.0))
        return errmsg_fail(err, errlen,
                           "the pawn's fitted worth is not positive (%g logits): without a "
                           "pawn calibration the values in pawns mean nothing",
                           up);
    for (int i = 0; i < TUNE_PIECES; i++)
        if (v->pieces & TUNE_BIT(i))
            v->value[i] = v->logit[i] / up;
    double(*c)[TUNE_PIECES] = v->logit_cov;
    const int p = TUNE_P;
    for (int i = 0; i < TUNE_PIECES; i++) {
        if (!(v->pieces & TUNE_BIT(i)))
            continue;
        /* the pawn is the unit: its row and column are 0 exactly (the formula gives rounding
         * noise there, which fused multiply-adds make non-zero) */
        for (int j = 0; j < TUNE_PIECES; j++)
            if ((v->pieces & TUNE_BIT(j)) && i != p && j != p)
                v->cov[i][j] = (c[i][j] - v->value[i] * c[p][j] - v->value[j] * c[i][p] +
                                v->value[i] * v->value[j] * c[p][p]) /
                               (up * up);
        v->se[i] = sqrt(fmax(v->cov[i][i], 0.0));
        v->lo[i] = v->value[i] - Z95 * v->se[i];
        v->hi[i] = v->value[i] + Z95 * v->se[i];
    }
    v->has_pawn = true;
    return 0;
}

void tune_values_scale(TuneValues *v, double factor)
{
    for (int i = 0; i < TUNE_PIECES; i++)
        for (int j = 0; j < TUNE_PIECES; j++)
            v->logit_cov[i][j] *= factor;
    if (v->has_pawn)
        tune_values_to_pawns(v, NULL, 0);
}

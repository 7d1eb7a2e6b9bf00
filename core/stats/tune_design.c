/* SPDX-License-Identifier: MIT */
/* The checks and the matrix inverse both fits of piece values use (tune_design.h). */
#include "tune_design.h"

#include <math.h>

#include "errmsg.h"

/* A Cholesky pivot below this fraction of its diagonal entry means the column is, to rounding,
 * a combination of the earlier ones (the pivot is 1 - R^2 of that regression). */
#define PIVOT_TOL 1e-10

#define MAXP TUNE_DESIGN_MAX

int tune_design_inverse(int n, double a[MAXP][MAXP], double inv[MAXP][MAXP])
{
    double l[MAXP][MAXP] = { { 0 } };
    for (int j = 0; j < n; j++) {
        double d = a[j][j];
        for (int k = 0; k < j; k++)
            d -= l[j][k] * l[j][k];
        if (!(d > PIVOT_TOL * a[j][j]) || !isfinite(d))
            return j;
        l[j][j] = sqrt(d);
        for (int i = j + 1; i < n; i++) {
            double s = a[i][j];
            for (int k = 0; k < j; k++)
                s -= l[i][k] * l[j][k];
            l[i][j] = s / l[j][j];
        }
    }
    for (int c = 0; c < n; c++) {
        double y[MAXP];
        for (int i = 0; i < n; i++) {
            double s = i == c ? 1.0 : 0.0;
            for (int k = 0; k < i; k++)
                s -= l[i][k] * y[k];
            y[i] = s / l[i][i];
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = y[i];
            for (int k = i + 1; k < n; k++)
                s -= l[k][i] * inv[k][c];
            inv[i][c] = s / l[i][i];
        }
    }
    return -1;
}

int tune_design_pieces(unsigned pieces, int idx[TUNE_PIECES])
{
    int k = 0;
    for (int i = 0; i < TUNE_PIECES; i++)
        if (pieces & TUNE_BIT(i))
            idx[k++] = i;
    return k;
}

int tune_design_check_pieces(unsigned pieces, bool need_pawn, char *err, size_t errlen)
{
    if (pieces & ~TUNE_ALL)
        return errmsg_fail(err, errlen, "piece set 0x%x has bits beyond the %d pieces", pieces,
                           TUNE_PIECES);
    if (need_pawn && !(pieces & TUNE_BIT(TUNE_P)))
        return errmsg_fail(err, errlen, "the pawn must be fitted: it is the unit of every value");
    return 0;
}

int tune_design_check_row(const int m[TUNE_PIECES], unsigned pieces, unsigned *used,
                          const char *what, size_t row, char *err, size_t errlen)
{
    for (int i = 0; i < TUNE_PIECES; i++) {
        if (m[i] == 0)
            continue;
        if (!(pieces & TUNE_BIT(i)))
            return errmsg_fail(err, errlen, "%s %zu has %+d %s, a piece that is not fitted", what,
                               row, m[i], tune_piece_name(i));
        *used |= TUNE_BIT(i);
    }
    return 0;
}

int tune_design_check_used(unsigned pieces, unsigned used, const char *what, char *err,
                           size_t errlen)
{
    for (int i = 0; i < TUNE_PIECES; i++)
        if ((pieces & TUNE_BIT(i)) && !(used & TUNE_BIT(i)))
            return errmsg_fail(err, errlen,
                               "no %s has a material difference in %s: its value cannot be fitted",
                               what, tune_piece_name(i));
    return 0;
}

int tune_design_singular(int piece, const char *what, char *err, size_t errlen)
{
    return errmsg_fail(err, errlen,
                       "the %s cannot separate the value of %s from the other pieces' (the design "
                       "is singular: some change of the values leaves the worth of every material "
                       "difference as it was; add a test that it changes)",
                       what, tune_piece_name(piece));
}

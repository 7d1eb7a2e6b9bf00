/* SPDX-License-Identifier: MIT */
/* What the two fits of piece values (tune_imbalance.c, tune_regression.c) share: the checks of a
 * design (which pieces are fitted, which rows of material differ in which pieces) with messages
 * that name the offending row or piece, and the inverse of the normal or information matrix.
 * Internal to the core's tuning statistics; callers use the fits. */
#ifndef CARRERA_TUNE_DESIGN_H
#define CARRERA_TUNE_DESIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "tune_values.h"

/* The most unknowns of a fit: a value per piece, and the regression's advantage and draw width. */
#define TUNE_DESIGN_MAX (TUNE_PIECES + 2)

/* Inverts the symmetric positive definite n x n matrix a (left as it is) by Cholesky. Returns
 * -1, or the first column that is (to rounding) a combination of the earlier ones; inv is then
 * undefined. */
int tune_design_inverse(int n, double a[TUNE_DESIGN_MAX][TUNE_DESIGN_MAX],
                        double inv[TUNE_DESIGN_MAX][TUNE_DESIGN_MAX]);

/* The fitted pieces in order; returns their number. */
int tune_design_pieces(unsigned pieces, int idx[TUNE_PIECES]);

/* Refuses a piece set with bits beyond the pieces, or, when need_pawn, without the pawn (the
 * unit). */
int tune_design_check_pieces(unsigned pieces, bool need_pawn, char *err, size_t errlen);

/* Refuses material of a piece that is not fitted in row `row` (named "<what> <row>"); adds the
 * pieces that differ to *used. */
int tune_design_check_row(const int m[TUNE_PIECES], unsigned pieces, unsigned *used,
                          const char *what, size_t row, char *err, size_t errlen);

/* Refuses a fitted piece that no row (a `what`) has a difference in. */
int tune_design_check_used(unsigned pieces, unsigned used, const char *what, char *err,
                           size_t errlen);

/* The refusal of a singular design, naming the piece whose column tune_design_inverse found
 * dependent and what the rows are ("imbalance tests", "samples"). Returns -1. */
int tune_design_singular(int piece, const char *what, char *err, size_t errlen);

#endif

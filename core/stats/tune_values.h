/* SPDX-License-Identifier: MIT */
/* The pieces whose values piece-value tuning fits, and the values every fit returns
 * (docs/statistics.md): in logits of the score with their covariance, and in pawns by
 * the delta method. The fits are in tune_imbalance.h and tune_regression.h, SPSA in spsa.h. */
#ifndef CARRERA_TUNE_VALUES_H
#define CARRERA_TUNE_VALUES_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/* The pieces whose values are fitted, in PieceType order. Values are in pawns: the pawn is 1 by
 * definition, and what a pawn is worth in score comes from the pawn-odds tests. */
enum { TUNE_P, TUNE_N, TUNE_B, TUNE_R, TUNE_A, TUNE_C, TUNE_Q, TUNE_PIECES };

/* A set of those pieces: bit i for piece i. */
#define TUNE_BIT(i) (1u << (i))
#define TUNE_ALL    ((1u << TUNE_PIECES) - 1u)

_Static_assert(QUEEN - PAWN == TUNE_Q && ARCHBISHOP - PAWN == TUNE_A, "tune order is PieceType's");

/* The index of a piece type (PAWN..QUEEN), or -1 for the king and the empty type. */
static inline int tune_piece_index(PieceType t)
{
    return t >= PAWN && t <= QUEEN ? (int)t - PAWN : -1;
}

/* "P", "N", "B", "R", "A", "C", "Q"; "?" outside 0..TUNE_PIECES-1. */
const char *tune_piece_name(int piece);

/* Piece values fitted by either method. Only the pieces of `pieces` are fitted; every other
 * entry is 0. A pawn-free design (only the imbalance fit allows one) has logits and their
 * covariance but no values in pawns: has_pawn is false and value, cov, se, lo, hi are 0; what it
 * measures are ratios (tune_fieller.h). */
typedef struct TuneValues {
    unsigned pieces;                            /* TUNE_BIT set of the fitted pieces */
    bool has_pawn;                              /* the values in pawns below were made */
    double logit[TUNE_PIECES];                  /* u: worth in the logit of the score */
    double logit_cov[TUNE_PIECES][TUNE_PIECES]; /* covariance of u */
    double value[TUNE_PIECES];                  /* v = u / u_P, in pawns (v_P = 1) */
    double cov[TUNE_PIECES][TUNE_PIECES];       /* covariance of v by the delta method; row and
                                                   column P are 0: the pawn is the unit */
    double se[TUNE_PIECES];                     /* sqrt of the diagonal of cov */
    double lo[TUNE_PIECES], hi[TUNE_PIECES];    /* 95 % intervals: v -+ 1.96 se */
} TuneValues;

/* Fills value, cov, se, lo and hi of *v from its pieces, logit and logit_cov: v_i = u_i / u_P,
 * the covariance by the delta method (dv_i/du_i = 1/u_P, dv_i/du_P = -v_i/u_P), and sets
 * has_pawn. Without the pawn among the pieces it clears those fields and has_pawn and returns 0.
 * Error (outputs left as they were) when the pawn's fitted worth u_P is not positive: without a
 * pawn calibration the values in pawns mean nothing. */
int tune_values_to_pawns(TuneValues *v, char *err, size_t errlen);

/* Multiplies the covariance of the logits by factor (> 0; the Birge ratio chi2/dof of
 * tune_imbalance_fit_scaled) and redoes the values in pawns' covariance, se, lo and hi; the
 * estimates stay as they are. */
void tune_values_scale(TuneValues *v, double factor);

#endif

/* SPDX-License-Identifier: MIT */
/* Material imbalances for measuring piece values by self-play (docs/statistics.md,
 * "Imbalance tests", H.G. Muller's method): both sides start from the same array, then one side's
 * material is changed. An imbalance "X:Y" gives the side under test the pieces X where the other
 * side has Y instead ("Q:A": Queen against Archbishop, "A:RN": Archbishop against Rook and
 * Knight); "P" is the pawn-odds calibration, the other side without its f-pawn. */
#ifndef CARRERA_IMBALANCE_H
#define CARRERA_IMBALANCE_H

#include <stddef.h>

#include "rng.h"
#include "setup.h"

/* The piece types a material vector counts, in this order. */
#define MATERIAL_TYPES 7
extern const PieceType material_types[MATERIAL_TYPES]; /* P N B R A C Q */

#define IMBALANCE_MAX_PIECES 4

typedef struct Imbalance {
    char name[2 * IMBALANCE_MAX_PIECES + 2]; /* as written: "Q:A", "P" */
    PieceType keep[IMBALANCE_MAX_PIECES];    /* X: what the side under test has */
    int n_keep;
    PieceType get[IMBALANCE_MAX_PIECES]; /* Y: what the other side has in their place */
    int n_get;
    bool pawn_odds;
} Imbalance;

/* Reads "X:Y" (X and Y one to four letters among P N B R A C Q, J for the Archbishop, not the
 * same multiset: "N:PPP" is a Knight against three Pawns) or "P". Returns 0, or -1 with a message
 * naming the problem. */
int imbalance_parse(const char *text, Imbalance *out, char *err, size_t errlen);

/* The material difference the imbalance makes, the side under test minus the other, counted per
 * type of material_types (pawn odds: one pawn). */
void imbalance_vector(const Imbalance *im, int diff[MATERIAL_TYPES]);

/* Changes s, a position with both sides' full armies, for the other side (the colour `other`,
 * WHITE or BLACK): its pieces X are taken off (each chosen at random among those of its type on
 * the board), the pieces Y put on the squares they left, and any left over on random empty
 * squares of its third rank (rank 3 for White, 6 for Black; pawns never go to a back rank);
 * castling rights of a rook taken off go with it. Pawn odds removes its f-pawn. Returns 0, or -1
 * with a message when the army lacks a piece of X or there is no room. */
int imbalance_apply(const Imbalance *im, Setup *s, int other, Rng *rng, char *err, size_t errlen);

#endif

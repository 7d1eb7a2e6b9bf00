/* SPDX-License-Identifier: MIT */
/* Material imbalances for measuring piece values by self-play (docs/statistics.md,
 * "Imbalance tests", H.G. Muller's method): both sides start from the same array, then one side's
 * material is changed, by taking pieces off and never by adding any. An imbalance "X:Y" gives the
 * side under test the pieces X where the other side has Y instead ("Q:A": Queen against
 * Archbishop, "A:RN": Archbishop against Rook and Knight, "N:PPP": Knight against three pawns):
 * the other side loses its X and the side under test its Y. "X" alone is odds: the other side
 * loses X ("P", pawn odds, is the calibration of every value). */
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
    int n_get;                           /* 0 for odds */
} Imbalance;

/* Reads "X:Y" (X and Y one to four letters among P N B R A C Q, J for the Archbishop, not the
 * same multiset: "N:PPP" is a Knight against three Pawns) or odds "X" ("P", "PP", "N"). Returns
 * 0, or -1 with a message naming the problem. */
int imbalance_parse(const char *text, Imbalance *out, char *err, size_t errlen);

/* The material difference the imbalance makes, the side under test minus the other, counted per
 * type of material_types (X minus Y). */
void imbalance_vector(const Imbalance *im, int diff[MATERIAL_TYPES]);

/* Changes s, a position with both sides' armies, for the other side (the colour `other`, WHITE or
 * BLACK): the other side's pieces X are taken off, then the side under test's pieces Y. Each is
 * chosen at random (rng) among that side's pieces of its type, pawns among all its pawns, so pawn
 * odds and the pawns of a trade come from every file alike; nothing is put on the board, so no
 * pawn is doubled or blocked by the change. The draws depend only on the squares' order within
 * each side's army, so an array and its colour-reversed twin (Black mirroring White) change
 * mirror-symmetrically under the same rng state. A castling right goes with its rook. Returns 0,
 * or -1 with a message when an army lacks a piece to give up. */
int imbalance_apply(const Imbalance *im, Setup *s, int other, Rng *rng, char *err, size_t errlen);

#endif

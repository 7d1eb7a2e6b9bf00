/* SPDX-License-Identifier: MIT */
/* Material imbalances (imbalance.h). */
#include "imbalance.h"

#include <stdio.h>
#include <string.h>

#include "errmsg.h"

const PieceType material_types[MATERIAL_TYPES] = { PAWN,       KNIGHT,     BISHOP, ROOK,
                                                   ARCHBISHOP, CHANCELLOR, QUEEN };

static PieceType type_of_letter(char c)
{
    switch (c) {
    case 'P':
        return PAWN;
    case 'N':
        return KNIGHT;
    case 'B':
        return BISHOP;
    case 'R':
        return ROOK;
    case 'A':
    case 'J':
        return ARCHBISHOP;
    case 'C':
        return CHANCELLOR;
    case 'Q':
        return QUEEN;
    default:
        return NO_TYPE;
    }
}

static int read_side(const char *text, size_t len, PieceType *out, const char *whole, char *err,
                     size_t errlen)
{
    if (len == 0 || len > IMBALANCE_MAX_PIECES)
        return errmsg_fail(err, errlen,
                           "imbalance '%s': each side of ':' needs 1 to %d piece letters", whole,
                           IMBALANCE_MAX_PIECES);
    for (size_t i = 0; i < len; i++)
        if ((out[i] = type_of_letter(text[i])) == NO_TYPE)
            return errmsg_fail(err, errlen,
                               "imbalance '%s': '%c' is not one of the pieces P N B R A C Q (J)",
                               whole, text[i]);
    return (int)len;
}

int imbalance_parse(const char *text, Imbalance *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (strcmp(text, "P") == 0) {
        out->pawn_odds = true;
        snprintf(out->name, sizeof out->name, "P");
        return 0;
    }
    const char *colon = strchr(text, ':');
    if (!colon)
        return errmsg_fail(err, errlen,
                           "imbalance '%s': write X:Y (pieces X against pieces Y, e.g. Q:A or "
                           "A:RN) or P (pawn odds)",
                           text);
    int n_keep = read_side(text, (size_t)(colon - text), out->keep, text, err, errlen);
    if (n_keep < 0)
        return -1;
    int n_get = read_side(colon + 1, strlen(colon + 1), out->get, text, err, errlen);
    if (n_get < 0)
        return -1;
    out->n_keep = n_keep;
    out->n_get = n_get;
    int diff[MATERIAL_TYPES];
    imbalance_vector(out, diff);
    bool same = true;
    for (int i = 0; i < MATERIAL_TYPES; i++)
        same = same && diff[i] == 0;
    if (same)
        return errmsg_fail(err, errlen, "imbalance '%s': both sides have the same pieces", text);
    snprintf(out->name, sizeof out->name, "%s", text);
    return 0;
}

static int index_of(PieceType t)
{
    for (int i = 0; i < MATERIAL_TYPES; i++)
        if (material_types[i] == t)
            return i;
    return -1;
}

void imbalance_vector(const Imbalance *im, int diff[MATERIAL_TYPES])
{
    memset(diff, 0, MATERIAL_TYPES * sizeof *diff);
    if (im->pawn_odds) {
        diff[0] = 1;
        return;
    }
    for (int i = 0; i < im->n_keep; i++)
        diff[index_of(im->keep[i])]++;
    for (int i = 0; i < im->n_get; i++)
        diff[index_of(im->get[i])]--;
}

/* A random square of colour `other` holding a piece of type t; NO_SQUARE when there is none. */
static int pick_piece(const Setup *s, int other, PieceType t, Rng *rng)
{
    int squares[MAX_SQUARES], n = 0, total = s->variant->files * RANKS;
    for (int sq = 0; sq < total; sq++)
        if (s->board[sq] == make_piece(other, t))
            squares[n++] = sq;
    return n ? squares[rng_below(rng, (uint64_t)n)] : NO_SQUARE;
}

int imbalance_apply(const Imbalance *im, Setup *s, int other, Rng *rng, char *err, size_t errlen)
{
    const int files = s->variant->files;
    if (im->pawn_odds) {
        int sq = (other == WHITE ? 1 : RANKS - 2) * files + 5;
        if (s->board[sq] != make_piece(other, PAWN))
            return errmsg_fail(err, errlen, "pawn odds: the f-pawn is not on its square");
        s->board[sq] = NO_PIECE;
        return 0;
    }
    int freed[IMBALANCE_MAX_PIECES], n_freed = 0;
    for (int i = 0; i < im->n_keep; i++) {
        int sq = pick_piece(s, other, im->keep[i], rng);
        if (sq == NO_SQUARE)
            return errmsg_fail(err, errlen, "imbalance %s: %s has no %c to give up in %s", im->name,
                               other == WHITE ? "White" : "Black", "PNBRACQK"[im->keep[i] - 1],
                               s -> variant -> name);
        s->board[sq] = NO_PIECE;
        for (int side = 0; side < 2; side++)
            if (s->castle_rook[other][side] == sq)
                s->castle_rook[other][side] = NO_SQUARE;
        freed[n_freed++] = sq;
    }
    const int third = other == WHITE ? 2 : RANKS - 3;
    /* pieces take the squares the given-up pieces left (a pawn's square is no place for a pawn
     * of the back rank's pieces, and no back-rank square takes a pawn); the rest go to the
     * third rank */
    bool used[IMBALANCE_MAX_PIECES] = { false };
    for (int i = 0; i < im->n_get; i++) {
        int sq = NO_SQUARE;
        for (int k = 0; k < n_freed && sq == NO_SQUARE; k++) {
            int rank = freed[k] / files;
            bool back = rank == 0 || rank == RANKS - 1;
            if (!used[k] && !(back && im->get[i] == PAWN)) {
                sq = freed[k];
                used[k] = true;
            }
        }
        if (sq == NO_SQUARE) {
            int empty[MAX_FILES], n = 0;
            for (int f = 0; f < files; f++)
                if (s->board[third * files + f] == NO_PIECE)
                    empty[n++] = third * files + f;
            if (n == 0)
                return errmsg_fail(err, errlen, "imbalance %s: no room on the third rank",
                                   im->name);
            sq = empty[rng_below(rng, (uint64_t)n)];
        }
        s->board[sq] = make_piece(other, im->get[i]);
    }
    return 0;
}

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
    const char *colon = strchr(text, ':');
    const size_t n_x = colon ? (size_t)(colon - text) : strlen(text);
    int n_keep = read_side(text, n_x, out->keep, text, err, errlen);
    if (n_keep < 0)
        return -1;
    int n_get = 0;
    if (colon && (n_get = read_side(colon + 1, strlen(colon + 1), out->get, text, err, errlen)) < 0)
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

/* Takes n pieces of the types t off the army of colour c. */
static int take_off(const Imbalance *im, Setup *s, int c, const PieceType *t, int n, Rng *rng,
                    char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        int sq = pick_piece(s, c, t[i], rng);
        if (sq == NO_SQUARE)
            return errmsg_fail(err, errlen, "imbalance %s: %s has no %c to give up in %s", im->name,
                               c == WHITE ? "White" : "Black", "PNBRACQK"[t[i] - 1],
                               s -> variant -> name);
        s->board[sq] = NO_PIECE;
        for (int side = 0; side < 2; side++)
            if (s->castle_rook[c][side] == sq)
                s->castle_rook[c][side] = NO_SQUARE;
    }
    return 0;
}

int imbalance_apply(const Imbalance *im, Setup *s, int other, Rng *rng, char *err, size_t errlen)
{
    if (take_off(im, s, other, im->keep, im->n_keep, rng, err, errlen))
        return -1;
    return take_off(im, s, other ^ 1, im->get, im->n_get, rng, err, errlen);
}

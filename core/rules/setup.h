/* SPDX-License-Identifier: MIT */
/* A position as plain data (a mailbox board), independent of the bitboard representation:
 * FEN reading with validation, FEN writing, standard and numbered/random start arrays.
 * The fast core (position.h) and the reference perft (perft_ref.h) both start from a Setup. */
#ifndef CARRERA_SETUP_H
#define CARRERA_SETUP_H

#include "rules.h"
#include "types.h"
#include "variant.h"

/* How castling rights are written: KQkq, X-FEN (KQkq for the outermost rook, a file letter
 * otherwise) or Shredder-FEN (always the rook's file letter). */
typedef enum FenCastling { FEN_CASTLING_KQ, FEN_CASTLING_XFEN, FEN_CASTLING_SHREDDER } FenCastling;

typedef struct Setup {
    const Variant *variant;
    Piece board[MAX_SQUARES]; /* square = rank * variant->files + file */
    int side;                 /* WHITE or BLACK to move */
    /* Castling rights as the square of the rook they belong to, NO_SQUARE without the right;
     * [color][0] queen side (rook on a lower file than the king), [color][1] king side. */
    int castle_rook[2][2];
    /* En passant target squares as written in the FEN, NO_SQUARE where unused. Ordinary chess has
     * at most one; classic Marseillais up to two (docs/rules.md 4.7), written "e3,g3". */
    int ep[2];
    int halfmove, fullmove;
    FenCastling castling_text; /* how the FEN that made this setup wrote castling */
} Setup;

/* Reads a FEN for variant v. On success returns 0. On error returns -1 and writes a message
 * that names what is wrong to err (bad rank width or piece letter, missing or extra king, pawn
 * on a back rank, side not to move in check, castling right without its king and rook,
 * impossible en passant square, bad clocks, trailing garbage, ...). */
int setup_from_fen(Setup *s, const Variant *v, const char *fen, char *err, size_t errlen);

/* The same for a position at a turn boundary under turn rules r (docs/rules.md 4.7): up to
 * rules_max_ep(r) en passant squares, whose pawn's start square may be occupied under
 * double-move rules; under Galvin's rules the side not to move may stand in check. */
int setup_from_fen_rules(Setup *s, const Variant *v, const Rules *r, const char *fen, char *err,
                         size_t errlen);

/* Writes s as FEN (at most FEN_MAX bytes with the NUL), castling in the given style. */
void setup_to_fen(const Setup *s, FenCastling style, char *out, size_t outlen);

/* The variant's standard start position. */
void setup_start(Setup *s, const Variant *v);

/* Chess960 start array by its standard (Scharnagl) number 0..959, for an 8-file variant with
 * random_array. Returns -1 with a message for a bad number or variant. */
int setup_chess960(Setup *s, const Variant *v, int number, char *err, size_t errlen);

/* A random start array for a random_array variant (chess960: one of the 960 arrays;
 * caparandom: bishops on opposite colours, king between the rooks, on 10 files), determined by
 * seed. Black mirrors White. */
void setup_random(Setup *s, const Variant *v, uint64_t seed);

/* Square helpers for a board of the setup's width. */
static inline int setup_square(const Setup *s, int file, int rank)
{
    return rank * s->variant->files + file;
}

#endif

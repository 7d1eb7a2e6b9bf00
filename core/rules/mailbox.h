/* SPDX-License-Identifier: MIT */
/* The mailbox view of a Setup: squares as (file, rank), steps and leaps between them, the
 * piece a ray meets first, and whether a square is attacked. Slow and obvious, with no
 * bitboards: FEN validation and the reference perft (perft_ref.h) are written on it. */
#ifndef CARRERA_MAILBOX_H
#define CARRERA_MAILBOX_H

#include "setup.h"

/* One step on the board: files and ranks to add. */
typedef struct Step {
    int df, dr;
} Step;

extern const Step MAILBOX_KNIGHT[8];
extern const Step MAILBOX_DIAGONALS[4];
extern const Step MAILBOX_ORTHOGONALS[4];

/* What each piece type can do; the compound pieces are just two of these at once. */
static inline bool mailbox_leaps_as_knight(PieceType t)
{
    return t == KNIGHT || t == ARCHBISHOP || t == CHANCELLOR;
}
static inline bool mailbox_slides_diagonally(PieceType t)
{
    return t == BISHOP || t == ARCHBISHOP || t == QUEEN;
}
static inline bool mailbox_slides_orthogonally(PieceType t)
{
    return t == ROOK || t == CHANCELLOR || t == QUEEN;
}

static inline int mailbox_files(const Setup *s) { return s->variant->files; }
static inline int mailbox_file(const Setup *s, int sq) { return sq % mailbox_files(s); }
static inline int mailbox_rank(const Setup *s, int sq) { return sq / mailbox_files(s); }

static inline bool mailbox_on_board(const Setup *s, int file, int rank)
{
    return file >= 0 && file < mailbox_files(s) && rank >= 0 && rank < RANKS;
}

/* The square reached from sq by one step, or NO_SQUARE when the step leaves the board. */
static inline int mailbox_step(const Setup *s, int sq, Step st)
{
    int f = mailbox_file(s, sq) + st.df, r = mailbox_rank(s, sq) + st.dr;
    return mailbox_on_board(s, f, r) ? r * mailbox_files(s) + f : NO_SQUARE;
}

/* The direction color's pawns move in (+1 or -1 rank), and color's back rank. */
static inline int mailbox_forward(int color) { return color == WHITE ? 1 : -1; }
static inline int mailbox_back_rank(int color) { return color == WHITE ? 0 : RANKS - 1; }

/* The piece at (file, rank); off the board reads as an empty square. */
static inline Piece mailbox_piece_at(const Setup *s, int file, int rank)
{
    return mailbox_on_board(s, file, rank) ? s->board[rank * mailbox_files(s) + file] : NO_PIECE;
}

/* The square of color's king, or NO_SQUARE when it has none. */
int mailbox_king(const Setup *s, int color);

/* Whether square sq is attacked by a piece of color by_color. */
bool mailbox_attacked(const Setup *s, int sq, int by_color);

/* Whether color's king stands attacked (false if color has no king). */
bool mailbox_in_check(const Setup *s, int color);

#endif

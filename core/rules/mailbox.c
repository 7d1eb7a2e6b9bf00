/* SPDX-License-Identifier: MIT */
/* The mailbox attack test (mailbox.h): rays walked square by square from the attacked square. */
#include "mailbox.h"

#include <string.h>

const Step MAILBOX_KNIGHT[8] = { { 1, 2 },   { 2, 1 },   { 2, -1 }, { 1, -2 },
                                 { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
const Step MAILBOX_DIAGONALS[4] = { { 1, 1 }, { 1, -1 }, { -1, -1 }, { -1, 1 } };
const Step MAILBOX_ORTHOGONALS[4] = { { 1, 0 }, { 0, -1 }, { -1, 0 }, { 0, 1 } };

/* The first piece met walking from (file, rank) along st, the start excluded, or NO_PIECE. */
static Piece first_piece(const Setup *s, int file, int rank, Step st)
{
    for (int f = file + st.df, r = rank + st.dr; mailbox_on_board(s, f, r); f += st.df, r += st.dr)
        if (s->board[r * mailbox_files(s) + f] != NO_PIECE)
            return s->board[r * mailbox_files(s) + f];
    return NO_PIECE;
}

static bool owned_by(Piece p, int color) { return p != NO_PIECE && piece_color(p) == color; }

bool mailbox_attacked(const Setup *s, int sq, int by_color)
{
    int file = mailbox_file(s, sq), rank = mailbox_rank(s, sq);
    for (int i = 0; i < 8; i++) {
        Piece p = mailbox_piece_at(s, file + MAILBOX_KNIGHT[i].df, rank + MAILBOX_KNIGHT[i].dr);
        if (owned_by(p, by_color) && mailbox_leaps_as_knight(piece_type(p)))
            return true;
    }
    Piece king = make_piece(by_color, KING);
    for (int i = 0; i < 4; i++) {
        Step d = MAILBOX_DIAGONALS[i], o = MAILBOX_ORTHOGONALS[i];
        Piece p = first_piece(s, file, rank, d);
        if (owned_by(p, by_color) && mailbox_slides_diagonally(piece_type(p)))
            return true;
        p = first_piece(s, file, rank, o);
        if (owned_by(p, by_color) && mailbox_slides_orthogonally(piece_type(p)))
            return true;
        if (mailbox_piece_at(s, file + d.df, rank + d.dr) == king ||
            mailbox_piece_at(s, file + o.df, rank + o.dr) == king)
            return true;
    }
    /* A pawn attacking sq stands one rank behind it, seen from the pawn's side. */
    Piece pawn = make_piece(by_color, PAWN);
    int behind = rank - mailbox_forward(by_color);
    return mailbox_piece_at(s, file - 1, behind) == pawn ||
           mailbox_piece_at(s, file + 1, behind) == pawn;
}

int mailbox_king(const Setup *s, int color)
{
    const Piece *k = memchr(s->board, make_piece(color, KING), (size_t)(mailbox_files(s) * RANKS));
    return k ? (int)(k - s->board) : NO_SQUARE;
}

bool mailbox_in_check(const Setup *s, int color)
{
    int k = mailbox_king(s, color);
    return k != NO_SQUARE && mailbox_attacked(s, k, !color);
}

/* SPDX-License-Identifier: MIT */
/* The reference move generator and perft: the test oracle for the fast bitboard core.
 *
 * Written for obviousness, not speed. Pieces are moved by stepping (file, rank) offsets with
 * explicit bounds checks; every pseudo-legal move is played into a copy of the position and
 * dropped if the mover's king is attacked there. That single test covers pins, checks, en
 * passant discoveries and the Chess960 castling rook that uncovers an attack on its own king.
 *
 * En passant: after every double step, ep is set to the passed square, whether or not an enemy
 * pawn could capture there (as FEN writes it). Perft counts do not depend on this choice. */
#include "perft_ref.h"

#include <string.h>

/* ---- Pseudo-legal moves ---- */

typedef struct MoveList {
    Move *moves;
    int n;
} MoveList;

/* MAX_MOVES bounds the moves of any position; the test only keeps a broken position from
 * writing past the array. */
static void add(MoveList *l, int from, int to, int kind, PieceType promo)
{
    if (l->n < MAX_MOVES)
        l->moves[l->n++] = move_new(from, to, kind, promo);
}

/* A target a piece of side `us` may move to: empty or holding an enemy piece. */
static bool open_for(const Setup *s, int sq, int us)
{
    return s->board[sq] == NO_PIECE || piece_color(s->board[sq]) != us;
}

static void gen_slides(const Setup *s, int from, const Step dirs[4], MoveList *l)
{
    for (int i = 0; i < 4; i++) {
        for (int t = mailbox_step(s, from, dirs[i]); t != NO_SQUARE;
             t = mailbox_step(s, t, dirs[i])) {
            if (open_for(s, t, s->side))
                add(l, from, t, MOVE_NORMAL, NO_TYPE);
            if (s->board[t] != NO_PIECE)
                break;
        }
    }
}

static void gen_steps(const Setup *s, int from, const Step *steps, int n, MoveList *l)
{
    for (int i = 0; i < n; i++) {
        int t = mailbox_step(s, from, steps[i]);
        if (t != NO_SQUARE && open_for(s, t, s->side))
            add(l, from, t, MOVE_NORMAL, NO_TYPE);
    }
}

/* A pawn move to the last rank becomes one move per promotion piece of the variant. */
static void add_pawn_move(const Setup *s, int from, int to, MoveList *l)
{
    if (mailbox_rank(s, to) != mailbox_back_rank(!s->side)) {
        add(l, from, to, MOVE_NORMAL, NO_TYPE);
        return;
    }
    for (int i = 0; i < s->variant->n_promotions; i++)
        add(l, from, to, MOVE_PROMOTION, s->variant->promotions[i]);
}

static void gen_pawn(const Setup *s, int from, MoveList *l)
{
    int us = s->side, fw = mailbox_forward(us);
    int one = mailbox_step(s, from, (Step){ 0, fw });
    if (one == NO_SQUARE) /* a pawn on the last rank cannot come from a valid FEN */
        return;
    if (s->board[one] == NO_PIECE) {
        add_pawn_move(s, from, one, l);
        int two = mailbox_step(s, one, (Step){ 0, fw });
        if (mailbox_rank(s, from) == mailbox_back_rank(us) + fw && s->board[two] == NO_PIECE)
            add(l, from, two, MOVE_NORMAL, NO_TYPE);
    }
    for (int df = -1; df <= 1; df += 2) {
        int t = mailbox_step(s, from, (Step){ df, fw });
        if (t == NO_SQUARE)
            continue;
        if (s->board[t] != NO_PIECE && piece_color(s->board[t]) != us) {
            add_pawn_move(s, from, t, l);
        } else if ((t == s->ep[0] || t == s->ep[1]) && s->board[t] == NO_PIECE) {
            /* The pawn that double-stepped stands beside us, behind the ep square. */
            int victim = mailbox_step(s, t, (Step){ 0, -fw });
            if (s->board[victim] == make_piece(!us, PAWN))
                add(l, from, t, MOVE_EN_PASSANT, NO_TYPE);
        }
    }
}

/* Where king and rook stand after castling on `side` (0 queen side, 1 king side). */
static void castling_targets(const Setup *s, int color, int side, int *king_to, int *rook_to)
{
    int rank = mailbox_back_rank(color) * mailbox_files(s);
    *king_to = rank + s->variant->king_to[side];
    *rook_to = rank + s->variant->rook_to[side];
}

/* Whether every square from a to b (both included, on one rank) is empty or holds the castling
 * king or rook themselves. */
static bool clear_for_castling(const Setup *s, int a, int b, int king, int rook)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    for (int sq = lo; sq <= hi; sq++)
        if (s->board[sq] != NO_PIECE && sq != king && sq != rook)
            return false;
    return true;
}

/* Castling moves whose paths are clear and whose king path is not attacked. The king's
 * destination may still be attacked once the castling rook has left its square (an enemy rook
 * behind it on the back rank): the legality test after make rejects that, as for every move. */
static void gen_castling(const Setup *s, MoveList *l)
{
    int us = s->side, king = mailbox_king(s, us);
    if (king == NO_SQUARE)
        return;
    for (int side = 0; side < 2; side++) {
        int rook = s->castle_rook[us][side];
        if (rook == NO_SQUARE || s->board[rook] != make_piece(us, ROOK) ||
            mailbox_rank(s, king) != mailbox_back_rank(us))
            continue;
        int king_to, rook_to;
        castling_targets(s, us, side, &king_to, &rook_to);
        if (!clear_for_castling(s, king, king_to, king, rook) ||
            !clear_for_castling(s, rook, rook_to, king, rook))
            continue;
        int lo = king < king_to ? king : king_to, hi = king < king_to ? king_to : king;
        bool safe = true;
        for (int sq = lo; sq <= hi && safe; sq++)
            safe = !mailbox_attacked(s, sq, !us);
        if (safe)
            add(l, king, rook, MOVE_CASTLING, NO_TYPE);
    }
}

static int pseudo_legal_moves(const Setup *s, Move *moves)
{
    MoveList l = { moves, 0 };
    for (int sq = 0; sq < mailbox_files(s) * RANKS; sq++) {
        Piece p = s->board[sq];
        if (p == NO_PIECE || piece_color(p) != s->side)
            continue;
        PieceType t = piece_type(p);
        if (t == PAWN) {
            gen_pawn(s, sq, &l);
        } else if (t == KING) {
            gen_steps(s, sq, MAILBOX_DIAGONALS, 4, &l);
            gen_steps(s, sq, MAILBOX_ORTHOGONALS, 4, &l);
        } else {
            if (mailbox_leaps_as_knight(t))
                gen_steps(s, sq, MAILBOX_KNIGHT, 8, &l);
            if (mailbox_slides_diagonally(t))
                gen_slides(s, sq, MAILBOX_DIAGONALS, &l);
            if (mailbox_slides_orthogonally(t))
                gen_slides(s, sq, MAILBOX_ORTHOGONALS, &l);
        }
    }
    gen_castling(s, &l);
    return l.n;
}

/* ---- Making moves ---- */

void ref_make(const Setup *s, Move m, Setup *out)
{
    *out = *s;
    int us = s->side, from = move_from(m), to = move_to(m), kind = move_kind(m);
    Piece moving = s->board[from];
    bool capture = kind != MOVE_CASTLING && s->board[to] != NO_PIECE;

    if (kind == MOVE_CASTLING) {
        /* Lift both pieces before placing either: king and rook may swap squares. */
        int side = mailbox_file(s, to) < mailbox_file(s, from) ? 0 : 1, king_to, rook_to;
        castling_targets(s, us, side, &king_to, &rook_to);
        out->board[from] = out->board[to] = NO_PIECE;
        out->board[king_to] = make_piece(us, KING);
        out->board[rook_to] = make_piece(us, ROOK);
    } else {
        out->board[from] = NO_PIECE;
        out->board[to] = kind == MOVE_PROMOTION ? make_piece(us, move_promo(m)) : moving;
        if (kind == MOVE_EN_PASSANT) {
            out->board[mailbox_step(s, to, (Step){ 0, -mailbox_forward(us) })] = NO_PIECE;
            capture = true;
        }
    }

    /* A right dies with its king's move, or when anything leaves or lands on its rook square. */
    if (piece_type(moving) == KING)
        out->castle_rook[us][0] = out->castle_rook[us][1] = NO_SQUARE;
    for (int c = 0; c < 2; c++)
        for (int side = 0; side < 2; side++)
            if (out->castle_rook[c][side] == from || out->castle_rook[c][side] == to)
                out->castle_rook[c][side] = NO_SQUARE;

    out->ep[0] = out->ep[1] = NO_SQUARE;
    if (piece_type(moving) == PAWN && !s->variant->no_en_passant &&
        (mailbox_rank(s, to) - mailbox_rank(s, from)) * mailbox_forward(us) == 2)
        out->ep[0] = mailbox_step(s, from, (Step){ 0, mailbox_forward(us) });

    out->halfmove = piece_type(moving) == PAWN || capture ? 0 : s->halfmove + 1;
    if (us == BLACK)
        out->fullmove = s->fullmove + 1;
    out->side = !us;
}

/* ---- Legal moves and perft ---- */

/* The one legality test: the side that moved must not have left its king attacked. */
static bool legal_result(const Setup *before, const Setup *after)
{
    return !mailbox_in_check(after, before->side);
}

int ref_legal_moves(const Setup *s, Move *moves)
{
    Move pseudo[MAX_MOVES];
    int n = pseudo_legal_moves(s, pseudo), legal = 0;
    for (int i = 0; i < n; i++) {
        Setup after;
        ref_make(s, pseudo[i], &after);
        if (legal_result(s, &after))
            moves[legal++] = pseudo[i];
    }
    return legal;
}

/* Walks the pseudo-legal moves itself rather than calling ref_legal_moves, which would make
 * every move twice; the legality test is the same. */
uint64_t perft_ref(const Setup *s, int depth)
{
    if (depth == 0)
        return 1;
    Move moves[MAX_MOVES];
    int n = pseudo_legal_moves(s, moves);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        Setup after;
        ref_make(s, moves[i], &after);
        if (legal_result(s, &after))
            nodes += perft_ref(&after, depth - 1);
    }
    return nodes;
}

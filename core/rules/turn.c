/* SPDX-License-Identifier: MIT */
/* The public face of the turn rules: dispatches to the 8x8 or 10x8 instantiation of
 * turn.inc, and writes turns as text. */
#include "turn.h"

#include "board.h"

#include <stdlib.h>
#include <string.h>

static bool wide(const Position *p) { return p->variant->files == 10; }

bool position_first_turn(const Position *p, const Rules *r)
{
    return wide(p) ? board_first_turn_10(&p->u.b10.board, r)
                   : board_first_turn_8(&p->u.b8.board, r);
}

static bool turns(const Position *p, const Rules *r, bool tactical, TurnList *list)
{
    list->n = 0;
    return wide(p)
               ? board_turns_10(&p->u.b10.board, &p->u.b10.castling, p->variant, r, tactical, list)
               : board_turns_8(&p->u.b8.board, &p->u.b8.castling, p->variant, r, tactical, list);
}

bool position_turns(const Position *p, const Rules *r, TurnList *list)
{
    return turns(p, r, false, list);
}

bool position_tactical_turns(const Position *p, const Rules *r, TurnList *list)
{
    return turns(p, r, true, list);
}

bool position_turn_legal(const Position *p, const Rules *r, const Turn *t)
{
    if (t->n != 1 && t->n != 2)
        return false;
    return wide(p) ? board_turn_legal_10(&p->u.b10.board, &p->u.b10.castling, p->variant, r, t)
                   : board_turn_legal_8(&p->u.b8.board, &p->u.b8.castling, p->variant, r, t);
}

void turn_list_free(TurnList *list)
{
    free(list->v);
    *list = (TurnList){ 0 };
}

bool turn_list_grow_push(TurnList *l, const Turn *t)
{
    size_t cap = l->cap ? 2 * l->cap : 256;
    Turn *v = realloc(l->v, cap * sizeof *v);
    if (!v)
        return false;
    l->v = v;
    l->cap = cap;
    l->v[l->n++] = *t;
    return true;
}

void position_make_turn(const Position *p, const Rules *r, const Turn *t, Position *out)
{
    if (out != p)
        *out = *p;
    if (wide(p))
        board_make_turn_10(&p->u.b10.board, &p->u.b10.castling, p->variant, r, t,
                           &out->u.b10.board);
    else
        board_make_turn_8(&p->u.b8.board, &p->u.b8.castling, p->variant, r, t, &out->u.b8.board);
}

uint64_t perft_turns(const Position *p, const Rules *r, int depth)
{
    return perft_turns_hashed(p, r, depth, NULL, NULL);
}

uint64_t perft_turns_hashed(const Position *p, const Rules *r, int depth, PerftTT *tt,
                            PerftTTWork *work)
{
    return wide(p) ? board_perft_turns_10(&p->u.b10.board, &p->u.b10.castling, p->variant, r, depth,
                                          tt, work)
                   : board_perft_turns_8(&p->u.b8.board, &p->u.b8.castling, p->variant, r, depth,
                                         tt, work);
}

uint64_t perft_movements(const Position *p, const Rules *r, int depth)
{
    return wide(p)
               ? board_perft_movements_10(&p->u.b10.board, &p->u.b10.castling, p->variant, r, depth)
               : board_perft_movements_8(&p->u.b8.board, &p->u.b8.castling, p->variant, r, depth);
}

GameEnd position_game_end(const Position *p, const Rules *r)
{
    Setup s;
    position_to_setup(p, &s);
    if (r->turns == TURNS_GALVIN) {
        int kings[2] = { 0, 0 };
        for (int sq = 0; sq < MAX_SQUARES; sq++)
            if (piece_type(s.board[sq]) == KING)
                kings[piece_color(s.board[sq])]++;
        if (!kings[position_side(p)])
            return GAME_KING_CAPTURED;
    }
    if (perft_turns(p, r, 1) > 0)
        return GAME_ON;
    /* Galvin's game knows no check: a side without movements simply cannot continue. */
    if (r->turns == TURNS_GALVIN || !position_in_check(p))
        return GAME_STALEMATE;
    /* Mate only when no first movement parries the check (docs/rules.md 4.1 rules 4-5): a parry
     * with no second movement after it leaves the player stalemated. Under Extra Move every
     * allowed first movement is a turn by itself, so no turn means no parry. */
    Move moves[MAX_MOVES];
    return r->turns == TURNS_EXTRAMOVE || position_legal_moves(p, moves) == 0 ? GAME_CHECKMATE
                                                                              : GAME_STALEMATE;
}

void turn_to_uci(const Turn *t, const Variant *v, bool castle960, char *out)
{
    move_to_uci(t->m[0], v, castle960, out);
    if (t->n == 2) {
        size_t k = strlen(out);
        out[k++] = '/';
        move_to_uci(t->m[1], v, castle960, out + k);
    }
}

/* SPDX-License-Identifier: MIT */
/* The reference turn rules: the test oracle for core/rules/turn.c, written from docs/rules.md
 * sections 4, 4.7 and 6 only.
 *
 * A turn is built the obvious way: every movement the rule set allows first, played into a copy
 * of the position with the same side still to move, then every movement the rule set allows
 * second. Movements are the reference generator's legal moves (perft_ref.h), or, under Galvin's
 * rules where there is no check, the pseudo-legal moves generated in this file.
 *
 * Interpretation choices where docs/rules.md leaves a point open to this reader:
 *  1. Classic en passant, two double steps: a second-movement en passant capture is allowed only
 *     when the first movement took the other double-stepped pawn en passant ("both may be taken,
 *     one with each movement"); taking a single one with the second movement is not.
 *  2. The en passant set at a turn boundary lists every double step the rule set lets the
 *     opponent take (4.7), whether or not a pawn of the opponent stands ready to capture there;
 *     under single-move chess, too, the passed square is written after every double step (as
 *     FEN does); the tests normalise that case.
 *  3. Under Extra Move the en passant rule is that of 4.5 whatever the EpRule option says: the
 *     double step of the second movement, or of White's one-movement first turn, may be taken.
 *  4. Under Galvin's rules there is no check, so a first movement that attacks the enemy king
 *     does not end the turn; only a king capture does.
 *  5. Under Extra Move the one-movement turn [m] exists for every allowed first movement m, also
 *     when a second movement is possible; [m] and [m, x] are distinct turns.
 *  6. Under Bennekom and Extra Move "the same piece" is the piece standing on the first
 *     movement's destination (a promoted pawn is the same piece as its new self; after castling,
 *     the king for Bennekom, the king and the rook for Extra Move).
 *  7. The 50-move clock counts turns: reset when any movement of the turn moved a pawn or
 *     captured (en passant included, castling never), else one more.
 *  8. Galvin: capturing a king also removes that side's castling rights (they belong to an
 *     unmoved king; docs/rules.md is silent, and a right without its king is no valid FEN).
 */
#include "turn_ref.h"

#include "perft_ref.h"

#include <stdlib.h>
#include <string.h>

/* ---- Board helpers ---- */

static int files(const Setup *s) { return s->variant->files; }
static int file_of(const Setup *s, int sq) { return sq % files(s); }
static int rank_of(const Setup *s, int sq) { return sq / files(s); }
static int forward(int color) { return color == WHITE ? 1 : -1; }
static int home_rank(int color) { return color == WHITE ? 0 : RANKS - 1; }

static bool has_king(const Setup *s, int color)
{
    for (int sq = 0; sq < files(s) * RANKS; sq++)
        if (s->board[sq] == make_piece(color, KING))
            return true;
    return false;
}

static bool is_capture(const Setup *s, Move m)
{
    return move_kind(m) == MOVE_EN_PASSANT ||
           (move_kind(m) != MOVE_CASTLING && s->board[move_to(m)] != NO_PIECE);
}

static bool is_double_step(const Setup *s, Move m)
{
    return piece_type(s->board[move_from(m)]) == PAWN &&
           abs(rank_of(s, move_to(m)) - rank_of(s, move_from(m))) == 2;
}

/* Where the castling king (and rook) stand after the castling move m. */
static void castled_squares(const Setup *s, Move m, int *king_to, int *rook_to)
{
    int side = file_of(s, move_to(m)) < file_of(s, move_from(m)) ? 0 : 1;
    int base = home_rank(s->side) * files(s);
    *king_to = base + s->variant->king_to[side];
    *rook_to = base + s->variant->rook_to[side];
}

/* The square of the piece that made movement m (played in s): its destination, for castling the
 * king's. */
static int moved_piece_square(const Setup *s, Move m)
{
    if (move_kind(m) != MOVE_CASTLING)
        return move_to(m);
    int king_to, rook_to;
    castled_squares(s, m, &king_to, &rook_to);
    return king_to;
}

/* ---- Galvin's pseudo-legal movements: no check, no en passant ---- */

typedef struct Dir {
    int df, dr;
} Dir;

static const Dir LEAPS[8] = { { 1, 2 },   { 2, 1 },   { 2, -1 }, { 1, -2 },
                              { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
static const Dir DIAG[4] = { { 1, 1 }, { 1, -1 }, { -1, -1 }, { -1, 1 } };
static const Dir ORTH[4] = { { 1, 0 }, { 0, -1 }, { -1, 0 }, { 0, 1 } };

/* The square one step d from sq, or NO_SQUARE off the board. */
static int step(const Setup *s, int sq, Dir d)
{
    int f = file_of(s, sq) + d.df, r = rank_of(s, sq) + d.dr;
    if (f < 0 || f >= files(s) || r < 0 || r >= RANKS)
        return NO_SQUARE;
    return r * files(s) + f;
}

typedef struct Gen {
    Move *moves;
    int n;
} Gen;

static void push(Gen *g, int from, int to, int kind, PieceType promo)
{
    if (g->n < MAX_MOVES)
        g->moves[g->n++] = move_new(from, to, kind, promo);
}

static bool enemy_at(const Setup *s, int sq)
{
    return s->board[sq] != NO_PIECE && piece_color(s->board[sq]) != s->side;
}
static bool free_for_us(const Setup *s, int sq)
{
    return s->board[sq] == NO_PIECE || enemy_at(s, sq);
}

static void pawn_to(const Setup *s, Gen *g, int from, int to)
{
    if (rank_of(s, to) != home_rank(!s->side)) {
        push(g, from, to, MOVE_NORMAL, NO_TYPE);
        return;
    }
    for (int i = 0; i < s->variant->n_promotions; i++)
        push(g, from, to, MOVE_PROMOTION, s->variant->promotions[i]);
}

static void galvin_pawn(const Setup *s, Gen *g, int from)
{
    int fw = forward(s->side);
    int one = step(s, from, (Dir){ 0, fw });
    if (one == NO_SQUARE)
        return;
    if (s->board[one] == NO_PIECE) {
        pawn_to(s, g, from, one);
        int two = step(s, one, (Dir){ 0, fw });
        if (rank_of(s, from) == home_rank(s->side) + fw && two != NO_SQUARE &&
            s->board[two] == NO_PIECE)
            push(g, from, two, MOVE_NORMAL, NO_TYPE);
    }
    for (int df = -1; df <= 1; df += 2) {
        int to = step(s, from, (Dir){ df, fw });
        if (to != NO_SQUARE && enemy_at(s, to))
            pawn_to(s, g, from, to);
    }
}

static void galvin_leaps(const Setup *s, Gen *g, int from, const Dir *dirs, int n)
{
    for (int i = 0; i < n; i++) {
        int to = step(s, from, dirs[i]);
        if (to != NO_SQUARE && free_for_us(s, to))
            push(g, from, to, MOVE_NORMAL, NO_TYPE);
    }
}

static void galvin_slides(const Setup *s, Gen *g, int from, const Dir *dirs)
{
    for (int i = 0; i < 4; i++)
        for (int to = step(s, from, dirs[i]); to != NO_SQUARE; to = step(s, to, dirs[i])) {
            if (free_for_us(s, to))
                push(g, from, to, MOVE_NORMAL, NO_TYPE);
            if (s->board[to] != NO_PIECE)
                break;
        }
}

/* Castling needs only its rights and the empty squares (4.3 Decision: attacks are ignored). */
static void galvin_castling(const Setup *s, Gen *g)
{
    int us = s->side, king = NO_SQUARE;
    for (int sq = home_rank(us) * files(s); sq < (home_rank(us) + 1) * files(s); sq++)
        if (s->board[sq] == make_piece(us, KING))
            king = sq;
    if (king == NO_SQUARE)
        return;
    for (int side = 0; side < 2; side++) {
        int rook = s->castle_rook[us][side];
        if (rook == NO_SQUARE || s->board[rook] != make_piece(us, ROOK))
            continue;
        int base = home_rank(us) * files(s);
        int ends[2][2] = { { king, base + s->variant->king_to[side] },
                           { rook, base + s->variant->rook_to[side] } };
        bool clear = true;
        for (int k = 0; k < 2; k++) {
            int lo = ends[k][0] < ends[k][1] ? ends[k][0] : ends[k][1];
            int hi = ends[k][0] < ends[k][1] ? ends[k][1] : ends[k][0];
            for (int sq = lo; sq <= hi; sq++)
                if (s->board[sq] != NO_PIECE && sq != king && sq != rook)
                    clear = false;
        }
        if (clear)
            push(g, king, rook, MOVE_CASTLING, NO_TYPE);
    }
}

static int galvin_moves(const Setup *s, Move *moves)
{
    Gen g = { moves, 0 };
    for (int sq = 0; sq < files(s) * RANKS; sq++) {
        Piece p = s->board[sq];
        if (p == NO_PIECE || piece_color(p) != s->side)
            continue;
        PieceType t = piece_type(p);
        if (t == PAWN) {
            galvin_pawn(s, &g, sq);
            continue;
        }
        if (t == KING) {
            galvin_leaps(s, &g, sq, DIAG, 4);
            galvin_leaps(s, &g, sq, ORTH, 4);
            continue;
        }
        if (t == KNIGHT || t == ARCHBISHOP || t == CHANCELLOR)
            galvin_leaps(s, &g, sq, LEAPS, 8);
        if (t == BISHOP || t == ARCHBISHOP || t == QUEEN)
            galvin_slides(s, &g, sq, DIAG);
        if (t == ROOK || t == CHANCELLOR || t == QUEEN)
            galvin_slides(s, &g, sq, ORTH);
    }
    galvin_castling(s, &g);
    return g.n;
}

/* ---- Movements within a turn ---- */

static bool is_galvin(const Rules *r) { return r->turns == TURNS_GALVIN; }

/* The ordinary moves of the side to move: legal ones, or pseudo-legal ones under Galvin. */
static int movements(const Setup *s, const Rules *r, Move *moves)
{
    return is_galvin(r) ? galvin_moves(s, moves) : ref_legal_moves(s, moves);
}

/* Plays one movement; the same side stays to move and nothing is capturable en passant (the
 * caller grants the one second-movement en passant capture the rules allow). */
static void play_movement(const Setup *s, Move m, Setup *out)
{
    ref_make(s, m, out);
    /* Galvin: a captured king takes its castling rights with it (choice 8 at the top). */
    if (move_kind(m) != MOVE_CASTLING && piece_type(s->board[move_to(m)]) == KING)
        out->castle_rook[!s->side][0] = out->castle_rook[!s->side][1] = NO_SQUARE;
    out->side = s->side;
    out->fullmove = s->fullmove;
    out->halfmove = s->halfmove;
    out->ep[0] = out->ep[1] = NO_SQUARE;
}

bool ref_first_turn(const Setup *s, const Rules *r)
{
    return rules_balanced(r) && s->side == WHITE && s->fullmove == 1;
}

static bool list_push(TurnList *l, Move a, Move b)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        Turn *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = (Turn){ { a, b }, b == MOVE_NONE ? 1 : 2 };
    return true;
}

void ref_turn_list_free(TurnList *list)
{
    free(list->v);
    list->v = NULL;
    list->n = list->cap = 0;
}

/* Whether the rule set lets m be the second movement after first (played in s, giving mid). */
static bool second_allowed(const Setup *s, const Rules *r, Move first, const Setup *mid, Move m)
{
    if (r->turns == TURNS_BENNEKOM)
        return move_from(m) == moved_piece_square(s, first);
    if (r->turns == TURNS_EXTRAMOVE) {
        if (is_capture(mid, m) || move_from(m) == moved_piece_square(s, first))
            return false;
        if (move_kind(first) == MOVE_CASTLING) {
            int king_to, rook_to;
            castled_squares(s, first, &king_to, &rook_to);
            if (move_from(m) == rook_to)
                return false;
        }
    }
    return true;
}

/* The en passant square left for the second movement: only after an en passant first movement
 * under classic rules, the other double-stepped pawn (choice 1 at the top). */
static int second_ep(const Setup *s, const Rules *r, Move first)
{
    bool classic =
        r->ep == EP_CLASSIC &&
        (r->turns == TURNS_MARSEILLAIS || r->turns == TURNS_BALANCED || r->turns == TURNS_BENNEKOM);
    if (!classic || move_kind(first) != MOVE_EN_PASSANT)
        return NO_SQUARE;
    for (int i = 0; i < 2; i++)
        if (s->ep[i] != NO_SQUARE && s->ep[i] != move_to(first))
            return s->ep[i];
    return NO_SQUARE;
}

static bool single_turns(const Setup *s, TurnList *list)
{
    Move moves[MAX_MOVES];
    int n = ref_legal_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (!list_push(list, moves[i], MOVE_NONE))
            return false;
    return true;
}

/* The turns that begin with first (an allowed first movement of s). */
static bool turns_from(const Setup *s, const Rules *r, Move first, TurnList *list)
{
    int us = s->side;
    Setup mid;
    play_movement(s, first, &mid);

    if (is_galvin(r) && s->board[move_to(first)] == make_piece(!us, KING))
        return list_push(list, first, MOVE_NONE); /* a king capture ends turn and game */
    if (!is_galvin(r) && mailbox_in_check(&mid, !us))
        return list_push(list, first, MOVE_NONE); /* a checking first movement ends the turn */
    if (ref_first_turn(s, r))
        return list_push(list, first, MOVE_NONE);
    if (r->turns == TURNS_EXTRAMOVE && !list_push(list, first, MOVE_NONE))
        return false; /* the second movement is optional */

    mid.ep[0] = second_ep(s, r, first);
    Move seconds[MAX_MOVES];
    int n = movements(&mid, r, seconds), added = 0;
    for (int i = 0; i < n; i++) {
        if (!second_allowed(s, r, first, &mid, seconds[i]))
            continue;
        if (!list_push(list, first, seconds[i]))
            return false;
        added++;
    }
    /* Bennekom: a piece with no second movement skips it. Galvin (Decision): a side with no
     * movement at all after the first ends the turn there. Marseillais: no complete turn. */
    if (added == 0 && (r->turns == TURNS_BENNEKOM || (is_galvin(r) && n == 0)))
        return list_push(list, first, MOVE_NONE);
    return true;
}

bool ref_turns(const Setup *s, const Rules *r, TurnList *list)
{
    list->n = 0;
    if (r->turns == TURNS_SINGLE)
        return single_turns(s, list);
    if (!has_king(s, s->side))
        return true; /* Galvin: the king was captured, the game is over */
    Setup start = *s;
    if (is_galvin(r))
        start.ep[0] = start.ep[1] = NO_SQUARE;
    Move firsts[MAX_MOVES];
    int n = movements(&start, r, firsts);
    for (int i = 0; i < n; i++) {
        /* Extra Move: a double step only as a second movement or on White's first turn. */
        if (r->turns == TURNS_EXTRAMOVE && !ref_first_turn(s, r) && is_double_step(s, firsts[i]))
            continue;
        if (!turns_from(&start, r, firsts[i], list))
            return false;
    }
    return true;
}

/* ---- Making a turn ---- */

/* Whether the double step of the movement with this index in a turn of n movements may be taken
 * en passant by the opponent under r (4.1 rule 6, 4.5, 4.6). */
static bool ep_rule_admits(const Rules *r, int index, int n)
{
    switch (r->turns) {
    case TURNS_GALVIN:
        return false;
    case TURNS_SINGLE:
    case TURNS_EXTRAMOVE: /* choice 3 */
        return true;
    default:
        /* Modern: only a genuine second movement (a one-movement turn has none). */
        return r->ep == EP_CLASSIC || (index == 1 && n == 2);
    }
}

void ref_make_turn(const Setup *s, const Rules *r, const Turn *t, Setup *out)
{
    int us = s->side, fw = forward(us);
    Setup first; /* the state between the two movements */
    bool reset = false;
    int passed[2], arrived[2], n_ep = 0;
    for (int i = 0; i < t->n; i++) {
        const Setup *before = i == 0 ? s : &first;
        Move m = t->m[i];
        if (piece_type(before->board[move_from(m)]) == PAWN || is_capture(before, m))
            reset = true;
        if (is_double_step(before, m) && !s->variant->no_en_passant && ep_rule_admits(r, i, t->n)) {
            passed[n_ep] = move_from(m) + fw * files(s);
            arrived[n_ep++] = move_to(m);
        }
        play_movement(before, m, i == t->n - 1 ? out : &first);
    }
    out->side = !us;
    out->halfmove = reset ? 0 : s->halfmove + 1;
    out->fullmove = s->fullmove + (us == BLACK);
    /* A double-stepped pawn stays capturable while it stands where it arrived, with the passed
     * square empty (4.7); a pawn that moved on has left that square, and no other pawn of ours
     * can have taken its place within the same turn. */
    int k = 0;
    out->ep[0] = out->ep[1] = NO_SQUARE;
    for (int i = 0; i < n_ep; i++)
        if (out->board[arrived[i]] == make_piece(us, PAWN) && out->board[passed[i]] == NO_PIECE &&
            !(t->n == 2 && i == 0 && move_from(t->m[1]) == arrived[i]))
            out->ep[k++] = passed[i];
    if (k == 2 && out->ep[0] > out->ep[1]) {
        int x = out->ep[0];
        out->ep[0] = out->ep[1];
        out->ep[1] = x;
    }
}

/* ---- Status and perft ---- */

RefStatus ref_status(const Setup *s, const Rules *r)
{
    if (!has_king(s, s->side))
        return REF_KING_CAPTURED;
    TurnList list = { 0 };
    bool ok = ref_turns(s, r, &list);
    size_t n = list.n;
    ref_turn_list_free(&list);
    if (ok && n > 0)
        return REF_PLAYING;
    if (is_galvin(r) || !mailbox_in_check(s, s->side))
        return REF_STALEMATE;
    /* In check: checkmate only when no first movement parries it (4.1 rules 4 and 5; under Extra
     * Move a double step is no movement at all as a first movement). */
    Move moves[MAX_MOVES];
    int m = ref_legal_moves(s, moves), allowed = 0;
    for (int i = 0; i < m; i++)
        if (!(r->turns == TURNS_EXTRAMOVE && !ref_first_turn(s, r) && is_double_step(s, moves[i])))
            allowed++;
    return allowed ? REF_STALEMATE : REF_CHECKMATE;
}

uint64_t ref_perft_turns(const Setup *s, const Rules *r, int depth)
{
    if (depth == 0)
        return 1;
    TurnList list = { 0 };
    if (!ref_turns(s, r, &list))
        abort(); /* a test oracle out of memory cannot give an answer */
    uint64_t nodes = 0;
    for (size_t i = 0; i < list.n; i++) {
        Setup next;
        ref_make_turn(s, r, &list.v[i], &next);
        nodes += ref_perft_turns(&next, r, depth - 1);
    }
    ref_turn_list_free(&list);
    return nodes;
}

/* Each distinct first movement counts once at depth 1; deeper, the sequence either ends the turn
 * there (a one-movement turn, then the opponent moves) or goes on with a second movement of the
 * same turn. These continuations never coincide: after the first movement the next movement
 * starts from a square of ours in one case and of the opponent's in the other. ref_turns lists
 * the turns of one first movement next to each other, so a group is a run of the list. */
uint64_t ref_perft_movements(const Setup *s, const Rules *r, int depth)
{
    if (depth == 0)
        return 1;
    TurnList list = { 0 };
    if (!ref_turns(s, r, &list))
        abort();
    uint64_t nodes = 0;
    for (size_t i = 0; i < list.n; i++) {
        bool new_group = i == 0 || list.v[i].m[0] != list.v[i - 1].m[0];
        if (depth == 1) {
            nodes += new_group;
            continue;
        }
        Setup next;
        ref_make_turn(s, r, &list.v[i], &next);
        nodes += ref_perft_movements(&next, r, depth - list.v[i].n);
    }
    ref_turn_list_free(&list);
    return nodes;
}

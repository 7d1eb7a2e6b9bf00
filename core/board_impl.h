/* The fast bitboard core of one board size: position building, legal move generation (with a
 * counting form for perft's last ply), copy-make and perft. Included by board8.c and board10.c
 * with FILES, BB and SFX defined, so that each board size is compiled with its own fixed geometry
 * and bitboard type and neither pays for the other in the hot loops.
 *
 * Legality is decided during generation, as strong engines do: the checking pieces and the pieces
 * pinned to their king are computed once per position, pinned pieces move only along their pin
 * line, check evasions are restricted to capturing the checker or blocking, king moves are tested
 * against attacks with the king lifted off the board; en passant and castling are verified by
 * testing the king's square on the resulting occupancy. */

#include "board_attacks.h"
#include "perft_tt.h"
#include "zobrist.h"

#if FILES == 8
#define BoardT Board64
#define CastT Castling64
#else
#define BoardT Board80
#define CastT Castling80
#endif

static const Zobrist *Z;

void SFX(board_init)(void)
{
    Z = zobrist();
    init_tables();
}

/* ---- piece sets ---------------------------------------------------------------------------- */

static inline BB rooklike(const BoardT *b)
{
    return b->by_type[ROOK] | b->by_type[CHANCELLOR] | b->by_type[QUEEN];
}
static inline BB bishoplike(const BoardT *b)
{
    return b->by_type[BISHOP] | b->by_type[ARCHBISHOP] | b->by_type[QUEEN];
}
static inline BB knightlike(const BoardT *b)
{
    return b->by_type[KNIGHT] | b->by_type[ARCHBISHOP] | b->by_type[CHANCELLOR];
}

/* Pieces of either colour attacking s, for the occupancy occ. */
static inline BB attackers_to(const BoardT *b, int s, BB occ)
{
    return (T.pawn[WHITE][s] & b->by_type[PAWN] & b->by_color[BLACK])
         | (T.pawn[BLACK][s] & b->by_type[PAWN] & b->by_color[WHITE])
         | (T.knight[s] & knightlike(b)) | (T.king[s] & b->by_type[KING])
         | (bishop_attacks(s, occ) & bishoplike(b)) | (rook_attacks(s, occ) & rooklike(b));
}

/* Whether color by attacks s with the occupancy occ; pieces in gone are ignored (captured). */
static inline bool attacked_by(const BoardT *b, int s, int by, BB occ, BB gone)
{
    BB them = b->by_color[by] & ~gone;
    return (T.pawn[by ^ 1][s] & b->by_type[PAWN] & them) || (T.knight[s] & knightlike(b) & them)
        || (T.king[s] & b->by_type[KING] & them) || (bishop_attacks(s, occ) & bishoplike(b) & them)
        || (rook_attacks(s, occ) & rooklike(b) & them);
}

/* ---- building ------------------------------------------------------------------------------ */

static inline void put_piece(BoardT *b, Piece pc, int s)
{
    BB bit = bb_sq(s);
    b->sq[s] = pc;
    b->by_type[piece_type(pc)] |= bit;
    b->by_type[NO_TYPE] |= bit;
    b->by_color[piece_color(pc)] |= bit;
    b->key ^= Z->piece[piece_color(pc)][piece_type(pc)][s];
}

static inline void remove_piece(BoardT *b, int s)
{
    Piece pc = b->sq[s];
    BB bit = bb_sq(s);
    b->sq[s] = NO_PIECE;
    b->by_type[piece_type(pc)] ^= bit;
    b->by_type[NO_TYPE] ^= bit;
    b->by_color[piece_color(pc)] ^= bit;
    b->key ^= Z->piece[piece_color(pc)][piece_type(pc)][s];
}

static inline u128 ep_key(BB ep)
{
    u128 k = 0;
    while (ep)
        k ^= Z->ep[sq_file(pop_lsb(&ep))];
    return k;
}

static u128 compute_key(const BoardT *b)
{
    u128 k = 0;
    for (int s = 0; s < NSQ; s++)
        if (b->sq[s] != NO_PIECE)
            k ^= Z->piece[piece_color(b->sq[s])][piece_type(b->sq[s])][s];
    if (b->side == BLACK)
        k ^= Z->side;
    k ^= Z->castling[b->rights];
    return k ^ ep_key(b->ep);
}

/* Squares from a to b on one rank, both included. */
static BB rank_span(int a, int b)
{
    BB span = 0;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    for (int s = lo; s <= hi; s++)
        span |= bb_sq(s);
    return span;
}

static void build(BoardT *b, CastT *c, const Setup *s)
{
    const Variant *v = s->variant;
    memset(b, 0, sizeof *b);
    memset(c, 0, sizeof *c);
    for (int sq = 0; sq < NSQ; sq++) {
        c->keep[sq] = 15;
        if (s->board[sq] != NO_PIECE) {
            put_piece(b, s->board[sq], sq);
            if (piece_type(s->board[sq]) == KING)
                b->king[piece_color(s->board[sq])] = (uint8_t)sq;
        }
    }
    b->side = (uint8_t)s->side;
    for (int color = 0; color < 2; color++)
        for (int side = 0; side < 2; side++) {
            int rook = s->castle_rook[color][side];
            if (rook == NO_SQUARE)
                continue;
            int slot = color * 2 + side, base = color == WHITE ? 0 : (RANKS - 1) * FILES;
            int king = b->king[color];
            b->rights |= (uint8_t)(1 << slot);
            c->king_from[color] = (uint8_t)king;
            c->rook_from[slot] = (uint8_t)rook;
            c->king_to[slot] = (uint8_t)(base + v->king_to[side]);
            c->rook_to[slot] = (uint8_t)(base + v->rook_to[side]);
            c->empty[slot] = (rank_span(king, c->king_to[slot]) | rank_span(rook, c->rook_to[slot]))
                           & ~bb_sq(king) & ~bb_sq(rook);
            c->safe[slot] = rank_span(king, c->king_to[slot]);
            c->keep[king] &= (uint8_t)~(3 << (color * 2));
            c->keep[rook] &= (uint8_t)~(1 << slot);
        }
    for (int i = 0; i < 2; i++)
        if (s->ep[i] != NO_SQUARE)
            b->ep |= bb_sq(s->ep[i]);
    b->halfmove = (uint16_t)s->halfmove;
    b->fullmove = (uint16_t)s->fullmove;
    b->key = compute_key(b);
}

static void to_setup(const BoardT *b, const CastT *c, Setup *s)
{
    for (int sq = 0; sq < NSQ; sq++)
        s->board[sq] = b->sq[sq];
    s->side = b->side;
    for (int slot = 0; slot < 4; slot++)
        s->castle_rook[slot / 2][slot % 2] = (b->rights & (1 << slot)) ? c->rook_from[slot] : NO_SQUARE;
    BB ep = b->ep;
    s->ep[0] = ep ? pop_lsb(&ep) : NO_SQUARE;
    s->ep[1] = ep ? pop_lsb(&ep) : NO_SQUARE;
    s->halfmove = b->halfmove;
    s->fullmove = b->fullmove;
}

/* ---- move generation ----------------------------------------------------------------------- */

static inline BB pawn_push(BB b, int us) { return us == WHITE ? b << FILES : b >> FILES; }

/* Generates the legal moves into list, or only counts them when list is NULL (perft's last
 * ply: no move is written, pawn and piece moves are counted by population counts). With
 * tactical (a constant at every call), only the captures, en passant and promotions, in the
 * order the full generation gives them: the search's quiescence. */
static inline __attribute__((always_inline)) int
generate_moves(const BoardT *b, const CastT *c, const Variant *v, Move *list, const bool tactical)
{
    const int us = b->side, them = us ^ 1;
    const BB occ = b->by_type[NO_TYPE], own = b->by_color[us], opp = b->by_color[them];
    const int ksq = b->king[us];
    int n = 0;

#define EMIT_ALL(from, targets, kind)                                                           \
    do {                                                                                        \
        BB t_ = (targets);                                                                      \
        if (list)                                                                               \
            while (t_)                                                                          \
                list[n++] = move_new((from), pop_lsb(&t_), (kind), NO_TYPE);                    \
        else                                                                                    \
            n += popcnt(t_);                                                                    \
    } while (0)

    /* King moves: the destination must not be attacked once the king has left its square. */
    {
        BB t = T.king[ksq] & (tactical ? opp : ~own), occ_k = occ ^ bb_sq(ksq);
        while (t) {
            int to = pop_lsb(&t);
            if (!attacked_by(b, to, them, occ_k, 0)) {
                if (list)
                    list[n++] = move_new(ksq, to, MOVE_NORMAL, NO_TYPE);
                else
                    n++;
            }
        }
    }
    const BB checkers = attackers_to(b, ksq, occ) & opp;
    if (checkers && more_than_one(checkers))
        return n;
    const BB target = checkers ? (T.between[ksq][lsb(checkers)] | checkers) : ~own;
    const BB piece_target = tactical ? target & opp : target;

    BB pinned = 0;
    {
        BB snipers = ((T.rook_empty[ksq] & rooklike(b)) | (T.bishop_empty[ksq] & bishoplike(b))) & opp;
        while (snipers) {
            BB between = T.between[ksq][pop_lsb(&snipers)] & occ;
            if (between && !more_than_one(between) && (between & own))
                pinned |= between;
        }
    }

    /* Pieces other than king and pawns. A pinned piece keeps only moves along its pin line,
     * which removes every knight leap. */
    {
        BB pieces = own & ~b->by_type[PAWN] & ~b->by_type[KING];
        const BB knights = knightlike(b), bishops = bishoplike(b), rooks = rooklike(b);
        while (pieces) {
            int from = pop_lsb(&pieces);
            BB f = bb_sq(from), att = 0;
            if (knights & f)
                att |= T.knight[from];
            if (bishops & f)
                att |= bishop_attacks(from, occ);
            if (rooks & f)
                att |= rook_attacks(from, occ);
            att &= piece_target;
            if (pinned & f)
                att &= T.line[ksq][from];
            EMIT_ALL(from, att, MOVE_NORMAL);
        }
    }

    /* Pawns: unpinned ones in bulk by shifting, pinned ones one by one along their pin line. */
    {
        const int up = us == WHITE ? FILES : -FILES;
        const BB last_rank = T.rank_bb[us == WHITE ? RANKS - 1 : 0];
        const BB third_rank = T.rank_bb[us == WHITE ? 2 : RANKS - 3];
        const BB pawns = b->by_type[PAWN] & own;
        const BB free_pawns = pawns & ~pinned;
        const BB empty = ~occ;
        BB single = pawn_push(free_pawns, us) & empty;
        BB dbl = tactical ? 0 : pawn_push(single & third_rank, us) & empty & target;
        single &= tactical ? target & last_rank : target;
        BB east = pawn_push(free_pawns & ~T.file_last, us) << 1 & opp & target;
        BB west = pawn_push(free_pawns & ~T.file_first, us) >> 1 & opp & target;
        const int np = v->n_promotions;
        if (!list) {
            n += popcnt(single & ~last_rank) + popcnt(dbl) + popcnt(east & ~last_rank)
               + popcnt(west & ~last_rank);
            n += np * (popcnt(single & last_rank) + popcnt(east & last_rank) + popcnt(west & last_rank));
        } else {
            BB t;
            t = single;
            while (t) {
                int to = pop_lsb(&t), from = to - up;
                if (bb_sq(to) & last_rank)
                    for (int i = 0; i < np; i++)
                        list[n++] = move_new(from, to, MOVE_PROMOTION, v->promotions[i]);
                else
                    list[n++] = move_new(from, to, MOVE_NORMAL, NO_TYPE);
            }
            t = dbl;
            while (t) {
                int to = pop_lsb(&t);
                list[n++] = move_new(to - 2 * up, to, MOVE_NORMAL, NO_TYPE);
            }
            for (int dir = 0; dir < 2; dir++) {
                t = dir ? east : west;
                int from_delta = up + (dir ? 1 : -1);
                while (t) {
                    int to = pop_lsb(&t), from = to - from_delta;
                    if (bb_sq(to) & last_rank)
                        for (int i = 0; i < np; i++)
                            list[n++] = move_new(from, to, MOVE_PROMOTION, v->promotions[i]);
                    else
                        list[n++] = move_new(from, to, MOVE_NORMAL, NO_TYPE);
                }
            }
        }
        BB pinned_pawns = pawns & pinned;
        while (pinned_pawns) {
            int from = pop_lsb(&pinned_pawns);
            BB ray = T.line[ksq][from] & target;
            BB moves = pawn_push(bb_sq(from), us) & empty;
            if (moves & third_rank)
                moves |= pawn_push(moves, us) & empty;
            moves = (moves | (T.pawn[us][from] & opp)) & ray;
            if (tactical)
                moves &= opp | last_rank;
            while (moves) {
                int to = pop_lsb(&moves);
                if (bb_sq(to) & last_rank) {
                    for (int i = 0; i < np; i++)
                        if (list)
                            list[n++] = move_new(from, to, MOVE_PROMOTION, v->promotions[i]);
                        else
                            n++;
                } else if (list) {
                    list[n++] = move_new(from, to, MOVE_NORMAL, NO_TYPE);
                } else {
                    n++;
                }
            }
        }
        /* En passant: test the king on the occupancy after the capture, which catches the
         * horizontal pin of both pawns and checks the capture does or does not resolve. */
        for (BB eps = b->ep; eps;) {
            const int ep = pop_lsb(&eps), victim = ep - up;
            BB capturers = (b->by_type[PAWN] & opp & bb_sq(victim)) ? T.pawn[them][ep] & pawns : 0;
            while (capturers) {
                int from = pop_lsb(&capturers);
                BB after = (occ ^ bb_sq(from) ^ bb_sq(victim)) | bb_sq(ep);
                if (!attacked_by(b, ksq, them, after, bb_sq(victim))) {
                    if (list)
                        list[n++] = move_new(from, ep, MOVE_EN_PASSANT, NO_TYPE);
                    else
                        n++;
                }
            }
        }
    }

    /* Castling: rights imply the king and the rook stand on their squares (rights are lost when
     * either moves or the rook is captured). The crossed squares are tested on the current board,
     * the king's destination once more with the castling rook gone, for the x-ray through it. */
    if (!checkers && !tactical) {
        for (int side = 0; side < 2; side++) {
            int slot = us * 2 + side;
            if (!(b->rights & (1 << slot)))
                continue;
            int rook = c->rook_from[slot];
            if (occ & c->empty[slot])
                continue;
            BB safe = c->safe[slot] & ~bb_sq(ksq);
            bool ok = true;
            while (safe && ok)
                ok = !attacked_by(b, pop_lsb(&safe), them, occ, 0);
            if (ok) {
                int kto = c->king_to[slot];
                BB after = (occ ^ bb_sq(ksq) ^ bb_sq(rook)) | bb_sq(kto) | bb_sq(c->rook_to[slot]);
                ok = !attacked_by(b, kto, them, after, 0);
            }
            if (ok) {
                if (list)
                    list[n++] = move_new(ksq, rook, MOVE_CASTLING, NO_TYPE);
                else
                    n++;
            }
        }
    }
#undef EMIT_ALL
    return n;
}

static inline __attribute__((always_inline)) int generate(const BoardT *b, const CastT *c,
                                                          const Variant *v, Move *list)
{
    return generate_moves(b, c, v, list, false);
}

/* ---- making moves -------------------------------------------------------------------------- */

static inline void make(const BoardT *b, const CastT *c, Move m, BoardT *o)
{
    if (o != b)
        *o = *b;
    const int us = b->side, them = us ^ 1;
    const int from = move_from(m), to = move_to(m), kind = move_kind(m);
    o->key ^= Z->side ^ ep_key(o->ep);
    o->ep = 0;
    o->halfmove++;
    if (us == BLACK)
        o->fullmove++;

    if (kind == MOVE_CASTLING) {
        int slot = us * 2 + (sq_file(to) > sq_file(from));
        Piece king = o->sq[from], rook = o->sq[to];
        remove_piece(o, from);
        remove_piece(o, to);
        put_piece(o, king, c->king_to[slot]);
        put_piece(o, rook, c->rook_to[slot]);
        o->king[us] = c->king_to[slot];
    } else {
        Piece pc = o->sq[from];
        PieceType pt = piece_type(pc);
        int cap_sq = kind == MOVE_EN_PASSANT ? to + (us == WHITE ? -FILES : FILES) : to;
        if (o->sq[cap_sq] != NO_PIECE) {
            remove_piece(o, cap_sq);
            o->halfmove = 0;
        }
        remove_piece(o, from);
        put_piece(o, kind == MOVE_PROMOTION ? make_piece(us, move_promo(m)) : pc, to);
        if (pt == PAWN) {
            o->halfmove = 0;
            if (to - from == 2 * FILES || from - to == 2 * FILES) {
                int ep = (from + to) / 2;
                if (T.pawn[us][ep] & o->by_type[PAWN] & o->by_color[them]) {
                    o->ep = bb_sq(ep);
                    o->key ^= Z->ep[sq_file(ep)];
                }
            }
        } else if (pt == KING) {
            o->king[us] = (uint8_t)to;
        }
    }
    uint8_t rights = o->rights & c->keep[from] & c->keep[to];
    o->key ^= Z->castling[o->rights] ^ Z->castling[rights];
    o->rights = rights;
    o->side = (uint8_t)them;
}

/* The same side's opponent to move, nothing moved: the search's null move. */
static inline void make_null(const BoardT *b, BoardT *o)
{
    *o = *b;
    o->key ^= Z->side ^ ep_key(o->ep);
    o->ep = 0;
    o->halfmove++;
    if (b->side == BLACK)
        o->fullmove++;
    o->side ^= 1;
}

/* ---- static exchange ------------------------------------------------------------------------ */

/* What the side making m wins on its target square if both sides then capture there with their
 * least valuable piece while it pays (values[] per piece type): the swap-list method, with
 * sliders behind a capturer joining as it leaves. Pins are ignored, as usual. Castling wins 0. */
static int see(const BoardT *b, Move m, const int *values)
{
    int kind = move_kind(m);
    if (kind == MOVE_CASTLING)
        return 0;
    const int from = move_from(m), to = move_to(m);
    int gain[40], depth = 0;
    BB occ = b->by_type[NO_TYPE] ^ bb_sq(from);
    PieceType moved = piece_type(b->sq[from]);
    if (kind == MOVE_EN_PASSANT) {
        occ ^= bb_sq(to + (b->side == WHITE ? -FILES : FILES));
        gain[0] = values[PAWN];
    } else {
        gain[0] = b->sq[to] ? values[piece_type(b->sq[to])] : 0;
    }
    if (kind == MOVE_PROMOTION) {
        gain[0] += values[move_promo(m)] - values[PAWN];
        moved = move_promo(m);
    }
    BB attackers = attackers_to(b, to, occ) & occ;
    int side = b->side ^ 1;
    int on_square = values[moved]; /* the value of what now stands on the square */
    while (depth < 39) {
        BB mine = attackers & b->by_color[side];
        if (!mine)
            break;
        /* the least valuable attacker */
        PieceType least = NO_TYPE;
        BB which = 0;
        for (PieceType t = PAWN; t <= KING; t++) {
            BB set = mine & b->by_type[t];
            if (set && (least == NO_TYPE || values[t] < values[least])) {
                least = t;
                which = set & -set;
            }
        }
        depth++;
        gain[depth] = on_square - gain[depth - 1];
        on_square = values[least];
        occ ^= which;
        /* sliders lined up behind it now see the square */
        attackers |= (bishop_attacks(to, occ) & bishoplike(b)) | (rook_attacks(to, occ) & rooklike(b));
        attackers &= occ;
        side ^= 1;
        if (least == KING && (attackers & b->by_color[side]))
            { depth--; break; } /* the king cannot take into a defended square */
    }
    while (depth > 0) {
        if (-gain[depth] < gain[depth - 1])
            gain[depth - 1] = -gain[depth];
        depth--;
    }
    return gain[0];
}

/* ---- perft --------------------------------------------------------------------------------- */

/* tt, when not NULL, remembers subtree counts from depth 2 up (the last ply is cheaper to
 * count than to look up). */
static uint64_t perft_rec(const BoardT *b, const CastT *c, const Variant *v, int depth, PerftTT *tt)
{
    if (depth == 1)
        return (uint64_t)generate(b, c, v, NULL);
    uint64_t total = 0;
    if (tt && perft_tt_probe(tt, b->key, depth, &total))
        return total;
    Move list[MAX_MOVES];
    int n = generate(b, c, v, list);
    BoardT child;
    for (int i = 0; i < n; i++) {
        make(b, c, list[i], &child);
        total += perft_rec(&child, c, v, depth - 1, tt);
    }
    if (tt)
        perft_tt_store(tt, b->key, depth, total);
    return total;
}

/* ---- the functions position.c dispatches to ------------------------------------------------ */

void SFX(board_build)(BoardT *b, CastT *c, const Setup *s) { build(b, c, s); }
void SFX(board_to_setup)(const BoardT *b, const CastT *c, Setup *s) { to_setup(b, c, s); }
int SFX(board_moves)(const BoardT *b, const CastT *c, const Variant *v, Move *list)
{
    return generate(b, c, v, list);
}
int SFX(board_tactical_moves)(const BoardT *b, const CastT *c, const Variant *v, Move *list)
{
    return generate_moves(b, c, v, list, true);
}
void SFX(board_make)(const BoardT *b, const CastT *c, Move m, BoardT *o) { make(b, c, m, o); }
void SFX(board_make_null)(const BoardT *b, BoardT *o) { make_null(b, o); }
int SFX(board_see)(const BoardT *b, Move m, const int *values) { return see(b, m, values); }
bool SFX(board_in_check)(const BoardT *b)
{
    BB king = b->by_type[KING] & b->by_color[b->side]; /* gone in Galvin's game */
    return king && attacked_by(b, lsb(king), b->side ^ 1, b->by_type[NO_TYPE], 0);
}
int SFX(board_checkers)(const BoardT *b, int *squares)
{
    BB king = b->by_type[KING] & b->by_color[b->side];
    if (!king)
        return 0;
    BB checkers = attackers_to(b, lsb(king), b->by_type[NO_TYPE]) & b->by_color[b->side ^ 1];
    int n = 0;
    while (checkers)
        squares[n++] = pop_lsb(&checkers);
    return n;
}
u128 SFX(board_key_slow)(const BoardT *b) { return compute_key(b); }
uint64_t SFX(board_perft)(const BoardT *b, const CastT *c, const Variant *v, int depth)
{
    return depth <= 0 ? 1 : perft_rec(b, c, v, depth, NULL);
}

#include "turn_impl.h"

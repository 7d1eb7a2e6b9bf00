/* Turn rules on the bitboard core of one board size (RULES.md section 4), included by
 * board_impl.h. A turn is made of ordinary movements: the first with the generator as it is, the
 * second after handing the move back to the same side (pass_to_mover), both filtered by the rule
 * set. Turn perft counts the second movements of the last turn with the counting generator where
 * no rule filters them, as the single-move perft does with its last ply. */

/* What a turn needs besides the board: fixed for a whole search. */
typedef struct TurnCtx {
    const CastT *c;
    const Variant *v;
    Rules r;
    PerftTT *tt; /* NULL or the table for turn perft counts */
} TurnCtx;

static inline bool has_king(const BoardT *b, int color)
{
    return (b->by_type[KING] & b->by_color[color]) != 0;
}

/* Galvin's moves: every movement of the side to move, kings may be left or put en prise and
 * captured, castling needs only the empty squares, no en passant. */
static int generate_pseudo(const BoardT *b, const CastT *c, const Variant *v, Move *list)
{
    const int us = b->side;
    const BB occ = b->by_type[NO_TYPE], own = b->by_color[us], opp = b->by_color[us ^ 1];
    const BB knights = knightlike(b), bishops = bishoplike(b), rooks = rooklike(b);
    const int up = us == WHITE ? FILES : -FILES;
    const BB last_rank = T.rank_bb[us == WHITE ? RANKS - 1 : 0];
    const BB start_rank = T.rank_bb[us == WHITE ? 1 : RANKS - 2];
    int n = 0;
    for (BB pieces = own; pieces;) {
        int from = pop_lsb(&pieces);
        BB f = bb_sq(from), to = 0;
        if (b->by_type[PAWN] & f) {
            BB one = pawn_push(f, us) & ~occ;
            to = one | (T.pawn[us][from] & opp);
            if (f & start_rank)
                to |= pawn_push(one, us) & ~occ;
            while (to) {
                int t = pop_lsb(&to);
                if (bb_sq(t) & last_rank)
                    for (int i = 0; i < v->n_promotions; i++)
                        list[n++] = move_new(from, t, MOVE_PROMOTION, v->promotions[i]);
                else
                    list[n++] = move_new(from, t, MOVE_NORMAL, NO_TYPE);
            }
            continue;
        }
        if (b->by_type[KING] & f)
            to |= T.king[from];
        if (knights & f)
            to |= T.knight[from];
        if (bishops & f)
            to |= bishop_attacks(from, occ);
        if (rooks & f)
            to |= rook_attacks(from, occ);
        for (to &= ~own; to;)
            list[n++] = move_new(from, pop_lsb(&to), MOVE_NORMAL, NO_TYPE);
    }
    (void)up;
    for (int side = 0; side < 2; side++) {
        int slot = us * 2 + side;
        if ((b->rights & (1 << slot)) && !(occ & c->empty[slot]))
            list[n++] = move_new(c->king_from[us], c->rook_from[slot], MOVE_CASTLING, NO_TYPE);
    }
    return n;
}

/* The passed square of a double step (m played on b), or -1. */
static inline int double_step(const BoardT *b, Move m)
{
    int from = move_from(m), to = move_to(m);
    if (move_kind(m) != MOVE_NORMAL || piece_type(b->sq[from]) != PAWN)
        return -1;
    return (to - from == 2 * FILES || from - to == 2 * FILES) ? (from + to) / 2 : -1;
}

/* Where the piece that made m stands afterwards (after castling: the king). */
static inline int landing(const CastT *c, int us, Move m)
{
    if (move_kind(m) != MOVE_CASTLING)
        return move_to(m);
    return c->king_to[us * 2 + (sq_file(move_to(m)) > sq_file(move_from(m)))];
}

static inline bool is_capture(const BoardT *b, Move m)
{
    return move_kind(m) == MOVE_EN_PASSANT
        || (move_kind(m) != MOVE_CASTLING && b->sq[move_to(m)] != NO_PIECE);
}

/* Whether a passed square still allows en passant against color's pawn: the pawn stands on its
 * arrival square and the passed square is empty (RULES.md 4.1 rule 6 and 4.7). */
static inline bool ep_still_valid(const BoardT *b, int passed, int color)
{
    int arrival = passed + (color == WHITE ? FILES : -FILES);
    return b->sq[passed] == NO_PIECE && b->sq[arrival] == make_piece(color, PAWN);
}

static inline void set_ep(BoardT *b, BB ep)
{
    b->key ^= ep_key(b->ep) ^ ep_key(ep);
    b->ep = ep;
}

static bool first_turn(const BoardT *b, const Rules *r)
{
    return rules_balanced(r) && b->side == WHITE && b->fullmove == 1;
}

/* The first movements allowed by the rule set; none once a king is gone (Galvin). */
static int first_movements(const BoardT *b, const TurnCtx *t, bool first, Move *list)
{
    if (t->r.turns == TURNS_GALVIN)
        return has_king(b, WHITE) && has_king(b, BLACK) ? generate_pseudo(b, t->c, t->v, list) : 0;
    int n = generate(b, t->c, t->v, list);
    if (t->r.turns == TURNS_EXTRAMOVE && !first) { /* double steps only as second movements */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (double_step(b, list[i]) < 0)
                list[k++] = list[i];
        n = k;
    }
    return n;
}

/* Whether the turn is over after the first movement m1 (after1 = the board after it). */
static bool ends_after_first(const BoardT *after1, const TurnCtx *t, bool first)
{
    switch (t->r.turns) {
    case TURNS_SINGLE:
        return true;
    case TURNS_GALVIN:
        return first || !has_king(after1, after1->side);
    default: /* a check by the first movement ends the turn (after1's side is the opponent) */
        return first || attacked_by(after1, after1->king[after1->side], after1->side ^ 1,
                                    after1->by_type[NO_TYPE], 0);
    }
}

/* The board for the second movement: the mover moves again. Only under classic en passant, when
 * the first movement took one of two double-stepped pawns en passant, may the second take the
 * other (RULES.md 4.1 rule 6). */
static void pass_to_mover(const BoardT *start, const BoardT *after1, Move m1, const TurnCtx *t,
                          BoardT *d)
{
    *d = *after1;
    d->side ^= 1;
    d->key ^= Z->side;
    BB ep = 0;
    if (t->r.ep == EP_CLASSIC && t->r.turns != TURNS_GALVIN && t->r.turns != TURNS_EXTRAMOVE
        && move_kind(m1) == MOVE_EN_PASSANT && more_than_one(start->ep)) {
        BB other = start->ep & ~bb_sq(move_to(m1));
        if (ep_still_valid(after1, lsb(other), start->side ^ 1))
            ep = other;
    }
    set_ep(d, ep);
}

/* The second movements allowed after m1 on the board d from pass_to_mover. */
static int second_movements(const BoardT *d, Move m1, const TurnCtx *t, Move *list)
{
    const int us = d->side;
    if (t->r.turns == TURNS_GALVIN)
        return generate_pseudo(d, t->c, t->v, list);
    int n = generate(d, t->c, t->v, list), k = 0;
    if (t->r.turns == TURNS_BENNEKOM) { /* the same piece again */
        int sq = landing(t->c, us, m1);
        for (int i = 0; i < n; i++)
            if (move_from(list[i]) == sq)
                list[k++] = list[i];
        return k;
    }
    if (t->r.turns == TURNS_EXTRAMOVE) { /* another piece (after castling neither king nor rook), no capture */
        BB moved = bb_sq(landing(t->c, us, m1));
        if (move_kind(m1) == MOVE_CASTLING)
            moved |= bb_sq(t->c->rook_to[us * 2 + (sq_file(move_to(m1)) > sq_file(move_from(m1)))]);
        for (int i = 0; i < n; i++)
            if (!(moved & bb_sq(move_from(list[i]))) && !is_capture(d, list[i]))
                list[k++] = list[i];
        return k;
    }
    return n;
}

/* Whether the rule set filters second movements (then they cannot be bulk-counted). */
static inline bool filters_second(const TurnCtx *t)
{
    return t->r.turns == TURNS_BENNEKOM || t->r.turns == TURNS_EXTRAMOVE || t->r.turns == TURNS_GALVIN;
}

/* Whether a first movement with no second movement after it is a complete turn. */
static inline bool lone_first_completes(const TurnCtx *t)
{
    return t->r.turns == TURNS_GALVIN || t->r.turns == TURNS_BENNEKOM;
}

/* Completes a turn on f (the board after its last movement, the opponent to move): the en
 * passant set for the opponent and the clocks counted in turns. passed1/passed2 are the passed
 * squares of double steps by the first and second movement (-1 for none). */
static void finish_turn(const BoardT *start, bool reset_clock, int passed1, int passed2,
                        const TurnCtx *t, BoardT *f)
{
    const int mover = start->side;
    BB ep = 0;
    if (t->r.turns == TURNS_SINGLE) {
        ep = f->ep; /* make() already set it */
    } else if (t->r.turns != TURNS_GALVIN) {
        int candidates[2] = { t->r.ep == EP_MODERN && t->r.turns != TURNS_EXTRAMOVE ? -1 : passed1,
                              passed2 };
        for (int i = 0; i < 2; i++)
            if (candidates[i] >= 0 && ep_still_valid(f, candidates[i], mover))
                ep |= bb_sq(candidates[i]);
    }
    set_ep(f, ep);
    f->halfmove = reset_clock ? 0 : (uint16_t)(start->halfmove + 1);
    f->fullmove = (uint16_t)(start->fullmove + (mover == BLACK));
}

/* The visitor of complete turns: either counts perft below them or collects them. */
typedef struct TurnVisit {
    int depth;      /* turns still to count, including this one */
    uint64_t nodes; /* perft total */
    TurnList *list; /* when collecting the root's turns */
} TurnVisit;

static uint64_t turns_rec(const BoardT *b, const TurnCtx *t, int depth);

static bool visit_turn(TurnVisit *vis, const BoardT *f, const TurnCtx *t, Move m1, Move m2)
{
    if (vis->list) {
        const Turn t = { { m1, m2 }, m2 ? 2 : 1 };
        if (!turn_list_push(vis->list, &t))
            return false;
    } else {
        vis->nodes += vis->depth == 1 ? 1 : turns_rec(f, t, vis->depth - 1);
    }
    return true;
}

/* Enumerates the complete turns of b, handing each with its resulting board to visit_turn. The
 * bulk path counts second movements without making them when only the total is wanted. */
static bool each_turn(const BoardT *b, const TurnCtx *t, TurnVisit *vis)
{
    const bool first = first_turn(b, &t->r);
    Move l1[MAX_MOVES], l2[MAX_MOVES];
    int n1 = first_movements(b, t, first, l1);
    for (int i = 0; i < n1; i++) {
        const Move m1 = l1[i];
        const int passed1 = double_step(b, m1);
        BoardT after1, d, f;
        make(b, t->c, m1, &after1);
        const bool ends = ends_after_first(&after1, t, first);
        const bool reset1 = after1.halfmove == 0;
        if (ends || t->r.turns == TURNS_EXTRAMOVE) {
            f = after1;
            finish_turn(b, reset1, passed1, -1, t, &f);
            if (!visit_turn(vis, &f, t, m1, MOVE_NONE))
                return false;
            if (ends)
                continue;
        }
        pass_to_mover(b, &after1, m1, t, &d);
        if (!vis->list && vis->depth == 1 && !filters_second(t)) {
            vis->nodes += (uint64_t)generate(&d, t->c, t->v, NULL);
            continue;
        }
        int n2 = second_movements(&d, m1, t, l2);
        if (n2 == 0 && lone_first_completes(t)) {
            f = after1;
            finish_turn(b, reset1, passed1, -1, t, &f);
            if (!visit_turn(vis, &f, t, m1, MOVE_NONE))
                return false;
            continue;
        }
        if (!vis->list && vis->depth == 1) {
            vis->nodes += (uint64_t)n2;
            continue;
        }
        for (int j = 0; j < n2; j++) {
            int passed2 = double_step(&d, l2[j]);
            make(&d, t->c, l2[j], &f);
            finish_turn(b, reset1 || f.halfmove == 0, passed1, passed2, t, &f);
            if (!visit_turn(vis, &f, t, m1, l2[j]))
                return false;
        }
    }
    return true;
}

static uint64_t turns_rec(const BoardT *b, const TurnCtx *t, int depth)
{
    /* The count depends on whether this is White's one-movement first turn: part of the key. */
    u128 key = b->key ^ (first_turn(b, &t->r) ? Z->first_turn : 0);
    uint64_t cached;
    if (t->tt && depth >= 2 && perft_tt_probe(t->tt, key, depth, &cached))
        return cached;
    TurnVisit vis = { depth, 0, NULL };
    each_turn(b, t, &vis);
    if (t->tt && depth >= 2)
        perft_tt_store(t->tt, key, depth, vis.nodes);
    return vis.nodes;
}

/* Movement-level count (debugging): distinct sequences of depth movements that begin sequences
 * of complete turns. */
static uint64_t movements_rec(const BoardT *b, const TurnCtx *t, int depth)
{
    const bool first = first_turn(b, &t->r);
    Move l1[MAX_MOVES], l2[MAX_MOVES];
    int n1 = first_movements(b, t, first, l1);
    uint64_t total = 0;
    for (int i = 0; i < n1; i++) {
        const Move m1 = l1[i];
        const int passed1 = double_step(b, m1);
        BoardT after1, d, f;
        make(b, t->c, m1, &after1);
        const bool ends = ends_after_first(&after1, t, first);
        int n2 = 0;
        if (!ends) {
            pass_to_mover(b, &after1, m1, t, &d);
            n2 = second_movements(&d, m1, t, l2);
        }
        const bool alone = ends || t->r.turns == TURNS_EXTRAMOVE || (n2 == 0 && lone_first_completes(t));
        if (!alone && n2 == 0)
            continue; /* begins no complete turn */
        if (depth == 1) {
            total++;
            continue;
        }
        if (alone) {
            f = after1;
            finish_turn(b, after1.halfmove == 0, passed1, -1, t, &f);
            total += movements_rec(&f, t, depth - 1);
        }
        for (int j = 0; j < n2; j++) {
            if (depth == 2) {
                total++;
                continue;
            }
            int passed2 = double_step(&d, l2[j]);
            make(&d, t->c, l2[j], &f);
            finish_turn(b, after1.halfmove == 0 || f.halfmove == 0, passed1, passed2, t, &f);
            total += movements_rec(&f, t, depth - 2);
        }
    }
    return total;
}

/* ---- the functions turn.c dispatches to ---------------------------------------------------- */

bool SFX(board_turns)(const BoardT *b, const CastT *c, const Variant *v, const Rules *r, TurnList *l)
{
    TurnCtx t = { c, v, *r, NULL };
    TurnVisit vis = { 1, 0, l };
    return each_turn(b, &t, &vis);
}

void SFX(board_make_turn)(const BoardT *b, const CastT *c, const Variant *v, const Rules *r,
                          const Turn *turn, BoardT *o)
{
    TurnCtx t = { c, v, *r, NULL };
    const BoardT start = *b;
    BoardT after1, d;
    make(&start, c, turn->m[0], &after1);
    int passed1 = double_step(&start, turn->m[0]), passed2 = -1;
    bool reset = after1.halfmove == 0;
    if (turn->n == 1) {
        *o = after1;
    } else {
        pass_to_mover(&start, &after1, turn->m[0], &t, &d);
        passed2 = double_step(&d, turn->m[1]);
        make(&d, c, turn->m[1], o);
        reset = reset || o->halfmove == 0;
    }
    finish_turn(&start, reset, passed1, passed2, &t, o);
}

uint64_t SFX(board_perft_turns)(const BoardT *b, const CastT *c, const Variant *v, const Rules *r,
                                int depth, PerftTT *tt)
{
    TurnCtx t = { c, v, *r, tt };
    if (depth <= 0)
        return 1;
    return r->turns == TURNS_SINGLE ? perft_rec(b, c, v, depth, tt) : turns_rec(b, &t, depth);
}

uint64_t SFX(board_perft_movements)(const BoardT *b, const CastT *c, const Variant *v,
                                    const Rules *r, int depth)
{
    TurnCtx t = { c, v, *r, NULL };
    return depth <= 0 ? 1 : movements_rec(b, &t, depth);
}

bool SFX(board_first_turn)(const BoardT *b, const Rules *r) { return first_turn(b, r); }

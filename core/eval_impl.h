/* The static evaluation (eval.h) on the bitboards of one board size: included at the end of
 * board8.c and board10.c, after board_impl.h, so it reads that size's attack tables and helpers
 * directly and evaluating a piece costs table lookups, never a dispatch on the board width.
 *
 * Each colour's terms are computed by the same code with Black's geometry mirrored (piece-square
 * tables read at the mirrored square, pawn spans filled downwards) and the two are subtracted,
 * so mirroring a position and swapping the colours gives exactly the same score. Kings are found
 * through the bitboards, never b->king: in Galvin's game either king or both may be gone. */

/* The game phase is the non-pawn material on the board in these units, clamped to
 * EV_PHASE_FULL: the 8x8 start has exactly 24, every 10x8 start 40, so both start as a full
 * middlegame. Measuring the material absolutely, not as a share of the start, makes a 10x8
 * position with the 8x8 start's material exactly as much a middlegame as that start: what the
 * phase stands for, the danger to the kings and the weight of the pawns, depends on what is
 * left, not on what was there. */
#define EV_PHASE_FULL 24
static const int ev_phase_weight[TYPE_NB] = {
    [KNIGHT] = 1, [BISHOP] = 1, [ROOK] = 2, [ARCHBISHOP] = 4, [CHANCELLOR] = 4, [QUEEN] = 4,
};

/* King attack: units per attacked square next to (or under) the enemy king, roughly growing
 * with the attacker's value; the square of the units (capped) makes the term grow faster than
 * linearly, and the scale KingAttack is per 64 squared units. One piece alone seldom mates, so
 * it takes two attackers. */
static const int ev_attack_units[TYPE_NB] = {
    [KNIGHT] = 2, [BISHOP] = 2, [ROOK] = 3, [ARCHBISHOP] = 4, [CHANCELLOR] = 4, [QUEEN] = 5,
};
#define EV_ATTACK_UNITS_MAX 40
#define EV_ATTACK_SCALE     64

/* A passed pawn earns Passed * (r / EV_PASSED_RANK)^2, r its rank counted from its side's first
 * rank (0): Passed is the bonus of a pawn one step from promotion. */
#define EV_PASSED_RANK (RANKS - 2)

/* One colour's sums. */
typedef struct EvSide {
    int mg, eg;
    int phase;
    int units, attackers; /* king attack */
} EvSide;

static inline int ev_mirror(int s) { return s + FILES * (RANKS - 1 - 2 * sq_rank(s)); }

/* The squares on the files beside those of b, on the same ranks. */
static inline BB ev_beside(BB b) { return ((b << 1) & ~T.file_first) | ((b >> 1) & ~T.file_last); }

/* b and every square above it (White's forward direction) or below it: three doubling shifts
 * cover the RANKS - 1 = 7 steps. Bits shifted past the last square of a 128-bit board are never
 * used: every result is intersected with pieces before it is counted. */
_Static_assert(RANKS - 1 <= 1 + 2 + 4, "ev_fill's three shifts must span the board");
static inline BB ev_fill(BB b, int color)
{
    if (color == WHITE) {
        b |= b << FILES;
        b |= b << 2 * FILES;
        return b | b << 4 * FILES;
    }
    b |= b >> FILES;
    b |= b >> 2 * FILES;
    return b | b >> 4 * FILES;
}

static inline BB ev_pawn_attacks(BB pawns, int color) { return ev_beside(pawn_push(pawns, color)); }

static inline __attribute__((always_inline)) BB ev_attacks(PieceType t, int s, BB occ)
{
    BB att = 0;
    if (t == KNIGHT || t == ARCHBISHOP || t == CHANCELLOR)
        att |= T.knight[s];
    if (t == BISHOP || t == ARCHBISHOP || t == QUEEN)
        att |= bishop_attacks(s, occ);
    if (t == ROOK || t == CHANCELLOR || t == QUEEN)
        att |= rook_attacks(s, occ);
    if (t == KING)
        att |= T.king[s];
    return att;
}

/* Material and piece-square values (one table, see eval.c), mobility and king attack of the
 * pieces of type t of colour us. Called with constant t, so the attack set folds to its parts. */
static inline __attribute__((always_inline)) void
ev_pieces(EvSide *acc, const BoardT *b, const Eval *e, int us, PieceType t, BB area, BB zone)
{
    const short *mg = e->pst[FILES == 10][0][t], *eg = e->pst[FILES == 10][1][t];
    const BB occ = b->by_type[NO_TYPE];
    BB pieces = b->by_type[t] & b->by_color[us];
    int reach = 0;
    acc->phase += ev_phase_weight[t] * popcnt(pieces);
    while (pieces) {
        int s = pop_lsb(&pieces), ps = us == WHITE ? s : ev_mirror(s);
        acc->mg += mg[ps];
        acc->eg += eg[ps];
        if (t == PAWN)
            continue;
        BB att = ev_attacks(t, s, occ);
        reach += popcnt(att & area);
        if (t != KING && (att & zone)) {
            acc->units += ev_attack_units[t] * popcnt(att & zone);
            acc->attackers++;
        }
    }
    acc->mg += reach * e->params.mobility_mg[t];
    acc->eg += reach * e->params.mobility_eg[t];
}

/* Every square of the files these pawns stand on. */
static inline BB ev_pawn_files(BB pawns)
{
    return ev_fill(ev_fill(pawns, BLACK) & T.rank_bb[0], WHITE);
}

/* Doubled, isolated and passed pawns; own_files as ev_pawn_files(own). */
static inline void ev_pawns(EvSide *acc, const EvalParams *p, int us, BB own, BB theirs,
                            BB own_files)
{
    int doubled = popcnt(own) - popcnt(own_files & T.rank_bb[0]);
    int isolated = popcnt(own & ~ev_beside(own_files));
    /* An enemy pawn stops ours on its file and the two beside it, on every rank it has still to
     * cross: ahead of it in its own direction. */
    BB span = ev_fill(pawn_push(theirs, us ^ 1), us ^ 1);
    BB passed = own & ~(span | ev_beside(span));
    int advance2 = 0;
    while (passed) {
        int s = pop_lsb(&passed), r = us == WHITE ? sq_rank(s) : RANKS - 1 - sq_rank(s);
        advance2 += r * r;
    }
    acc->mg += p->passed_mg * advance2 / (EV_PASSED_RANK * EV_PASSED_RANK) -
               doubled * p->doubled_mg - isolated * p->isolated_mg;
    acc->eg += p->passed_eg * advance2 / (EV_PASSED_RANK * EV_PASSED_RANK) -
               doubled * p->doubled_eg - isolated * p->isolated_eg;
}

static inline __attribute__((always_inline)) void ev_side(EvSide *acc, const BoardT *b,
                                                          const Eval *e, int us, const BB pawns[2],
                                                          const BB pawn_att[2],
                                                          const BB pawn_files[2])
{
    const EvalParams *p = &e->params;
    const int them = us ^ 1;
    const BB own = b->by_color[us];
    const BB area = ~own & ~pawn_att[them]; /* safe squares to go to */
    const BB their_king = b->by_type[KING] & b->by_color[them];
    const BB zone = their_king ? T.king[lsb(their_king)] | their_king : 0;
    *acc = (EvSide){ 0 };

    ev_pieces(acc, b, e, us, PAWN, area, zone);
    ev_pieces(acc, b, e, us, KNIGHT, area, zone);
    ev_pieces(acc, b, e, us, BISHOP, area, zone);
    ev_pieces(acc, b, e, us, ROOK, area, zone);
    ev_pieces(acc, b, e, us, ARCHBISHOP, area, zone);
    ev_pieces(acc, b, e, us, CHANCELLOR, area, zone);
    ev_pieces(acc, b, e, us, QUEEN, area, zone);
    ev_pieces(acc, b, e, us, KING, area, zone);

    ev_pawns(acc, p, us, pawns[us], pawns[them], pawn_files[us]);

    if (more_than_one(b->by_type[BISHOP] & own)) {
        acc->mg += p->bishop_pair_mg;
        acc->eg += p->bishop_pair_eg;
    }

    /* Rooks and chancellors: a whole bonus on an open file, half on a half-open one (no pawn of
     * ours; an enemy pawn to attack). Counted in halves, divided once. */
    const BB heavy = (b->by_type[ROOK] | b->by_type[CHANCELLOR]) & own & ~pawn_files[us];
    const int open_halves = popcnt(heavy) + popcnt(heavy & ~pawn_files[them]);
    acc->mg += p->rook_open_mg * open_halves / 2;
    acc->eg += p->rook_open_eg * open_halves / 2;

    /* Shelter: our pawns on the two ranks in front of our king, its file and the two beside. */
    const BB king = b->by_type[KING] & own;
    if (king) {
        BB front = T.pawn[us][lsb(king)] | pawn_push(king, us);
        front |= pawn_push(front, us);
        acc->mg += p->king_shelter * popcnt(front & pawns[us]);
    }

    if (acc->attackers >= 2) {
        int u = acc->units < EV_ATTACK_UNITS_MAX ? acc->units : EV_ATTACK_UNITS_MAX;
        acc->mg += p->king_attack * u * u / EV_ATTACK_SCALE;
    }
}

int SFX(board_eval)(const BoardT *b, const Eval *e)
{
    const BB pawns[2] = { b->by_type[PAWN] & b->by_color[WHITE],
                          b->by_type[PAWN] & b->by_color[BLACK] };
    const BB pawn_att[2] = { ev_pawn_attacks(pawns[WHITE], WHITE),
                             ev_pawn_attacks(pawns[BLACK], BLACK) };
    const BB pawn_files[2] = { ev_pawn_files(pawns[WHITE]), ev_pawn_files(pawns[BLACK]) };
    EvSide side[2];
    ev_side(&side[WHITE], b, e, WHITE, pawns, pawn_att, pawn_files);
    ev_side(&side[BLACK], b, e, BLACK, pawns, pawn_att, pawn_files);
    int phase = side[WHITE].phase + side[BLACK].phase;
    if (phase > EV_PHASE_FULL)
        phase = EV_PHASE_FULL;
    int mg = side[WHITE].mg - side[BLACK].mg, eg = side[WHITE].eg - side[BLACK].eg;
    /* C's division truncates towards zero, so the blend of the negated sums is the negated
     * blend: the colour symmetry survives the rounding. */
    int score = (mg * phase + eg * (EV_PHASE_FULL - phase)) / EV_PHASE_FULL;
    return (b->side == WHITE ? score : -score) + e->params.tempo;
}

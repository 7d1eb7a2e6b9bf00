/* SPDX-License-Identifier: MIT */
/* Weighted random play for generator tests (random_position.h). A move's weight grows with the
 * special rules it exercises, so that random games pass through the positions where generators
 * go wrong more often than uniform play would; the position kept is the one that offers most of
 * them to the generator at once. */
#include "random_position.h"

#include <stdlib.h>

#include "position.h"
#include "rng.h"
#include "turn.h"

#define MAX_PLIES 100

static int rank_of(const Position *p, int sq) { return sq / p->variant->files; }
static int file_of(const Position *p, int sq) { return sq % p->variant->files; }

static bool has_knight_part(PieceType t)
{
    return t == KNIGHT || t == ARCHBISHOP || t == CHANCELLOR;
}

/* What a movement exercises, without playing it. */
static int movement_weight(const Position *p, Move m)
{
    int w = 1, from = move_from(m), to = move_to(m);
    Piece mover = position_piece_at(p, from), target = position_piece_at(p, to);
    int side = piece_color(mover);
    switch (move_kind(m)) {
    case MOVE_CASTLING:
        return w + 10;
    case MOVE_EN_PASSANT:
        return w + 12;
    case MOVE_PROMOTION:
        w += 6 + (target ? 6 : 0);
        break;
    default:
        break;
    }
    if (target)
        w += 2;
    if (piece_type(mover) == PAWN) {
        int advance = side == WHITE ? rank_of(p, to) : RANKS - 1 - rank_of(p, to);
        w += advance >= 4 ? advance - 3 : 0;
        if (abs(rank_of(p, to) - rank_of(p, from)) == 2) {
            /* A double step beside an enemy pawn gives it an en passant capture. */
            w += 2;
            for (int df = -1; df <= 1; df += 2) {
                int f = file_of(p, to) + df;
                if (f >= 0 && f < p->variant->files &&
                    position_piece_at(p, to + df) == make_piece(!side, PAWN))
                    w += 8;
            }
        }
    }
    if (piece_type(mover) == KING)
        w += 1;
    return w;
}

/* A movement's weight, its check included (it is played for that). */
static int move_weight(const Position *p, Move m)
{
    int w = movement_weight(p, m);
    Position after;
    position_make(p, m, &after);
    if (position_in_check(&after)) {
        PieceType t = piece_type(position_piece_at(p, move_from(m)));
        w += 4 + (has_knight_part(t) || t == PAWN ? 3 : 0);
    }
    return w;
}

/* Whether the piece on sq belongs to side and slides along (df, dr). */
static bool slider_on(const Position *p, int sq, int side, int df, int dr)
{
    Piece pc = position_piece_at(p, sq);
    if (!pc || piece_color(pc) != side)
        return false;
    PieceType t = piece_type(pc);
    if (t == QUEEN)
        return true;
    return df && dr ? t == BISHOP || t == ARCHBISHOP : t == ROOK || t == CHANCELLOR;
}

/* Pieces of the side to move pinned to its king, along all eight lines. */
static int pins(const Position *p)
{
    int side = position_side(p), files = p->variant->files, king = -1;
    for (int sq = 0; sq < files * RANKS && king < 0; sq++)
        if (position_piece_at(p, sq) == make_piece(side, KING))
            king = sq;
    if (king < 0)
        return 0;
    int n = 0;
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            if (!df && !dr)
                continue;
            int f = file_of(p, king) + df, r = rank_of(p, king) + dr, own = 0;
            for (; f >= 0 && f < files && r >= 0 && r < RANKS; f += df, r += dr) {
                Piece pc = position_piece_at(p, r * files + f);
                if (!pc)
                    continue;
                if (piece_color(pc) == side && ++own == 1)
                    continue;
                n += own == 1 && slider_on(p, r * files + f, !side, df, dr);
                break;
            }
        }
    return n;
}

/* How much of what breaks generators the position offers to them; moves are its legal ones. */
static int interest(const Position *p, const Move *moves, int n)
{
    if (n == 0)
        return -1;
    Setup s;
    position_to_setup(p, &s);
    int score = 0;
    if (s.ep[0] != NO_SQUARE)
        score += 4;
    if (position_in_check(p)) {
        int checkers[MAX_CHECKERS];
        score += position_checkers(p, checkers) > 1 ? 7 : 4;
    }
    int pinned = pins(p);
    score += 3 * (pinned < 2 ? pinned : 2);
    for (int c = 0; c < 2; c++)
        for (int side = 0; side < 2; side++)
            score += s.castle_rook[c][side] != NO_SQUARE;
    bool castles = false, promotes = false, takes = false, ep = false;
    for (int i = 0; i < n; i++) {
        castles |= move_kind(moves[i]) == MOVE_CASTLING;
        promotes |= move_kind(moves[i]) == MOVE_PROMOTION;
        takes |= move_kind(moves[i]) == MOVE_PROMOTION && position_piece_at(p, move_to(moves[i]));
        ep |= move_kind(moves[i]) == MOVE_EN_PASSANT;
    }
    /* A pawn of either side a step from promoting promotes within the depths checked. */
    int files = p->variant->files, near = 0;
    for (int f = 0; f < files; f++)
        near += (position_piece_at(p, (RANKS - 2) * files + f) == make_piece(WHITE, PAWN)) +
                (position_piece_at(p, files + f) == make_piece(BLACK, PAWN));
    return score + 3 * castles + 6 * promotes + 4 * takes + 4 * ep + 3 * (near < 2 ? near : 2);
}

/* Index of a choice with probability proportional to its weight. */
static size_t pick(Rng *rng, const int *weights, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += (uint64_t)weights[i];
    uint64_t x = rng_below(rng, total);
    size_t i = 0;
    while (x >= (uint64_t)weights[i])
        x -= (uint64_t)weights[i++];
    return i;
}

/* Room for n weights; false when memory runs out. */
static bool reserve(int **weights, size_t *cap, size_t n)
{
    if (n <= *cap)
        return true;
    int *grown = realloc(*weights, n * sizeof *grown);
    if (!grown)
        return false;
    *weights = grown;
    *cap = n;
    return true;
}

/* A turn's weight: its movements', more when a check by the first cut it short (the turn
 * boundary generators mishandle). No turn is played to weigh it: there can be thousands. */
static int turn_weight(const Position *p, const Rules *r, const Turn *t)
{
    int w = movement_weight(p, t->m[0]);
    if (t->n == 2) {
        Position mid;
        position_make(p, t->m[0], &mid);
        w += movement_weight(&mid, t->m[1]) - 1;
    } else if (!position_first_turn(p, r)) {
        w += 6;
    }
    return w;
}

typedef struct Player {
    Rng rng;
    TurnList turns;
    int *weights;
    size_t cap;
} Player;

/* One turn of play from p into out: 1, 0 when the game is over, -1 when memory runs out. */
static int step(Player *pl, const Position *p, const Rules *r, Position *out)
{
    if (r->turns == TURNS_SINGLE) {
        Move moves[MAX_MOVES];
        int n = position_legal_moves(p, moves);
        if (n == 0)
            return 0;
        if (!reserve(&pl->weights, &pl->cap, (size_t)n))
            return -1;
        for (int i = 0; i < n; i++)
            pl->weights[i] = move_weight(p, moves[i]);
        position_make(p, moves[pick(&pl->rng, pl->weights, (size_t)n)], out);
        return 1;
    }
    if (!position_turns(p, r, &pl->turns))
        return -1;
    if (pl->turns.n == 0)
        return 0;
    if (!reserve(&pl->weights, &pl->cap, pl->turns.n))
        return -1;
    for (size_t i = 0; i < pl->turns.n; i++)
        pl->weights[i] = turn_weight(p, r, &pl->turns.v[i]);
    position_make_turn(p, r, &pl->turns.v[pick(&pl->rng, pl->weights, pl->turns.n)], out);
    return 1;
}

bool random_position(const Setup *start, const Rules *r, uint64_t seed, Setup *out)
{
    Player pl = { .rng = rng_new(seed) };
    Position pos, next, best;
    position_from_setup(&pos, start);
    best = pos;
    int plies = 2 + (int)rng_below(&pl.rng, MAX_PLIES - 1), best_score = -1, rc = 1;
    for (int ply = 0; ply < plies; ply++) {
        rc = step(&pl, &pos, r, &next);
        if (rc <= 0)
            break;
        pos = next;
        if (ply < plies / 2)
            continue;
        Move moves[MAX_MOVES];
        int n = position_legal_moves(&pos, moves);
        /* A little noise, so that equally testing positions are all chosen sometimes. */
        int score = interest(&pos, moves, n);
        int ranked = score < 0 ? -1 : 3 * score + (int)rng_below(&pl.rng, 3);
        if (ranked > best_score) {
            best_score = ranked;
            best = pos;
        }
    }
    free(pl.weights);
    turn_list_free(&pl.turns);
    position_to_setup(&best, out);
    return rc >= 0;
}

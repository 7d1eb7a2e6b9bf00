/* SPDX-License-Identifier: MIT */
/* The fast position: bitboards (64-bit on 8x8 boards, 128-bit on 10x8), legal move generation,
 * copy-make and Zobrist keys. The board width is fixed at compile time in each of the two
 * instantiations of board.inc; these functions only dispatch once per call on the width.
 * No mutable global state: any number of threads may use distinct positions at once. */
#ifndef CARRERA_POSITION_H
#define CARRERA_POSITION_H

#include "rules.h"
#include "setup.h"

/* Everything about castling that stays fixed for a game, and whether en passant exists in it:
 * computed once from the setup. Castling slot = color * 2 + side (side 0 queen side, 1 king
 * side). */
#define DECLARE_BOARD(N, BBT)                                                                      \
    typedef struct Castling##N {                                                                   \
        BBT empty[4]; /* squares that must be empty apart from the king and the rook */            \
        BBT safe[4];  /* squares the king crosses, both ends included: not attacked */             \
        uint8_t king_from[2];                                                                      \
        uint8_t rook_from[4], king_to[4], rook_to[4];                                              \
        uint8_t xray;    /* slots whose rook, once gone, may open the rank to the king's target */ \
        uint8_t keep[N]; /* rights (bit per slot) that survive a move from or to a square */       \
        bool en_passant; /* false in a variant without en passant: no double step leaves one */    \
    } Castling##N;                                                                                 \
    typedef struct Board##N {                                                                      \
        /* What move generation reads comes first: perft's last ply copies only this part. */      \
        BBT by_type[TYPE_NB]; /* [NO_TYPE] holds every occupied square */                          \
        BBT by_color[2];                                                                           \
        BBT ep; /* en passant target squares (two after two Marseillais double steps) */           \
        uint8_t side;                                                                              \
        uint8_t rights; /* castling rights, bit per slot */                                        \
        uint8_t king[2];                                                                           \
        uint16_t halfmove, fullmove;                                                               \
        u128 key; /* Zobrist key: two independent 64-bit keys */                                   \
        Piece sq[N];                                                                               \
    } Board##N;

DECLARE_BOARD(64, uint64_t)
DECLARE_BOARD(80, u128)
#undef DECLARE_BOARD

typedef struct Position {
    const Variant *variant;
    FenCastling castling_text;
    union {
        struct {
            Castling64 castling;
            Board64 board;
        } b8;
        struct {
            Castling80 castling;
            Board80 board;
        } b10;
    } u;
} Position;

/* Builds the tables every position shares (attack tables, and the Zobrist keys of key_seed,
 * zobrist.h) if they are not built yet. Call it before the first position is made to choose the
 * keys: otherwise the first position builds them with key seed 0, the default. Once built they
 * are read-only for the rest of the process. Thread-safe. Returns false, leaving the tables as
 * they are, when they were built already with another key seed. */
bool position_init_tables(uint64_t key_seed);

/* Builds the position from a (valid) setup. */
void position_from_setup(Position *p, const Setup *s);

/* The mailbox form of the position (for FEN output and the reference implementation). */
void position_to_setup(const Position *p, Setup *s);

/* Writes the legal moves to moves (room for MAX_MOVES) and returns their number. */
int position_legal_moves(const Position *p, Move *moves);

/* The legal captures, en passant captures and promotions among them, in the same order. */
int position_tactical_moves(const Position *p, Move *moves);

/* The legal quiet moves (no capture, en passant or promotion; castling included) that give check,
 * in the same order: the search's quiescence tries them at its first ply. */
int position_quiet_checks(const Position *p, Move *moves);

/* Plays the legal move m: out receives the new position (p and out may alias). */
void position_make(const Position *p, Move m, Position *out);

/* Passes the turn without moving (the search's null move): out receives p with the other side
 * to move and no en passant square (p and out may alias). */
void position_make_null(const Position *p, Position *out);

/* Static exchange evaluation of the legal move m: the material the side to move wins on m's
 * target square when both sides keep capturing there with their least valuable piece while it
 * pays, in the units of values[] (indexed by PieceType). Pins are ignored. */
int position_see(const Position *p, Move m, const int *values);

int position_side(const Position *p);

/* The piece on each square (NO_PIECE for an empty one), indexed by square. */
static inline const Piece *position_mailbox(const Position *p)
{
    return p->variant->files == 10 ? p->u.b10.board.sq : p->u.b8.board.sq;
}

/* The piece on square s (NO_PIECE for an empty square). */
static inline Piece position_piece_at(const Position *p, int s) { return position_mailbox(p)[s]; }

/* The halfmove clock: plies (turns under the double-move rules) since the last capture or pawn
 * movement. */
static inline int position_halfmove(const Position *p)
{
    return p->variant->files == 10 ? p->u.b10.board.halfmove : p->u.b8.board.halfmove;
}
bool position_in_check(const Position *p);

/* Galvin's game, where a movement may leave its own king en prise and a king is taken: whether
 * the side to move attacks the other king, or with two (a second movement of its turn to come)
 * whether one movement of its attacks it, so that the turn takes it. A true answer is sure; a
 * false one may miss a promotion or castling that attacks it. */
bool position_king_in_reach(const Position *p, bool two);

/* The squares of the pieces giving check to the side to move (at most MAX_CHECKERS); returns
 * their number. */
#define MAX_CHECKERS 16
int position_checkers(const Position *p, int squares[MAX_CHECKERS]);
/* The Zobrist key (128 bits: two independent 64-bit keys); position_key is its low half. */
u128 position_key128(const Position *p);
static inline uint64_t position_key(const Position *p) { return (uint64_t)position_key128(p); }

/* Zobrist key of the position computed from scratch (a check of the incremental key). */
u128 position_key_slow(const Position *p);

/* Verifies the whole internal state of p from scratch, as Stockfish's pos_is_ok: the piece
 * types' and colours' bitboards against each other (no square on two) and against the mailbox,
 * only pieces the variant has, at most one king per side on its recorded square, no pawn on a
 * back rank, each castling right against its king and rook on their squares and the castling
 * geometry against the variant (classic arrays: from the start squares; chess960 and
 * caparandom: the rook on its side of the king), each en passant square behind a pawn of the
 * side not to move that can just have double-stepped, the side to move, the fullmove number,
 * and the incremental Zobrist key against the one computed from scratch.
 * r: the rules of the game when p stands between turns, which adds what those rules guarantee
 * there: at most rules_max_ep(r) en passant squares, a passed pawn's start square empty under
 * single movements, and except in Galvin's game a king per side and the side not to move out
 * of check. NULL when the rules are unknown: only what every rule set guarantees, within a turn
 * as well (what position_make gives after a first movement). Returns true, or false with the
 * first broken invariant found described in why (when why is not NULL). Debug builds assert
 * this after every movement and turn made; Release builds (NDEBUG) never call it. */
bool position_is_ok(const Position *p, const Rules *r, char *why, size_t whylen);

/* Number of legal move paths of length depth; bulk-counts the last ply. */
uint64_t perft(const Position *p, int depth);

#endif

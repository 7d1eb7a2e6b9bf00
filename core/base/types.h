/* SPDX-License-Identifier: MIT */
/* Basic types shared by every part of the core: colours, pieces, squares, moves, limits.
 * Every other core header includes this one and nothing else from the core where it can. */
#ifndef CARRERA_TYPES_H
#define CARRERA_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 128-bit integers: bitboards of the 10x8 board and Zobrist keys (two independent 64-bit keys
 * in one, so a hash entry can be verified with the half that did not pick its slot). */
typedef unsigned __int128 u128;

enum { WHITE = 0, BLACK = 1 };

/* Piece types. The Janus of Janus chess is the Archbishop under another letter. */
typedef enum PieceType {
    NO_TYPE = 0,
    PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    ARCHBISHOP, /* bishop + knight */
    CHANCELLOR, /* rook + knight */
    QUEEN,
    KING,
    TYPE_NB
} PieceType;

/* A piece is its type, plus 16 for Black; 0 is an empty square. */
typedef uint8_t Piece;
#define NO_PIECE ((Piece)0)
static inline Piece make_piece(int color, PieceType t) { return (Piece)(t | (color << 4)); }
static inline PieceType piece_type(Piece p) { return (PieceType)(p & 15); }
static inline int piece_color(Piece p) { return p >> 4; }

/* Boards have 8 ranks and 8 or 10 files. A square is rank * files + file, so its number
 * depends on the board width; a1 is 0 on both boards. */
#define MAX_FILES   10
#define RANKS       8
#define MAX_SQUARES (MAX_FILES * RANKS)
#define NO_SQUARE   (-1)

/* Upper bound on legal moves in any position of any supported variant (10x8 boards with many
 * promoted compound pieces can exceed the 218 of orthodox chess). */
#define MAX_MOVES 1024

/* Longest FEN any supported board produces, including the terminating NUL. */
#define FEN_MAX 160

/* Move encoding, 0 meaning "no move":
 *
 *   bit  19 18 | 17 16 15 14 | 13 .. 7 | 6 .. 0
 *        kind  | promotion   |   to    |  from
 *
 *   kind: 0 normal, 1 promotion (promotion = the new piece type), 2 en passant,
 *         3 castling (from = the king's square, to = the castling rook's square:
 *           "king takes own rook", whatever the variant's notation).
 */
typedef uint32_t Move;
#define MOVE_NONE ((Move)0)
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };

static inline Move move_new(int from, int to, int kind, PieceType promo)
{
    return (Move)from | ((Move)to << 7) | ((Move)promo << 14) | ((Move)kind << 18);
}
static inline int move_from(Move m) { return (int)(m & 127); }
static inline int move_to(Move m) { return (int)((m >> 7) & 127); }
static inline PieceType move_promo(Move m) { return (PieceType)((m >> 14) & 15); }
static inline int move_kind(Move m) { return (int)(m >> 18); }

#endif

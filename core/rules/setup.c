/* SPDX-License-Identifier: MIT */
/* Start positions: each variant's standard array, the 960 numbered Chess960 arrays (Scharnagl's
 * numbering) and seeded random arrays for the random-array variants. */
#include "setup.h"

#include "errmsg.h"
#include "rng.h"

#include <assert.h>
#include <string.h>

void setup_start(Setup *s, const Variant *v)
{
    char err[ERRMSG_LEN];
    int rc = setup_from_fen(s, v, v->start_fen, err, sizeof err);
    /* The variant table is fixed data and the tests read every start_fen: a failure is a bug. */
    assert(rc == 0);
    (void)rc;
}

/* Puts t on the n-th (from 0) empty file of a back rank being built. */
static void place_nth_empty(PieceType back[], int files, int n, PieceType t)
{
    for (int f = 0; f < files; f++) {
        if (back[f] == NO_TYPE && n-- == 0) {
            back[f] = t;
            return;
        }
    }
}

/* The rooks and king go, in that order R K R, on the three files left empty. */
static void place_rook_king_rook(PieceType back[], int files)
{
    place_nth_empty(back, files, 0, ROOK);
    place_nth_empty(back, files, 0, KING);
    place_nth_empty(back, files, 0, ROOK);
}

/* White's back rank as given, pawns in front, Black mirrored; every castling right, written as
 * rook files the way the Chess960 reference data writes start arrays. */
static void setup_from_back_rank(Setup *s, const Variant *v, const PieceType back[])
{
    memset(s, 0, sizeof *s);
    s->variant = v;
    int files = v->files, rooks = 0;
    for (int f = 0; f < files; f++) {
        s->board[f] = make_piece(WHITE, back[f]);
        s->board[files + f] = make_piece(WHITE, PAWN);
        s->board[(RANKS - 2) * files + f] = make_piece(BLACK, PAWN);
        s->board[(RANKS - 1) * files + f] = make_piece(BLACK, back[f]);
        if (back[f] == ROOK) {
            /* The first rook met is on the lower file: the queen-side one. */
            s->castle_rook[WHITE][rooks] = f;
            s->castle_rook[BLACK][rooks] = (RANKS - 1) * files + f;
            rooks++;
        }
    }
    s->side = WHITE;
    s->ep[0] = s->ep[1] = NO_SQUARE;
    s->halfmove = 0;
    s->fullmove = 1;
    s->castling_text = FEN_CASTLING_SHREDDER;
}

int setup_chess960(Setup *s, const Variant *v, int number, char *err, size_t errlen)
{
    if (!v || v->files != 8 || !v->random_array)
        return errmsg_fail(err, errlen, "variant %s has no numbered Chess960 start arrays",
                           v ? v->name : "(none)");
    if (number < 0 || number > 959)
        return errmsg_fail(err, errlen, "Chess960 start array number %d is outside 0-959", number);
    /* Scharnagl: the number's mixed-radix digits place the light bishop (b d f h), the dark
     * bishop (a c e g), the queen on the free files, then one of the ten knight pairs; the
     * rooks and king fill the last three files. */
    static const int KNIGHT_PAIRS[10][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 },
                                             { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } };
    PieceType back[8] = { NO_TYPE };
    int n = number;
    back[2 * (n % 4) + 1] = BISHOP;
    n /= 4;
    back[2 * (n % 4)] = BISHOP;
    n /= 4;
    place_nth_empty(back, 8, n % 6, QUEEN);
    n /= 6;
    /* The second knight's index counts the first one's file as still free, so place it first. */
    place_nth_empty(back, 8, KNIGHT_PAIRS[n][1], KNIGHT);
    place_nth_empty(back, 8, KNIGHT_PAIRS[n][0], KNIGHT);
    place_rook_king_rook(back, 8);
    setup_from_back_rank(s, v, back);
    return 0;
}

/* Capablanca random: every arrangement of R N B Q K B N R A C with the bishops on opposite
 * colours and the king between the rooks is equally likely (each stage is a uniform choice
 * and every arrangement comes from exactly one sequence of choices, up to the knights' order). */
static void caparandom_back_rank(Rng *rng, PieceType back[MAX_FILES])
{
    for (int f = 0; f < MAX_FILES; f++)
        back[f] = NO_TYPE;
    back[2 * (int)rng_below(rng, 5) + 1] = BISHOP; /* light squares: b d f h j */
    back[2 * (int)rng_below(rng, 5)] = BISHOP;     /* dark squares: a c e g i */
    place_nth_empty(back, MAX_FILES, (int)rng_below(rng, 8), QUEEN);
    place_nth_empty(back, MAX_FILES, (int)rng_below(rng, 7), ARCHBISHOP);
    place_nth_empty(back, MAX_FILES, (int)rng_below(rng, 6), CHANCELLOR);
    place_nth_empty(back, MAX_FILES, (int)rng_below(rng, 5), KNIGHT);
    place_nth_empty(back, MAX_FILES, (int)rng_below(rng, 4), KNIGHT);
    place_rook_king_rook(back, MAX_FILES);
}

void setup_random(Setup *s, const Variant *v, uint64_t seed)
{
    Rng rng = rng_new(seed);
    if (v->random_array && v->files == 8) {
        setup_chess960(s, v, (int)rng_below(&rng, 960), NULL, 0);
    } else if (v->random_array && v->files == MAX_FILES) {
        PieceType back[MAX_FILES];
        caparandom_back_rank(&rng, back);
        setup_from_back_rank(s, v, back);
    } else {
        setup_start(s, v); /* a fixed-array variant has only the one start */
    }
}

/* SPDX-License-Identifier: MIT */
/* Tests of position_is_ok (core/rules/board/check.inc): it accepts every position of the reference
 * perft files and of random games under every variant and rule set (within turns too, after
 * null moves, after Galvin's king captures), and refuses positions corrupted by hand, one
 * invariant at a time, on both board sizes, saying which invariant broke. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "epd.h"
#include "errmsg.h"
#include "position.h"
#include "rng.h"
#include "turn.h"

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC };
static const Rules ALL_RULES[] = {
    { TURNS_SINGLE, EP_CLASSIC },     { TURNS_MARSEILLAIS, EP_CLASSIC },
    { TURNS_MARSEILLAIS, EP_MODERN }, { TURNS_BALANCED, EP_CLASSIC },
    { TURNS_BALANCED, EP_MODERN },    { TURNS_GALVIN, EP_CLASSIC },
    { TURNS_BENNEKOM, EP_CLASSIC },   { TURNS_BENNEKOM, EP_MODERN },
    { TURNS_EXTRAMOVE, EP_CLASSIC },
};
#define N_RULES (sizeof ALL_RULES / sizeof ALL_RULES[0])

/* Positions accepted, over all tests: the point is that there are many; and Galvin's games
 * that went on without a king. */
static long accepted, kings_captured;

static void must_accept(const Position *p, const Rules *r, const char *what)
{
    char why[ERRMSG_LEN];
    if (!position_is_ok(p, r, why, sizeof why)) {
        Setup s;
        char fen[FEN_MAX];
        position_to_setup(p, &s);
        setup_to_fen(&s, FEN_CASTLING_XFEN, fen, sizeof fen);
        fail_msg("%s (%s, %s rules): refused: %s", what, fen,
                 r ? turn_rules_name(r->turns) : "unknown", why);
    }
    accepted++;
}

static void must_refuse(const Position *p, const Rules *r, const char *says, const char *what)
{
    char why[ERRMSG_LEN] = "";
    if (position_is_ok(p, r, why, sizeof why))
        fail_msg("%s: accepted", what);
    if (!strstr(why, says))
        fail_msg("%s: refused with \"%s\", which does not say \"%s\"", what, why, says);
}

static Position from_fen(const char *variant, const Rules *r, const char *fen)
{
    Setup s;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, variant_by_name(variant), r, fen, err, sizeof err) != 0)
        fail_msg("%s: %s", fen, err);
    Position p;
    position_from_setup(&p, &s);
    return p;
}

/* ---- real positions ---- */

static void read_rules(const EpdEntry *e, Rules *r)
{
    *r = SINGLE;
    if (e->turns[0] && !turn_rules_parse(e->turns, &r->turns))
        fail_msg("line %d: turn rules '%s'", e->line, e->turns);
    if (e->ep_rule[0] && !ep_rule_parse(e->ep_rule, &r->ep))
        fail_msg("line %d: en passant rule '%s'", e->line, e->ep_rule);
}

/* Every position of a perft file, and every position one turn from it. */
static void accept_file(const char *path, const char *default_variant)
{
    EpdEntry *e;
    int n = epd_read(path, &e);
    assert_true(n > 0);
    TurnList turns = { 0 };
    for (int i = 0; i < n; i++) {
        Rules r;
        read_rules(&e[i], &r);
        Position p = from_fen(e[i].variant[0] ? e[i].variant : default_variant, &r, e[i].fen);
        must_accept(&p, &r, e[i].fen);
        assert_true(position_turns(&p, &r, &turns));
        for (size_t k = 0; k < turns.n; k += 1 + turns.n / 40) {
            Position q;
            position_make_turn(&p, &r, &turns.v[k], &q);
            must_accept(&q, &r, e[i].fen);
        }
    }
    turn_list_free(&turns);
    free(e);
}

static void perft_files(void **state)
{
    (void)state;
    accept_file("standard.epd", "chess");
    accept_file("chess960.epd", "chess960");
    accept_file("chess960_startpos.epd", "chess960");
    accept_file("chess960_tricky.epd", "chess960");
    accept_file("capablanca.epd", "capablanca");
    accept_file(CARRERA_CONFIGS "/marseillais.epd", "chess");
    printf("%ld positions accepted\n", accepted);
}

static bool has_kind(const Turn *t, int kind)
{
    for (int i = 0; i < t->n; i++)
        if (move_kind(t->m[i]) == kind)
            return true;
    return false;
}

/* A random turn, castling or en passant with a third of the chances when there is one: they
 * are what a random game would rarely play and what the rights and en passant checks look at. */
static const Turn *pick(const TurnList *l, Rng *rng)
{
    if (rng_below(rng, 3) == 0) {
        size_t special[64], n = 0;
        for (size_t i = 0; i < l->n && n < 64; i++)
            if (has_kind(&l->v[i], MOVE_CASTLING) || has_kind(&l->v[i], MOVE_EN_PASSANT))
                special[n++] = i;
        if (n)
            return &l->v[special[rng_below(rng, n)]];
    }
    return &l->v[rng_below(rng, l->n)];
}

/* One random game under r from s: every position between turns accepted under r, every one
 * after a first movement accepted within a turn, null moves under single movements. */
static int random_game(const Setup *s, const Rules *r, Rng *rng, int max_turns)
{
    Position p;
    position_from_setup(&p, s);
    TurnList turns = { 0 };
    int played = 0;
    must_accept(&p, r, "start");
    for (; played < max_turns; played++) {
        GameEnd end = position_game_end(&p, r);
        if (end == GAME_KING_CAPTURED) {
            /* Galvin's game goes on without a king; no other rule set allows that */
            must_accept(&p, r, "king captured");
            must_refuse(&p, &SINGLE, "has no king", "a captured king under single movements");
            kings_captured++;
        }
        if (end != GAME_ON)
            break;
        assert_true(position_turns(&p, r, &turns));
        const Turn *t = pick(&turns, rng);
        if (t->n == 2) {
            Position mid;
            position_make(&p, t->m[0], &mid);
            must_accept(&mid, NULL, "within a turn");
        }
        if (r->turns == TURNS_SINGLE && !position_in_check(&p)) {
            Position null;
            position_make_null(&p, &null);
            must_accept(&null, r, "after a null move");
        }
        position_make_turn(&p, r, t, &p);
        must_accept(&p, r, "after a turn");
        must_accept(&p, NULL, "after a turn, rules unknown");
    }
    turn_list_free(&turns);
    return played;
}

static void random_games(void **state)
{
    (void)state;
    int nvariants;
    const Variant *const *variants = variant_all(&nvariants);
    Rng rng = rng_new(20240607);
    long turns = 0;
    for (int v = 0; v < nvariants; v++)
        for (size_t r = 0; r < N_RULES; r++)
            for (int game = 0; game < 3; game++) {
                Setup s;
                if (variants[v]->random_array && game > 0)
                    setup_random(&s, variants[v], rng_next(&rng));
                else
                    setup_start(&s, variants[v]);
                turns += random_game(&s, &ALL_RULES[r], &rng, 60);
            }
    printf("%ld turns played, %ld positions accepted, %ld kings captured\n", turns, accepted,
           kings_captured);
    assert_true(turns > 5000);
    assert_true(kings_captured > 0);
}

/* ---- corrupted positions ---- */

/* Runs the statements with b and c the board and castling data of p's size, and BBT their
 * bitboard type; the key recomputed afterwards unless `keep_key`, so that the corruption is
 * the only one. */
#define ON_BOARD(p, keep_key, ...)                                                                 \
    do {                                                                                           \
        if ((p)->variant->files == 10) {                                                           \
            typedef u128 BBT;                                                                      \
            Board80 *b = &(p)->u.b10.board;                                                        \
            Castling80 *c = &(p)->u.b10.castling;                                                  \
            (void)c;                                                                               \
            (void)sizeof(BBT);                                                                     \
            __VA_ARGS__;                                                                           \
            if (!(keep_key))                                                                       \
                b->key = position_key_slow(p);                                                     \
        } else {                                                                                   \
            typedef uint64_t BBT;                                                                  \
            Board64 *b = &(p)->u.b8.board;                                                         \
            Castling64 *c = &(p)->u.b8.castling;                                                   \
            (void)c;                                                                               \
            (void)sizeof(BBT);                                                                     \
            __VA_ARGS__;                                                                           \
            if (!(keep_key))                                                                       \
                b->key = position_key_slow(p);                                                     \
        }                                                                                          \
    } while (0)

static int sq(const Position *p, const char *name)
{
    return (name[1] - '1') * p->variant->files + (name[0] - 'a');
}

/* Moves the piece on `from` to the empty square `to` on every bitboard and in the mailbox. */
#define SHIFT(p, from, to)                                                                         \
    ON_BOARD(p, false, {                                                                           \
        const int f_ = sq(p, from), t_ = sq(p, to);                                                \
        const Piece pc_ = b->sq[f_];                                                               \
        const BBT fb_ = (BBT)1 << f_, tb_ = (BBT)1 << t_;                                          \
        b->sq[t_] = pc_;                                                                           \
        b->sq[f_] = NO_PIECE;                                                                      \
        b->by_type[piece_type(pc_)] ^= fb_ | tb_;                                                  \
        b->by_type[NO_TYPE] ^= fb_ | tb_;                                                          \
        b->by_color[piece_color(pc_)] ^= fb_ | tb_;                                                \
    })

/* The corruptions of one start position of a board size: every one refused, the original
 * accepted. */
static void corrupt_start(const char *variant)
{
    const Variant *v = variant_by_name(variant);
    Setup s;
    setup_start(&s, v);
    Position start, p;
    position_from_setup(&start, &s);
    must_accept(&start, &SINGLE, variant);
    const int e2 = sq(&start, "e2"), e4 = sq(&start, "e4"), a1 = sq(&start, "a1");
    const int h = v->files - 1; /* the king's rook's file */
    char corner[3] = { (char)('a' + h), '1', '\0' };

    p = start; /* a pawn on two piece types' bitboards */
    ON_BOARD(&p, false, b->by_type[KNIGHT] |= (BBT)1 << e2);
    must_refuse(&p, NULL, "two piece types' bitboards", "pawn also a knight");
    p = start; /* and on both colours' */
    ON_BOARD(&p, false, b->by_color[BLACK] |= (BBT)1 << e2);
    must_refuse(&p, NULL, "both colours' bitboards", "pawn also black");
    p = start; /* the occupancy without a piece */
    ON_BOARD(&p, false, b->by_type[NO_TYPE] ^= (BBT)1 << e2);
    must_refuse(&p, NULL, "occupancy", "occupancy without e2");
    p = start; /* a piece in the mailbox only */
    ON_BOARD(&p, false, b->sq[e4] = make_piece(WHITE, KNIGHT));
    must_refuse(&p, NULL, "e4 holds a White knight in the mailbox, but is empty", "ghost knight");
    p = start; /* the mailbox disagreeing on a piece's type */
    ON_BOARD(&p, false, b->sq[e2] = make_piece(WHITE, KNIGHT));
    must_refuse(&p, NULL, "but a White pawn on the bitboards", "pawn written as knight");
    p = start; /* a square holding no piece at all */
    ON_BOARD(&p, true, b->sq[e2] = 15);
    must_refuse(&p, NULL, "which is no piece", "piece 15");
    if (v->files == 10) { /* a bit beyond the last square (64 bits have none) */
        p = start;
        ON_BOARD(&p, true, b->by_type[PAWN] |= (BBT)1 << (sizeof(BBT) * 8 - 1));
        must_refuse(&p, NULL, "bitboard has bits beyond the board", "bit 127");
    }
    p = start; /* the key */
    ON_BOARD(&p, true, b->key ^= 1);
    must_refuse(&p, NULL, "Zobrist key", "key off by one bit");
    p = start; /* a move whose key was not updated */
    SHIFT(&p, "e2", "e4");
    must_accept(&p, NULL, "e2-e4 by hand, key recomputed");
    ON_BOARD(&p, true, b->key = position_key128(&start));
    must_refuse(&p, NULL, "Zobrist key", "e2-e4 with the old key");
    p = start; /* the king's recorded square */
    ON_BOARD(&p, false, b->king[WHITE] = (uint8_t)e2);
    must_refuse(&p, NULL, "White king stands on", "king square");
    p = start; /* side to move */
    ON_BOARD(&p, true, b->side = 2);
    must_refuse(&p, NULL, "neither White nor Black", "side 2");
    p = start; /* a second white king on e4 */
    ON_BOARD(&p, false, b->sq[e4] = make_piece(WHITE, KING); b->by_type[KING] |= (BBT)1 << e4;
             b->by_type[NO_TYPE] |= (BBT)1 << e4; b->by_color[WHITE] |= (BBT)1 << e4);
    must_refuse(&p, NULL, "White has 2 kings", "two kings");
    p = start; /* no white king: only Galvin's game */
    {
        const int k = sq(&p, v->files == 10 ? "f1" : "e1");
        ON_BOARD(&p, false, b->sq[k] = NO_PIECE; b->by_type[KING] ^= (BBT)1 << k;
                 b->by_type[NO_TYPE] ^= (BBT)1 << k; b->by_color[WHITE] ^= (BBT)1 << k;
                 b->rights = 12);
    }
    must_accept(&p, NULL, "kingless, rules unknown");
    must_accept(&p, &ALL_RULES[5], "kingless, Galvin");
    must_refuse(&p, &SINGLE, "White has no king", "kingless");
    p = start; /* a pawn on the back rank */
    SHIFT(&p, "b1", "c3");
    SHIFT(&p, "e2", "b1");
    must_refuse(&p, NULL, "b1, a back rank", "pawn on b1");
    p = start; /* a piece the variant does not have */
    ON_BOARD(&p, false, b->sq[a1] = make_piece(WHITE, ARCHBISHOP); b->by_type[ROOK] ^= (BBT)1;
             b->by_type[ARCHBISHOP] |= (BBT)1);
    if (v->files == 8)
        must_refuse(&p, NULL, "a piece chess does not have", "archbishop in chess");
    else
        must_refuse(&p, NULL, "castling right has no White rook on a1", "archbishop for a1 rook");
    p = start; /* a castling right without its rook */
    SHIFT(&p, corner, "e4");
    must_refuse(&p, NULL, "king-side castling right has no White rook", "right without rook");
    p = start; /* and without its king */
    SHIFT(&p, v->files == 10 ? "f1" : "e1", "e4");
    ON_BOARD(&p, false, b->king[WHITE] = (uint8_t)e4);
    must_refuse(&p, NULL, "castling right has no White king", "right without king");
    p = start; /* rights beyond the four */
    ON_BOARD(&p, true, b->rights |= 16);
    must_refuse(&p, NULL, "beyond the four rights", "right 16");
    p = start; /* castling data that do not fit the variant */
    ON_BOARD(&p, false, c->king_to[1]++);
    must_refuse(&p, NULL, "castles to", "king's destination");
    p = start;
    ON_BOARD(&p, false, c->keep[a1] = 15);
    must_refuse(&p, NULL, "would survive a move", "keep of a1");
    p = start;
    ON_BOARD(&p, false, c->empty[0] = 0);
    must_refuse(&p, NULL, "squares to cross or clear", "empty squares of O-O-O");
    p = start; /* en passant without a double step */
    ON_BOARD(&p, false, b->ep = (BBT)1 << sq(&p, "e6"));
    must_refuse(&p, NULL, "has no Black pawn on e5", "ep e6 at the start");
    p = start;
    ON_BOARD(&p, false, b->ep = (BBT)1 << sq(&p, "e3"));
    must_refuse(&p, NULL, "not on rank 6 with White to move", "ep e3, White to move");
    p = start;
    ON_BOARD(&p, true, b->fullmove = 0);
    must_refuse(&p, NULL, "fullmove number 0", "fullmove 0");
}

static void corrupted_8x8(void **state)
{
    (void)state;
    corrupt_start("chess");
}

static void corrupted_10x8(void **state)
{
    (void)state;
    corrupt_start("capablanca");
}

/* What depends on the rules and on the array: the same position accepted or refused. */
static void rule_dependent(void **state)
{
    (void)state;
    const Rules marseillais = ALL_RULES[1], modern = ALL_RULES[2], galvin = ALL_RULES[5];
    /* Two en passant squares: classic Marseillais only. */
    const char *two = "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6,e6 0 3";
    Position p = from_fen("chess", &marseillais, two);
    must_accept(&p, &marseillais, "two en passant squares");
    must_accept(&p, NULL, "two en passant squares, rules unknown");
    must_refuse(&p, &modern, "2 en passant squares, at most 1", "modern en passant");
    must_refuse(&p, &SINGLE, "2 en passant squares, at most 1", "single movements");
    /* A passed pawn's start square occupied by the turn's second movement. */
    p = from_fen("chess", &SINGLE, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    must_accept(&p, &SINGLE, "d6 en passant");
    p = from_fen("chess", &marseillais,
                 "rnbqkbnr/pppnpppp/8/3pP3/8/8/PPPP1PPP/R1BQKBNR w KQkq d6 "
                 "0 3");
    must_accept(&p, &marseillais, "d7 refilled after d7-d5");
    must_refuse(&p, &SINGLE, "where the pawn came from, is not empty", "d7 refilled, single");
    /* The side not to move in check: Galvin's game only. */
    p = from_fen("chess", &galvin, "4k3/8/8/8/8/8/4q3/4K3 b - - 0 1");
    must_accept(&p, &galvin, "king en prise");
    must_accept(&p, NULL, "king en prise, rules unknown");
    must_refuse(&p, &SINGLE, "White king on e1 is in check with Black to move", "in check");
    /* Chess960 castling from any array, but with the rook on its side of the king. */
    p = from_fen("chess960", &SINGLE,
                 "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf "
                 "- 2 9");
    must_accept(&p, &SINGLE, "chess960 array");
    ON_BOARD(&p, false, c->rook_from[1] = (uint8_t)sq(&p, "a1"));
    must_refuse(&p, NULL, "no White rook on a1", "960 rook moved to a1 in the data");
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corrupted_8x8),
        cmocka_unit_test(corrupted_10x8),
        cmocka_unit_test(rule_dependent),
        cmocka_unit_test(perft_files),
        cmocka_unit_test(random_games),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

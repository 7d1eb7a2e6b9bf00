/* SPDX-License-Identifier: MIT */
/* Tests of the reference move generator (core/perft/perft_ref.c): attack detection on the 10x8
 * board, the bookkeeping of ref_make, and perft counts against every position of the files in
 * tests/data/perft.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"
#include "epd.h"
#include "errmsg.h"
#include "perft_ref.h"

/* Each position is checked at its deepest published depth with at most this many nodes, so the
 * whole test stays within some 30 s on one core. A position with no depth that small (one in
 * standard.epd has only D5) is checked at its shallowest depth. */
#ifndef NODE_LIMIT
#define NODE_LIMIT 200000
#endif

/* ---- Building positions by hand, without the FEN reader ---- */

static void empty_setup(Setup *s, const char *variant)
{
    memset(s, 0, sizeof *s);
    s->variant = variant_by_name(variant);
    assert_non_null(s->variant);
    s->side = WHITE;
    s->castle_rook[0][0] = s->castle_rook[0][1] = NO_SQUARE;
    s->castle_rook[1][0] = s->castle_rook[1][1] = NO_SQUARE;
    s->ep[0] = s->ep[1] = NO_SQUARE;
    s->fullmove = 1;
}

/* "e4" -> square number on the setup's board. */
static int sq(const Setup *s, const char *name)
{
    return setup_square(s, name[0] - 'a', atoi(name + 1) - 1);
}

static void put(Setup *s, const char *name, int color, PieceType t)
{
    s->board[sq(s, name)] = make_piece(color, t);
}

static bool attacked(const Setup *s, const char *name, int by)
{
    return mailbox_attacked(s, sq(s, name), by);
}

static void from_fen(Setup *s, const char *variant, const char *fen)
{
    char err[ERRMSG_LEN] = "";
    const Variant *v = variant_by_name(variant);
    assert_non_null(v);
    if (setup_from_fen(s, v, fen, err, sizeof err) != 0)
        fail_msg("setup_from_fen(%s, \"%s\"): %s", variant, fen, err);
}

/* ---- Attacks on 10x8 ---- */

static void archbishop_leaps_over_blockers(void **state)
{
    (void)state;
    Setup s;
    empty_setup(&s, "capablanca");
    put(&s, "d5", BLACK, ARCHBISHOP);
    /* Wall the archbishop in: its knight jumps still reach, its slides do not. */
    const char *ring[] = { "c4", "c5", "c6", "d4", "d6", "e4", "e5", "e6" };
    for (int i = 0; i < 8; i++)
        put(&s, ring[i], WHITE, PAWN);
    const char *leaps[] = { "b4", "b6", "c3", "c7", "e3", "e7", "f4", "f6" };
    for (int i = 0; i < 8; i++)
        assert_true(attacked(&s, leaps[i], BLACK));
    assert_true(attacked(&s, "e6", BLACK));  /* the blocker itself */
    assert_false(attacked(&s, "f7", BLACK)); /* behind the e6 blocker */
    assert_false(attacked(&s, "d7", BLACK)); /* no rook moves */
    assert_false(attacked(&s, "f5", BLACK));
}

static void archbishop_slides_until_blocked(void **state)
{
    (void)state;
    Setup s;
    empty_setup(&s, "capablanca");
    put(&s, "c1", WHITE, ARCHBISHOP);
    put(&s, "g5", BLACK, KNIGHT);
    assert_true(attacked(&s, "d2", WHITE));
    assert_true(attacked(&s, "g5", WHITE));
    assert_false(attacked(&s, "h6", WHITE));
    assert_true(attacked(&s, "a3", WHITE));
    assert_false(attacked(&s, "c2", WHITE));
    assert_false(attacked(&s, "d1", WHITE));
}

static void chancellor_on_the_j_file(void **state)
{
    (void)state;
    Setup s;
    empty_setup(&s, "capablanca");
    put(&s, "j4", WHITE, CHANCELLOR);
    put(&s, "j6", BLACK, PAWN);
    put(&s, "e4", BLACK, PAWN);
    const char *leaps[] = { "h3", "h5", "i2", "i6" };
    for (int i = 0; i < 4; i++)
        assert_true(attacked(&s, leaps[i], WHITE));
    assert_true(attacked(&s, "j5", WHITE));
    assert_true(attacked(&s, "j6", WHITE));
    assert_false(attacked(&s, "j7", WHITE)); /* behind the pawn */
    assert_true(attacked(&s, "j1", WHITE));
    assert_true(attacked(&s, "f4", WHITE));
    assert_true(attacked(&s, "e4", WHITE));
    assert_false(attacked(&s, "d4", WHITE));
    assert_false(attacked(&s, "i5", WHITE)); /* no bishop moves */
    /* Leaps off the edge must not wrap round to the a and b files. */
    const char *wrapped[] = { "a2", "a3", "a5", "a6", "b3", "b5", "a4", "b4" };
    for (int i = 0; i < 8; i++)
        assert_false(attacked(&s, wrapped[i], WHITE));
}

static void edge_pieces_do_not_wrap(void **state)
{
    (void)state;
    Setup s;
    empty_setup(&s, "capablanca");
    put(&s, "j2", WHITE, PAWN);
    put(&s, "a6", BLACK, PAWN);
    put(&s, "a1", WHITE, BISHOP);
    assert_true(attacked(&s, "i3", WHITE));
    assert_false(attacked(&s, "a4", WHITE)); /* j2 + one rank + one file, wrapped */
    assert_false(attacked(&s, "a3", WHITE));
    assert_true(attacked(&s, "b5", BLACK));
    assert_false(attacked(&s, "j4", BLACK));
    assert_false(attacked(&s, "a5", BLACK));
    assert_true(attacked(&s, "h8", WHITE));  /* a1-h8 diagonal on a 10-file board */
    assert_false(attacked(&s, "j2", WHITE)); /* a1 - 1 file + 1 rank would wrap to j2 */
    assert_false(attacked(&s, "j1", WHITE));
}

static void check_by_compound_pieces(void **state)
{
    (void)state;
    Setup s;
    empty_setup(&s, "capablanca");
    put(&s, "f1", WHITE, KING);
    put(&s, "f8", BLACK, KING);
    assert_false(mailbox_in_check(&s, WHITE));
    put(&s, "e3", BLACK, ARCHBISHOP); /* knight jump e3-f1 */
    assert_true(mailbox_in_check(&s, WHITE));
    s.board[sq(&s, "e3")] = NO_PIECE;
    put(&s, "g3", BLACK, CHANCELLOR); /* knight jump g3-f1 */
    assert_true(mailbox_in_check(&s, WHITE));
    s.board[sq(&s, "g3")] = NO_PIECE;
    put(&s, "f5", BLACK, CHANCELLOR); /* file f, open */
    assert_true(mailbox_in_check(&s, WHITE));
    put(&s, "f3", WHITE, PAWN); /* blocked */
    assert_false(mailbox_in_check(&s, WHITE));
    put(&s, "j5", BLACK, ARCHBISHOP); /* diagonal j5-f1 */
    assert_true(mailbox_in_check(&s, WHITE));
    put(&s, "h3", WHITE, KNIGHT); /* blocked */
    assert_false(mailbox_in_check(&s, WHITE));
    assert_false(mailbox_in_check(&s, BLACK));
    s.board[sq(&s, "f8")] = NO_PIECE; /* no king, no check */
    put(&s, "e8", WHITE, QUEEN);
    assert_false(mailbox_in_check(&s, BLACK));
}

/* ---- ref_make bookkeeping ---- */

static void make_updates_state(void **state)
{
    (void)state;
    Setup s, a, b;
    from_fen(&s, "capablanca", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 5 7");
    ref_make(&s, move_new(sq(&s, "e2"), sq(&s, "e4"), MOVE_NORMAL, NO_TYPE), &a);
    assert_int_equal(a.ep[0], sq(&s, "e3"));
    assert_int_equal(a.halfmove, 0);
    assert_int_equal(a.fullmove, 7);
    assert_int_equal(a.side, BLACK);
    ref_make(&a, move_new(sq(&s, "j8"), sq(&s, "i8"), MOVE_NORMAL, NO_TYPE), &b);
    assert_int_equal(b.ep[0], NO_SQUARE);
    assert_int_equal(b.halfmove, 1);
    assert_int_equal(b.fullmove, 8);
    assert_int_equal(b.castle_rook[BLACK][1], NO_SQUARE);
    assert_int_equal(b.castle_rook[BLACK][0], sq(&s, "a8"));
    assert_int_equal(b.castle_rook[WHITE][1], sq(&s, "j1"));
    /* Castling king side on 10 files: king f1 to i1, rook j1 to h1, both rights gone. */
    ref_make(&b, move_new(sq(&s, "f1"), sq(&s, "j1"), MOVE_CASTLING, NO_TYPE), &a);
    assert_int_equal(a.board[sq(&s, "i1")], make_piece(WHITE, KING));
    assert_int_equal(a.board[sq(&s, "h1")], make_piece(WHITE, ROOK));
    assert_int_equal(a.board[sq(&s, "f1")], NO_PIECE);
    assert_int_equal(a.board[sq(&s, "j1")], NO_PIECE);
    assert_int_equal(a.castle_rook[WHITE][0], NO_SQUARE);
    assert_int_equal(a.castle_rook[WHITE][1], NO_SQUARE);
    assert_int_equal(a.halfmove, 2);
    assert_ptr_equal(a.variant, s.variant);
}

static void make_swaps_king_and_rook(void **state)
{
    (void)state;
    Setup s, a;
    from_fen(&s, "chess960", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    ref_make(&s, move_new(sq(&s, "f1"), sq(&s, "g1"), MOVE_CASTLING, NO_TYPE), &a);
    assert_int_equal(a.board[sq(&s, "g1")], make_piece(WHITE, KING));
    assert_int_equal(a.board[sq(&s, "f1")], make_piece(WHITE, ROOK));
}

static void rook_capture_removes_right(void **state)
{
    (void)state;
    Setup s, a;
    from_fen(&s, "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ref_make(&s, move_new(sq(&s, "a1"), sq(&s, "a8"), MOVE_NORMAL, NO_TYPE), &a);
    assert_int_equal(a.castle_rook[WHITE][0], NO_SQUARE);
    assert_int_equal(a.castle_rook[BLACK][0], NO_SQUARE);
    assert_int_equal(a.castle_rook[WHITE][1], sq(&s, "h1"));
    assert_int_equal(a.castle_rook[BLACK][1], sq(&s, "h8"));
    assert_int_equal(a.halfmove, 0);
}

static void en_passant_and_promotion(void **state)
{
    (void)state;
    Setup s, a;
    Move moves[MAX_MOVES];
    from_fen(&s, "chess", "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1");
    int n = ref_legal_moves(&s, moves);
    int ep = 0, promo = 0;
    for (int i = 0; i < n; i++) {
        if (move_kind(moves[i]) == MOVE_EN_PASSANT)
            ep++;
        if (move_kind(moves[i]) == MOVE_PROMOTION)
            promo++;
    }
    assert_int_equal(ep, 1);
    assert_int_equal(promo, 4);
    ref_make(&s, move_new(sq(&s, "e5"), sq(&s, "d6"), MOVE_EN_PASSANT, NO_TYPE), &a);
    assert_int_equal(a.board[sq(&s, "d5")], NO_PIECE);
    assert_int_equal(a.board[sq(&s, "d6")], make_piece(WHITE, PAWN));
    ref_make(&s, move_new(sq(&s, "b7"), sq(&s, "b8"), MOVE_PROMOTION, KNIGHT), &a);
    assert_int_equal(a.board[sq(&s, "b8")], make_piece(WHITE, KNIGHT));
    /* Capablanca promotes to six pieces. */
    from_fen(&s, "capablanca", "5k4/1P8/10/10/10/10/10/5K4 w - - 0 1");
    assert_int_equal(ref_legal_moves(&s, moves), 5 + 6);
}

/* ---- Perft against the reference files ---- */

static int chosen_depth(const EpdEntry *e)
{
    for (int d = e->max_depth; d >= 1; d--)
        if (e->nodes[d] != 0 && e->nodes[d] <= NODE_LIMIT)
            return d;
    for (int d = 1; d <= e->max_depth; d++)
        if (e->nodes[d] != 0)
            return d;
    return 0;
}

static void check_file(const char *file, const char *default_variant)
{
    EpdEntry *entries;
    int n = epd_read(file, &entries);
    if (n <= 0)
        fail_msg("cannot read %s (or it is empty)", file);
    int failures = 0;
    uint64_t total = 0;
    double start = monotonic_seconds();
    for (int i = 0; i < n; i++) {
        const EpdEntry *e = &entries[i];
        const char *name = e->variant[0] ? e->variant : default_variant;
        const Variant *v = variant_by_name(name);
        Setup s;
        char err[ERRMSG_LEN] = "";
        int d = chosen_depth(e);
        if (!v || d == 0 || setup_from_fen(&s, v, e->fen, err, sizeof err) != 0) {
            print_error("%s:%d: %s: %s\n", file, e->line,
                        !v       ? "unknown variant"
                        : d == 0 ? "no depth"
                                 : err,
                        !v ? name : e->fen);
            failures++;
            continue;
        }
        uint64_t got = perft_ref(&s, d);
        total += got;
        if (got != e->nodes[d]) {
            print_error("%s:%d: %s (%s) D%d: expected %llu, got %llu\n", file, e->line, e->fen,
                        name, d, (unsigned long long)e->nodes[d], (unsigned long long)got);
            failures++;
        }
    }
    double secs = monotonic_seconds() - start;
    print_message("%s: %d positions, %llu leaf nodes in %.2f s (%.2f M leaves/s)\n", file, n,
                  (unsigned long long)total, secs, secs > 0 ? (double)total / secs * 1e-6 : 0.0);
    free(entries);
    assert_int_equal(failures, 0);
}

static void perft_standard(void **state)
{
    (void)state;
    check_file("standard.epd", "chess");
}
static void perft_chess960(void **state)
{
    (void)state;
    check_file("chess960.epd", "chess960");
}
static void perft_chess960_startpos(void **state)
{
    (void)state;
    check_file("chess960_startpos.epd", "chess960");
}
static void perft_chess960_tricky(void **state)
{
    (void)state;
    check_file("chess960_tricky.epd", "chess960");
}
static void perft_capablanca(void **state)
{
    (void)state;
    check_file("capablanca.epd", "capablanca");
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(archbishop_leaps_over_blockers),
        cmocka_unit_test(archbishop_slides_until_blocked),
        cmocka_unit_test(chancellor_on_the_j_file),
        cmocka_unit_test(edge_pieces_do_not_wrap),
        cmocka_unit_test(check_by_compound_pieces),
        cmocka_unit_test(make_updates_state),
        cmocka_unit_test(make_swaps_king_and_rook),
        cmocka_unit_test(rook_capture_removes_right),
        cmocka_unit_test(en_passant_and_promotion),
        cmocka_unit_test(perft_standard),
        cmocka_unit_test(perft_chess960),
        cmocka_unit_test(perft_chess960_startpos),
        cmocka_unit_test(perft_chess960_tricky),
        cmocka_unit_test(perft_capablanca),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Tests of the fast core (core/rules/position.c, board.inc): perft against every position of the
 * reference files, the fast generator against the reference generator on seeded random
 * positions of both board sizes, and the incremental Zobrist key against a recomputed one.
 *
 * Usage: test_perft [MAX_NODES]. Each reference position is checked at every published depth
 * whose count is at most MAX_NODES (default 3,000,000; the Capablanca-family file 30,000,000 so
 * that its start positions are checked to depth 5). The `slow` CTest entry passes a larger
 * limit. */
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
#include "perft_ref.h"
#include "position.h"
#include "rng.h"

static uint64_t max_nodes = 3000000;

/* The quiet checks the random positions held, so that their comparison is known to have had
 * something to compare. */
static int quiet_checks_seen;

static void check_file(const char *file, const char *default_variant, uint64_t limit)
{
    EpdEntry *e;
    int n = epd_read(file, &e);
    assert_true(n > 0);
    uint64_t checked = 0;
    for (int i = 0; i < n; i++) {
        const Variant *v = variant_by_name(e[i].variant[0] ? e[i].variant : default_variant);
        assert_non_null(v);
        Setup s;
        char err[ERRMSG_LEN];
        if (setup_from_fen(&s, v, e[i].fen, err, sizeof err) != 0)
            fail_msg("%s:%d: %s", file, e[i].line, err);
        Position p;
        position_from_setup(&p, &s);
        for (int d = 1; d <= e[i].max_depth; d++) {
            if (e[i].nodes[d] == 0 || e[i].nodes[d] > limit)
                continue;
            uint64_t got = perft(&p, d);
            if (got != e[i].nodes[d])
                fail_msg("%s:%d: %s depth %d: %llu, expected %llu", file, e[i].line, e[i].fen, d,
                         (unsigned long long)got, (unsigned long long)e[i].nodes[d]);
            checked += got;
        }
    }
    printf("%s: %d positions, %llu nodes checked\n", file, n, (unsigned long long)checked);
    free(e);
}

static void perft_standard(void **state)
{
    (void)state;
    check_file("standard.epd", "chess", max_nodes);
}
static void perft_chess960(void **state)
{
    (void)state;
    check_file("chess960.epd", "chess960", max_nodes);
}
static void perft_chess960_startpos(void **state)
{
    (void)state;
    check_file("chess960_startpos.epd", "chess960", max_nodes);
}
static void perft_chess960_tricky(void **state)
{
    (void)state;
    check_file("chess960_tricky.epd", "chess960", max_nodes);
}
static void perft_capablanca(void **state)
{
    (void)state;
    check_file("capablanca.epd", "capablanca", max_nodes * 10);
}

/* ---- fast against reference on random positions ---- */

static int compare_moves(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return (x > y) - (x < y);
}

static void fen_of(const Position *p, char *fen)
{
    Setup s;
    position_to_setup(p, &s);
    setup_to_fen(&s, FEN_CASTLING_SHREDDER, fen, FEN_MAX);
}

/* A random legal move; pawn moves are preferred half of the time, so that the games reach
 * double steps next to enemy pawns (en passant), promotions and open files for castling rooks. */
static Move random_move(const Position *p, Rng *rng)
{
    Move moves[MAX_MOVES], pawn_moves[MAX_MOVES];
    int n = position_legal_moves(p, moves), np = 0;
    if (n == 0)
        return MOVE_NONE;
    Setup s;
    position_to_setup(p, &s);
    for (int i = 0; i < n; i++)
        if (piece_type(s.board[move_from(moves[i])]) == PAWN)
            pawn_moves[np++] = moves[i];
    if (np > 0 && rng_below(rng, 2) == 0)
        return pawn_moves[rng_below(rng, (uint64_t)np)];
    return moves[rng_below(rng, (uint64_t)n)];
}

/* The position after a random game of up to max_plies plies from the variant's start (a random
 * array for the random-array variants); the game stops early when it is over. */
static void random_position(const Variant *v, Rng *rng, int max_plies, Position *p)
{
    Setup s;
    if (v->random_array)
        setup_random(&s, v, rng_next(rng));
    else
        setup_start(&s, v);
    position_from_setup(p, &s);
    int plies = (int)rng_below(rng, (uint64_t)max_plies + 1);
    for (int i = 0; i < plies; i++) {
        Move m = random_move(p, rng);
        if (m == MOVE_NONE)
            break;
        position_make(p, m, p);
        if (position_key128(p) != position_key_slow(p)) {
            char fen[FEN_MAX];
            fen_of(p, fen);
            fail_msg("incremental key differs from the recomputed one after %d plies: %s", i + 1,
                     fen);
        }
    }
}

/* Same legal moves (as sets) in both generators, the same perft counts to depth 3, and the
 * position survives the trip through Setup and FEN unchanged. */
static void compare_with_reference(const Position *p, int depth)
{
    char fen[FEN_MAX];
    fen_of(p, fen);
    Setup s;
    position_to_setup(p, &s);

    Move fast[MAX_MOVES], ref[MAX_MOVES], tactical[MAX_MOVES];
    int nf = position_legal_moves(p, fast), nr = ref_legal_moves(&s, ref);
    /* the quiescence's moves: the captures, en passant and promotions of the full list, in its
     * order; a capture is told by the reference's board */
    int nt = position_tactical_moves(p, tactical), kt = 0;
    for (int i = 0; i < nf; i++) {
        int kind = move_kind(fast[i]);
        Piece victim = s.board[move_to(fast[i])];
        bool takes = kind == MOVE_EN_PASSANT || kind == MOVE_PROMOTION ||
                     (kind != MOVE_CASTLING && victim != NO_PIECE && piece_color(victim) != s.side);
        if (takes && (kt >= nt || tactical[kt++] != fast[i]))
            fail_msg("%s: the tactical moves differ from the full list's at move %d", fen, i);
    }
    if (kt != nt)
        fail_msg("%s: %d tactical moves, the full list has %d", fen, nt, kt);
    /* the quiet moves that give check: those of the full list, in its order, whose child is in
     * check and that are not tactical */
    Move checks[MAX_MOVES];
    int nc = position_quiet_checks(p, checks), kc = 0;
    for (int i = 0; i < nf; i++) {
        int kind = move_kind(fast[i]);
        Piece victim = s.board[move_to(fast[i])];
        if (kind == MOVE_EN_PASSANT || kind == MOVE_PROMOTION ||
            (kind != MOVE_CASTLING && victim != NO_PIECE))
            continue;
        Position child;
        position_make(p, fast[i], &child);
        if (position_in_check(&child) && (kc >= nc || checks[kc++] != fast[i]))
            fail_msg("%s: the quiet checks differ from the full list's at move %d", fen, i);
    }
    if (kc != nc)
        fail_msg("%s: %d quiet checks, the full list has %d", fen, nc, kc);
    quiet_checks_seen += nc;
    qsort(fast, (size_t)nf, sizeof *fast, compare_moves);
    qsort(ref, (size_t)nr, sizeof *ref, compare_moves);
    if (nf != nr || memcmp(fast, ref, (size_t)nf * sizeof *fast) != 0)
        fail_msg("%s: fast generator has %d moves, reference %d", fen, nf, nr);
    if (position_in_check(p) != mailbox_in_check(&s, s.side))
        fail_msg("%s: check status differs", fen);

    for (int d = 2; d <= depth; d++) {
        uint64_t a = perft(p, d), b = perft_ref(&s, d);
        if (a != b)
            fail_msg("%s: perft %d is %llu, reference %llu", fen, d, (unsigned long long)a,
                     (unsigned long long)b);
    }

    Setup back;
    char err[ERRMSG_LEN];
    if (setup_from_fen(&back, s.variant, fen, err, sizeof err) != 0)
        fail_msg("%s: written FEN does not read back: %s", fen, err);
    Position q;
    position_from_setup(&q, &back);
    assert_true(position_key128(&q) == position_key128(p));
}

static void random_positions(const char *const *variants, int nvariants, int count, uint64_t seed)
{
    Rng rng = rng_new(seed);
    quiet_checks_seen = 0;
    for (int i = 0; i < count; i++) {
        const Variant *v = variant_by_name(variants[i % nvariants]);
        assert_non_null(v);
        Position p;
        /* Long games too, so that promotions and bare-king endings come up. */
        random_position(v, &rng, i % 4 == 3 ? 300 : 80, &p);
        compare_with_reference(&p, 3);
    }
    printf("%d random positions: %d quiet checks compared\n", count, quiet_checks_seen);
    assert_true(quiet_checks_seen > count / 10);
}

static void random_8x8(void **state)
{
    (void)state;
    static const char *const v[] = { "chess", "chess960" };
    random_positions(v, 2, 1000, 8);
}

static void random_10x8(void **state)
{
    (void)state;
    static const char *const v[] = { "capablanca", "gothic",  "embassy", "janus",
                                     "caparandom", "carrera", "bird" };
    random_positions(v, 7, 1000, 10);
}

/* position_make may write over its own input, and castling with a king or rook already on its
 * destination leaves both on the right squares. */
static void make_in_place_and_castling(void **state)
{
    (void)state;
    Setup s;
    char err[ERRMSG_LEN], fen[FEN_MAX];
    assert_int_equal(setup_from_fen(&s, variant_by_name("chess960"),
                                    "6k1/8/8/8/8/8/8/6KR w H - 0 1", err, sizeof err),
                     0);
    Position p;
    position_from_setup(&p, &s);
    Move moves[MAX_MOVES];
    int n = position_legal_moves(&p, moves);
    Move castle = MOVE_NONE;
    for (int i = 0; i < n; i++)
        if (move_kind(moves[i]) == MOVE_CASTLING)
            castle = moves[i];
    assert_true(castle != MOVE_NONE);
    position_make(&p, castle, &p);
    fen_of(&p, fen);
    assert_string_equal(fen, "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");
    assert_true(position_key128(&p) == position_key_slow(&p));
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        char *end;
        max_nodes = strtoull(argv[1], &end, 10);
        if (*end != '\0' || max_nodes == 0) {
            fprintf(stderr, "usage: %s [MAX_NODES]\n", argv[0]);
            return 2;
        }
    }
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(make_in_place_and_castling),
        cmocka_unit_test(perft_standard),
        cmocka_unit_test(perft_chess960),
        cmocka_unit_test(perft_chess960_startpos),
        cmocka_unit_test(perft_chess960_tricky),
        cmocka_unit_test(perft_capablanca),
        cmocka_unit_test(random_8x8),
        cmocka_unit_test(random_10x8),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

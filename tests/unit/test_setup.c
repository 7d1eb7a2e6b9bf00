/* SPDX-License-Identifier: MIT */
/* Tests of variants, FEN reading/writing (every rejection, round trips over tests/data/perft), the
 * numbered and random start arrays, and UCI move text. */
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
#include "move.h"
#include "setup.h"

static const Variant *variant(const char *name)
{
    const Variant *v = variant_by_name(name);
    if (!v)
        fail_msg("no variant %s", name);
    return v;
}

static void read_fen(Setup *s, const char *vname, const char *fen)
{
    char err[ERRMSG_LEN] = "";
    if (setup_from_fen(s, variant(vname), fen, err, sizeof err) != 0)
        fail_msg("%s \"%s\" rejected: %s", vname, fen, err);
}

static void write_fen(const Setup *s, FenCastling style, char out[FEN_MAX])
{
    setup_to_fen(s, style, out, FEN_MAX);
}

/* The reader must refuse fen with a message containing needle (and no error prefix). */
#define REJECTS(vname, fen, needle) check_rejects(vname, fen, needle, __LINE__)

static void check_rejects(const char *vname, const char *fen, const char *needle, int line)
{
    Setup s;
    char err[ERRMSG_LEN] = "";
    if (setup_from_fen(&s, variant(vname), fen, err, sizeof err) != -1)
        fail_msg("line %d: %s \"%s\" was accepted", line, vname, fen);
    if (!strstr(err, needle))
        fail_msg("line %d: message \"%s\" does not mention \"%s\"", line, err, needle);
    if (strstr(err, "error") || strchr(err, '\n'))
        fail_msg("line %d: message \"%s\" is not a plain sentence", line, err);
}

/* ---- Variants ---- */

static void test_variant_table(void **state)
{
    (void)state;
    int n;
    const Variant *const *all = variant_all(&n);
    assert_int_equal(n, 9);
    for (int i = 0; i < n; i++) {
        const Variant *v = all[i];
        assert_ptr_equal(variant_by_name(v->name), v);
        assert_true(v->files == 8 || v->files == 10);
        /* the rook lands beside the king, on the inside */
        for (int side = 0; side < 2 && !v->no_castling; side++)
            assert_int_equal(v->rook_to[side], v->king_to[side] + (side ? -1 : 1));
        /* Carrera's game promotes to the three pieces its sources name */
        assert_true(v->n_promotions >= 3 && v->n_promotions <= 6);
        for (int p = 0; p < v->n_promotions; p++)
            assert_true(variant_letter(v, v->promotions[p]) != '\0');
        assert_int_equal(variant_letter(v, KING), 'K');
        assert_int_equal(variant_letter(v, PAWN), 'P');
        Setup s;
        setup_start(&s, v);
        char fen[FEN_MAX];
        write_fen(&s, s.castling_text, fen);
        assert_string_equal(fen, v->start_fen);
        assert_int_equal(s.castling_text,
                         v->random_array ? FEN_CASTLING_SHREDDER : FEN_CASTLING_KQ);
    }
    assert_null(variant_by_name("shogi"));
    assert_null(variant_by_name(NULL));
    assert_int_equal(variant_letter(variant("chess"), ARCHBISHOP), '\0');
    assert_int_equal(variant_letter(variant("janus"), ARCHBISHOP), 'J');
    assert_int_equal(variant_letter(variant("janus"), CHANCELLOR), '\0');
    assert_int_equal(variant_letter(variant("capablanca"), CHANCELLOR), 'C');
    assert_int_equal(variant("embassy")->king_to[1], 7);
    assert_int_equal(variant("janus")->king_to[0], 1);
    assert_true(variant("caparandom")->castle960 && variant("caparandom")->random_array);
    assert_false(variant("gothic")->castle960);
}

/* The historical arrays (docs/rules.md 3.1): Carrera's game has neither castling nor en passant,
 * Bird's reads its own letters G and E besides C and A and writes Capablanca's. */
static void test_historical_variants(void **state)
{
    (void)state;
    REJECTS("carrera", "ranbqkbncr/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBQKBNCR w KQkq - 0 1",
            "carrera has no castling");
    REJECTS("carrera", "ranbqkbncr/pppp1ppppp/10/10/4P5/10/PPPP1PPPPP/RANBQKBNCR b - e3 0 1",
            "carrera has no en passant");
    assert_int_equal(variant("carrera")->n_promotions, 3);
    Setup s, start;
    char fen[FEN_MAX];
    read_fen(&s, "bird", "rnbgqkebnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKEBNR w KQkq - 0 1");
    setup_start(&start, variant("bird"));
    assert_memory_equal(s.board, start.board, sizeof s.board);
    write_fen(&s, s.castling_text, fen);
    assert_string_equal(fen, variant("bird")->start_fen);
    REJECTS("capablanca", "rnbgqkebnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKEBNR w - - 0 1",
            "'g'");
}

/* ---- FEN rejections ---- */

static void test_reject_board(void **state)
{
    (void)state;
    REJECTS("chess", "8/8/8/8/8/8/8 w - - 0 1", "7 ranks");
    REJECTS("chess", "k7/8/8/8/8/8/8/8/K7 w - - 0 1", "more than 8 ranks");
    REJECTS("chess", "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "rank 8 has 9 squares");
    REJECTS("chess", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "rank 7 has 7 squares");
    REJECTS("chess", "rnbqkbnr/pppppppp/10/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "rank 6 has more than 8 squares, the board's width");
    REJECTS("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/5P5/PPPPPPPPPP/RNABQKBCNR w - - 0 1",
            "FEN rank 3 has more than 10 squares");
    REJECTS("capablanca", "rnabqkbcnr/pppppppppp/8/10/10/10/PPPPPPPPPP/RNABQKBCNR w - - 0 1",
            "rank 6 has 8 squares");
    REJECTS("capablanca", "rnabqkbcnr/pppppppppp/99999999/10/10/10/PPPPPPPPPP/RNABQKBCNR w - - 0 1",
            "rank 6 has more than 10 squares");
    REJECTS("chess", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "starting with 0");
    REJECTS("chess", "rnbqkbnr/pppppppp/8/8/3X4/8/PPPPPPPP/RNBQKBNR w - - 0 1", "'X'");
    REJECTS("chess", "rnbqkbnr/pppppppp/8/8/3A4/8/PPPPPPPP/RNBQKBNR w - - 0 1", "'A'");
    REJECTS("chess", "rnbqkbnr/pppppppp/8/8/3c4/8/PPPPPPPP/RNBQKBNR w - - 0 1", "'c'");
    REJECTS("janus", "rjnbkqbnjr/pppppppppp/10/10/4C5/10/PPPPPPPPPP/RJNBKQBNJR w - - 0 1", "'C'");
    REJECTS("janus", "rjnbkqbnjr/pppppppppp/10/10/4A5/10/PPPPPPPPPP/RJNBKQBNJR w - - 0 1", "'A'");
    REJECTS("capablanca", "rnabqkbcnr/pppppppppp/10/10/4J5/10/PPPPPPPPPP/RNABQKBCNR w - - 0 1",
            "'J'");
    REJECTS("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move");
    REJECTS("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "fields");
    REJECTS("chess", "", "0 fields");
}

static void test_reject_material(void **state)
{
    (void)state;
    REJECTS("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", "0 Black kings");
    REJECTS("chess", "4k3/8/8/8/8/8/8/8 w - - 0 1", "0 White kings");
    REJECTS("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "2 White kings");
    REJECTS("capablanca", "4k4k/10/10/10/10/10/10/4K5 w - - 0 1", "2 Black kings");
    REJECTS("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on a1");
    REJECTS("chess", "4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on h8");
    REJECTS("capablanca", "4k3p1/10/10/10/10/10/10/4K5 w - - 0 1", "pawn on i8");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K2p b - - 0 1", "pawn on h1");
    /* The side not to move may not be in check. */
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K2r b - - 0 1", "White in check with Black to move");
    REJECTS("chess", "4k3/8/3N4/8/8/8/8/4K3 w - - 0 1", "Black in check");
    REJECTS("capablanca", "4k5/10/3A6/10/10/10/10/4K5 w - - 0 1", "Black in check");
    /* Too many pieces of a kind is fine (promotions). */
    Setup s;
    read_fen(&s, "chess", "QQQQk3/QQQQ4/QQQQ4/8/8/8/8/4K3 b - - 0 1");
    read_fen(&s, "capablanca", "k9/10/10/10/10/10/CCCCCCCCCC/AAAAKAAAAA b - - 0 1");
}

static void test_reject_castling(void **state)
{
    (void)state;
    /* Fixed-array variants: king on its start square, rook in the corner. */
    REJECTS("chess", "4k3/8/8/8/8/8/8/3K3R w K - 0 1", "king on its start square e1");
    REJECTS("chess", "4k3/8/8/8/8/8/4K3/7R w K - 0 1", "no White king on rank 1");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "corner h1");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w Q - 0 1", "no White rook on the queen side");
    REJECTS("chess", "r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "no Black rook on the king side");
    REJECTS("chess", "r2k4/8/8/8/8/8/8/4K3 w q - 0 1", "Black king on its start square e8");
    REJECTS("chess", "r3k2r/8/8/8/8/8/8/1R2K2R w B - 0 1", "corner a1");
    REJECTS("capablanca", "r4k3r/10/10/10/10/10/10/R3K4R w KQkq - 0 1", "start square f1");
    REJECTS("embassy", "r3k4r/10/10/10/10/10/10/R4K3R w KQ - 0 1", "start square e1");
    REJECTS("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkqX - 0 1", "'X'");
    REJECTS("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQ-kq - 0 1", "'-'");
    REJECTS("chess", "r3k2r/8/8/8/8/8/8/R3K2R w Ic - 0 1", "'I'");
    /* Castle960: any back-rank king, the rook on the right side of it. */
    REJECTS("chess960", "4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "no White rook on the king side");
    REJECTS("chess960", "4k3/8/8/8/8/8/8/R3K3 w H - 0 1", "no White rook on h1");
    REJECTS("chess960", "4k3/8/8/8/8/8/8/R3K3 w E - 0 1", "no White rook on e1");
    REJECTS("chess960", "4k3/8/8/8/8/8/4K3/R6R w HA - 0 1", "no White king on rank 1");
    REJECTS("chess960", "rk6/8/8/8/8/8/8/4K3 w b - 0 1", "no Black rook on b8");
    REJECTS("caparandom", "4k5/10/10/10/10/10/10/R3K4R w I - 0 1", "no White rook on i1");
    REJECTS("caparandom", "4k5/10/10/10/10/10/10/R3K4R w JAj - 0 1", "no Black rook on j8");
    /* Duplicates: the same letter twice, or two names for the same side. */
    REJECTS("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "duplicate castling right 'K'");
    REJECTS("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkqq - 0 1", "duplicate castling right 'q'");
    REJECTS("chess960", "r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "duplicate castling right 'H'");
    REJECTS("chess960", "4k3/8/8/8/8/8/8/1R2K1RR w GH - 0 1", "White king-side right is already");
    REJECTS("chess960", "4k3/8/8/8/8/8/8/RR2K3 w BQ - 0 1", "duplicate castling right 'Q'");
    /* The accepted forms and what they record. */
    Setup s;
    read_fen(&s, "chess960", "4k3/8/8/8/8/8/8/1R2K1RR w GB - 0 1");
    assert_int_equal(s.castle_rook[WHITE][1], 6);
    assert_int_equal(s.castle_rook[WHITE][0], 1);
    assert_int_equal(s.castling_text, FEN_CASTLING_SHREDDER);
    read_fen(&s, "chess960", "r3k3/8/8/8/8/8/8/1R2K1RR w Gq - 0 1");
    assert_int_equal(s.castling_text, FEN_CASTLING_XFEN);
    assert_int_equal(s.castle_rook[BLACK][0], 7 * 8);
    assert_int_equal(s.castle_rook[BLACK][1], NO_SQUARE);
    read_fen(&s, "chess960", "rr2k1rr/8/8/8/8/8/8/1R2K1RR w Kkq - 0 1");
    assert_int_equal(s.castle_rook[WHITE][1], 7);
    assert_int_equal(s.castle_rook[BLACK][0], 7 * 8);
    assert_int_equal(s.castling_text, FEN_CASTLING_KQ);
    /* Rook files in chess: the corners. */
    read_fen(&s, "chess", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert_int_equal(s.castle_rook[BLACK][1], 63);
    read_fen(&s, "chess", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_int_equal(s.castle_rook[WHITE][0], NO_SQUARE);
}

static void test_reject_ep_clocks(void **state)
{
    (void)state;
    const char *b = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR";
    char fen[256];
    Setup s;
    snprintf(fen, sizeof fen, "%s w KQkq d6 0 2", b);
    read_fen(&s, "chess", fen);
    assert_int_equal(s.ep[0], 5 * 8 + 3);
    snprintf(fen, sizeof fen, "%s w KQkq d3 0 2", b);
    REJECTS("chess", fen, "with White to move (it must be on rank 6)");
    snprintf(fen, sizeof fen, "%s b KQkq d6 0 2", b);
    REJECTS("chess", fen, "with Black to move (it must be on rank 3)");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no Black pawn stands on e5");
    snprintf(fen, sizeof fen, "%s w KQkq c6 0 2", b);
    REJECTS("chess", fen, "c7, where the pawn came from, is not empty");
    REJECTS("chess", "rnbqkbnr/ppp1pppp/3P4/3p4/8/8/PPP2PPP/RNBQKBNR w KQkq d6 0 2",
            "d6 is not empty");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - i6 0 1", "'i6'");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "'e9'");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - e66 0 1", "'e66'");
    read_fen(&s, "capablanca", "4k5/10/10/10/8pP/10/10/4K5 b - j3 0 1");
    assert_int_equal(s.ep[0], 2 * 10 + 9);
    REJECTS("capablanca", "4k5/10/10/10/8Pp/10/10/4K5 b - j3 0 1", "no White pawn stands on j4");
    /* Clocks: optional, non-negative, fullmove at least 1, nothing after them. */
    read_fen(&s, "chess", "4k3/8/8/8/8/8/8/4K3 b - -");
    assert_int_equal(s.halfmove, 0);
    assert_int_equal(s.fullmove, 1);
    assert_int_equal(s.side, BLACK);
    read_fen(&s, "chess", "  4k3/8/8/8/8/8/8/4K3 w - - 17 \n");
    assert_int_equal(s.halfmove, 17);
    assert_int_equal(s.fullmove, 1);
    read_fen(&s, "chess", "4k3/8/8/8/8/8/8/4K3 w - - 99 140");
    assert_int_equal(s.fullmove, 140);
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock '-1'");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock 'x'");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number 0 is less than 1");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", "fullmove number '1.5'");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", "halfmove clock");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "trailing garbage");
    REJECTS("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5", "trailing garbage");
    /* python-chess's 'asymmetrical-and-king-on-h': a queen-side right for a king on h8 is an
     * X-FEN Chess960 right (standard.epd tags it so), impossible in standard chess. */
    REJECTS("chess", "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1", "king on its start square e8");
}

/* ---- Round trips over the reference data ---- */

static void round_trip_file(const char *file, const char *default_variant)
{
    EpdEntry *e;
    int n = epd_read(file, &e);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        const char *vname = e[i].variant[0] ? e[i].variant : default_variant;
        Setup s, back;
        char want[300], got[FEN_MAX], other[FEN_MAX];
        read_fen(&s, vname, e[i].fen);
        int fields = 0;
        for (const char *c = e[i].fen; *c; c++)
            fields += (c == e[i].fen || c[-1] == ' ') && *c != ' ';
        snprintf(want, sizeof want, "%s%s", e[i].fen, fields == 4 ? " 0 1" : "");
        write_fen(&s, s.castling_text, got);
        if (strcmp(want, got) != 0)
            fail_msg("%s:%d: wrote \"%s\" for \"%s\"", file, e[i].line, got, want);
        /* Every castling style reads back to the same rights. */
        for (int style = FEN_CASTLING_KQ; style <= FEN_CASTLING_SHREDDER; style++) {
            write_fen(&s, (FenCastling)style, other);
            read_fen(&back, vname, other);
            if (memcmp(back.castle_rook, s.castle_rook, sizeof s.castle_rook) != 0)
                fail_msg("%s:%d: style %d \"%s\" changes the rights", file, e[i].line, style,
                         other);
            assert_memory_equal(back.board, s.board, sizeof s.board);
        }
    }
    free(e);
}

static void test_round_trip(void **state)
{
    (void)state;
    round_trip_file("standard.epd", "chess");
    round_trip_file("chess960.epd", "chess960");
    round_trip_file("chess960_startpos.epd", "chess960");
    round_trip_file("chess960_tricky.epd", "chess960");
    round_trip_file("capablanca.epd", "capablanca");

    /* Without clocks the writer adds the defaults. */
    Setup s;
    char fen[FEN_MAX];
    read_fen(&s, "capablanca", "4k5/10/10/10/8pP/10/10/4K5 b - j3");
    write_fen(&s, s.castling_text, fen);
    assert_string_equal(fen, "4k5/10/10/10/8pP/10/10/4K5 b - j3 0 1");
}

static void test_castling_styles(void **state)
{
    (void)state;
    Setup s;
    char fen[FEN_MAX];
    /* Inner rook g1 (h1 also a rook): KQ style must fall back to the file letter. */
    read_fen(&s, "chess960", "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GAhb - 3 20");
    write_fen(&s, FEN_CASTLING_KQ, fen);
    assert_string_equal(fen, "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GQkb - 3 20");
    write_fen(&s, FEN_CASTLING_XFEN, fen);
    assert_string_equal(fen, "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GQkb - 3 20");
    write_fen(&s, FEN_CASTLING_SHREDDER, fen);
    assert_string_equal(fen, "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GAhb - 3 20");
    read_fen(&s, "chess", "r3k2r/8/8/8/8/8/8/R3K2R b qkQK - 0 1"); /* written in canonical order */
    write_fen(&s, FEN_CASTLING_KQ, fen);
    assert_string_equal(fen, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    write_fen(&s, FEN_CASTLING_SHREDDER, fen);
    assert_string_equal(fen, "r3k2r/8/8/8/8/8/8/R3K2R b HAha - 0 1");
    read_fen(&s, "caparandom",
             "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1");
    write_fen(&s, FEN_CASTLING_SHREDDER, fen);
    assert_string_equal(fen,
                        "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w JAja - 0 1");
    char tiny[12];
    setup_to_fen(&s, FEN_CASTLING_KQ, tiny, sizeof tiny); /* truncated, still terminated */
    assert_string_equal(tiny, "rnbqckabnr/");
}

/* ---- Start arrays ---- */

static void test_chess960_numbering(void **state)
{
    (void)state;
    EpdEntry *e;
    int n = epd_read("chess960_startpos.epd", &e);
    assert_int_equal(n, 960);
    bool seen[960] = { false };
    const Variant *v = variant("chess960");
    char err[ERRMSG_LEN];
    for (int i = 0; i < n; i++) {
        assert_true(e[i].sp >= 0 && e[i].sp < 960);
        seen[e[i].sp] = true;
        Setup s;
        assert_int_equal(setup_chess960(&s, v, e[i].sp, err, sizeof err), 0);
        assert_int_equal(s.castling_text, FEN_CASTLING_SHREDDER);
        char fen[FEN_MAX];
        write_fen(&s, s.castling_text, fen);
        if (strcmp(fen, e[i].fen) != 0)
            fail_msg("array %d: \"%s\", expected \"%s\"", e[i].sp, fen, e[i].fen);
    }
    for (int i = 0; i < 960; i++)
        assert_true(seen[i]);
    free(e);
    Setup s;
    assert_int_equal(setup_chess960(&s, v, 960, err, sizeof err), -1);
    assert_non_null(strstr(err, "960"));
    assert_int_equal(setup_chess960(&s, v, -1, err, sizeof err), -1);
    assert_int_equal(setup_chess960(&s, variant("chess"), 518, err, sizeof err), -1);
    assert_non_null(strstr(err, "chess"));
    assert_int_equal(setup_chess960(&s, variant("caparandom"), 0, err, sizeof err), -1);
}

/* A start array as the rules want it: checked on White's back rank, then Black mirrors it. */
static void check_array(const Setup *s)
{
    const Variant *v = s->variant;
    int f = v->files, king = -1, rooks[2], nrooks = 0, bishops[2], nbishops = 0;
    int count[TYPE_NB] = { 0 };
    for (int file = 0; file < f; file++) {
        PieceType t = piece_type(s->board[file]);
        count[t]++;
        if (t == KING)
            king = file;
        if (t == ROOK && nrooks < 2)
            rooks[nrooks++] = file;
        if (t == BISHOP && nbishops < 2)
            bishops[nbishops++] = file;
        assert_int_equal(s->board[file], make_piece(WHITE, t));
        assert_int_equal(s->board[(RANKS - 1) * f + file], make_piece(BLACK, t));
        assert_int_equal(s->board[f + file], make_piece(WHITE, PAWN));
        assert_int_equal(s->board[(RANKS - 2) * f + file], make_piece(BLACK, PAWN));
    }
    assert_int_equal(count[ROOK], 2);
    assert_int_equal(count[BISHOP], 2);
    assert_int_equal(count[KNIGHT], 2);
    assert_int_equal(count[QUEEN], 1);
    assert_int_equal(count[KING], 1);
    assert_int_equal(count[ARCHBISHOP], f == 10);
    assert_int_equal(count[CHANCELLOR], f == 10);
    assert_int_equal((bishops[0] + bishops[1]) % 2, 1); /* opposite colours */
    assert_true(rooks[0] < king && king < rooks[1]);
    assert_int_equal(s->castle_rook[WHITE][0], rooks[0]);
    assert_int_equal(s->castle_rook[WHITE][1], rooks[1]);
    assert_int_equal(s->castle_rook[BLACK][0], (RANKS - 1) * f + rooks[0]);
    assert_int_equal(s->castle_rook[BLACK][1], (RANKS - 1) * f + rooks[1]);
    assert_int_equal(s->castling_text, FEN_CASTLING_SHREDDER);
    assert_int_equal(s->side, WHITE);
    assert_int_equal(s->ep[0], NO_SQUARE);
    /* And the FEN reader agrees that it is a valid position. */
    char fen[FEN_MAX], fen2[FEN_MAX];
    Setup back;
    write_fen(s, FEN_CASTLING_SHREDDER, fen);
    read_fen(&back, v->name, fen);
    write_fen(&back, FEN_CASTLING_SHREDDER, fen2);
    assert_string_equal(fen, fen2);
}

static void test_random_arrays(void **state)
{
    (void)state;
    const char *names[] = { "chess960", "caparandom" };
    for (int k = 0; k < 2; k++) {
        const Variant *v = variant(names[k]);
        int queen_files = 0, distinct = 0;
        char first[FEN_MAX] = "";
        for (uint64_t seed = 0; seed < 2000; seed++) {
            Setup s, again;
            setup_random(&s, v, seed);
            check_array(&s);
            setup_random(&again, v, seed);
            char fen[FEN_MAX], fen2[FEN_MAX];
            write_fen(&s, FEN_CASTLING_SHREDDER, fen);
            write_fen(&again, FEN_CASTLING_SHREDDER, fen2);
            assert_string_equal(fen, fen2); /* determined by the seed */
            if (seed < 20) {
                distinct += strcmp(fen, first) != 0;
                if (seed == 0)
                    snprintf(first, sizeof first, "%s", fen);
            }
            for (int f = 0; f < v->files; f++)
                if (piece_type(s.board[f]) == QUEEN)
                    queen_files |= 1 << f;
        }
        assert_true(distinct >= 15); /* most of the first 20 seeds give other arrays than seed 0 */
        assert_int_equal(queen_files, (1 << v->files) - 1);
    }
    Setup s;
    setup_random(&s, variant("gothic"), 7); /* a fixed array has one start */
    assert_string_equal(s.variant->name, "gothic");
    char fen[FEN_MAX];
    write_fen(&s, s.castling_text, fen);
    assert_string_equal(fen, variant("gothic")->start_fen);
}

/* ---- UCI move text ---- */

static int square(const Variant *v, const char *name)
{
    return (name[1] - '1') * v->files + (name[0] - 'a');
}

/* The move from-to of the given kind on the variant's board, e.g. mv(cap, "f1", "j1", ...). */
static Move mv(const Variant *v, const char *from, const char *to, int kind, PieceType promo)
{
    return move_new(square(v, from), square(v, to), kind, promo);
}

/* Writes from-to of the given kind in variant vname and compares the text with want. */
static void check_text(const char *vname, const char *from, const char *to, int kind,
                       PieceType promo, bool castle960, const char *want)
{
    const Variant *v = variant(vname);
    char out[MOVE_TEXT_MAX];
    move_to_uci(mv(v, from, to, kind, promo), v, castle960, out);
    if (strcmp(out, want) != 0)
        fail_msg("%s %s%s kind %d: \"%s\", expected \"%s\"", vname, from, to, kind, out, want);
}

static void test_move_text(void **state)
{
    (void)state;
    const int N = MOVE_NORMAL, P = MOVE_PROMOTION, E = MOVE_EN_PASSANT, C = MOVE_CASTLING;
    check_text("chess", "e2", "e4", N, NO_TYPE, false, "e2e4");
    check_text("chess", "b7", "a8", P, KNIGHT, false, "b7a8n");
    check_text("chess", "e5", "d6", E, NO_TYPE, true, "e5d6");
    char out[MOVE_TEXT_MAX];
    move_to_uci(MOVE_NONE, variant("chess"), false, out);
    assert_string_equal(out, "0000");
    /* Castling is encoded king takes own rook; standard text names the king's destination. */
    check_text("chess", "e1", "h1", C, NO_TYPE, false, "e1g1");
    check_text("chess", "e1", "h1", C, NO_TYPE, true, "e1h1");
    check_text("chess", "e8", "a8", C, NO_TYPE, false, "e8c8");
    check_text("chess", "e8", "a8", C, NO_TYPE, true, "e8a8");
    check_text("chess960", "b1", "c1", C, NO_TYPE, false, "b1g1");
    check_text("chess960", "g8", "h8", C, NO_TYPE, false, "g8g8"); /* king already there */
    /* 10 files: squares a-j, each variant's king destinations, its promotion letters. */
    check_text("capablanca", "j2", "j4", N, NO_TYPE, false, "j2j4");
    check_text("capablanca", "i7", "j8", P, CHANCELLOR, false, "i7j8c");
    check_text("capablanca", "a2", "a1", P, ARCHBISHOP, false, "a2a1a");
    check_text("capablanca", "f1", "j1", C, NO_TYPE, false, "f1i1");
    check_text("capablanca", "f1", "a1", C, NO_TYPE, false, "f1c1");
    check_text("capablanca", "f1", "j1", C, NO_TYPE, true, "f1j1");
    check_text("gothic", "f8", "j8", C, NO_TYPE, false, "f8i8");
    check_text("embassy", "e1", "j1", C, NO_TYPE, false, "e1h1");
    check_text("embassy", "e8", "a8", C, NO_TYPE, false, "e8b8");
    check_text("janus", "e1", "j1", C, NO_TYPE, false, "e1i1");
    check_text("janus", "e1", "a1", C, NO_TYPE, false, "e1b1");
    check_text("janus", "d7", "d8", P, ARCHBISHOP, false, "d7d8j");
    check_text("caparandom", "b1", "c1", C, NO_TYPE, true, "b1c1");
    check_text("caparandom", "b1", "c1", C, NO_TYPE, false, "b1i1");
    check_text("caparandom", "h8", "a8", C, NO_TYPE, false, "h8c8");

    /* Parsing picks the listed move with that text. */
    const Variant *cap = variant("capablanca");
    Move list[] = {
        mv(cap, "j2", "j3", N, NO_TYPE),    mv(cap, "i7", "i8", P, QUEEN),
        mv(cap, "i7", "i8", P, CHANCELLOR), mv(cap, "f1", "j1", C, NO_TYPE),
        mv(cap, "f1", "g1", N, NO_TYPE),
    };
    int n = (int)(sizeof list / sizeof list[0]);
    assert_int_equal(move_from_uci("j2j3", list, n, cap, false), list[0]);
    assert_int_equal(move_from_uci("i7i8c", list, n, cap, false), list[2]);
    assert_int_equal(move_from_uci("i7i8q", list, n, cap, true), list[1]);
    assert_int_equal(move_from_uci("f1i1", list, n, cap, false), list[3]);
    assert_int_equal(move_from_uci("f1j1", list, n, cap, true), list[3]);
    assert_int_equal(move_from_uci("f1j1", list, n, cap, false), MOVE_NONE);
    assert_int_equal(move_from_uci("f1i1", list, n, cap, true), MOVE_NONE);
    assert_int_equal(move_from_uci("i7i8", list, n, cap, false), MOVE_NONE);
    assert_int_equal(move_from_uci("i7i8Q", list, n, cap, false), MOVE_NONE);
    assert_int_equal(move_from_uci("", list, n, cap, false), MOVE_NONE);
    assert_int_equal(move_from_uci(NULL, list, n, cap, false), MOVE_NONE);
    assert_int_equal(move_from_uci("j2j3", list, 0, cap, false), MOVE_NONE);

    /* Chess960, king f1 and rook h1: in standard notation castling and the king step read
     * alike (f1g1); the king step is meant. In 960 notation castling is f1h1. */
    const Variant *c960 = variant("chess960");
    Move kf[] = { mv(c960, "f1", "h1", C, NO_TYPE), mv(c960, "f1", "g1", N, NO_TYPE) };
    assert_int_equal(move_from_uci("f1g1", kf, 2, c960, false), kf[1]);
    assert_int_equal(move_from_uci("f1g1", kf, 1, c960, false), kf[0]);
    assert_int_equal(move_from_uci("f1h1", kf, 2, c960, true), kf[0]);
    assert_int_equal(move_from_uci("f1g1", kf, 2, c960, true), kf[1]);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_table),      cmocka_unit_test(test_historical_variants),
        cmocka_unit_test(test_reject_board),       cmocka_unit_test(test_reject_material),
        cmocka_unit_test(test_reject_castling),    cmocka_unit_test(test_reject_ep_clocks),
        cmocka_unit_test(test_round_trip),         cmocka_unit_test(test_castling_styles),
        cmocka_unit_test(test_chess960_numbering), cmocka_unit_test(test_random_arrays),
        cmocka_unit_test(test_move_text),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

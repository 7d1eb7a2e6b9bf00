/* SPDX-License-Identifier: MIT */
/* Tests of SAN movements, turn text and game records (core/rules/notation.c, core/play/movetext.c):
 * the source notation example of docs/rules.md 4.1, disambiguation, 10-file squares and promotions,
 * castling on every board, en passant, check and mate suffixes, every error, and seeded random
 * games of every rule set written and read back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "notation.h"
#include "movetext.h"
#include "rng.h"

static const Rules SINGLE = { TURNS_SINGLE, EP_CLASSIC };
static const Rules MARSEILLAIS = { TURNS_MARSEILLAIS, EP_CLASSIC };
static const Rules BALANCED = { TURNS_BALANCED, EP_CLASSIC };

static const Variant *variant(const char *name)
{
    const Variant *v = variant_by_name(name);
    if (!v)
        fail_msg("no variant %s", name);
    return v;
}

/* The position of fen (NULL: the start position) read under rules r. */
static Position load(const char *vname, const char *fen, const Rules *r)
{
    Setup s;
    char err[ERRMSG_LEN] = "";
    if (!fen)
        setup_start(&s, variant(vname));
    else if (setup_from_fen_rules(&s, variant(vname), r, fen, err, sizeof err) != 0)
        fail_msg("%s \"%s\" rejected: %s", vname, fen, err);
    Position p;
    position_from_setup(&p, &s);
    return p;
}

static Move legal_uci(const Position *p, const char *uci)
{
    Move legal[MAX_MOVES];
    int n = position_legal_moves(p, legal);
    Move m = move_from_uci(uci, legal, n, p->variant, p->variant->castle960);
    if (!m)
        fail_msg("%s is not legal", uci);
    return m;
}

/* SAN(p, uci, san, aliases...): the single-move SAN of uci is san, and san and every alias
 * read back as uci. */
#define SAN(p, uci, ...) check_san(p, uci, (const char *[]){ __VA_ARGS__, NULL }, __LINE__)

static void check_san(const Position *p, const char *uci, const char **texts, int line)
{
    Move m = legal_uci(p, uci);
    char out[SAN_MAX], err[256] = "";
    if (!notation_move_to_san(p, m, out, sizeof out))
        fail_msg("line %d: %s not written", line, uci);
    if (strcmp(out, texts[0]) != 0)
        fail_msg("line %d: %s written as %s, expected %s", line, uci, out, texts[0]);
    for (int i = 0; texts[i]; i++) {
        Move back = MOVE_NONE;
        if (!notation_move_from_san(p, texts[i], &back, err, sizeof err))
            fail_msg("line %d: '%s' not read: %s", line, texts[i], err);
        if (back != m)
            fail_msg("line %d: '%s' read as another move", line, texts[i]);
    }
}

/* Reading text as a single move fails with a message containing needle. */
static void check_bad_move(const Position *p, const char *text, const char *needle, int line)
{
    Move m;
    char err[ERRMSG_LEN] = "";
    if (notation_move_from_san(p, text, &m, err, sizeof err))
        fail_msg("line %d: '%s' was accepted", line, text);
    if (!strstr(err, needle))
        fail_msg("line %d: '%s': message \"%s\" does not mention \"%s\"", line, text, err, needle);
}
#define BAD_MOVE(p, text, needle) check_bad_move(p, text, needle, __LINE__)

/* The record text read from p under r gives turns whose record is written back as expect
 * (NULL: as text itself); returns the number of turns. */
static size_t check_record(const Position *p, const Rules *r, const char *text, const char *expect,
                           int line)
{
    TurnList l = { 0 };
    char err[ERRMSG_LEN] = "", out[4096];
    if (!notation_game_from_text(p, r, text, &l, NULL, err, sizeof err))
        fail_msg("line %d: \"%s\" not read: %s", line, text, err);
    if (!notation_game_to_text(p, r, l.v, l.n, out, sizeof out, err, sizeof err))
        fail_msg("line %d: \"%s\" not written: %s", line, text, err);
    if (strcmp(out, expect ? expect : text) != 0)
        fail_msg("line %d: \"%s\" written back as \"%s\"", line, text, out);
    size_t n = l.n;
    turn_list_free(&l);
    return n;
}
#define RECORD(p, r, text, expect) check_record(p, r, text, expect, __LINE__)

/* Reading the record text fails with a message containing needle. */
static void check_bad_record(const Position *p, const Rules *r, const char *text,
                             const char *needle, int line)
{
    TurnList l = { 0 };
    char err[ERRMSG_LEN] = "";
    bool ok = notation_game_from_text(p, r, text, &l, NULL, err, sizeof err);
    turn_list_free(&l);
    if (ok)
        fail_msg("line %d: \"%s\" was accepted", line, text);
    if (!strstr(err, needle))
        fail_msg("line %d: \"%s\": message \"%s\" does not mention \"%s\"", line, text, err,
                 needle);
}
#define BAD_RECORD(p, r, text, needle) check_bad_record(p, r, text, needle, __LINE__)

/* ---- the source example and turn text ---- */

static void test_source_example(void **state)
{
    (void)state;
    Position p = load("chess", NULL, &MARSEILLAIS);
    const char *line = "1.Nf3/Nc3//b6/g6 2.b3/Bb2//Bb7/e5";
    TurnList l = { 0 };
    char err[ERRMSG_LEN] = "", out[256];
    assert_true(notation_game_from_text(&p, &MARSEILLAIS, line, &l, NULL, err, sizeof err));
    assert_int_equal(l.n, 4);
    const char *uci[] = { "g1f3/b1c3", "b7b6/g7g6", "b2b3/c1b2", "c8b7/e7e5" };
    for (size_t i = 0; i < 4; i++) {
        char text[TURN_TEXT_MAX];
        turn_to_uci(&l.v[i], p.variant, false, text);
        assert_string_equal(text, uci[i]);
    }
    assert_true(
        notation_game_to_text(&p, &MARSEILLAIS, l.v, l.n, out, sizeof out, err, sizeof err));
    assert_string_equal(out, line);
    turn_list_free(&l);
    /* The same turns, written loosely. */
    RECORD(&p, &MARSEILLAIS, "1. Nf3;Nc3 b6/g6 {a comment} 2.b3/Bb2 // Bb7/e5 *", line);
    RECORD(&p, &MARSEILLAIS, "g1f3/b1c3 b7b6/g7g6 b2b3/c1b2 Bc8b7/e7-e5 1/2-1/2", line);
    RECORD(&p, &MARSEILLAIS, "1.Nf3/Nc3//b6/g6 2.b3/Bb2//Bb7/e5 1-0 {end}", line);

    Turn t;
    assert_true(notation_turn_from_text(&p, &MARSEILLAIS, " Nf3 ; Nc3 ", &t, err, sizeof err));
    assert_true(notation_turn_to_text(&p, &MARSEILLAIS, &t, out, sizeof out));
    assert_string_equal(out, "Nf3/Nc3");
    /* A turn that is not in the position's list is not written. */
    t.n = 1;
    assert_false(notation_turn_to_text(&p, &MARSEILLAIS, &t, out, sizeof out));
    assert_string_equal(out, "");
}

/* ---- SAN of single movements ---- */

static void test_disambiguation(void **state)
{
    (void)state;
    Position p = load("chess", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", &SINGLE);
    SAN(&p, "b1d2", "Nbd2", "Nb1d2", "N1d2", "b1d2");
    SAN(&p, "f3d2", "Nfd2", "Nf3-d2");
    SAN(&p, "f3e5", "Ne5", "Nfe5", "N3e5");
    BAD_MOVE(&p, "Nd2", "ambiguous movement 'Nd2': Nbd2 or Nfd2");

    p = load("chess", "4k3/8/4N3/8/8/8/4N3/4K3 w - - 0 1", &SINGLE);
    SAN(&p, "e2d4", "N2d4");
    SAN(&p, "e6d4", "N6d4");
    BAD_MOVE(&p, "Ned4", "ambiguous");

    p = load("chess", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", &SINGLE);
    SAN(&p, "a1a3", "R1a3", "Ra1a3");
    SAN(&p, "a5a3", "R5a3");
    SAN(&p, "a1b1", "Rb1");
    BAD_MOVE(&p, "Ra3", "ambiguous");

    p = load("chess", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", &SINGLE);
    SAN(&p, "a1b2", "Qa1b2");
    SAN(&p, "c1b2", "Qcb2", "Qc1b2", "Qc1xb2");
    SAN(&p, "a3b2", "Q3b2", "Qa3b2");
    BAD_MOVE(&p, "Qab2", "ambiguous");
    BAD_MOVE(&p, "Q1b2", "ambiguous");
    BAD_MOVE(&p, "Qb2", "or others");

    /* Pawns: captures name the file; en passant likewise. */
    p = load("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &SINGLE);
    SAN(&p, "e5d6", "exd6", "ed6", "exd6+", "e5d6", "Pxd6", "exd6e.p.");
    SAN(&p, "e5e6", "e6", "Pe6", "e5-e6");
}

static void test_ten_files(void **state)
{
    (void)state;
    Position p = load("capablanca", NULL, &SINGLE);
    SAN(&p, "h1i3", "Ci3", "Ch1i3", "h1i3");
    SAN(&p, "c1b3", "Ab3");
    SAN(&p, "i1j3", "Nj3");
    SAN(&p, "j2j4", "j4");

    p = load("capablanca", "5k3r/8P1/10/10/10/10/10/5K4 w - - 0 1", &SINGLE);
    SAN(&p, "i7j8c", "ixj8=C+", "ixj8=C", "ixj8C", "ij8c", "i7j8c", "ixj8=c");
    SAN(&p, "i7j8a", "ixj8=A", "ixj8A+");
    SAN(&p, "i7j8q", "ixj8=Q+");
    SAN(&p, "i7i8c", "i8=C+", "i8C");
    SAN(&p, "i7i8n", "i8=N");
    BAD_MOVE(&p, "ixj8", "lacks the promotion piece");
    BAD_MOVE(&p, "ixj8=K", "'K' is not a promotion piece");
    BAD_MOVE(&p, "ixj8=J", "not a promotion piece in capablanca");

    p = load("janus", "5k3r/8P1/10/10/10/10/10/5K4 w - - 0 1", &SINGLE);
    SAN(&p, "i7j8j", "ixj8=J", "ixj8j", "i7j8j");
    SAN(&p, "i7j8q", "ixj8=Q+");
    BAD_MOVE(&p, "ixj8=A", "not a promotion piece in janus");
    BAD_MOVE(&p, "ixj8=C", "not a promotion piece in janus");

    p = load("janus", NULL, &SINGLE);
    SAN(&p, "b1a3", "Ja3");
    SAN(&p, "c1b3", "Nb3");
}

static void test_castling(void **state)
{
    (void)state;
    Position p = load("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &SINGLE);
    SAN(&p, "e1g1", "O-O", "0-0", "O-O+", "e1h1");
    SAN(&p, "e1c1", "O-O-O", "0-0-0", "e1a1");
    SAN(&p, "e1f1", "Kf1");
    SAN(&p, "a1a8", "Rxa8+");

    p = load("capablanca", "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", &SINGLE);
    SAN(&p, "f1i1", "O-O", "0-0", "f1j1");
    SAN(&p, "f1c1", "O-O-O", "f1a1");

    p = load("chess960", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", &SINGLE);
    SAN(&p, "b1h1", "O-O", "b1g1");
    SAN(&p, "b1a1", "O-O-O");
    SAN(&p, "b1c1", "Kc1"); /* the king's one-step move, not castling */

    /* King already on its destination: only the rook moves, still castling. */
    p = load("chess960", "1r4kr/8/8/8/8/8/8/1R4KR w BHbh - 0 1", &SINGLE);
    SAN(&p, "g1h1", "O-O");
    SAN(&p, "g1b1", "O-O-O");

    p = load("caparandom", "rk7r/10/10/10/10/10/10/RK7R w JAja - 0 1", &SINGLE);
    SAN(&p, "b1j1", "O-O");
    SAN(&p, "b1a1", "O-O-O");
}

static void test_check_and_mate(void **state)
{
    (void)state;
    Position p = load("chess", NULL, &SINGLE);
    assert_int_equal(RECORD(&p, &SINGLE, "1.f3 e5 2.g4 Qh4#", NULL), 4);
    RECORD(&p, &SINGLE, "1.f3 e5 2.g4 Qh4 0-1", "1.f3 e5 2.g4 Qh4#");
    RECORD(&p, &SINGLE, "1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#", NULL);
    RECORD(&p, &SINGLE, "1.e4 f6 2.Qh5+", NULL);

    /* Marseillais: the first movement's check ends the turn; a second movement can check or
     * mate; the suffix goes on the last movement. */
    p = load("chess", NULL, &MARSEILLAIS);
    RECORD(&p, &MARSEILLAIS, "1.e4/Qh5//a6/a5 2.Qxf7+", NULL);
    RECORD(&p, &MARSEILLAIS, "1.e4/Bc4//a6/a5 2.Qh5/Qxf7#", NULL);
    RECORD(&p, &MARSEILLAIS, "1.e4/Bc4//e5/Nc6 2.d3/Bxf7+", NULL);
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Qh5//a6/a5 2.Qxf7+/a3",
               "the turn ends after its first movement");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Qh5//a6/a5 2.Qxf7/Qxe8", "the turn ends after");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Bc4//a6/a5 2.Qh5/Qxf7# a4/a3", "game is over");

    /* Extra Move chess: a double step cannot parry as a first movement, so Bd4 mates. */
    const Rules extra = { TURNS_EXTRAMOVE, EP_CLASSIC };
    p = load("chess", "6bk/4p2p/8/8/8/4B3/8/2K5 w - - 0 10", &extra);
    RECORD(&p, &extra, "10.Bd4#", NULL);
    p = load("chess", "6bk/4p2p/8/8/8/4B3/8/2K5 w - - 0 10", &SINGLE);
    RECORD(&p, &SINGLE, "10.Bd4+ e5", NULL);

    /* Classic Marseillais: Kh7 parries, but no second movement follows: stalemate, not mate. */
    p = load("chess", "7k/8/5K2/5N2/8/8/8/R7 w - - 0 20", &MARSEILLAIS);
    RECORD(&p, &MARSEILLAIS, "20.Ra8+", NULL);
    BAD_RECORD(&p, &MARSEILLAIS, "20.Ra8+//Kh7", "no turn is possible: the game is over");
    const Rules bennekom = { TURNS_BENNEKOM, EP_CLASSIC };
    p = load("chess", "7k/8/5K2/5N2/8/8/8/R7 w - - 0 20", &bennekom);
    RECORD(&p, &bennekom, "20.Ra8+//Kh7", NULL);

    /* Galvin's game has no check: no suffixes, and the king is captured. */
    const Rules galvin = { TURNS_GALVIN, EP_CLASSIC };
    p = load("chess", NULL, &galvin);
    RECORD(&p, &galvin, "1.e4//f6/a6 2.Qh5/Qxe8", NULL);
    BAD_RECORD(&p, &galvin, "1.e4//f6/a6 2.Qh5/Qxe8//Kf7/a5", "game is over");
}

static void test_en_passant(void **state)
{
    (void)state;
    /* Classic Marseillais: two pawns that double-stepped may both be taken, one per movement. */
    Position p = load("chess", "4k3/8/8/1Pp1pP2/8/8/8/4K3 w - c6,e6 0 5", &MARSEILLAIS);
    Turn t;
    char err[ERRMSG_LEN] = "", out[TURN_SAN_MAX];
    assert_true(notation_turn_from_text(&p, &MARSEILLAIS, "bxc6/fxe6", &t, err, sizeof err));
    assert_int_equal(move_kind(t.m[0]), MOVE_EN_PASSANT);
    assert_int_equal(move_kind(t.m[1]), MOVE_EN_PASSANT);
    assert_true(notation_turn_to_text(&p, &MARSEILLAIS, &t, out, sizeof out));
    assert_string_equal(out, "bxc6/fxe6");
    assert_true(notation_turn_from_text(&p, &MARSEILLAIS, "b5c6;f5e6", &t, err, sizeof err));
    assert_true(notation_turn_to_text(&p, &MARSEILLAIS, &t, out, sizeof out));
    assert_string_equal(out, "bxc6/fxe6");
    /* En passant must be the first movement otherwise: after b6 the e6 pawn is out of reach. */
    assert_false(notation_turn_from_text(&p, &MARSEILLAIS, "b6/fxe6", &t, err, sizeof err));
    assert_non_null(strstr(err, "illegal second movement 'fxe6'"));

    /* Single-move chess, after a double step in the record. */
    p = load("chess", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &SINGLE);
    RECORD(&p, &SINGLE, "1...d5 2.exd6 Kd7 3.Kd2 Kxd6", NULL);
}

/* ---- game records ---- */

static void test_single_move_games(void **state)
{
    (void)state;
    Position p = load("chess", NULL, &SINGLE);
    const char *line = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O";
    RECORD(&p, &SINGLE, line, NULL);
    RECORD(&p, &SINGLE,
           "1. e4 e5 2. Nf3 {Ruy Lopez} Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0 Be7 6. Re1 b5 7. Bb3 d6 "
           "8. c3 0-0 *",
           line);
    RECORD(&p, &SINGLE, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 Nf6 e1g1 Be7 Re1 b5 Bb3 d6 c3 e8g8",
           "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O");
    RECORD(&p, &SINGLE, "1.e4//e5 2.Nf3", "1.e4 e5 2.Nf3");
    RECORD(&p, &SINGLE, "", NULL);

    /* Numbers from the position's fullmove number; Black first writes "N...". */
    p = load("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7", &SINGLE);
    RECORD(&p, &SINGLE, "7...c5 8.Nf3 d6", NULL);
    RECORD(&p, &SINGLE, "1...c5 2.Nf3 d6", "7...c5 8.Nf3 d6"); /* numbers are not checked */
    p = load("chess", NULL, &MARSEILLAIS);
    RECORD(&p, &MARSEILLAIS, "1.e4/d4//d5/dxe4", NULL);
    p = load("chess", "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 3", &MARSEILLAIS);
    RECORD(&p, &MARSEILLAIS, "3...d5/dxe4 4.Nc3/Nxe4", NULL);

    /* Balanced Marseillais: White's first turn is one movement. */
    p = load("chess", NULL, &BALANCED);
    RECORD(&p, &BALANCED, "1.e4//e5/Nf6 2.Nf3/Nxe5", NULL);

    /* A record that ends at the end position. */
    TurnList l = { 0 };
    Position end;
    char err[ERRMSG_LEN] = "", fen[FEN_MAX];
    p = load("chess", NULL, &SINGLE);
    assert_true(notation_game_from_text(&p, &SINGLE, "1.e4 c5 2.Nf3", &l, &end, err, sizeof err));
    Setup s;
    position_to_setup(&end, &s);
    setup_to_fen(&s, FEN_CASTLING_KQ, fen, sizeof fen);
    assert_string_equal(fen, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    turn_list_free(&l);
}

static void test_errors(void **state)
{
    (void)state;
    Position p = load("chess", NULL, &SINGLE);
    BAD_MOVE(&p, "Nf6", "illegal movement 'Nf6'");
    BAD_MOVE(&p, "e5", "illegal movement 'e5'");
    BAD_MOVE(&p, "e2e5", "illegal movement 'e2e5'");
    BAD_MOVE(&p, "O-O", "illegal movement 'O-O'");
    BAD_MOVE(&p, "", "empty movement");
    BAD_MOVE(&p, "   ", "empty movement");
    BAD_MOVE(&p, "zz9", "cannot read movement 'zz9'");
    BAD_MOVE(&p, "N", "no destination square");
    BAD_MOVE(&p, "e9", "no destination square");
    BAD_MOVE(&p, "i4", "no destination square (a1-h8)");
    BAD_MOVE(&p, "Xe4", "'X' is not a piece letter in chess");
    BAD_MOVE(&p, "Ae4", "'A' is not a piece letter in chess");
    BAD_MOVE(&p, "Ng1ff3", "cannot read movement");
    BAD_MOVE(&p, "e4 e5", "cannot read movement");
    BAD_MOVE(&p, "Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3", "too long");

    Move m;
    char err[ERRMSG_LEN] = "";
    assert_false(notation_move_from_san(&p, NULL, &m, err, sizeof err));
    assert_false(notation_move_from_san(&p, "Nf6", &m, NULL, 0)); /* no room for a message */
    char small[3];
    assert_false(notation_move_to_san(&p, legal_uci(&p, "g1f3"), small, sizeof small));
    assert_false(notation_move_to_san(&p, move_new(0, 40, MOVE_NORMAL, NO_TYPE), small, 3));

    /* Turns and records. */
    p = load("chess", NULL, &MARSEILLAIS);
    Turn t;
    const struct {
        const char *text, *needle;
    } bad_turns[] = {
        { "", "empty turn" },
        { "  ", "empty turn" },
        { "e4/", "empty movement in turn 'e4/'" },
        { "/e4", "empty movement" },
        { "e4//Nf3", "empty movement" },
        { "e4/Nf3/d4", "too many movements in turn 'e4/Nf3/d4': a turn has at most two" },
        { "e4", "turn 'e4' is incomplete: a second movement must follow" },
        { "e5/Nf3", "illegal first movement 'e5'" },
        { "e4/e6", "illegal second movement 'e6'" },
        { "e4/N", "no destination square" },
    };
    for (size_t i = 0; i < sizeof bad_turns / sizeof bad_turns[0]; i++) {
        err[0] = '\0';
        if (notation_turn_from_text(&p, &MARSEILLAIS, bad_turns[i].text, &t, err, sizeof err))
            fail_msg("turn '%s' was accepted", bad_turns[i].text);
        if (!strstr(err, bad_turns[i].needle))
            fail_msg("turn '%s': \"%s\" does not mention \"%s\"", bad_turns[i].text, err,
                     bad_turns[i].needle);
    }
    Position two_knights = load("chess", "4k3/8/8/8/8/2N5/4P3/4K1N1 w - - 0 5", &MARSEILLAIS);
    assert_false(
        notation_turn_from_text(&two_knights, &MARSEILLAIS, "e4/Ne2", &t, err, sizeof err));
    assert_string_equal(err, "ambiguous second movement 'Ne2': Nge2 or Nce2");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3// 2.d4/d5", "empty turn after '//' before '2.d4/d5'");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3//", "empty turn after '//' at the end");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3//e5/Nc6 1-0 //", "after the result");
    BAD_RECORD(&p, &MARSEILLAIS, "//e4/Nf3", "empty turn before '//' (move 1, White)");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3 ////e5/Nc6", "empty turn before '//'");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3//e5/Nc6 2.Nc3/Nd5/e5",
               "move 2 (White), turn 'Nc3/Nd5/e5': too many movements");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3//d5/Nf6 2.d4/c4//Nd7/e6",
               "move 2 (Black), turn 'Nd7/e6': ambiguous first movement 'Nd7': Nfd7 or Nbd7");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3//e5 2.d4/d5", "move 1 (Black), turn 'e5'");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3 {unfinished", "has no closing '}'");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3 1-0 e5/Nc6", "'e5/Nc6' after the result");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3 1/2-1/2/e5", "turn '1/2-1/2/e5': too many movements");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/Nf3 zz", "cannot read movement 'zz'");
    BAD_RECORD(&p, &MARSEILLAIS, "1.e4/N", "no destination square");
    BAD_RECORD(&p, &MARSEILLAIS,
               "1.Nf3/Nc3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3",
               "too long");
    p = load("chess", NULL, &BALANCED);
    BAD_RECORD(&p, &BALANCED, "1.e4/d4", "the turn ends after its first movement");
    p = load("chess", NULL, &SINGLE);
    BAD_RECORD(&p, &SINGLE, "1.e4/e5", "the turn ends after its first movement");
    BAD_RECORD(&p, &SINGLE, "1.e4 e5 2.Ke2 Ke7 3.Kxe7", "move 3 (White), turn 'Kxe7': illegal");

    /* Writing refuses illegal turns and small buffers. */
    Turn bad = { { legal_uci(&p, "e2e4"), MOVE_NONE }, 1 };
    Turn two[2] = { bad, bad };
    char out[64];
    assert_false(notation_game_to_text(&p, &SINGLE, two, 2, out, sizeof out, err, sizeof err));
    assert_non_null(strstr(err, "turn 2 (move 1, Black) 'e2e4' is not a legal turn"));
    assert_false(notation_game_to_text(&p, &SINGLE, &bad, 1, out, 4, err, sizeof err));
    assert_non_null(strstr(err, "needs more than 4 bytes"));
    assert_string_equal(out, "");
}

/* ---- random games ---- */

/* Plays a seeded random game under r and checks: every turn written and read back, a few other
 * turns of each position likewise, every legal move's SAN under single-move chess, and the whole
 * record read back as the same turns. */
static void random_game(const char *vname, const Rules *r, uint64_t seed, int max_turns)
{
    Rng rng = rng_new(seed);
    Setup s;
    const Variant *v = variant(vname);
    if (v->random_array)
        setup_random(&s, v, seed);
    else
        setup_start(&s, v);
    Position start, p;
    position_from_setup(&start, &s);
    p = start;
    Turn game[400];
    int n = 0;
    TurnList l = { 0 };
    char err[ERRMSG_LEN] = "", text[TURN_SAN_MAX];
    while (n < max_turns && position_turns(&p, r, &l) && l.n > 0) {
        for (int k = 0; k < 4; k++) {
            const Turn *t = &l.v[rng_below(&rng, l.n)];
            Turn back;
            if (!notation_turn_to_text(&p, r, t, text, sizeof text))
                fail_msg("%s %s seed %llu turn %d: not written", vname, turn_rules_name(r->turns),
                         (unsigned long long)seed, n);
            if (!notation_turn_from_text(&p, r, text, &back, err, sizeof err))
                fail_msg("%s %s seed %llu turn %d: '%s' not read: %s", vname,
                         turn_rules_name(r->turns), (unsigned long long)seed, n, text, err);
            if (back.n != t->n || back.m[0] != t->m[0] || (t->n == 2 && back.m[1] != t->m[1]))
                fail_msg("%s: '%s' read as another turn", vname, text);
        }
        if (r->turns == TURNS_SINGLE) {
            Move legal[MAX_MOVES], back;
            int nl = position_legal_moves(&p, legal);
            for (int i = 0; i < nl; i++) {
                char san[SAN_MAX];
                assert_true(notation_move_to_san(&p, legal[i], san, sizeof san));
                if (!notation_move_from_san(&p, san, &back, err, sizeof err) || back != legal[i])
                    fail_msg("%s seed %llu: '%s' does not read back: %s", vname,
                             (unsigned long long)seed, san, err);
            }
        }
        game[n] = l.v[rng_below(&rng, l.n)];
        position_make_turn(&p, r, &game[n], &p);
        n++;
    }
    turn_list_free(&l);

    char *line = malloc(RECORD_TEXT_MAX(n));
    assert_non_null(line);
    if (!notation_game_to_text(&start, r, game, (size_t)n, line, RECORD_TEXT_MAX(n), err,
                               sizeof err))
        fail_msg("%s %s seed %llu: game not written: %s", vname, turn_rules_name(r->turns),
                 (unsigned long long)seed, err);
    TurnList back = { 0 };
    Position end;
    if (!notation_game_from_text(&start, r, line, &back, &end, err, sizeof err))
        fail_msg("%s %s seed %llu: \"%s\" not read: %s", vname, turn_rules_name(r->turns),
                 (unsigned long long)seed, line, err);
    assert_int_equal(back.n, n);
    for (int i = 0; i < n; i++)
        if (back.v[i].n != game[i].n || back.v[i].m[0] != game[i].m[0] ||
            (game[i].n == 2 && back.v[i].m[1] != game[i].m[1]))
            fail_msg("%s seed %llu: turn %d differs after reading \"%s\"", vname,
                     (unsigned long long)seed, i + 1, line);
    assert_true(position_key(&end) == position_key(&p));
    turn_list_free(&back);
    free(line);
}

static void test_random_games(void **state)
{
    (void)state;
    const char *variants[] = { "chess", "capablanca", "chess960", "janus" };
    for (int t = 0; t < TURNS_NB; t++)
        for (int e = 0; e < 2; e++) {
            Rules r = { (TurnRules)t, (EpRule)e };
            if (e == EP_MODERN && (t == TURNS_SINGLE || t == TURNS_GALVIN))
                continue;
            for (int vi = 0; vi < 4; vi++)
                for (uint64_t seed = 1; seed <= 2; seed++)
                    random_game(variants[vi], &r, seed * 1000 + (uint64_t)(t * 10 + e), 60);
        }
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_example),    cmocka_unit_test(test_disambiguation),
        cmocka_unit_test(test_ten_files),         cmocka_unit_test(test_castling),
        cmocka_unit_test(test_check_and_mate),    cmocka_unit_test(test_en_passant),
        cmocka_unit_test(test_single_move_games), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_games),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

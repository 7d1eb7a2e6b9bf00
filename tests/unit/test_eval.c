/* SPDX-License-Identifier: MIT */
/* Tests of the static evaluation (core/rules/eval.c, core/rules/board/eval.inc): exact colour
 * symmetry on positions of random games (with kings removed, as Galvin's game allows), symmetric
 * starts scoring the tempo, the order of the piece values, the parameter table and its setter, the
 * tapered effect of a material value, and what each term adds on positions made for it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "load_fen.h"
#include "eval.h"
#include "rng.h"

#define PER_VARIANT 100

static int flip_square(int sq, int files)
{
    return sq == NO_SQUARE ? NO_SQUARE : (RANKS - 1 - sq / files) * files + sq % files;
}

/* The position upside down with the colours and the side to move swapped. */
static void mirror(const Position *p, Position *out)
{
    Setup s, m;
    position_to_setup(p, &s);
    m = s;
    const int files = s.variant->files;
    for (int sq = 0; sq < files * RANKS; sq++) {
        Piece pc = s.board[flip_square(sq, files)];
        m.board[sq] = pc == NO_PIECE ? NO_PIECE : make_piece(piece_color(pc) ^ 1, piece_type(pc));
    }
    m.side = s.side ^ 1;
    for (int color = 0; color < 2; color++)
        for (int side = 0; side < 2; side++)
            m.castle_rook[color][side] = flip_square(s.castle_rook[color ^ 1][side], files);
    for (int i = 0; i < 2; i++)
        m.ep[i] = flip_square(s.ep[i], files);
    position_from_setup(out, &m);
}

/* The same position with the other side to move. */
static void other_side(const Position *p, Position *out)
{
    Setup s;
    position_to_setup(p, &s);
    s.side ^= 1;
    s.ep[0] = s.ep[1] = NO_SQUARE;
    position_from_setup(out, &s);
}

/* Removes the king(s) of the colours in mask (bit per colour), as captures in Galvin's game do. */
static void remove_kings(Position *p, int mask)
{
    Setup s;
    position_to_setup(p, &s);
    for (int sq = 0; sq < s.variant->files * RANKS; sq++)
        if (piece_type(s.board[sq]) == KING && (mask >> piece_color(s.board[sq]) & 1)) {
            int color = piece_color(s.board[sq]);
            s.board[sq] = NO_PIECE;
            s.castle_rook[color][0] = s.castle_rook[color][1] = NO_SQUARE;
        }
    position_from_setup(p, &s);
}

/* n positions of random legal games of a variant: each a fresh game of up to 160 plies. Every
 * fifth loses one king or both. */
static int random_positions(const char *variant, uint64_t seed, Position *out, int n)
{
    Rng rng = rng_new(seed);
    Setup s;
    setup_start(&s, variant_by_name(variant));
    int kingless = 0;
    for (int i = 0; i < n; i++) {
        position_from_setup(&out[i], &s);
        Move moves[MAX_MOVES];
        for (int ply = (int)rng_below(&rng, 160); ply > 0; ply--) {
            int count = position_legal_moves(&out[i], moves);
            if (count == 0)
                break;
            position_make(&out[i], moves[rng_below(&rng, (uint64_t)count)], &out[i]);
        }
        if (i % 5 == 4) {
            remove_kings(&out[i], 1 + (int)rng_below(&rng, 3));
            kingless++;
        }
    }
    return kingless;
}

static const char *const VARIANTS[] = { "chess", "capablanca", "janus", "gothic" };
#define N_VARIANTS (sizeof VARIANTS / sizeof VARIANTS[0])

static void check_symmetry(const Eval *e)
{
    static Position pos[PER_VARIANT];
    for (size_t v = 0; v < N_VARIANTS; v++) {
        assert_true(random_positions(VARIANTS[v], 1000 + v, pos, PER_VARIANT) > 0);
        for (int i = 0; i < PER_VARIANT; i++) {
            Position m, o;
            mirror(&pos[i], &m);
            other_side(&pos[i], &o);
            int score = evaluate(e, &pos[i]);
            if (evaluate(e, &m) != score)
                fail_msg("%s position %d: %d, mirrored %d", VARIANTS[v], i, score, evaluate(e, &m));
            /* The side to move's view: the other side to move sees the opposite, each plus the
             * tempo. */
            if (evaluate(e, &o) + score != 2 * e->params.tempo)
                fail_msg("%s position %d: %d, other side to move %d", VARIANTS[v], i, score,
                         evaluate(e, &o));
        }
    }
}

static void colour_symmetry_defaults(void **state)
{
    (void)state;
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    eval_prepare(&e, &p);
    check_symmetry(&e);
}

/* Defaults leave some terms at zero, where an asymmetry would hide: every parameter at random in
 * its range. */
static void colour_symmetry_random_parameters(void **state)
{
    (void)state;
    Rng rng = rng_new(77);
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    static Eval e;
    for (int round = 0; round < 3; round++) {
        EvalParams p;
        eval_defaults(&p);
        for (int i = 0; i < count; i++)
            *eval_param_ref(&p, &list[i]) =
                list[i].min + (int)rng_below(&rng, (uint64_t)(list[i].max - list[i].min + 1));
        eval_prepare(&e, &p);
        check_symmetry(&e);
    }
}

static void symmetric_starts_score_the_tempo(void **state)
{
    (void)state;
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    eval_prepare(&e, &p);
    int n;
    const Variant *const *all = variant_all(&n);
    for (int i = 0; i < n; i++) {
        Setup s;
        Position pos;
        setup_start(&s, all[i]);
        position_from_setup(&pos, &s);
        assert_int_equal(evaluate(&e, &pos), p.tempo);
        for (uint64_t seed = 1; all[i]->random_array && seed <= 20; seed++) {
            setup_random(&s, all[i], seed);
            position_from_setup(&pos, &s);
            assert_int_equal(evaluate(&e, &pos), p.tempo);
        }
    }
    /* 1. e4 e5 is as symmetric. */
    Position pos;
    load_fen(&pos, "chess", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_int_equal(evaluate(&e, &pos), p.tempo);
}

/* The scores of base with one White piece of each type of order (best first) added on the
 * square marked "X" in fen_template: each must score below the one before and above base. */
static void check_order(const Eval *e, const char *variant, const char *base,
                        const char *fen_template, const char *order)
{
    Position pos;
    load_fen(&pos, variant, base);
    int last = 0, floor = evaluate(e, &pos);
    for (const char *t = order; *t; t++) {
        char fen[FEN_MAX];
        snprintf(fen, sizeof fen, "%s", fen_template);
        *strchr(fen, 'X') = *t;
        load_fen(&pos, variant, fen);
        int score = evaluate(e, &pos);
        /* Bishop and Knight may tie; every other step must be a strict loss. */
        if (t != order && (score > last || (score == last && *t != 'N')))
            fail_msg("%s: extra %c scores %d, extra %c %d", fen, *t, score, t[-1], last);
        last = score;
    }
    if (last <= floor)
        fail_msg("%s: extra %c scores %d, nothing extra %d", variant, order[strlen(order) - 1],
                 last, floor);
}

static void material_order(void **state)
{
    (void)state;
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    eval_prepare(&e, &p);
    /* The order is that of the default values; the other terms must not upset it. */
    const PieceType order[] = { QUEEN, CHANCELLOR, ARCHBISHOP, ROOK, BISHOP, KNIGHT, PAWN };
    for (int i = 1; i < 7; i++) {
        assert_true(p.value_mg[order[i - 1]] > p.value_mg[order[i]]);
        assert_true(p.value_eg[order[i - 1]] > p.value_eg[order[i]]);
    }
    /* Kings and pawns only (endgame), and the minor pieces and rooks of both sides besides
     * (middlegame once the extra piece is there). */
    check_order(&e, "capablanca", "4k5/pppppppppp/10/10/10/10/PPPPPPPPPP/4K5 w - - 0 1",
                "4k5/pppppppppp/10/10/4X5/10/PPPPPPPPPP/4K5 w - - 0 1", "QCARBNP");
    check_order(&e, "capablanca",
                "rn1b1kb1nr/pppppppppp/10/10/10/10/PPPPPPPPPP/RN1B1KB1NR w - - 0 1",
                "rn1b1kb1nr/pppppppppp/10/10/4X5/10/PPPPPPPPPP/RN1B1KB1NR w - - 0 1", "QCARBNP");
    check_order(&e, "chess", "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
                "4k3/pppppppp/8/8/3X4/8/PPPPPPPP/4K3 w - - 0 1", "QRBNP");
    check_order(&e, "chess", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
                "rnb1kbnr/pppppppp/8/8/3X4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", "QRBNP");
}

static void parameter_table(void **state)
{
    (void)state;
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    assert_true(count > 0);
    EvalParams p;
    eval_defaults(&p);
    for (int i = 0; i < count; i++) {
        /* The first of its name, in any case: no other spells it the same. */
        assert_ptr_equal(eval_param_find(list[i].name), &list[i]);
        assert_true(list[i].min < list[i].max);
        assert_true(list[i].offset % sizeof(int) == 0);
        assert_true(list[i].offset + sizeof(int) <= sizeof(EvalParams));
        int v = *eval_param_ref(&p, &list[i]);
        if (v < list[i].min || v > list[i].max)
            fail_msg("default %s = %d outside %d..%d", list[i].name, v, list[i].min, list[i].max);
        for (int j = 0; j < i; j++)
            if (list[i].offset == list[j].offset)
                fail_msg("%s and %s are the same int", list[i].name, list[j].name);
    }
    /* Names as INI files and UCI options spell them, in any case. */
    const char *names[] = { "ValueArchbishopMg", "valuearchbishopmg",
                            "VALUEARCHBISHOPMG", "MobilityKnightMg",
                            "CenterQueenEg",     "PawnAdvanceMg",
                            "PassedEg",          "DoubledMg",
                            "IsolatedEg",        "BishopPairMg",
                            "RookOpenFileMg",    "KingShelter",
                            "KingAttack",        "Tempo" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!eval_param_find(names[i]))
            fail_msg("%s not found", names[i]);
    assert_int_equal(eval_param_find("valuearchbishopmg")->offset,
                     offsetof(EvalParams, value_mg[ARCHBISHOP]));
    assert_null(eval_param_find("ValueKingMg"));
    assert_null(eval_param_find("ValueArchbishop"));
    assert_null(eval_param_find(""));
}

static void set_fails(EvalParams *p, const char *name, const char *value, const char *expect)
{
    char err[ERRMSG_LEN] = "";
    EvalParams before = *p;
    if (eval_param_set(p, name, value, err, sizeof err) == 0)
        fail_msg("%s = '%s' accepted", name, value);
    if (!strstr(err, expect))
        fail_msg("%s = '%s': message '%s' lacks '%s'", name, value, err, expect);
    assert_memory_equal(&before, p, sizeof before);
}

static void parameter_setting(void **state)
{
    (void)state;
    EvalParams p;
    eval_defaults(&p);
    char err[ERRMSG_LEN] = "";
    assert_int_equal(eval_param_set(&p, "valueArchbishopMG", "800", err, sizeof err), 0);
    assert_int_equal(p.value_mg[ARCHBISHOP], 800);
    assert_int_equal(eval_param_set(&p, "CenterKingMg", "-12", err, sizeof err), 0);
    assert_int_equal(p.center_mg[KING], -12);
    assert_int_equal(eval_param_set(&p, "Tempo", "+20", err, sizeof err), 0);
    assert_int_equal(p.tempo, 20);
    assert_int_equal(eval_param_set(&p, "ValueQueenEg", "3000", err, sizeof err), 0);
    assert_int_equal(eval_param_set(&p, "ValueQueenEg", "0", err, sizeof err), 0);

    set_fails(&p, "ValueAmazonMg", "875", "unknown evaluation parameter 'ValueAmazonMg'");
    const char *not_integers[] = {
        "8.75", "abc", "", "12x", " 12", "12 ", "+", "-", "0x10", "1e3"
    };
    for (size_t i = 0; i < sizeof not_integers / sizeof not_integers[0]; i++)
        set_fails(&p, "ValueArchbishopMg", not_integers[i], "not an integer (range 0..3000)");
    set_fails(&p, "ValueArchbishopMg", "3001", "ValueArchbishopMg: 3001 is out of range 0..3000");
    set_fails(&p, "ValueArchbishopMg", "-1", "out of range 0..3000");
    set_fails(&p, "ValueArchbishopMg", "99999999999999999999999", "out of range 0..3000");
    set_fails(&p, "CenterKingMg", "-101", "out of range -100..100");
    /* A short buffer gets a truncated message, never an overflow. */
    char tiny[8];
    assert_int_not_equal(eval_param_set(&p, "Nope", "1", tiny, sizeof tiny), 0);
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* The Archbishop's value enters with the phase weights of eval.inc (N 1, B 1, R 2, A 4, C 4,
 * Q 4 of a full 24): here A against R, phase 6, so a change of the middlegame value counts 6/24
 * and one of the endgame value 18/24. */
static void archbishop_value_is_tapered(void **state)
{
    (void)state;
    const char *fens[] = { "4k5/ppp2ppppp/3r6/10/4A5/10/PPPPPPPPPP/4K5 w - - 0 1",
                           "4k5/ppp2ppppp/3r6/10/4A5/10/PPPPPPPPPP/4K5 b - - 0 1" };
    for (int f = 0; f < 2; f++) {
        const int sign = f == 0 ? 1 : -1;
        Position pos;
        load_fen(&pos, "capablanca", fens[f]);
        EvalParams p;
        static Eval e;
        char err[ERRMSG_LEN];
        eval_defaults(&p);
        eval_prepare(&e, &p);
        const int base = evaluate(&e, &pos);
        char text[16];
        snprintf(text, sizeof text, "%d", p.value_mg[ARCHBISHOP] + 240);
        assert_int_equal(eval_param_set(&p, "ValueArchbishopMg", text, err, sizeof err), 0);
        eval_prepare(&e, &p);
        const int mg_up = evaluate(&e, &pos);
        assert_int_equal(mg_up - base, sign * 240 * 6 / 24);
        eval_defaults(&p);
        snprintf(text, sizeof text, "%d", p.value_eg[ARCHBISHOP] - 240);
        assert_int_equal(eval_param_set(&p, "ValueArchbishopEg", text, err, sizeof err), 0);
        eval_prepare(&e, &p);
        assert_int_equal(evaluate(&e, &pos) - base, -sign * 240 * 18 / 24);
    }
    /* Without an Archbishop on the board its value changes nothing. */
    Position pos;
    load_fen(&pos, "capablanca", "4k5/ppp2ppppp/3r6/10/1R8/10/PPPPPPPPPP/4K5 w - - 0 1");
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    eval_prepare(&e, &p);
    int base = evaluate(&e, &pos);
    p.value_mg[ARCHBISHOP] += 500;
    p.value_eg[ARCHBISHOP] += 500;
    eval_prepare(&e, &p);
    assert_int_equal(evaluate(&e, &pos), base);
}

/* How much the named parameters add to the score of a position: the score with the defaults
 * less that with these parameters at zero, both without the endgame scale (tested alone). */
static int contribution_at(const Position *pos, const char *const names[], int n)
{
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    p.endgame_scale = 0;
    eval_prepare(&e, &p);
    int with = evaluate(&e, pos);
    char err[ERRMSG_LEN];
    for (int i = 0; i < n; i++)
        if (eval_param_set(&p, names[i], "0", err, sizeof err) != 0)
            fail_msg("%s", err);
    eval_prepare(&e, &p);
    return with - evaluate(&e, pos);
}

static int contribution(const char *variant, const char *fen, const char *const names[], int n)
{
    Position pos;
    load_fen(&pos, variant, fen);
    return contribution_at(&pos, names, n);
}

/* c within rounding (the blend of the phases truncates once, on the whole score) of expect. */
static void assert_near(int c, int expect)
{
    if (c < expect - 1 || c > expect + 1)
        fail_msg("%d is not %d +- 1", c, expect);
}

/* Threats, each alone in a position of its own, from White's side; a defended piece is not
 * hanging, and on the 10x8 board the same terms count. */
static void threats(void **state)
{
    (void)state;
    EvalParams p;
    eval_defaults(&p);
    const char *pawn[] = { "ThreatPawnMg", "ThreatPawnEg" };
    const char *minor[] = { "ThreatMinorMg", "ThreatMinorEg" };
    const char *rook[] = { "ThreatRookMg", "ThreatRookEg" };
    const char *hanging[] = { "HangingMg", "HangingEg" };
    /* e5 attacks the knight on d6 (phase 1), which nothing defends */
    const char *fen = "4k3/8/3n4/4P3/8/8/8/4K3 w - - 0 1";
    assert_near(contribution("chess", fen, pawn, 2),
                (p.threat_pawn_mg * 1 + p.threat_pawn_eg * 23) / 24);
    assert_near(contribution("chess", fen, hanging, 2),
                (p.hanging_mg * 1 + p.hanging_eg * 23) / 24);
    /* defended by the king on e7, the knight is attacked but not hanging; seen from Black */
    const char *defended = "8/4k3/3n4/4P3/8/8/8/4K3 b - - 0 1";
    assert_int_equal(contribution("chess", defended, hanging, 2), 0);
    assert_near(contribution("chess", defended, pawn, 2),
                -((p.threat_pawn_mg * 1 + p.threat_pawn_eg * 23) / 24));
    /* the knight on c3 attacks the rook on d5 (phase 3) */
    assert_near(contribution("chess", "4k3/8/8/3r4/8/2N5/8/4K3 w - - 0 1", minor, 2),
                (p.threat_minor_mg * 3 + p.threat_minor_eg * 21) / 24);
    /* the rook on a1 attacks the chancellor on a8 (10x8, phase 7 with the knight); the knight
     * on b1 attacks nothing of Black's */
    const char *capa = "c3k5/10/10/10/10/10/10/RN2K5 w - - 0 1";
    assert_near(contribution("capablanca", capa, rook, 2),
                (p.threat_rook_mg * 7 + p.threat_rook_eg * 17) / 24);
    assert_int_equal(contribution("capablanca", capa, minor, 2), 0);
}

/* What parameter name at value adds to the evaluation of fen (the side to move's view) against
 * 0, whatever its default. */
static int term_at(const char *variant, const char *fen, const char *name, const char *value)
{
    Position pos;
    load_fen(&pos, variant, fen);
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    p.endgame_scale = 0; /* the term alone, before the endgame scale (tested alone) */
    char err[ERRMSG_LEN];
    if (eval_param_set(&p, name, value, err, sizeof err) != 0)
        fail_msg("%s", err);
    eval_prepare(&e, &p);
    const int with = evaluate(&e, &pos);
    assert_int_equal(eval_param_set(&p, name, "0", err, sizeof err), 0);
    eval_prepare(&e, &p);
    return with - evaluate(&e, &pos);
}

/* A safe check counts once a piece type, in the middlegame (240 * phase / 24), only on a square
 * the enemy does not attack, for either colour and on either board. */
static void safe_checks(void **state)
{
    (void)state;
    /* the knight on e4 can check from d6 and f6 (phase 1): one type (Black's pawn on h7 keeps
     * its king from being bare, which the evaluation treats apart) */
    assert_near(term_at("chess", "4k3/7p/8/8/4N3/8/8/4K3 w - - 0 1", "SafeCheck", "240"), 10);
    /* the pawn on e7 guards both squares: no safe check */
    assert_int_equal(term_at("chess", "4k3/4p3/8/8/4N3/8/8/4K3 w - - 0 1", "SafeCheck", "240"), 0);
    /* Black's knight on e5 against the king on e1, from Black's side */
    assert_near(term_at("chess", "4k3/8/8/4n3/8/8/P7/4K3 b - - 0 1", "SafeCheck", "240"), 10);
    /* a knight and a rook (phase 3), each with a safe check: two types */
    assert_near(term_at("chess", "4k3/7p/8/8/4N3/8/8/R3K3 w - - 0 1", "SafeCheck", "240"),
                2 * 240 * 3 / 24);
    /* 10x8: the chancellor on a1 checks from a8 along the last rank (phase 4) */
    assert_near(term_at("capablanca", "4k5/9p/10/10/10/10/10/C3K5 w - - 0 1", "SafeCheck", "240"),
                40);
}

/* Kings and pawns only: phase 0, the endgame values count whole. */
static void pawn_structure(void **state)
{
    (void)state;
    const char *passed[] = { "PassedMg", "PassedEg" };
    const char *doubled[] = { "DoubledMg", "DoubledEg" };
    const char *isolated[] = { "IsolatedMg", "IsolatedEg" };
    EvalParams p;
    eval_defaults(&p);
    /* d6 is passed, on White's sixth rank (r = 5): (5/6)^2 of the bonus; a2 and a7 block each
     * other. */
    const int d6 = p.passed_eg * 25 / 36;
    assert_int_equal(contribution("chess", "4k3/p7/3P4/8/8/8/P7/4K3 w - - 0 1", passed, 2), d6);
    assert_int_equal(contribution("chess", "4k3/p7/3P4/8/8/8/P7/4K3 b - - 0 1", passed, 2), -d6);
    /* e7 guards d6's way and d6 e7's: neither is passed. */
    assert_int_equal(contribution("chess", "4k3/p3p3/3P4/8/8/8/P7/4K3 w - - 0 1", passed, 2), 0);
    /* A Black passed pawn on a 10x8 board, on i4, Black's fifth rank (r = 4). */
    assert_int_equal(contribution("capablanca", "4k5/10/10/10/8p1/10/10/4K5 w - - 0 1", passed, 2),
                     -p.passed_eg * 16 / 36);
    /* c2 and c3: one doubled pawn, two isolated ones; f7 and g7 are neither. */
    const char *fen = "4k3/5pp1/8/8/8/2P5/2P5/4K3 w - - 0 1";
    assert_int_equal(contribution("chess", fen, doubled, 2), -p.doubled_eg);
    assert_int_equal(contribution("chess", fen, isolated, 2), -2 * p.isolated_eg);
}

/* Connected and backward pawns, a passed pawn's free path and its kings' distances: kings and
 * pawns only (phase 0), so the endgame values count whole. */
static void pawn_terms(void **state)
{
    (void)state;
    /* d3 and e3 side by side, each on its third rank (2 ranks advanced): 2 + 2 */
    assert_int_equal(term_at("chess", "4k3/8/8/8/8/3PP3/8/4K3 w - - 0 1", "ConnectedEg", "10"), 40);
    assert_int_equal(term_at("chess", "4k3/8/8/8/8/3PP3/8/4K3 b - - 0 1", "ConnectedEg", "10"),
                     -40);
    /* e4 defended by d3 (3 ranks advanced); d3 neither defended nor beside a pawn */
    assert_int_equal(term_at("chess", "4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1", "ConnectedEg", "10"),
                     30);
    /* e3 is backward: d4 beside it stands ahead, and f5 attacks e4; d4 is not (e3 can defend
     * it), and the isolated f5 counts as isolated only */
    const char *backward = "4k3/8/8/5p2/3P4/4P3/8/4K3 w - - 0 1";
    assert_int_equal(term_at("chess", backward, "BackwardEg", "10"), -10);
    /* without f5 nothing attacks e4 */
    assert_int_equal(term_at("chess", "4k3/8/8/8/3P4/4P3/8/4K3 w - - 0 1", "BackwardEg", "10"), 0);
    /* d4 passed on its fourth rank (weight 1); d5 empty and out of the king's reach: free; the
     * kings 4 (e1) and 3 (e8) steps from d5 */
    const char *d4 = "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1";
    assert_int_equal(term_at("chess", d4, "PassedFreeEg", "10"), 10);
    assert_int_equal(term_at("chess", d4, "PassedKingOwnEg", "10"), -40);
    assert_int_equal(term_at("chess", d4, "PassedKingTheirEg", "10"), 30);
    /* d3 is behind the fourth rank: none of these */
    assert_int_equal(term_at("chess", "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1", "PassedFreeEg", "10"), 0);
    /* d6 (weight 3): e8 guards d7, so not free; White's king 6 steps from d7, counted as 5 */
    const char *d6 = "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1";
    assert_int_equal(term_at("chess", d6, "PassedFreeEg", "10"), 0);
    assert_int_equal(term_at("chess", d6, "PassedKingOwnEg", "10"), -150);
    /* 10x8, Black's passed pawn on h3 (its sixth rank, weight 3): h2 free, White's king on e1
     * 3 steps from it */
    const char *capa = "4k5/10/10/10/10/7p2/10/4K5 w - - 0 1";
    assert_int_equal(term_at("capablanca", capa, "PassedFreeEg", "10"), -30);
    assert_int_equal(term_at("capablanca", capa, "PassedKingTheirEg", "10"), -90);
}

/* Against a bare king the evaluation is the endgame material and the mop-up alone, whatever
 * the other terms say: the bare king in a corner (a8: 7 steps from the centre squares, 7 from
 * White's king) against the centre (e5: 0 and 4) is 20 * 7 + 10 * 2 against 10 * 5, 110 apart,
 * and the score is the archbishop's endgame value, the mop-up and the tempo. */
static void mop_up(void **state)
{
    (void)state;
    EvalParams p;
    eval_defaults(&p);
    static Eval e;
    eval_prepare(&e, &p);
    Position corner, centre, mirrored, black;
    load_fen(&corner, "capablanca", "k9/10/10/10/10/10/10/4K4A w - - 0 1");
    load_fen(&centre, "capablanca", "10/10/10/4k5/10/10/10/4K4A w - - 0 1");
    const int gap = evaluate(&e, &corner) - evaluate(&e, &centre);
    if (gap != 110)
        fail_msg("the bare king in the corner scores %d more than in the centre, not 110", gap);
    assert_int_equal(evaluate(&e, &corner), p.value_eg[ARCHBISHOP] + 160 + p.tempo);
    mirror(&corner, &mirrored);
    assert_int_equal(evaluate(&e, &mirrored), evaluate(&e, &corner));
    /* seen by the bare king's side */
    load_fen(&black, "capablanca", "k9/10/10/10/10/10/10/4K4A b - - 0 1");
    assert_int_equal(evaluate(&e, &black), -(p.value_eg[ARCHBISHOP] + 160) + p.tempo);
}

static void pieces_and_kings(void **state)
{
    (void)state;
    EvalParams p;
    eval_defaults(&p);
    /* Rh1 on an open file, Rd8 on a half-open one (Black has no d pawn, White has): phase 4. */
    const char *open[] = { "RookOpenFileMg", "RookOpenFileEg" };
    int c = contribution("chess", "3rk3/8/8/8/3P4/8/8/4K2R w - - 0 1", open, 2);
    int expect =
        ((p.rook_open_mg - p.rook_open_mg / 2) * 4 + (p.rook_open_eg - p.rook_open_eg / 2) * 20) /
        24;
    assert_true(c >= expect - 1 && c <= expect + 1);

    /* Shelter: f2 g2 h2 before White's king, nothing before Black's; queens make phase 8. */
    const char *shelter[] = { "KingShelter" };
    assert_near(contribution("chess", "q5k1/8/8/8/8/8/5PPP/Q5K1 w - - 0 1", shelter, 1),
                3 * p.king_shelter * 8 / 24);

    /* King attack on g8's squares: nothing from the queen alone; from queen (g7, h7: 2 x 5 units)
     * and knight (g7: 2 units) 12^2 / 64 of KingAttack in the middlegame, phase 9; more with a
     * rook (f7) besides. Black's rooks attack nothing near White's king. */
    const char *attack[] = { "KingAttack" };
    int one = contribution("chess", "3rr1k1/5ppp/7Q/8/8/8/PPP5/1K6 w - - 0 1", attack, 1);
    int two = contribution("chess", "3rr1k1/5ppp/7Q/7N/8/8/PPP5/1K6 w - - 0 1", attack, 1);
    int three = contribution("chess", "3rr1k1/5ppp/7Q/7N/8/8/PPP5/1K3R2 w - - 0 1", attack, 1);
    assert_int_equal(one, 0);
    expect = p.king_attack * 12 * 12 / 64 * 9 / 24;
    assert_true(two >= expect - 1 && two <= expect + 1);
    assert_true(three > two);

    /* The bishop pair: White's two against Black's one, phase 3. */
    const char *pair[] = { "BishopPairMg", "BishopPairEg" };
    c = contribution("chess", "2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", pair, 2);
    expect = (p.bishop_pair_mg * 3 + p.bishop_pair_eg * 21) / 24;
    assert_true(c >= expect - 1 && c <= expect + 1);
    assert_int_equal(contribution("chess", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", pair, 2), 0);
    /* Galvin's game: without Black's king there is nothing to attack or shelter. */
    Position pos;
    load_fen(&pos, "chess", "6k1/5ppp/8/7N/6Q1/8/PPP5/1K3R2 w - - 0 1");
    remove_kings(&pos, 1 << BLACK);
    assert_int_equal(contribution_at(&pos, attack, 1), 0);
    assert_near(contribution_at(&pos, shelter, 1), 3 * p.king_shelter * 7 / 24);
}

/* Mobility counts the squares a piece attacks that hold none of its own pieces and no enemy
 * pawn attacks, around a typical count of 3 for a knight: here the Na1's, phase 1. */
static void mobility(void **state)
{
    (void)state;
    EvalParams p;
    eval_defaults(&p);
    const char *knight[] = { "MobilityKnightMg", "MobilityKnightEg" };
    const struct {
        const char *fen;
        int reach;
    } cases[] = {
        { "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", 2 },     /* b3 c2 */
        { "4k3/8/8/8/8/8/2P5/N3K3 w - - 0 1", 1 },   /* c2 is ours */
        { "4k3/8/8/8/2p5/8/2P5/N3K3 w - - 0 1", 0 }, /* and c4 guards b3 */
        { "4k3/8/8/8/2p5/8/2p5/N3K3 w - - 0 1", 1 }, /* c2 is Black's: ours to take */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int c = contribution("chess", cases[i].fen, knight, 2);
        int d = cases[i].reach - 3;
        int expect = (d * p.mobility_mg[KNIGHT] * 1 + d * p.mobility_eg[KNIGHT] * 23) / 24;
        if (c < expect - 1 || c > expect + 1)
            fail_msg("%s: knight mobility %d, expected %d", cases[i].fen, c, expect);
    }
}

/* The tables eval_prepare builds: centralisation, pawn advance, and the king's two homes, without
 * the fitted piece-square shape; and the shape added to them term by term. */
static void piece_square_tables(void **state)
{
    (void)state;
    EvalParams p, shaped;
    static Eval e, with_shape;
    eval_defaults(&shaped);
    eval_prepare(&with_shape, &shaped);
    p = shaped;
    memset(p.pst8, 0, sizeof p.pst8);
    memset(p.pst10, 0, sizeof p.pst10);
    eval_prepare(&e, &p);
    for (int board = 0; board < 2; board++) {
        const int f = board ? 10 : 8;
        for (int phase = 0; phase < 2; phase++)
            for (PieceType t = PAWN; t <= KING; t++)
                for (int sq = 0; sq < f * RANKS; sq++) {
                    const int file = sq % f < f - 1 - sq % f ? sq % f : f - 1 - sq % f;
                    const int rank = sq / f;
                    const int add =
                        board
                            ? shaped.pst10[t].file[phase][file] + shaped.pst10[t].rank[phase][rank]
                            : shaped.pst8[t].file[phase][file] + shaped.pst8[t].rank[phase][rank];
                    assert_int_equal(
                        with_shape.pst[board][phase][t][sq] - e.pst[board][phase][t][sq], add);
                }
    }
    for (int board = 0; board < 2; board++) {
        const int f = board ? 10 : 8;
        const short(*mg)[MAX_SQUARES] = e.pst[board][0], (*eg)[MAX_SQUARES] = e.pst[board][1];
#define SQ(file, rank) ((rank)*f + (file))
        /* Knights: corner < edge < centre, in both phases. */
        assert_true(mg[KNIGHT][SQ(0, 0)] < mg[KNIGHT][SQ(0, 3)]);
        assert_true(mg[KNIGHT][SQ(0, 3)] < mg[KNIGHT][SQ(f / 2, 3)]);
        assert_true(eg[KNIGHT][SQ(0, 0)] < eg[KNIGHT][SQ(f / 2, 4)]);
        /* Pawns gain as they advance, more in the endgame. */
        for (int r = 2; r < RANKS - 1; r++) {
            assert_true(eg[PAWN][SQ(2, r)] > eg[PAWN][SQ(2, r - 1)]);
            assert_true(eg[PAWN][SQ(2, r)] - eg[PAWN][SQ(2, r - 1)] >=
                        mg[PAWN][SQ(2, r)] - mg[PAWN][SQ(2, r - 1)]);
        }
        /* The middlegame king: on a wing of its back rank, not in the middle or up the board. */
        assert_true(mg[KING][SQ(f - 2, 0)] > mg[KING][SQ(f / 2, 0)]);
        assert_true(mg[KING][SQ(f / 2, 0)] > mg[KING][SQ(f / 2, 1)]);
        assert_true(mg[KING][SQ(f - 2, 0)] > mg[KING][SQ(f - 2, RANKS - 1)]);
        /* The endgame king: the centre. */
        assert_true(eg[KING][SQ(f / 2, 3)] > eg[KING][SQ(f - 2, 0)]);
        assert_true(eg[KING][SQ(f / 2, 4)] > eg[KING][SQ(0, 7)]);
#undef SQ
    }
}

/* Every parameter takes part: set to the other end of its range, it changes the score of some
 * position of random games, or a piece-square shape term its table. */
static void every_parameter_counts(void **state)
{
    (void)state;
    enum { N = 40 };
    static Position pos[N_VARIANTS * N];
    for (size_t v = 0; v < N_VARIANTS; v++)
        random_positions(VARIANTS[v], 2000 + v, pos + v * N, N);
    int count;
    const EvalParamInfo *list = eval_param_list(&count);
    EvalParams p;
    static Eval base, changed;
    eval_defaults(&p);
    eval_prepare(&base, &p);
    for (int i = 0; i < count; i++) {
        EvalParams q = p;
        int *ref = eval_param_ref(&q, &list[i]);
        *ref = *ref == list[i].max ? list[i].min : list[i].max;
        eval_prepare(&changed, &q);
        /* a piece-square or mobility shape term shows in the tables the evaluation reads:
         * random games seldom take a king to every rank of the board or a queen to 16 squares */
        bool differs = eval_param_is_shape(&list[i]) &&
                       (memcmp(base.pst, changed.pst, sizeof base.pst) != 0 ||
                        memcmp(base.mobility, changed.mobility, sizeof base.mobility) != 0);
        for (size_t k = 0; k < N_VARIANTS * N && !differs; k++)
            differs = evaluate(&base, &pos[k]) != evaluate(&changed, &pos[k]);
        if (!differs)
            fail_msg("%s changes no score", list[i].name);
    }
}

/* The score of fen (White's view when White is to move) with EndgameScale at pct. */
static int scaled(const char *fen, int pct)
{
    Position pos;
    load_fen(&pos, "chess", fen);
    EvalParams p;
    static Eval e;
    eval_defaults(&p);
    p.endgame_scale = pct;
    eval_prepare(&e, &p);
    return evaluate(&e, &pos) - p.tempo;
}

/* The endgame scale: in a pawn ending (phase 0, the score its endgame terms alone) the side ahead
 * with three pawns keeps 36 + 7 * 3 = 57 of 64 of its lead, for either colour; a knight against
 * a pawn, no pawn of its own, keeps none of it (the middlegame's share of phase 1 remains), and
 * EndgameScale 0 leaves both alone. */
static void endgame_scale(void **state)
{
    (void)state;
    const char *pawns = "4k3/7p/8/8/8/8/PPP5/4K3 w - - 0 1";
    const int whole = scaled(pawns, 0), kept = scaled(pawns, 100);
    print_message("three pawns against one: %d, scaled %d\n", whole, kept);
    assert_true(whole > 100);
    assert_int_equal(kept, whole * 57 / 64);
    assert_int_equal(scaled("4k3/ppp5/8/8/8/8/7P/4K3 b - - 0 1", 100), kept);
    const char *knight = "4k3/7p/8/8/8/8/8/3NK3 w - - 0 1";
    const int knight_whole = scaled(knight, 0), knight_kept = scaled(knight, 100);
    print_message("a knight against a pawn: %d, scaled %d\n", knight_whole, knight_kept);
    assert_true(knight_whole > 150);
    assert_true(knight_kept < knight_whole / 8);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(colour_symmetry_defaults),
        cmocka_unit_test(colour_symmetry_random_parameters),
        cmocka_unit_test(symmetric_starts_score_the_tempo),
        cmocka_unit_test(material_order),
        cmocka_unit_test(parameter_table),
        cmocka_unit_test(parameter_setting),
        cmocka_unit_test(archbishop_value_is_tapered),
        cmocka_unit_test(pawn_structure),
        cmocka_unit_test(pawn_terms),
        cmocka_unit_test(pieces_and_kings),
        cmocka_unit_test(threats),
        cmocka_unit_test(safe_checks),
        cmocka_unit_test(mop_up),
        cmocka_unit_test(piece_square_tables),
        cmocka_unit_test(mobility),
        cmocka_unit_test(every_parameter_counts),
        cmocka_unit_test(endgame_scale),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Texel's method on chess positions: the quiet leaf (core/engine/quiet.c) against positions
 * worked out by hand and the search's own invariant on random positions; the evaluation's linear
 * form (core/engine/eval_linear.c) against evaluate() at other parameters on both board sizes;
 * the extraction's filter (cluster/texel/texel_data.c) on games whose positions were counted by
 * hand; and the data file (texel_file.c) written, read back and refused when it is not one. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "errmsg.h"
#include "eval_linear.h"
#include "load_fen.h"
#include "quiet.h"
#include "random_position.h"
#include "rng.h"
#include "setup.h"
#include "texel_data.h"
#include "texel_file.h"

static void fen_of(const Position *p, char *out)
{
    Setup s;
    position_to_setup(p, &s);
    setup_to_fen(&s, s.castling_text, out, FEN_MAX);
}

static Eval defaults(void)
{
    EvalParams params;
    eval_defaults(&params);
    Eval e;
    eval_prepare(&e, &params);
    return e;
}

/* A random position of the variant's start under single-move rules, not in check. */
static bool random_quiet_candidate(const char *variant, uint64_t seed, Position *out)
{
    const Variant *v = variant_by_name(variant);
    Setup start, s;
    setup_start(&start, v);
    assert_true(random_position(&start, &(Rules){ TURNS_SINGLE, EP_CLASSIC }, seed, &s));
    position_from_setup(out, &s);
    return !position_in_check(out);
}

/* ---- the quiet leaf ---- */

static void leaf_of_hanging_queen_is_after_the_capture(void **state)
{
    (void)state;
    const Eval e = defaults();
    Position p, leaf;
    char fen[FEN_MAX];
    /* White's rook takes the undefended queen on a5; nothing more to take after it. */
    load_fen(&p, "chess", "4k3/8/8/q7/8/8/8/R3K3 w - - 0 1");
    int score = quiet_leaf(&e, &p, &leaf);
    fen_of(&leaf, fen);
    assert_string_equal(fen, "4k3/8/8/R7/8/8/8/4K3 b - - 0 1");
    assert_int_equal(score, -evaluate(&e, &leaf));
    /* A quiet position is its own leaf. */
    load_fen(&p, "capablanca",
             "r1abqkbcnr/pppppppppp/2n7/10/10/7N2/PPPPPPPPPP/RNABQKBC1R w KQkq - 2 2");
    score = quiet_leaf(&e, &p, &leaf);
    assert_true(position_key128(&leaf) == position_key128(&p));
    assert_int_equal(score, evaluate(&e, &p));
}

static void leaf_skips_a_losing_capture(void **state)
{
    (void)state;
    const Eval e = defaults();
    Position p, leaf;
    /* Qxd5 loses the queen to the pawn on c6: standing pat is better, the leaf is p. */
    load_fen(&p, "chess", "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1");
    quiet_leaf(&e, &p, &leaf);
    assert_true(position_key128(&leaf) == position_key128(&p));
}

/* On random positions of both board sizes the score is the leaf's evaluation from the root's
 * side, and the leaf has no capture that wins material by the leaf's own judgement. */
static void leaf_score_is_the_leaf_evaluation(void **state)
{
    (void)state;
    const Eval e = defaults();
    const char *const variants[] = { "chess", "capablanca", "gothic", "caparandom" };
    int resolved = 0;
    for (int v = 0; v < 4; v++)
        for (uint64_t seed = 1; seed <= 60; seed++) {
            Position p, leaf, again;
            if (!random_quiet_candidate(variants[v], seed, &p))
                continue;
            int score = quiet_leaf(&e, &p, &leaf);
            int sign = position_side(&leaf) == position_side(&p) ? 1 : -1;
            assert_int_equal(score, sign * evaluate(&e, &leaf));
            resolved += position_key128(&leaf) != position_key128(&p);
            if (!position_in_check(&leaf)) {
                quiet_leaf(&e, &leaf, &again);
                assert_true(position_key128(&again) == position_key128(&leaf));
            }
        }
    assert_true(resolved > 10); /* the random positions do hold exchanges */
}

/* ---- the linear form ---- */

static void linear_form_predicts_evaluate(void **state)
{
    (void)state;
    EvalParams base, other;
    eval_defaults(&base);
    /* the endgame scale multiplies the endgame terms by a factor that the sign of their sum picks
     * (the side ahead's pawns): linear only while no sum changes sign, so it stays off here */
    base.endgame_scale = 0;
    other = base;
    int n;
    const EvalParamInfo *info = eval_param_list(&n);
    Rng r = rng_new(5);
    static double delta[1024];
    assert_true(n <= 1024);
    for (int j = 0; j < n; j++) {
        if (eval_param_ref(&other, &info[j]) == &other.endgame_scale)
            continue;
        int *v = eval_param_ref(&other, &info[j]);
        int span = (info[j].max - info[j].min) / 20;
        int moved = *v + (int)rng_below(&r, (uint64_t)(2 * span + 1)) - span;
        moved = moved < info[j].min ? info[j].min : moved > info[j].max ? info[j].max : moved;
        delta[j] = moved - *v;
        *v = moved;
    }
    EvalLinear lin;
    char err[ERRMSG_LEN];
    assert_int_equal(eval_linear_init(&lin, &base, NULL, err, sizeof err), 0);
    assert_int_equal(lin.n, n);
    Eval e_other;
    eval_prepare(&e_other, &other);
    static float coef[1024];
    const char *const variants[] = { "chess", "chess960", "capablanca", "janus" };
    double worst = 0;
    for (int v = 0; v < 4; v++)
        for (uint64_t seed = 1; seed <= 50; seed++) {
            Position p;
            random_quiet_candidate(variants[v], seed, &p);
            double predicted = eval_linear_at(&lin, &p, coef);
            for (int j = 0; j < n; j++)
                predicted += coef[j] * delta[j];
            worst = fmax(worst, fabs(predicted - eval_white(&e_other, &p)));
        }
    eval_linear_free(&lin);
    /* only the integer divisions' rounding, a few centipawns at most */
    if (worst > 4)
        fail_msg("the linear form is %g cp off evaluate()", worst);
}

/* Probing only some parameters gives exactly their coefficients, and 0 for the rest. */
static void linear_form_probes_only_those_asked(void **state)
{
    (void)state;
    EvalParams base;
    eval_defaults(&base);
    int n;
    (void)eval_param_list(&n);
    static bool which[1024];
    assert_true(n <= 1024);
    for (int j = 0; j < n; j++)
        which[j] = j % 7 == 3;
    EvalLinear all, some;
    char err[ERRMSG_LEN];
    assert_int_equal(eval_linear_init(&all, &base, NULL, err, sizeof err), 0);
    assert_int_equal(eval_linear_init(&some, &base, which, err, sizeof err), 0);
    static float coef_all[1024], coef_some[1024];
    int nonzero = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        Position p;
        random_quiet_candidate("capablanca", seed, &p);
        assert_int_equal(eval_linear_at(&some, &p, coef_some), eval_linear_at(&all, &p, coef_all));
        for (int j = 0; j < n; j++) {
            assert_true(coef_some[j] == (which[j] ? coef_all[j] : 0));
            nonzero += which[j] && coef_all[j] != 0;
        }
    }
    assert_true(nonzero > 0);
    eval_linear_free(&all);
    eval_linear_free(&some);
}

/* ---- the extraction ---- */

/* White a knight up: 1. Ng1-f3 Ke8-d8 2. Ke1-d1 Kd8-c8 3. Ra1xa7 Kc8-b8 4. Ra7-a1 Rh8xh2
 * 5. Nf3xh2 ...; the positions before turns 1..9. */
static const char *const KNIGHT_FEN = "4k2r/p7/8/8/8/8/7P/R3K1N1 w - - 0 1";
static const char *const KNIGHT_MOVES = "g1f3 e8d8 e1d1 d8c8 a1a7 c8b8 a7a1 h8h2 f3h2";

/* Extracts the games into rows of a memory file and returns what it wrote (malloc'd). */
static char *extract(TexelData *d, int skip, const RecordedGame *games, int n, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    EvalParams params;
    eval_defaults(&params);
    char err[ERRMSG_LEN];
    assert_int_equal(texel_data_start(d, out, skip, &params, err, sizeof err), 0);
    assert_int_equal(texel_data_file(d, "mem.h5", "chess", "single", "classic", err, sizeof err),
                     0);
    *rc = 0;
    for (int i = 0; i < n && *rc == 0; i++)
        *rc = texel_data_game(d, &games[i], err, sizeof err);
    if (*rc != 0)
        print_message("%s\n", err);
    fclose(out);
    return buf;
}

static RecordedGame game(const char *fen, const char *moves, uint32_t plies, int result,
                         const char *termination, uint64_t pair)
{
    return (RecordedGame){ .path = "mem.h5",
                           .pair = pair,
                           .opening = fen,
                           .result = result,
                           .plies = plies,
                           .termination = termination,
                           .moves = moves };
}

static void extraction_filters_by_hand(void **state)
{
    (void)state;
    /* Before each of the 9 turns: skipping 2 leaves 7 (turns 3..9), none in check. Before
     * turns 3 and 5 White's rook takes the undefended a7 pawn, before turn 9 the knight the rook
     * on h2: three positions resolved to the position after the capture. Before turn 8 Black's
     * rook could take h2, a pawn the knight defends (a rook for a pawn: SEE refuses it), so
     * that position is its own leaf. A game lost on time gives none; its pair is counted once. */
    const RecordedGame games[] = {
        game(KNIGHT_FEN, KNIGHT_MOVES, 9, 1, "resign adjudication", 0),
        game(KNIGHT_FEN, KNIGHT_MOVES, 9, -1, "time forfeit", 0),
        game("4k2q/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a2 h8h4 e1d1 e8d8", 4, 0, "draw adjudication",
             1),
    };
    TexelData d;
    int rc;
    char *rows = extract(&d, 2, games, 3, &rc);
    assert_int_equal(rc, 0);
    const TexelCounts *c = &d.counts;
    assert_int_equal(c->games, 3);
    assert_int_equal(c->pairs, 2);
    assert_int_equal(c->faults, 1);
    /* game 3: before turn 3 (White after ...Qh4) in check; before turn 4 not */
    assert_int_equal(c->opening, 2 + 2);
    assert_int_equal(c->in_check, 1);
    assert_int_equal(c->written, 7 + 1);
    assert_int_equal(c->resolved, 3);
    assert_int_equal(c->leaf_check, 0);
    /* the row before turn 9: the knight has taken the rook, Black to move, White won */
    assert_non_null(strstr(rows, "1\tchess\tsingle\t0\t1k6/8/8/8/8/8/7N/R2K4 b - - 0 5\n"));
    assert_non_null(strstr(rows, "1\tchess\tsingle\t0\t1k5r/R7/8/8/8/5N2/7P/3K4 w - - 1 4\n"));
    assert_non_null(strstr(rows, "0.5\tchess\tsingle\t1\t"));
    free(rows);
}

static void extraction_refuses_bad_games(void **state)
{
    (void)state;
    TexelData d;
    int rc;
    const RecordedGame illegal[] = { game(KNIGHT_FEN, "g1f3 e8e1", 2, 1, "checkmate", 0) };
    free(extract(&d, 0, illegal, 1, &rc));
    assert_int_equal(rc, -1);
    const RecordedGame short_game[] = { game(KNIGHT_FEN, "g1f3 e8d8", 3, 1, "checkmate", 0) };
    free(extract(&d, 0, short_game, 1, &rc));
    assert_int_equal(rc, -1);
    const RecordedGame unknown[] = { game(KNIGHT_FEN, "g1f3", 1, 1, "a walkover", 0) };
    free(extract(&d, 0, unknown, 1, &rc));
    assert_int_equal(rc, -1);
    char err[ERRMSG_LEN];
    assert_int_equal(texel_data_start(&d, stdout, -1, &(EvalParams){ 0 }, err, sizeof err), -1);
    assert_int_equal(texel_data_file(&d, "x.h5", "chass", "single", "classic", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "chass"));
}

/* ---- the data file ---- */

typedef struct Rows {
    char fens[8][FEN_MAX];
    double results[8];
    uint64_t pairs[8];
    TurnRules turns[8];
    int n;
} Rows;

static int keep_row(void *ctx, const TexelRow *row, uint64_t line, char *err, size_t errlen)
{
    (void)line, (void)err, (void)errlen;
    Rows *r = ctx;
    fen_of(row->pos, r->fens[r->n]);
    r->results[r->n] = row->result;
    r->pairs[r->n] = row->pair;
    r->turns[r->n++] = row->turns;
    return 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void data_file_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/test_texel_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    char err[ERRMSG_LEN];
    const char *const fens[3] = {
        "4k2r/p7/8/8/8/8/7P/R3K1N1 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "arnbqkbnrc/pppppppppp/10/10/10/10/PPPPPPPPPP/ARNBQKBNRC w KQkq - 0 1",
    };
    const char *const variants[3] = { "chess", "chess960", "caparandom" };
    const double results[3] = { 1, 0.5, 0 };
    assert_int_equal(texel_file_write_header(f, "made: here\nsource: there", err, sizeof err), 0);
    for (int i = 0; i < 3; i++) {
        Position p;
        load_fen(&p, variants[i], fens[i]);
        TexelRow row = { variant_by_name(variants[i]), i == 2 ? TURNS_MARSEILLAIS : TURNS_SINGLE,
                         results[i], 7u * (uint64_t)i, &p };
        assert_int_equal(texel_file_write_row(f, &row, err, sizeof err), 0);
    }
    fclose(f);
    Rows rows = { 0 };
    char *record = NULL;
    assert_int_equal(texel_file_read(path, keep_row, &rows, &record, err, sizeof err), 0);
    assert_string_equal(record, "made: here\nsource: there\n");
    assert_int_equal(rows.n, 3);
    for (int i = 0; i < 3; i++) {
        Position p;
        char want[FEN_MAX];
        load_fen(&p, variants[i], fens[i]);
        fen_of(&p, want);
        assert_string_equal(rows.fens[i], want);
        assert_true(rows.results[i] == results[i]);
        assert_int_equal(rows.pairs[i], 7 * i);
    }
    assert_int_equal(rows.turns[2], TURNS_MARSEILLAIS);
    free(record);

    /* not data files, each refused with the line and the cause */
    const char *const bad[][2] = {
        { "result\tvariant\n", "not a Texel data file" },
        { TEXEL_FILE_TAG "\n# x\n", "column header is missing" },
        { TEXEL_FILE_TAG "\nresult\tfen\n", "column header" },
        { TEXEL_FILE_TAG "\n" TEXEL_FILE_HEADER
                         "\n2\tchess\tsingle\t0\t8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
          ":3: result '2'" },
        { TEXEL_FILE_TAG "\n" TEXEL_FILE_HEADER
                         "\n1\tchass\tsingle\t0\t8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
          "unknown variant 'chass'" },
        { TEXEL_FILE_TAG "\n" TEXEL_FILE_HEADER "\n1\tchess\tsingle\t0\n", "5 columns" },
        { TEXEL_FILE_TAG "\n" TEXEL_FILE_HEADER
                         "\n1\tchess\tsingle\t-1\t8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
          "pair '-1'" },
        { TEXEL_FILE_TAG "\n" TEXEL_FILE_HEADER
                         "\n1\tchess\tsingle\t0\t8/8/8/8/8/8/8/K7 w - - 0 1\n",
          ":3: FEN" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i][0]);
        Rows none = { 0 };
        assert_int_equal(texel_file_read(path, keep_row, &none, NULL, err, sizeof err), -1);
        if (!strstr(err, bad[i][1]))
            fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i][1]);
    }
    remove(path);
    assert_int_equal(texel_file_read(path, keep_row, &rows, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(leaf_of_hanging_queen_is_after_the_capture),
        cmocka_unit_test(leaf_skips_a_losing_capture),
        cmocka_unit_test(leaf_score_is_the_leaf_evaluation),
        cmocka_unit_test(linear_form_predicts_evaluate),
        cmocka_unit_test(linear_form_probes_only_those_asked),
        cmocka_unit_test(extraction_filters_by_hand),
        cmocka_unit_test(extraction_refuses_bad_games),
        cmocka_unit_test(data_file_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* The samples of the regression method (cluster/tune/regression_data.c): match result files written
 * with the match file's API from known games, whose quiet stable material states were worked out by
 * hand (skip_plies, collapsing, groups across files, games lost by a fault), random double-move
 * games, files that are not match results or hold bad games, and lopsided games whose samples fit
 * to the values they were drawn from. */
#define _XOPEN_SOURCE 700

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <hdf5.h>

#include "errmsg.h"
#include "files.h"
#include "h5read.h"
#include "game.h"
#include "match_file.h"
#include "perft_file.h"
#include "match_config.h"
#include "game_record.h"
#include "position.h"
#include "provenance.h"
#include "match_games.h"
#include "rng.h"
#include "setup.h"
#include "tune_regression.h"
#include "turn.h"
#include "variant.h"
#include "split.h"

static const char *const hosts[] = { "node-a" };

static void path_in(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", scratch_dir, name);
}

/* ---- writing result files ---- */

/* A match as match_config_read would give it, and an open result file. */
typedef struct Match {
    char text[256];
    MatchConfig cfg;
    Provenance prov;
    MatchFile *h;
    uint64_t pairs; /* recorded */
} Match;

static void match_open(Match *m, const char *name, const char *variant, TurnRules turns, int games)
{
    memset(m, 0, sizeof *m);
    snprintf(m->text, sizeof m->text, "[match]\nvariant = %s\nturns = %s\ngames = %d\n", variant,
             turn_rules_name(turns), games);
    MatchConfig *c = &m->cfg;
    c->file = "match.ini";
    c->text = m->text;
    c->variant = variant_by_name(variant);
    assert_non_null(c->variant);
    c->rules = (Rules){ turns, EP_CLASSIC };
    c->castle960 = c->variant->castle960;
    c->games = games;
    snprintf(c->players[0].name, sizeof c->players[0].name, "alpha");
    snprintf(c->players[1].name, sizeof c->players[1].name, "beta");
    provenance_init(&m->prov, 1, 1, hosts, 1, m->text);
    char path[300], err[512];
    path_in(path, sizeof path, name);
    const MatchFileInfo info = { .cfg = c, .prov = &m->prov, .overwrite = true };
    m->h = match_file_create(path, &info, err, sizeof err);
    if (!m->h)
        fail_msg("%s", err);
}

/* Starts r from fen: the game of a record, no turns yet. */
static void game_start(GameRecord *r, const Match *m, const char *fen)
{
    memset(r, 0, sizeof *r);
    Setup s;
    Position start;
    char err[ERRMSG_LEN];
    if (setup_from_fen_rules(&s, m->cfg.variant, &m->cfg.rules, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    position_from_setup(&start, &s);
    assert_true(game_init(&r->game, &start, &m->cfg.rules, m->cfg.castle960));
}

static void game_end(GameRecord *r, int result, GameEnding ending)
{
    r->result = result;
    r->ending = ending;
    r->loser_fault = -1;
    game_record_count_material(r);
}

/* The game of the turns in text (UCI, separated by spaces) from fen. */
static void known_game(GameRecord *r, const Match *m, const char *fen, const char *text, int result,
                       GameEnding ending)
{
    game_start(r, m, fen);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", text);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!game_play_text(&r->game, t))
            fail_msg("%s: turn %s is not legal", fen, t);
    game_end(r, result, ending);
}

static void record(Match *m, GameRecord g[2])
{
    char err[ERRMSG_LEN];
    if (match_file_record_pair(m->h, m->pairs++, g, err, sizeof err) != 0)
        fail_msg("%s", err);
    game_record_free(&g[0]);
    game_record_free(&g[1]);
}

static void match_close(Match *m)
{
    char err[ERRMSG_LEN];
    if (match_file_close(m->h, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* ---- the known games ---- */

/* White a knight up; White takes a pawn (3 turns of P+1 N+1: an exchange, not stable), Black
 * takes a pawn back, White's knight takes the rook: R+1 N+1 from turn 9 on. Check at turn 15. By
 * hand, the candidates (positions 2..17 whose neighbours within 2 turns have the same pieces,
 * side to move not in check) are 2 (N+1) and 11-14, 16, 17 (R+1 N+1). */
static const char *const KNIGHT_FEN = "4k2r/p7/8/8/8/8/7P/R3K1N1 w - - 0 1";
static const char *const KNIGHT_GAME = "g1f3 e8d8 e1d1 d8c8 a1a7 c8b8 a7a1 h8h2 f3h2 b8c7 d1e2 "
                                       "c7d6 e2e3 d6e5 a1a5 e5e6 h2g4 e6d6 e3d4";

/* Level material; the rooks are exchanged (positions 6-17 level again with other pieces),
 * Black wins a pawn (18-22: P-1), White wins it back (23-28: level). Candidates: 2 (level),
 * 8-15 (level), 20 (P-1), 25, 26 (level). Level counts once: two samples. */
static const char *const LEVEL_FEN = "3rk3/p6p/8/8/8/8/P6P/3R2K1 w - - 0 1";
static const char *const LEVEL_GAME = "g1f1 e8e7 f1e1 e7e8 d1d8 e8d8 e1d2 d8e7 d2e3 e7e6 a2a4 "
                                      "e6d5 a4a5 d5c5 e3e4 c5b5 e4d5 b5a5 d5c6 a5b4 c6b7 b4c5 "
                                      "b7a7 c5d6 a7b7 d6e6 b7c7 e6f6";

/* Black a queen up, quiet king moves only: candidates 2..5, one sample Q-1. */
static const char *const QUEEN_FEN = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1";
static const char *const QUEEN_GAME = "e1f1 e8f7 f1g1 f7g6 g1h1 g6h5 h1g1";

/* Four turns: the only candidate would be position 2, where White is in check: no sample. */
static const char *const CHECK_FEN = "4k2q/8/8/8/8/8/8/R3K3 w - - 0 1";
static const char *const CHECK_GAME = "a1a2 h8h4 e1d1 e8d8";

static void same_material(const TuneSample *s, const int want[TUNE_PIECES], const char *what)
{
    for (int i = 0; i < TUNE_PIECES; i++)
        if (s->material[i] != want[i])
            fail_msg("%s: %s is %+d, want %+d", what, tune_piece_name(i), s->material[i], want[i]);
}

static void expect(const TuneSample *s, const int material[TUNE_PIECES], double result,
                   uint64_t group, const char *what)
{
    same_material(s, material, what);
    if (s->result != result || s->group != group)
        fail_msg("%s: result %g group %llu, want %g and %llu", what, s->result,
                 (unsigned long long)s->group, result, (unsigned long long)group);
}

static const int N_UP[TUNE_PIECES] = { 0, 1 };
static const int RN_UP[TUNE_PIECES] = { 0, 1, 0, 1 };
static const int LEVEL[TUNE_PIECES] = { 0 };
static const int P_DOWN[TUNE_PIECES] = { -1 };
static const int Q_DOWN[TUNE_PIECES] = { 0, 0, 0, 0, 0, 0, -1 };

/* known.h5: pair 0 the knight game (White won) and the level game (drawn), pair 1 the queen
 * game (Black won) and the knight game again lost on time (a fault), pair 2 the check game
 * twice. */
static void write_known(const char *name)
{
    Match m;
    match_open(&m, name, "chess", TURNS_SINGLE, 6);
    GameRecord g[2];
    known_game(&g[0], &m, KNIGHT_FEN, KNIGHT_GAME, 1, END_RESIGN);
    known_game(&g[1], &m, LEVEL_FEN, LEVEL_GAME, 0, END_DRAW);
    record(&m, g);
    known_game(&g[0], &m, QUEEN_FEN, QUEEN_GAME, -1, END_RESIGN);
    known_game(&g[1], &m, KNIGHT_FEN, KNIGHT_GAME, -1, END_TIME);
    record(&m, g);
    known_game(&g[0], &m, CHECK_FEN, CHECK_GAME, 0, END_DRAW);
    known_game(&g[1], &m, CHECK_FEN, CHECK_GAME, 1, END_RESIGN);
    record(&m, g);
    match_close(&m);
}

static void read_ok(const char *const *paths, size_t n, int skip, RegressionData *d)
{
    char err[ERRMSG_LEN] = "";
    if (match_games_sample(paths, n, skip, d, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void test_known_games(void **state)
{
    (void)state;
    char path[300];
    path_in(path, sizeof path, "known.h5");
    write_known("known.h5");
    const char *paths[] = { path };
    RegressionData d;
    read_ok(paths, 1, 0, &d);
    assert_int_equal(d.games, 6);
    assert_int_equal(d.games_used, 3);
    assert_int_equal(d.faults, 1);
    assert_int_equal(d.dropped, 0);
    assert_ptr_equal(d.variant, variant_by_name("chess"));
    assert_int_equal(d.rules.turns, TURNS_SINGLE);
    assert_int_equal(d.n, 5);
    expect(&d.samples[0], N_UP, 1, 0, "knight game, turn 2");
    expect(&d.samples[1], RN_UP, 1, 0, "knight game, turn 11");
    expect(&d.samples[2], LEVEL, 0.5, 0, "level game, turn 2");
    expect(&d.samples[3], P_DOWN, 0.5, 0, "level game, turn 20");
    expect(&d.samples[4], Q_DOWN, 0, 1, "queen game");
    regression_free(&d);
    assert_null(d.samples);
    assert_int_equal(d.n, 0);

    /* Skipping 3 turns loses the first state of the knight and level games; the queen game's
     * candidates are 2..5, the knight game's last is 17, the level game's 26. */
    read_ok(paths, 1, 3, &d);
    assert_int_equal(d.n, 4);
    expect(&d.samples[0], RN_UP, 1, 0, "skip 3: knight game");
    expect(&d.samples[1], LEVEL, 0.5, 0, "skip 3: level game from turn 8");
    expect(&d.samples[2], P_DOWN, 0.5, 0, "skip 3: level game, turn 20");
    expect(&d.samples[3], Q_DOWN, 0, 1, "skip 3: queen game, turn 3");
    regression_free(&d);
    read_ok(paths, 1, 5, &d);
    assert_int_equal(d.n, 4);
    assert_int_equal(d.games_used, 3);
    regression_free(&d);
    read_ok(paths, 1, 6, &d);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.games_used, 2);
    regression_free(&d);
    read_ok(paths, 1, 17, &d);
    assert_int_equal(d.n, 3);
    expect(&d.samples[0], RN_UP, 1, 0, "skip 17: knight game, turn 17");
    expect(&d.samples[1], P_DOWN, 0.5, 0, "skip 17: level game, turn 20");
    expect(&d.samples[2], LEVEL, 0.5, 0, "skip 17: level game, turn 25");
    regression_free(&d);
    read_ok(paths, 1, 18, &d);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.games_used, 1);
    regression_free(&d);
    read_ok(paths, 1, 21, &d);
    assert_int_equal(d.n, 1);
    expect(&d.samples[0], LEVEL, 0.5, 0, "skip 21: level game, turn 25");
    regression_free(&d);
    read_ok(paths, 1, 27, &d);
    assert_int_equal(d.n, 0);
    assert_int_equal(d.games, 6);
    assert_int_equal(d.games_used, 0);
    regression_free(&d);

    /* The same file twice: the groups (pairs) go on. */
    const char *twice[] = { path, path };
    read_ok(twice, 2, 0, &d);
    assert_int_equal(d.games, 12);
    assert_int_equal(d.n, 10);
    for (size_t i = 0; i < 5; i++) {
        same_material(&d.samples[5 + i], d.samples[i].material, "second file");
        assert_int_equal(d.samples[5 + i].group, d.samples[i].group + 3);
    }
    regression_free(&d);
}

/* ---- random double-move games ---- */

/* Up to `turns` random legal turns from the start position. */
static void random_game(GameRecord *r, const Match *m, uint64_t seed, int turns, int result)
{
    Setup s;
    setup_start(&s, m->cfg.variant);
    char fen[FEN_MAX];
    setup_to_fen(&s, s.castling_text, fen, sizeof fen);
    game_start(r, m, fen);
    Rng rng = rng_new(seed);
    TurnList list = { 0 };
    for (int i = 0; i < turns; i++) {
        assert_true(position_turns(&r->game.pos, &m->cfg.rules, &list));
        if (list.n == 0)
            break;
        assert_true(game_play(&r->game, &list.v[rng_below(&rng, list.n)]));
    }
    turn_list_free(&list);
    game_end(r, result, result ? END_RESIGN : END_DRAW);
}

/* Marseillais games on the 10x8 board are replayed turn by turn (two movements joined by ','),
 * every sample lies in its pair's group with the result of one of its games; files of other
 * variants or rules are refused with both named. */
static void test_double_moves(void **state)
{
    (void)state;
    Match m;
    match_open(&m, "marseillais.h5", "capablanca", TURNS_MARSEILLAIS, 8);
    const int results[8] = { 1, 0, -1, 1, 0, 0, -1, 1 };
    for (int p = 0; p < 4; p++) {
        GameRecord g[2];
        for (int k = 0; k < 2; k++)
            random_game(&g[k], &m, (uint64_t)(2 * p + k + 1), 12 + 2 * p, results[2 * p + k]);
        record(&m, g);
    }
    match_close(&m);
    match_open(&m, "capablanca.h5", "capablanca", TURNS_SINGLE, 2);
    GameRecord g[2];
    random_game(&g[0], &m, 1, 6, 0);
    random_game(&g[1], &m, 2, 6, 0);
    record(&m, g);
    match_close(&m);

    char a[300], b[300], c[300], err[512];
    path_in(a, sizeof a, "marseillais.h5");
    path_in(b, sizeof b, "capablanca.h5");
    path_in(c, sizeof c, "known.h5");
    write_known("known.h5");
    RegressionData d;
    read_ok((const char *[]){ a }, 1, 0, &d);
    assert_int_equal(d.games, 8);
    assert_int_equal(d.rules.turns, TURNS_MARSEILLAIS);
    assert_true(d.n > 0);
    for (size_t i = 0; i < d.n; i++) {
        const uint64_t pair = d.samples[i].group;
        assert_true(pair < 4);
        assert_true(i == 0 || pair >= d.samples[i - 1].group);
        assert_true(d.samples[i].result == (results[2 * pair] + 1) / 2.0 ||
                    d.samples[i].result == (results[2 * pair + 1] + 1) / 2.0);
    }
    printf("# %zu samples from %llu of 8 Marseillais games\n", d.n,
           (unsigned long long)d.games_used);
    regression_free(&d);

    assert_int_equal(match_games_sample((const char *[]){ a, b }, 2, 0, &d, err, sizeof err), -1);
    assert_contains(err, "capablanca.h5 is a match of capablanca under single rules (en passant "
                         "classic), the files before it of capablanca under marseillais rules");
    assert_null(d.samples);
    assert_int_equal(match_games_sample((const char *[]){ b, c }, 2, 0, &d, err, sizeof err), -1);
    assert_contains(err, "known.h5 is a match of chess under single rules");
    assert_int_equal(d.games, 0);
}

/* ---- files that are not match results, bad games ---- */

/* Writes value (of memory type t) into column `column` of row `row` of /match/games, leaving
 * the rest of the row as it was. */
static void poke(const char *path, uint64_t row, const char *column, hid_t t, const void *value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    assert_true(d >= 0);
    size_t size = H5Tget_size(t);
    hid_t mt = H5Tcreate(H5T_COMPOUND, size);
    assert_true(H5Tinsert(mt, column, 0, t) >= 0);
    hsize_t off = row, one = 1;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &one, NULL);
    assert_true(H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &one, NULL) >= 0);
    assert_true(H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, value) >= 0);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Tclose(mt);
    H5Dclose(d);
    H5Fclose(f);
}

/* Row's moves replaced, /match/moves rewritten around them as Carrera would write it. */
static void poke_moves(const char *path, uint64_t row, const char *text)
{
    h5read_set_moves(path, row, text);
}

static void poke_fixed(const char *path, uint64_t row, const char *column, size_t size,
                       const char *text)
{
    char buf[FEN_MAX] = "";
    snprintf(buf, sizeof buf, "%s", text);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, size);
    poke(path, row, column, t, buf);
    H5Tclose(t);
}

/* Sets the string attribute name of /match to value, or removes it (value NULL). */
static void set_match_attr(const char *path, const char *name, const char *value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = H5Gopen2(f, "/match", H5P_DEFAULT);
    assert_true(g >= 0);
    assert_true(H5Adelete(g, name) >= 0);
    if (value) {
        hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
        H5Tset_size(t, strlen(value) + 1);
        hid_t a = H5Acreate2(g, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(H5Awrite(a, t, value) >= 0);
        H5Aclose(a);
        H5Sclose(sp);
        H5Tclose(t);
    }
    H5Gclose(g);
    H5Fclose(f);
}

/* A fresh copy of known.h5 named name; returns its path in out. */
static void known_copy(char *out, size_t len, const char *name)
{
    char src[300];
    path_in(src, sizeof src, "known.h5");
    write_known("known.h5");
    size_t n;
    void *bytes = read_bytes(src, &n);
    path_in(out, len, name);
    write_bytes(out, bytes, n);
    free(bytes);
}

/* match_games_sample fails with a message that has part, leaving nothing behind. */
static void refused(const char *path, const char *part)
{
    RegressionData d;
    char err[ERRMSG_LEN] = "";
    if (match_games_sample((const char *[]){ path }, 1, 0, &d, err, sizeof err) != -1)
        fail_msg("%s was read", path);
    assert_contains(err, part);
    assert_null(d.samples);
    assert_true(d.n == 0 && d.games == 0 && !d.variant);
}

static void test_bad_files(void **state)
{
    (void)state;
    char path[300];
    RegressionData d;
    char err[ERRMSG_LEN];
    assert_int_equal(match_games_sample(NULL, 0, 0, &d, err, sizeof err), -1);
    assert_contains(err, "no match result files");
    path_in(path, sizeof path, "known.h5");
    write_known("known.h5");
    assert_int_equal(match_games_sample((const char *[]){ path }, 1, -1, &d, err, sizeof err), -1);
    assert_contains(err, "-1 plies to skip");

    path_in(path, sizeof path, "missing.h5");
    refused(path, "cannot open the match result");
    refused(path, "No such file or directory");
    refused(scratch_dir, "not a regular file");
    path_in(path, sizeof path, "text.h5");
    write_bytes(path, "[match]\n", 8);
    refused(path, "is not an HDF5 file, so not a Carrera match result");

    /* somebody else's HDF5 file; one that says it is a match result but has no games */
    path_in(path, sizeof path, "other.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
    refused(path, "is an HDF5 file but not a Carrera match result");
    path_in(path, sizeof path, "hollow.h5");
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t sp = H5Screate(H5S_SCALAR), t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 14);
    hid_t a = H5Acreate2(f, "format", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(a, t, "carrera-match") >= 0);
    H5Aclose(a);
    int v = MATCH_FILE_FORMAT_VERSION;
    a = H5Acreate2(f, "format_version", H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(H5Awrite(a, H5T_NATIVE_INT, &v) >= 0);
    H5Aclose(a);
    H5Tclose(t);
    H5Sclose(sp);
    H5Fclose(f);
    refused(path, "hollow.h5 has no /match/games: not a complete match result");

    /* a perft result */
    path_in(path, sizeof path, "perft.h5");
    const Variant *chess = variant_by_name("chess");
    const Rules single = { TURNS_SINGLE, EP_CLASSIC };
    Setup s;
    setup_start(&s, chess);
    Position root;
    position_from_setup(&root, &s);
    char fen[FEN_MAX];
    setup_to_fen(&s, FEN_CASTLING_SHREDDER, fen, sizeof fen);
    Split split;
    assert_int_equal(split_make(&root, &single, 2, 1, &split), 0);
    Provenance prov;
    provenance_init(&prov, 1, 1, hosts, 1, "[perft]\ndepth = 2\n");
    const PerftFileInfo job = {
        .variant = "chess", .rules = single, .fen = fen, .depth = 2, .prov = &prov
    };
    PerftFile *r = perft_file_create(path, &job, &split, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    assert_int_equal(perft_file_close(r, err, sizeof err), 0);
    split_free(&split);
    refused(path, "perft.h5 is an HDF5 file but not a Carrera match result (it is a "
                  "carrera-perft file)");

    /* bad games: each a copy of known.h5 with one column of one row spoilt */
    path_in(path, sizeof path, "bad.h5");
    known_copy(path, sizeof path, "bad.h5");
    poke_fixed(path, 1, "opening", FEN_MAX, "3rk3/p6p/8/8/8/8/P6P/3R2K1 w - - 0 1 junk");
    refused(path, "bad.h5: row 1 of /match/games: opening \"3rk3/p6p/8/8/8/8/P6P/3R2K1 w - - 0 "
                  "1 junk\": ");
    known_copy(path, sizeof path, "bad.h5");
    poke_fixed(path, 2, "opening", FEN_MAX, "3qk3/8/8/8/8/8/8/8 w - - 0 1");
    refused(path, "bad.h5: row 2 of /match/games: opening \"3qk3/8/8/8/8/8/8/8 w - - 0 1\"");
    known_copy(path, sizeof path, "bad.h5");
    poke_moves(path, 1, "g1f1 e8e7 f1e1 e7e5 d1d8");
    refused(path, "bad.h5: row 1 of /match/games: turn 4 (\"e7e5\") is not a legal turn of "
                  "3r4/p3k2p/8/8/8/8/P6P/3RK3 b - - 3 2 under single rules");
    known_copy(path, sizeof path, "bad.h5");
    poke_moves(path, 0, "g1f3 %%garbage%%that-is-longer-than-a-turn");
    refused(path, "row 0 of /match/games: turn 2 (\"%%garbage%%that-is-l...\") is not a legal");
    known_copy(path, sizeof path, "bad.h5");
    poke_moves(path, 2, "e1f1  e8f7");
    refused(path, "row 2 of /match/games: turn 2 (\"\") is not a legal turn");
    known_copy(path, sizeof path, "bad.h5");
    poke_moves(path, 2, "e1f1 e8f7,f7g6");
    refused(path, "row 2 of /match/games: turn 2 (\"e8f7,f7g6\") is not a legal turn of "
                  "3qk3/8/8/8/8/8/8/5K2 b - - 1 1 under single rules");
    known_copy(path, sizeof path, "bad.h5");
    poke_moves(path, 2, "e1f1 e8f7");
    refused(path, "row 2 of /match/games: the moves hold 2 turns, the plies column says 7");
    known_copy(path, sizeof path, "bad.h5");
    int8_t five = 5;
    poke(path, 3, "result", H5T_NATIVE_INT8, &five);
    refused(path, "row 3 of /match/games: result 5 is none of 1, 0, -1");
    known_copy(path, sizeof path, "bad.h5");
    poke_fixed(path, 0, "termination", 32, "boredom");
    refused(path, "row 0 of /match/games: unknown termination \"boredom\"");

    /* the variant or rules of the file unknown or missing */
    known_copy(path, sizeof path, "bad.h5");
    set_match_attr(path, "variant", "shogi");
    refused(path, "bad.h5: unknown variant \"shogi\"");
    known_copy(path, sizeof path, "bad.h5");
    set_match_attr(path, "turn_rules", "triple");
    refused(path, "bad.h5: unknown turn rules \"triple\"");
    known_copy(path, sizeof path, "bad.h5");
    set_match_attr(path, "ep_rule", "never");
    refused(path, "bad.h5: unknown en passant rule \"never\"");
    known_copy(path, sizeof path, "bad.h5");
    set_match_attr(path, "turn_rules", NULL);
    refused(path, "bad.h5: /match lacks the variant or the rules");
}

/* A match killed while appending a pair may leave an empty row at the end: skipped. */
static void test_torn_end(void **state)
{
    (void)state;
    char path[300];
    known_copy(path, sizeof path, "torn.h5");
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/match/games", H5P_DEFAULT);
    hsize_t rows = 7;
    assert_true(H5Dset_extent(d, &rows) >= 0);
    H5Dclose(d);
    H5Fclose(f);
    RegressionData data;
    read_ok((const char *[]){ path }, 1, 0, &data);
    assert_int_equal(data.games, 6);
    assert_int_equal(data.dropped, 1);
    assert_int_equal(data.n, 5);
    regression_free(&data);
}

/* ---- lopsided games fitted ---- */

/* Kings, knights and pawns; the openings take some away. */
static const struct {
    const char *fen;
    int p, n; /* White's minus Black's */
} LOPSIDED[] = {
    { "1n2k1n1/pppp2pp/8/8/8/8/PPPP2PP/1N2K1N1 w - - 0 1", 0, 0 },
    { "1n2k1n1/pppp2pp/8/8/8/8/PPPP2PP/4K1N1 w - - 0 1", 0, -1 },
    { "4k1n1/pppp2pp/8/8/8/8/PPPP2PP/1N2K1N1 w - - 0 1", 0, 1 },
    { "1n2k1n1/pppp2pp/8/8/8/8/1PPP2PP/1N2K1N1 w - - 0 1", -1, 0 },
    { "1n2k1n1/1ppp2pp/8/8/8/8/PPPP2PP/1N2K1N1 w - - 0 1", 1, 0 },
    { "1n2k1n1/2pp2pp/8/8/8/8/PPPP2PP/4K1N1 w - - 0 1", 2, -1 },
    { "4k1n1/pppp2pp/8/8/8/8/2PP2PP/1N2K1N1 w - - 0 1", -2, 1 },
};
#define LOPSIDED_N ((int)(sizeof LOPSIDED / sizeof LOPSIDED[0]))

/* Up to `turns` random turns that capture and promote nothing, from fen. */
static void quiet_game(GameRecord *r, const Match *m, const char *fen, Rng *rng, int turns)
{
    game_start(r, m, fen);
    for (int i = 0; i < turns; i++) {
        Move moves[MAX_MOVES], quiet[MAX_MOVES];
        const int n = position_legal_moves(&r->game.pos, moves);
        int k = 0;
        for (int j = 0; j < n; j++)
            if (move_kind(moves[j]) == MOVE_NORMAL &&
                position_piece_at(&r->game.pos, move_to(moves[j])) == NO_PIECE)
                quiet[k++] = moves[j];
        if (k == 0)
            break;
        assert_true(game_play(&r->game, &(Turn){ { quiet[rng_below(rng, (uint64_t)k)] }, 1 }));
    }
}

/* 400 games from the openings above, results drawn from the ordered logit with a pawn worth
 * 0.6 logits and a knight 3 pawns: the fit of their samples is finite and near. */
static void test_fit_lopsided(void **state)
{
    (void)state;
    enum { PAIRS = 200 };
    Match m;
    match_open(&m, "lopsided.h5", "chess", TURNS_SINGLE, 2 * PAIRS);
    Rng rng = rng_new(2024);
    for (int p = 0; p < PAIRS; p++) {
        GameRecord g[2];
        for (int k = 0; k < 2; k++) {
            const int o = (int)rng_below(&rng, LOPSIDED_N);
            quiet_game(&g[k], &m, LOPSIDED[o].fen, &rng, 10);
            const double eta = 0.6 * (LOPSIDED[o].p + 3.0 * LOPSIDED[o].n) + 0.1;
            const double x = (double)(rng_next(&rng) >> 11) * 0x1p-53;
            const int result = x < 1 / (1 + exp(-(eta - 0.6)))   ? 1
                               : x < 1 / (1 + exp(-(eta + 0.6))) ? 0
                                                                 : -1;
            game_end(&g[k], result, result ? END_RESIGN : END_DRAW);
        }
        record(&m, g);
    }
    match_close(&m);
    char path[300], err[512];
    path_in(path, sizeof path, "lopsided.h5");
    RegressionData d;
    read_ok((const char *[]){ path }, 1, 2, &d);
    assert_int_equal(d.games, 2 * PAIRS);
    assert_true(d.games_used >= 2 * PAIRS * 9 / 10);
    assert_int_equal(d.n, d.games_used); /* no capture: one state per game */
    TuneRegression r;
    if (tune_regression_fit(d.samples, d.n, TUNE_BIT(TUNE_P) | TUNE_BIT(TUNE_N), &r, err,
                            sizeof err))
        fail_msg("%s", err);
    printf("# N = %.2f +- %.2f pawns (model SE %.2f), pawn %.3f logits, %zu pairs\n",
           r.values.value[TUNE_N], r.values.se[TUNE_N], r.model_se[TUNE_N], r.values.logit[TUNE_P],
           r.groups);
    assert_true(r.groups <= PAIRS && r.groups * 2 >= d.games_used); /* clusters: the pairs */
    assert_true(isfinite(r.values.value[TUNE_N]) && isfinite(r.values.se[TUNE_N]));
    assert_true(r.values.se[TUNE_N] > 0);
    assert_true(fabs(r.values.value[TUNE_N] - 3.0) < 4 * r.values.se[TUNE_N]);
    assert_true(fabs(r.values.logit[TUNE_P] - 0.6) < 4 * sqrt(r.values.logit_cov[0][0]));
    regression_free(&d);
}

int main(void)
{
    // clang-format off: one test per line
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_games),  cmocka_unit_test(test_double_moves),
        cmocka_unit_test(test_bad_files),    cmocka_unit_test(test_torn_end),
        cmocka_unit_test(test_fit_lopsided),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
